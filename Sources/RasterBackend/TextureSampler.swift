import Compositor
import OpenCoreGraphics

/// Samples a premultiplied bitmap at device pixel centres through a `TextureFill`'s projective map.
struct TextureSampler {
    let bitmap: Bitmap
    let map: ProjectiveTransform2D
    let filter: SamplingFilter
    var alphaOnly = false

    /// Premultiplied RGBA in 0...1 at device point (x, y); only the alpha, in every channel, for
    /// alpha-only fills.
    func sample(atX x: Double, y: Double) -> (Double, Double, Double, Double) {
        let c = sampleTexel(atX: x, y: y)
        return alphaOnly ? (c.3, c.3, c.3, c.3) : c
    }

    private func sampleTexel(atX x: Double, y: Double) -> (Double, Double, Double, Double) {
        let h = map.applyHomogeneous(x: x, y: y)
        let u = h.x / h.w, v = h.y / h.w
        guard u.isFinite, v.isFinite else { return (0, 0, 0, 0) }
        let w = bitmap.width, hgt = bitmap.height
        switch filter {
        case .nearest:
            let tx = clampIndex(Int(clampedTexel(u * Double(w), w).rounded(.down)), w)
            let ty = clampIndex(Int(clampedTexel(v * Double(hgt), hgt).rounded(.down)), hgt)
            return texel(tx, ty)
        case .linear:
            // Texel centres sit at half-integers: weight between the four around (u, v).
            let tx = clampedTexel(u * Double(w) - 0.5, w), ty = clampedTexel(v * Double(hgt) - 0.5, hgt)
            let fx0 = tx.rounded(.down), fy0 = ty.rounded(.down)
            let fx = tx - fx0, fy = ty - fy0
            let x0 = clampIndex(Int(fx0), w), x1 = clampIndex(Int(fx0) + 1, w)
            let y0 = clampIndex(Int(fy0), hgt), y1 = clampIndex(Int(fy0) + 1, hgt)
            let a = texel(x0, y0), b = texel(x1, y0), c = texel(x0, y1), d = texel(x1, y1)
            func mix(_ p: Double, _ q: Double, _ r: Double, _ s: Double) -> Double {
                (p * (1 - fx) + q * fx) * (1 - fy) + (r * (1 - fx) + s * fx) * fy
            }
            return (mix(a.0, b.0, c.0, d.0), mix(a.1, b.1, c.1, d.1), mix(a.2, b.2, c.2, d.2), mix(a.3, b.3, c.3, d.3))
        }
    }

    private func clampIndex(_ i: Int, _ n: Int) -> Int { min(max(i, 0), n - 1) }

    /// Clamp to edge happens on indices, but far-away coordinates are clamped first so the
    /// conversion to Int cannot overflow.
    private func clampedTexel(_ t: Double, _ n: Int) -> Double { min(max(t, -2), Double(n) + 1) }

    private func texel(_ x: Int, _ y: Int) -> (Double, Double, Double, Double) {
        let i = (y * bitmap.width + x) * 4
        let p = bitmap.pixels
        return (Double(p[i]) / 255, Double(p[i + 1]) / 255, Double(p[i + 2]) / 255, Double(p[i + 3]) / 255)
    }
}
