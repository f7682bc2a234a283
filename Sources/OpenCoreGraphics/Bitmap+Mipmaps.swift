import Foundation

extension Bitmap {
    /// The mipmap chain below this image: each level half the size of the one above (rounded
    /// down, at least 1, as OpenGL sizes them), each texel the rounded mean of the 2x2 texels
    /// above it (an odd last row or column is left out; a level one texel wide or tall averages
    /// it with itself), down to 1x1. Both backends sample these same texels for
    /// trilinear filtering (the GPU gets them uploaded, not made by the driver, whose box filter
    /// and rounding are its own).
    public func mipmapLevels() -> [Bitmap] {
        var levels: [Bitmap] = []
        var above = self
        while above.width > 1 || above.height > 1 {
            let w = max(1, above.width / 2), h = max(1, above.height / 2)
            var level = [UInt8](repeating: 0, count: w * h * 4)
            let source = above.pixels, sw = above.width, sh = above.height
            for y in 0..<h {
                let y0 = min(2 * y, sh - 1), y1 = min(2 * y + 1, sh - 1)
                for x in 0..<w {
                    let x0 = min(2 * x, sw - 1), x1 = min(2 * x + 1, sw - 1)
                    let a = (y0 * sw + x0) * 4, b = (y0 * sw + x1) * 4, c = (y1 * sw + x0) * 4, d = (y1 * sw + x1) * 4
                    let o = (y * w + x) * 4
                    for k in 0..<4 {
                        let sum = Int(source[a + k]) + Int(source[b + k]) + Int(source[c + k]) + Int(source[d + k])
                        level[o + k] = UInt8((sum + 2) / 4)
                    }
                }
            }
            above = Bitmap(width: w, height: h, pixels: level)
            levels.append(above)
        }
        return levels
    }
}
