import CEGL

/// Offscreen pass targets (a texture and its framebuffer) kept across frames by size: a frame
/// whose passes have the sizes of the last frame's (an animation, a re-render) allocates none.
/// Targets not reused within a frame return to the pool; beyond `maxPooled` the oldest go.
final class GLPassTargetPool {
    struct Target {
        let texture: GLuint
        let framebuffer: GLuint
        let width: Int
        let height: Int
    }

    /// Most targets kept between frames. Default: 256.
    static let maxPooled = 256

    private var free: [Target] = []
    private(set) var allocations = 0

    /// A target of exactly this size, bound as the framebuffer: a pooled one or a new one.
    func take(width: Int, height: Int) throws -> Target {
        if let index = free.lastIndex(where: { $0.width == width && $0.height == height }) {
            let target = free.remove(at: index)
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target.framebuffer)
            return target
        }
        allocations += 1
        return try Self.make(width: width, height: height)
    }

    /// Gives targets back after a frame.
    func giveBack(_ targets: [Target]) {
        free.append(contentsOf: targets)
        if free.count > Self.maxPooled {
            for target in free.prefix(free.count - Self.maxPooled) { Self.delete(target) }
            free.removeFirst(free.count - Self.maxPooled)
        }
    }

    deinit {
        for target in free { Self.delete(target) }
    }

    private static func delete(_ target: Target) {
        var texture = target.texture, framebuffer = target.framebuffer
        glDeleteFramebuffers(1, &framebuffer)
        glDeleteTextures(1, &texture)
    }

    /// Sets the bound texture's parameters so that it is complete under any filter later set:
    /// GL's default minification filter reads mipmaps, and a texture without them (ours, where
    /// `mipmapLevels` is 0) is then incomplete, which texelFetch and texture() answer with
    /// (0, 0, 0, 1) or, on some drivers, anything. Clamped at the edges, as every read expects.
    static func makeComplete(mipmapLevels: Int) {
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_BASE_LEVEL), 0)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAX_LEVEL), GLint(mipmapLevels))
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    }

    private static func make(width: Int, height: Int) throws -> Target {
        var texture: GLuint = 0, framebuffer: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0, GLenum(GL_RGBA),
                     GLenum(GL_UNSIGNED_BYTE), nil)
        GLPassTargetPool.makeComplete(mipmapLevels: 0)
        glGenFramebuffers(1, &framebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GL_FRAMEBUFFER_COMPLETE else {
            delete(Target(texture: texture, framebuffer: framebuffer, width: width, height: height))
            throw GLError.framebufferIncomplete(status: status)
        }
        return Target(texture: texture, framebuffer: framebuffer, width: width, height: height)
    }
}
