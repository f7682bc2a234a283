import CEGL

/// What the current context offers beyond core GLES 3.0: its extension names and version.
struct GLExtensions {
    let names: Set<String>
    let major: Int
    let minor: Int

    /// The current context's (call with one current).
    static func current() -> GLExtensions {
        var count: GLint = 0
        glGetIntegerv(GLenum(GL_NUM_EXTENSIONS), &count)
        var names: Set<String> = []
        for index in 0..<max(Int(count), 0) {
            guard let name = glGetStringi(GLenum(GL_EXTENSIONS), GLuint(index)) else { continue }
            names.insert(String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)))
        }
        var major: GLint = 0, minor: GLint = 0
        glGetIntegerv(GLenum(GL_MAJOR_VERSION), &major)
        glGetIntegerv(GLenum(GL_MINOR_VERSION), &minor)
        return GLExtensions(names: names, major: Int(major), minor: Int(minor))
    }

    /// ES `major`.`minor` or later.
    func isAtLeast(_ major: Int, _ minor: Int) -> Bool {
        self.major > major || (self.major == major && self.minor >= minor)
    }
}
