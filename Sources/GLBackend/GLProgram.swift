import CEGL
import OpenQuartzShaders

/// A linked program with its uniform locations, looked up once.
final class GLProgram {
    let handle: GLuint
    private var locations: [String: GLint] = [:]

    /// `attributes` are bound to locations 0, 1, ... in order; `fragmentDefines` are defined in
    /// the fragment shader (`ShaderSource.text(defining:)`).
    init(vertex: ShaderSource, fragment: ShaderSource, fragmentDefines: [String] = [], uniforms: [String],
         attributes: [String] = ["a_position"]) throws {
        let vs = try GLProgram.compile(vertex)
        defer { glDeleteShader(vs) }
        let fs = try GLProgram.compile(text: fragment.text(defining: fragmentDefines), name: fragment.rawValue, isVertex: false)
        defer { glDeleteShader(fs) }
        handle = glCreateProgram()
        glAttachShader(handle, vs)
        glAttachShader(handle, fs)
        for (location, name) in attributes.enumerated() { glBindAttribLocation(handle, GLuint(location), name) }
        glLinkProgram(handle)
        var linked: GLint = 0
        glGetProgramiv(handle, GLenum(GL_LINK_STATUS), &linked)
        guard linked == GL_TRUE else {
            let log = GLProgram.infoLog(handle, length: glGetProgramiv, log: glGetProgramInfoLog)
            glDeleteProgram(handle)
            throw GLError.programLink(log: log)
        }
        for name in uniforms { locations[name] = glGetUniformLocation(handle, name) }
    }

    deinit { glDeleteProgram(handle) }

    func location(_ name: String) -> GLint { locations[name] ?? -1 }

    /// Compiles one shader; a failure carries the driver's info log.
    static func compile(_ source: ShaderSource) throws -> GLuint {
        try compile(text: source.text, name: source.rawValue, isVertex: source.isVertex)
    }

    /// Compiles GLSL text; `name` is what errors call it.
    static func compile(text source: String, name: String, isVertex: Bool) throws -> GLuint {
        let shader = glCreateShader(GLenum(isVertex ? GL_VERTEX_SHADER : GL_FRAGMENT_SHADER))
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var compiled: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &compiled)
        guard compiled == GL_TRUE else {
            let log = infoLog(shader, length: glGetShaderiv, log: glGetShaderInfoLog)
            glDeleteShader(shader)
            throw GLError.shaderCompilation(shader: name, log: log)
        }
        return shader
    }

    private static func infoLog(_ object: GLuint,
                                length: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
                                log: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void) -> String {
        var size: GLint = 0
        length(object, GLenum(GL_INFO_LOG_LENGTH), &size)
        guard size > 1 else { return "(the driver gave no info log)" }
        var buffer = [GLchar](repeating: 0, count: Int(size))
        log(object, size, nil, &buffer)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
