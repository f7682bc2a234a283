import Compositor
import GLBackend

/// Why `CARenderer` produced no image.
public enum RenderError: Error, CustomStringConvertible {
    /// `makeImage()` was called before a frame was rendered.
    case noFrame
    /// The renderer has no layer.
    case noLayer
    /// The frame time is NaN or infinite.
    case invalidTime(Double)
    /// A frame sequence's range or rate cannot make frames.
    case invalidFrameRange(String)
    /// The frame could not be composited (bad viewport, tree too deep).
    case compositing(CompositorError)
    /// The GPU backend failed: no GL, or a limit.
    case gpu(GLError)

    public var description: String {
        switch self {
        case .noFrame: "no frame has been rendered: call beginFrame(atTime:), render() and endFrame() first"
        case .noLayer: "the renderer has no layer to render"
        case .invalidTime(let t): "frame time \(t) is not a finite number of seconds"
        case .invalidFrameRange(let reason): "invalid frame sequence: \(reason)"
        case .compositing(let error): error.description
        case .gpu(let error): error.description
        }
    }
}
