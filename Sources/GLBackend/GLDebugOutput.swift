import CEGL
import Foundation

/// The driver's own account of what went wrong (GL_KHR_debug, core in ES 3.2): every message the
/// driver sends while drawing, collected synchronously so that each lands in the pass that caused
/// it. glGetError says only that something failed; a debug message says which call and why
/// ("glTexParameteri(param=0x2703)"), and drivers also report undefined behaviour there that
/// raises no error at all.
///
/// On when `GLDevice` is opened with `debugOutput` (tests; debug builds by default). Errors and
/// undefined behaviour fail the frame (`GLError.debugOutput`); other messages (performance,
/// portability, the shader compiler's remarks) are kept in `messages` for whoever asks.
final class GLDebugOutput {
    /// One message as the driver sent it.
    struct Message: Equatable, Sendable, CustomStringConvertible {
        let source: GLenum
        let type: GLenum
        let id: GLuint
        let severity: GLenum
        let text: String

        /// Errors and undefined behaviour: what a frame must not have.
        var isFailure: Bool {
            type == GLenum(GL_DEBUG_TYPE_ERROR_KHR) || type == GLenum(GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR_KHR)
        }

        var description: String {
            let kind: String = switch Int32(type) {
            case GL_DEBUG_TYPE_ERROR_KHR: "error"
            case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR_KHR: "undefined behaviour"
            case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR_KHR: "deprecated"
            case GL_DEBUG_TYPE_PORTABILITY_KHR: "portability"
            case GL_DEBUG_TYPE_PERFORMANCE_KHR: "performance"
            default: "other"
            }
            return "\(kind) \(id): \(text)"
        }
    }

    /// Most messages kept; later ones are counted but dropped (a broken loop can send millions).
    static let maxKept = 256

    private(set) var messages: [Message] = []
    private(set) var dropped = 0
    /// How many of `messages` were already handed out by `takeFailures`.
    private var failuresTaken = 0

    /// Turns debug output on for the current context, delivering messages to a new log; nil where
    /// the context offers no debug output (neither GL_KHR_debug nor ES 3.2).
    static func enable() -> GLDebugOutput? {
        guard offered() else { return nil }
        let names = ["glDebugMessageCallbackKHR", "glDebugMessageCallback"]
        guard let address = names.lazy.compactMap({ name in name.withCString { eglGetProcAddress($0) } }).first else {
            return nil
        }
        let install = unsafeBitCast(address, to: PFNGLDEBUGMESSAGECALLBACKKHRPROC.self)
        let log = GLDebugOutput()
        // The context holds the pointer without retaining it; GLDevice keeps the log alive for as
        // long as the context, and clears the callback before dropping it.
        install(GLDebugOutput.receive, Unmanaged.passUnretained(log).toOpaque())
        glEnable(GLenum(GL_DEBUG_OUTPUT_KHR))
        // Synchronous: the message arrives inside the failing call, so it is reported with its pass.
        glEnable(GLenum(GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR))
        return log
    }

    /// Stops delivery to this log (before the log or the context goes).
    func disable() {
        let names = ["glDebugMessageCallbackKHR", "glDebugMessageCallback"]
        guard let address = names.lazy.compactMap({ name in name.withCString { eglGetProcAddress($0) } }).first else { return }
        unsafeBitCast(address, to: PFNGLDEBUGMESSAGECALLBACKKHRPROC.self)(nil, nil)
        glDisable(GLenum(GL_DEBUG_OUTPUT_KHR))
    }

    /// The errors and undefined behaviour reported since the last call.
    func takeFailures() -> [Message] {
        defer { failuresTaken = messages.count }
        return messages[failuresTaken...].filter(\.isFailure)
    }

    /// Whether the current context offers debug output: GL_KHR_debug in its extensions, or ES 3.2.
    static func offered() -> Bool {
        let gl = GLExtensions.current()
        return gl.names.contains("GL_KHR_debug") || gl.isAtLeast(3, 2)
    }

    private func append(_ message: Message) {
        guard messages.count < GLDebugOutput.maxKept else {
            dropped += 1
            return
        }
        messages.append(message)
    }

    private static let receive: GLDEBUGPROCKHR = { source, type, id, severity, length, text, user in
        guard let user else { return }
        let log = Unmanaged<GLDebugOutput>.fromOpaque(user).takeUnretainedValue()
        let message = text.map { pointer in
            length >= 0 ? String(decoding: UnsafeRawBufferPointer(start: pointer, count: Int(length)), as: UTF8.self)
                        : String(cString: pointer)
        } ?? ""
        log.append(Message(source: source, type: type, id: id, severity: severity, text: message))
    }
}
