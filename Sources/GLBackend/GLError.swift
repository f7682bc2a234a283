/// Why the GL backend cannot render. Each case says what is missing or wrong and, where it can,
/// what to install or change.
public enum GLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No EGL display could be opened and initialized; `attempts` says what each platform answered.
    case noDisplay(attempts: [String])
    /// The display has no OpenGL ES 3 configuration or context.
    case noContext(String)
    /// A shader did not compile; `log` is the driver's info log.
    case shaderCompilation(shader: String, log: String)
    /// The program did not link; `log` is the driver's info log.
    case programLink(log: String)
    /// The framebuffer cannot be used.
    case framebufferIncomplete(status: UInt32)
    /// The output or an image exceeds what this GL context can hold.
    case tooLarge(what: String, width: Int, height: Int, limit: Int)
    /// The frame's image textures need more memory than `RenderLimits.maxTextureBytes`.
    case textureMemory(needed: Int, limit: Int)
    /// GL reported an error.
    case glError(code: UInt32, during: String)
    /// The driver's debug output reported errors or undefined behaviour (its messages, in order).
    case driverReported([String], during: String)

    public var description: String {
        switch self {
        case .noDisplay(let attempts):
            "no usable EGL display (is Mesa installed? apt-get install libegl-mesa0 libgl1-mesa-dri): "
                + attempts.joined(separator: "; ")
        case .noContext(let reason): "cannot create an OpenGL ES 3 context: \(reason)"
        case let .shaderCompilation(shader, log): "shader \(shader) does not compile:\n\(log)"
        case .programLink(let log): "shader program does not link:\n\(log)"
        case .framebufferIncomplete(let status): "framebuffer incomplete (status 0x\(String(status, radix: 16)))"
        case let .tooLarge(what, width, height, limit):
            "\(what) of \(width)x\(height) pixels exceeds this GL context's limit of \(limit) pixels per side"
        case let .textureMemory(needed, limit):
            "the frame's images need \(needed) bytes of textures, more than the limit of \(limit) (RenderLimits.maxTextureBytes)"
        case let .glError(code, during): "GL error 0x\(String(code, radix: 16)) (\(GLError.name(of: code))) during \(during)"
        case let .driverReported(messages, during):
            "the GL driver reported during \(during): " + messages.joined(separator: "; ")
        }
    }

    /// The GL name of an error code, as glGetError returns it.
    static func name(of code: UInt32) -> String {
        switch code {
        case 0x0500: "GL_INVALID_ENUM"
        case 0x0501: "GL_INVALID_VALUE"
        case 0x0502: "GL_INVALID_OPERATION"
        case 0x0505: "GL_OUT_OF_MEMORY"
        case 0x0506: "GL_INVALID_FRAMEBUFFER_OPERATION"
        case 0x0507: "GL_CONTEXT_LOST"
        default: "unknown"
        }
    }
}
