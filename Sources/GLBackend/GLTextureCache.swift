import CEGL
import Compositor
import OpenCoreGraphics

/// GL textures for render-list images, kept across frames by image identity, so an unchanged
/// image is uploaded once. Textures unused for `maxIdleFrames` frames are deleted, and the least
/// recently used go early when the total would pass `maxBytes` (`RenderLimits.maxTextureBytes`). An image wider
/// or taller than the context allows is cut into tiles that each fit (see `GLTextureTile`).
final class GLTextureCache {
    private struct Entry {
        var tiles: [GLTextureTile]
        var lastUsedFrame: Int
        /// Bytes of the levels below the image, once uploaded.
        var mipmapBytes = 0
        var bytes: Int { tiles.reduce(0) { $0 + $1.width * $1.height * 4 } + mipmapBytes }
    }

    /// Frames a texture may go unused before it is deleted. Default: 120.
    static let maxIdleFrames = 120

    private var entries: [UInt64: Entry] = [:]
    private var frame = 0
    /// Bytes of all cached textures, and the most there may be.
    private(set) var bytes = 0
    var maxBytes = RenderLimits.current.maxTextureBytes
    /// Lookups answered from the cache, and images uploaded, since the cache was made.
    private(set) var statistics = TextureCacheStatistics(hits: 0, uploads: 0)

    /// The tiles for `id` (one for an image that fits), uploading `bitmap` when not cached, and
    /// with `mipmaps` its mipmap levels too (`Bitmap.mipmapLevels`, for trilinear filtering) when
    /// the image is one tile and they are not uploaded yet.
    func tiles(for id: UInt64, bitmap: Bitmap, maxSize: Int, mipmaps: Bool = false) throws -> [GLTextureTile] {
        var entry: Entry
        if let cached = entries[id] {
            entry = cached
            entry.lastUsedFrame = frame
            statistics.hits += 1
        } else {
            try makeRoom(for: bitmap.width * bitmap.height * 4)
            entry = Entry(tiles: try GLTextureTile.upload(bitmap, maxSize: maxSize), lastUsedFrame: frame)
            bytes += entry.bytes
            statistics.uploads += 1
        }
        if mipmaps, entry.tiles.count == 1, entry.tiles[0].isWholeImage, entry.tiles[0].levels == 0 {
            let levels = bitmap.mipmapLevels()
            let added = levels.reduce(0) { $0 + $1.width * $1.height * 4 }
            try makeRoom(for: added)
            entry.tiles[0].uploadMipmaps(levels)
            entry.mipmapBytes = added
            bytes += added
        }
        entries[id] = entry
        return entry.tiles
    }

    /// Deletes textures not used this frame, least recently used first, until `needed` more bytes
    /// fit under the limit; throws when this frame's own textures leave no room.
    private func makeRoom(for needed: Int) throws {
        let limit = maxBytes
        guard bytes + needed > limit else { return }
        let idle = entries.filter { $0.value.lastUsedFrame < frame }.sorted { $0.value.lastUsedFrame < $1.value.lastUsedFrame }
        for (id, _) in idle where bytes + needed > limit { delete(id) }
        if bytes + needed > limit { throw GLError.textureMemory(needed: bytes + needed, limit: limit) }
    }

    private func delete(_ id: UInt64) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        for tile in entry.tiles {
            var texture = tile.texture
            glDeleteTextures(1, &texture)
        }
        bytes -= entry.bytes
    }

    /// Ends a frame: deletes textures that have gone unused too long.
    func endFrame() {
        for (id, entry) in entries where frame - entry.lastUsedFrame > GLTextureCache.maxIdleFrames { delete(id) }
        frame += 1
    }

    var count: Int { entries.count }
}

