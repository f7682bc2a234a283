import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import RasterBackend

/// Renders a layer tree offscreen, frame by frame, on the GPU (GLES 3 through EGL) or on the CPU
/// reference rasterizer. The Apple API's frame cycle is kept:
///
///     let renderer = CARenderer(backend: .gpu, scale: 2)
///     renderer.layer = root
///     renderer.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
///     renderer.beginFrame(atTime: 0)
///     renderer.render()
///     renderer.endFrame()
///     let image = try renderer.makeImage()
///
/// `render()` does not throw (as Apple's does not); a failure is kept and thrown by `makeImage()`.
public final class CARenderer {
    /// The root of the tree to render. Default: nil.
    public var layer: CALayer?
    /// The rectangle of the root layer's superlayer space that the image shows. Default: `.zero`.
    public var bounds: CGRect = .zero
    /// Which executor draws. Fixed at creation.
    public let backend: RenderBackend
    /// Device pixels per point. Fixed at creation. Default: 1.
    public let scale: CGFloat

    private var frameTime: Double = 0
    private var nextChange: Double = .infinity
    private let presentationCache = PresentationCache()
    private var outcome: Result<Bitmap, RenderError>?
    /// The render list of the last frame, for inspection and tests.
    public private(set) var lastRenderList: RenderList?

    /// Rasterized layers kept across this renderer's frames on the CPU backend (the GL backend
    /// keeps its own on the device).
    public let rasterCache = RasterPassCache()

    public init(backend: RenderBackend = .cpu, scale: CGFloat = 1) {
        self.backend = backend
        self.scale = scale
    }

    /// Starts a frame at media time `t` (seconds), and sets the media clock
    /// (`CACurrentMediaTime()`) to it, so animations added now begin at `t`.
    public func beginFrame(atTime t: Double) {
        frameTime = t
        if t.isFinite { MediaClock.set(t) }
    }

    /// Apple's spelling, whose second argument is a Core Video time stamp (which does not exist
    /// here): the time stamp is ignored, `t` starts the frame.
    public func beginFrame(atTime t: CFTimeInterval, timeStamp ts: UnsafeMutableRawPointer?) {
        beginFrame(atTime: t)
    }

    /// Marks `r` (in `bounds`) as needing drawing. Every frame is drawn whole, so this changes
    /// nothing that is drawn; it is kept for code written against Apple's renderer.
    public func addUpdate(_ r: CGRect) {}

    /// The rectangle of `bounds` that needs drawing. Every frame is drawn whole for now.
    public func updateBounds() -> CGRect { bounds }

    /// When anything changes next, after the last `render()`: the frame time while something
    /// animates, a later animation's start, or infinity when nothing will change.
    public func nextFrameTime() -> Double { nextChange }

    /// Composites the tree and executes the frame on the backend.
    public func render() {
        do {
            outcome = .success(try backend.draw(try makeRenderList(), cache: rasterCache))
        } catch let error as RenderError {
            outcome = .failure(error)
        } catch {
            outcome = .failure(.gpu(.noContext("\(error)")))
        }
    }

    /// The frame's render list, made as `render()` makes it (the implicit transaction commits,
    /// animations advance to the frame time) but not drawn: for inspecting what a frame consists
    /// of, and for tests that hold render lists fixed. Kept as `lastRenderList`.
    public func makeRenderList() throws -> RenderList {
        guard let layer else { throw RenderError.noLayer }
        guard frameTime.isFinite else { throw RenderError.invalidTime(frameTime) }
        do {
            // Taking a frame commits the implicit transaction; delegates hear of starts and ends;
            // then the frame shows the tree at its time, and the layers drawn animate from now on.
            // The tree is read under the transaction lock, which every layer change takes, so
            // other threads may change layers while frames render; executing the list needs no lock.
            let list = try CATransaction.withLock { () throws -> RenderList in
                CATransaction.flush()
                layer.displayTreeIfNeeded()
                nextChange = layer.advanceAnimations(toMediaTime: frameTime)
                defer { layer.markLive() }
                let tree = layer.hasAnimationsInSubtree
                    ? layer.presentationTree(atMediaTime: frameTime, reusing: presentationCache) : layer
                return try RenderListBuilder(viewport: bounds, scale: scale).build(root: tree)
            }
            lastRenderList = list
            return list
        } catch let error as CompositorError {
            throw RenderError.compositing(error)
        }
    }

    /// Ends the frame.
    public func endFrame() {}

    /// The last rendered frame.
    public func makeImage() throws -> CGImage {
        guard let outcome else { throw RenderError.noFrame }
        return CGImage(bitmap: try outcome.get())
    }

    /// The frame times from `t0` to `t1` (inclusive where it falls on a frame) at `fps`.
    public static func frameTimes(from t0: Double, to t1: Double, fps: Double) throws -> [Double] {
        guard t0.isFinite, t1.isFinite, t1 >= t0 else {
            throw RenderError.invalidFrameRange("from \(t0) to \(t1) is not a finite, ascending time range")
        }
        guard fps.isFinite, fps > 0 else { throw RenderError.invalidFrameRange("\(fps) frames per second is not a positive number") }
        let span = (t1 - t0) * fps
        guard span < Double(maxFrames) else {
            throw RenderError.invalidFrameRange("\(String(format: "%.0f", (span + 1).rounded(.down))) frames exceed the limit of \(maxFrames)")
        }
        // Frame i at t0 + i / fps, computed from i (never accumulated) so times do not drift.
        return (0...Int((span + 1e-9).rounded(.down))).map { t0 + Double($0) / fps }
    }

    /// Most frames one sequence may have. Default: 1,000,000.
    public static let maxFrames = 1_000_000

    /// Renders the frames from `t0` to `t1` at `fps`, handing each to `body` with its index and
    /// time as it is made (frames are not kept). Before each frame, scheduled `CADisplayLink`s
    /// are fired with its time and 1 / fps as their duration.
    public func renderFrames(from t0: Double, to t1: Double, fps: Double,
                             _ body: (_ index: Int, _ time: Double, _ image: CGImage) throws -> Void) throws {
        for (index, t) in try CARenderer.frameTimes(from: t0, to: t1, fps: fps).enumerated() {
            beginFrame(atTime: t)
            // Display links see the frame's time first, as on a screen they run before it is made.
            MediaClock.$scoped.withValue(t) { DisplayLinks.fire(frameAt: t, duration: 1 / fps) }
            render()
            endFrame()
            try body(index, t, try makeImage())
        }
    }

    /// One call: `layer` and its sublayers at time `t`, as an image of `bounds` (default: the
    /// layer's frame) at `scale`.
    public static func image(of layer: CALayer, bounds: CGRect? = nil, scale: CGFloat = 1,
                             backend: RenderBackend = .cpu, atTime t: Double = 0) throws -> CGImage {
        let renderer = CARenderer(backend: backend, scale: scale)
        renderer.layer = layer
        renderer.bounds = bounds ?? layer.frame
        renderer.beginFrame(atTime: t)
        renderer.render()
        renderer.endFrame()
        return try renderer.makeImage()
    }
}

extension CALayer {
    /// This layer and its sublayers as an image of its frame (or `bounds`, in the superlayer's
    /// space), at `scale`, on `backend`, at time `t`.
    public func renderedImage(bounds: CGRect? = nil, scale: CGFloat = 1, backend: RenderBackend = .cpu,
                              atTime t: Double = 0) throws -> CGImage {
        try CARenderer.image(of: self, bounds: bounds, scale: scale, backend: backend, atTime: t)
    }
}
