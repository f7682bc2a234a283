/// Which executor turns a frame's render list into pixels.
public enum RenderBackend: String, CaseIterable, Sendable {
    /// OpenGL ES 3 through EGL: a GPU where there is one, Mesa's llvmpipe where there is not.
    case gpu
    /// The CPU reference rasterizer: deterministic, byte-identical run to run.
    case cpu
}