/// One texture of an image: the whole image, or for an image over the context's size limit a
/// block of it. A tile answers for sample points in `accept` (texel coordinates of the whole
/// image; unbounded on the image's outer sides, so clamp-to-edge still works) and holds one
/// texel more on every inner side, which is all a bilinear sample there reads.
struct GLTextureTile {
    let texture: GLuint
    /// Where the tile's texels sit in the image: origin and size, in texels.
    let originX: Int, originY: Int, width: Int, height: Int
    /// The sample points this tile draws: minX, minY, maxX, maxY in image texels.
    let accept: (Float, Float, Float, Float)
    let isWholeImage: Bool
    /// Mipmap levels uploaded below the image (0: none).
    private(set) var levels = 0

    /// Uploads `levels` as levels 1, 2, ... of the texture (a whole image's only).
    mutating func uploadMipmaps(_ chain: [Bitmap]) {
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        for (index, level) in chain.enumerated() {
            level.pixels.withUnsafeBytes { bytes in
                glTexImage2D(GLenum(GL_TEXTURE_2D), GLint(index + 1), GL_RGBA8, GLsizei(level.width), GLsizei(level.height), 0,
                             GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
            }
        }
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAX_LEVEL), GLint(chain.count))
        levels = chain.count
    }

    static func upload(_ bitmap: Bitmap, maxSize: Int) throws -> [GLTextureTile] {
        guard maxSize > 2 else {
            throw GLError.tooLarge(what: "an image", width: bitmap.width, height: bitmap.height, limit: maxSize)
        }
        if bitmap.width <= maxSize && bitmap.height <= maxSize {
            let texture = uploadRegion(bitmap, x: 0, y: 0, width: bitmap.width, height: bitmap.height)
            return [GLTextureTile(texture: texture, originX: 0, originY: 0, width: bitmap.width, height: bitmap.height,
                                  accept: (-1e30, -1e30, 1e30, 1e30), isWholeImage: true)]
        }
        // Each tile answers for `step` texels and holds one more on each inner side.
        let step = maxSize - 2
        func spans(_ length: Int) -> [(accept: (Float, Float), from: Int, to: Int)] {
            stride(from: 0, to: length, by: step).map { start in
                let end = min(start + step, length)
                let lower: Float = start == 0 ? -1e30 : Float(start)
                let upper: Float = end == length ? 1e30 : Float(end)
                return ((lower, upper), max(start - 1, 0), min(end + 1, length))
            }
        }
        var tiles: [GLTextureTile] = []
        for row in spans(bitmap.height) {
            for column in spans(bitmap.width) {
                let texture = uploadRegion(bitmap, x: column.from, y: row.from, width: column.to - column.from,
                                           height: row.to - row.from)
                tiles.append(GLTextureTile(texture: texture, originX: column.from, originY: row.from,
                                           width: column.to - column.from, height: row.to - row.from,
                                           accept: (column.accept.0, row.accept.0, column.accept.1, row.accept.1),
                                           isWholeImage: false))
            }
        }
        return tiles
    }

    private static func uploadRegion(_ bitmap: Bitmap, x: Int, y: Int, width: Int, height: Int) -> GLuint {
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), GLint(bitmap.width))
        glPixelStorei(GLenum(GL_UNPACK_SKIP_PIXELS), GLint(x))
        glPixelStorei(GLenum(GL_UNPACK_SKIP_ROWS), GLint(y))
        bitmap.pixels.withUnsafeBytes { bytes in
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
        }
        glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
        glPixelStorei(GLenum(GL_UNPACK_SKIP_PIXELS), 0)
        glPixelStorei(GLenum(GL_UNPACK_SKIP_ROWS), 0)
        GLPassTargetPool.makeComplete(mipmapLevels: 0)
        return texture
    }
}

/// How well the texture cache does: an animation that moves layers without changing their
/// content should upload each image once and hit from then on.
public struct TextureCacheStatistics: Equatable, Sendable {
    public var hits: Int
    public var uploads: Int

    /// Hits over lookups; 1 when there were none.
    public var hitRate: Double { hits + uploads == 0 ? 1 : Double(hits) / Double(hits + uploads) }
}
