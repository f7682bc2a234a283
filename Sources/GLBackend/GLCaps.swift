import CEGL

/// What the GL context is and can do, read once when the context is made (as Skia's GrGLCaps) and
/// consulted after that, never re-queried while drawing.
public struct GLCaps: Equatable, Sendable {
    /// The EGL platform the display came from, and which device or node.
    public let platform: EGLPlatform
    public let platformDetail: String
    public let eglVersion: String
    public let eglVendor: String
    public let vendor: String
    public let renderer: String
    public let version: String
    public let shadingLanguageVersion: String
    /// GL_MAX_TEXTURE_SIZE.
    public let maxTextureSize: Int
    /// The largest side a render target can have: the least of the texture, renderbuffer and
    /// viewport limits.
    public let maxRenderTargetSize: Int
    /// True when the context was made with robust access and lose-context-on-reset
    /// (EGL_EXT_create_context_robustness).
    public internal(set) var isRobust = false
    /// True when the context offers the driver's debug output (GL_KHR_debug or ES 3.2).
    public internal(set) var offersDebugOutput = false
    /// True when 32-bit float targets can be drawn into with blending (GL_EXT_color_buffer_float
    /// or ES 3.2, and GL_EXT_float_blend): filled paths sum their edges' shares there on the GPU;
    /// without it their coverage is summed on the CPU and uploaded (`GLPathFill`).
    public internal(set) var blendsFloatTargets = false
    /// True when the GPU can time its own work (GL_EXT_disjoint_timer_query): `quartz bench`
    /// reports GPU execution from it; without it, the time the CPU waited for the GPU.
    public internal(set) var offersTimerQueries = false

    /// True when the renderer is a CPU rasterizer (llvmpipe, softpipe, SwiftShader).
    public var isSoftware: Bool {
        let name = renderer.lowercased()
        return name.contains("llvmpipe") || name.contains("softpipe") || name.contains("swiftshader")
    }

    /// The drivers every GL test and every demo scene was run on against the CPU reference (in
    /// CI, or where said by hand): a renderer-name fragment each, and what was verified (the name
    /// fragment alone matches, so another version of the driver is shown what was verified of
    /// that one). Other drivers are expected to agree
    /// (the GL path relies on nothing implementation-defined; see docs/testing.md) but are not
    /// proven here.
    public static let verifiedDrivers: [(renderer: String, verified: String)] = [
        ("llvmpipe", "Mesa llvmpipe (22.3): every GL test and demo scene in CI"),
        ("softpipe", "Mesa softpipe (22.3): every GL test and demo scene in CI"),
        ("nvidia", "NVIDIA 580.159.04 (H100, H200): every GL test and demo scene, by hand on 2026-11-26 and 2026-11-30, not in CI"),
    ]

    /// What was verified of this context's driver, if it is one of `verifiedDrivers`.
    public var verification: String? {
        let name = renderer.lowercased()
        return GLCaps.verifiedDrivers.first { name.contains($0.renderer) }?.verified
    }

    static func read(display: OpenedDisplay) -> GLCaps {
        func string(_ name: Int32) -> String {
            glGetString(GLenum(name)).map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } ?? "?"
        }
        func integer(_ name: Int32) -> Int {
            var value: GLint = 0
            glGetIntegerv(GLenum(name), &value)
            return Int(value)
        }
        var viewport: [GLint] = [0, 0]
        glGetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &viewport)
        let maxTexture = integer(GL_MAX_TEXTURE_SIZE)
        let eglString = { (name: Int32) in eglQueryString(display.display, EGLint(name)).map { String(cString: $0) } ?? "?" }
        return GLCaps(platform: display.platform, platformDetail: display.detail,
                      eglVersion: eglString(EGL_VERSION), eglVendor: eglString(EGL_VENDOR),
                      vendor: string(GL_VENDOR), renderer: string(GL_RENDERER), version: string(GL_VERSION),
                      shadingLanguageVersion: string(GL_SHADING_LANGUAGE_VERSION),
                      maxTextureSize: maxTexture,
                      maxRenderTargetSize: min(maxTexture, integer(GL_MAX_RENDERBUFFER_SIZE), Int(viewport[0]), Int(viewport[1])))
    }
}
