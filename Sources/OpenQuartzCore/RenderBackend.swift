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
    func draw(_ list: RenderList, cache: RasterPassCache? = nil) throws(RenderError) -> Bitmap {
        switch self {
        case .cpu:
            return cache.map { RasterRenderer().render(list, cache: $0) } ?? RasterRenderer().render(list)
        case .gpu:
            do {
                return try GLDevice.shared().render(list)
            } catch let error as GLError {
                throw .gpu(error)
            } catch {
                throw .gpu(.noContext("\(error)"))
            }
        }
    }
}
