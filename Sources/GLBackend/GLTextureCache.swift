import CEGL
import OpenCoreGraphics

/// GL textures for render-list images, kept across frames by image identity, so an unchanged
/// image is uploaded once. Textures unused for `maxIdleFrames` frames are deleted.
final class GLTextureCache {
    private struct Entry {
        let texture: GLuint
        var lastUsedFrame: Int
    }

    /// Frames a texture may go unused before it is deleted. Default: 120.
    static let maxIdleFrames = 120

    private var entries: [UInt64: Entry] = [:]
    private var frame = 0
    /// Lookups answered from the cache, and images uploaded, since the cache was made.
    private(set) var statistics = TextureCacheStatistics(hits: 0, uploads: 0)

    /// The texture for `id`, uploading `bitmap` when it is not cached.
    func texture(for id: UInt64, bitmap: Bitmap, maxSize: Int) throws -> GLuint {
        if var entry = entries[id] {
            entry.lastUsedFrame = frame
            entries[id] = entry
            statistics.hits += 1
            return entry.texture
        }
        guard bitmap.width <= maxSize, bitmap.height <= maxSize else {
            throw GLError.tooLarge(what: "an image", width: bitmap.width, height: bitmap.height, limit: maxSize)
        }
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        bitmap.pixels.withUnsafeBytes { bytes in
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(bitmap.width), GLsizei(bitmap.height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
        }
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        entries[id] = Entry(texture: texture, lastUsedFrame: frame)
        statistics.uploads += 1
        return texture
    }

    /// Ends a frame: deletes textures that have gone unused too long.
    func endFrame() {
        for (id, entry) in entries where frame - entry.lastUsedFrame > GLTextureCache.maxIdleFrames {
            var texture = entry.texture
            glDeleteTextures(1, &texture)
            entries[id] = nil
        }
        frame += 1
    }

    var count: Int { entries.count }
}

/// How well the texture cache does: an animation that moves layers without changing their
/// content should upload each image once and hit from then on.
public struct TextureCacheStatistics: Equatable, Sendable {
    public var hits: Int
    public var uploads: Int

    /// Hits over lookups; 1 when there were none.
    public var hitRate: Double { hits + uploads == 0 ? 1 : Double(hits) / Double(hits + uploads) }
}
