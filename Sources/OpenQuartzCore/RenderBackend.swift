import Compositor
import GLBackend
import OpenCoreGraphics
import RasterBackend

/// Which executor turns a frame's render list into pixels.
public enum RenderBackend: String, CaseIterable, Sendable {
    /// OpenGL ES 3 through EGL: a GPU where there is one, Mesa's llvmpipe where there is not.
    case gpu
    /// The CPU reference rasterizer: deterministic, byte-identical run to run.
    case cpu
}

extension RenderBackend {
    /// Executes `list` on this backend: the CPU reference (reusing `cache`'s rasterized layers)
    /// or the shared GL device. Every failure is a `RenderError`.
    ///
    /// `over`: the frame before and this frame's damage against it (`RenderList.damage(since:)`):
    /// only the damage is drawn, over that frame's pixels, with the bytes of a whole frame.
    func draw(_ list: RenderList, cache: RasterPassCache? = nil,
              over previous: (frame: Bitmap, damage: PixelRect)? = nil) throws(RenderError) -> Bitmap {
        switch self {
        case .cpu:
            if let previous { return RasterRenderer().render(list, cache: cache, over: previous.frame, damage: previous.damage) }
            return cache.map { RasterRenderer().render(list, cache: $0) } ?? RasterRenderer().render(list)
        case .gpu:
            do {
                if let previous { return try GLDevice.shared().render(list, over: previous.frame, damage: previous.damage) }
                return try GLDevice.shared().render(list)
            } catch let error as GLError {
                throw .gpu(error)
            } catch {
                throw .gpu(.noContext("\(error)"))
            }
        }
    }
}
