import CEGL
import Compositor

/// Wide shadows' profiles (`BlurredRoundedRectProfile`) as textures, kept across frames by the
/// shape they describe: a shadow that does not change shape (most do not: a card's shadow moves
/// with it) makes its grid once. 32-bit float, a grid cell's four corners a texel (`cells(of:)`),
/// read by `texelFetch` only (no filtering, which GLES 3 does not promise for float textures and
/// drivers would each round their own way), the shader interpolating as
/// `BlurredRoundedRectProfile.interpolated` does.
package final class GLShadowProfiles {
    struct Entry {
        let texture: GLuint
        let columns: Int
        let rows: Int
        let spacing: Float
        let origin: (x: Float, y: Float)
        var lastUsed: Int
    }

    /// The texture unit profiles are read from (0 holds images and passes, 1 a blend's backdrop).
    static let unit: GLint = 2

    /// Profiles kept at most (each at most 256 KB); the least recently used go first.
    static let capacity = 64

    private var entries: [BlurredRoundedRectProfile.Key: Entry] = [:]
    private var clock = 0
    /// Profiles made, for tests and statistics.
    private(set) var made = 0

    /// The profile texture of `key`, made and uploaded on first use; nil where the shape takes
    /// the closed form (`BlurredRoundedRectProfile.size(for:)`).
    func entry(for key: BlurredRoundedRectProfile.Key) -> Entry? {
        clock += 1
        if var entry = entries[key] {
            entry.lastUsed = clock
            entries[key] = entry
            return entry
        }
        guard let profile = BlurredRoundedRectProfile(key) else { return nil }
        if entries.count >= GLShadowProfiles.capacity, let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            var texture = oldest.value.texture
            glDeleteTextures(1, &texture)
            entries[oldest.key] = nil
        }
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        glActiveTexture(GLenum(GL_TEXTURE1))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        // Complete from creation: one level, nearest, clamped (read by texelFetch only).
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAX_LEVEL), 0)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
        glPixelStorei(GLenum(GL_UNPACK_SKIP_PIXELS), 0)
        glPixelStorei(GLenum(GL_UNPACK_SKIP_ROWS), 0)
        GLShadowProfiles.cells(of: profile).withUnsafeBytes {
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(profile.columns), GLsizei(profile.rows), 0,
                         GLenum(GL_RGBA), GLenum(GL_FLOAT), $0.baseAddress)
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        made += 1
        let entry = Entry(texture: texture, columns: profile.columns, rows: profile.rows, spacing: profile.spacing, origin: profile.origin,
                          lastUsed: clock)
        entries[key] = entry
        return entry
    }

    /// The profile as cells: texel (i, j) holds the grid's values at (i, j), (i + 1, j), (i, j + 1)
    /// and (i + 1, j + 1), the last column and row repeating their own (the shader's clamp), so
    /// a pixel's interpolation reads one texel where it read four: the same four floats, the same
    /// arithmetic, the same bytes.
    package static func cells(of profile: BlurredRoundedRectProfile) -> [Float] {
        let columns = profile.columns, rows = profile.rows
        var cells = [Float](repeating: 0, count: 4 * columns * rows)
        profile.values.withUnsafeBufferPointer { v in
            for j in 0..<rows {
                let j1 = min(j + 1, rows - 1)
                for i in 0..<columns {
                    let i1 = min(i + 1, columns - 1), at = 4 * (j * columns + i)
                    cells[at] = v[j * columns + i]
                    cells[at + 1] = v[j * columns + i1]
                    cells[at + 2] = v[j1 * columns + i]
                    cells[at + 3] = v[j1 * columns + i1]
                }
            }
        }
        return cells
    }

    /// Deletes every texture (the context is current).
    func removeAll() {
        for entry in entries.values {
            var texture = entry.texture
            glDeleteTextures(1, &texture)
        }
        entries.removeAll()
    }
}
