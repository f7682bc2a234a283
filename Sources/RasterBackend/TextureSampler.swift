import Compositor
import OpenCoreGraphics

/// Samples a premultiplied bitmap at device pixel centres through a `TextureFill`'s projective
/// map (and nine-slice map), with its magnification and minification filters.
struct TextureSampler {
    let bitmap: Bitmap
    let map: ProjectiveTransform2D
    let filter: SamplingFilter
    var alphaOnly = false
    var minification: SamplingFilter?
    var lodBias = 0.0
    var slices: NineSlice?
    /// The mipmap chain below `bitmap`, made when the minification filter is trilinear.
    private var levels: [Bitmap] = []

    init(bitmap: Bitmap, map: ProjectiveTransform2D, filter: SamplingFilter, alphaOnly: Bool = false) {
        self.bitmap = bitmap
        self.map = map
        self.filter = filter
        self.alphaOnly = alphaOnly
    }

    init(bitmap: Bitmap, fill: TextureFill) {
        self.init(bitmap: bitmap, map: fill.deviceToTexture, filter: fill.filter, alphaOnly: fill.alphaOnly)
        minification = fill.minification
        lodBias = fill.lodBias
        slices = fill.slices
        // Made per draw: a trilinear layer costs its image's pixels once more (a third of them
        // again for the chain) per frame on the CPU.
        if minification == .trilinear { levels = bitmap.mipmapLevels() }
    }

    /// Premultiplied RGBA in 0...1 at device point (x, y); only the alpha, in every channel, for
    /// alpha-only fills.
    func sample(atX x: Double, y: Double) -> (Double, Double, Double, Double) {
        let c = sampleTexel(atX: x, y: y)
        return alphaOnly ? (c.3, c.3, c.3, c.3) : c
    }

    private func sampleTexel(atX x: Double, y: Double) -> (Double, Double, Double, Double) {
        let h = map.applyHomogeneous(x: x, y: y)
        var u = h.x / h.w, v = h.y / h.w
        guard u.isFinite, v.isFinite else { return (0, 0, 0, 0) }
        if let slices {
            u = slices.x.map(u).value
            v = slices.y.map(v).value
        }
        guard let minification else { return sample(filter, level: bitmap, u: u, v: v) }
        let lod = TextureLevelOfDetail.at(x: x, y: y, map: map, slices: slices, width: bitmap.width, height: bitmap.height)
            + lodBias
        guard lod > 0 else { return sample(filter, level: bitmap, u: u, v: v) }
        guard minification == .trilinear, !levels.isEmpty else { return sample(minification, level: bitmap, u: u, v: v) }
        // Levels 0 (the image) ... levels.count; between two, mixed by the fraction.
        let top = Double(levels.count)
        let d = min(lod, top)
        let lower = Int(d.rounded(.down)), f = d - d.rounded(.down)
        let a = sample(.linear, level: level(lower), u: u, v: v)
        guard f > 0, lower < levels.count else { return a }
        let b = sample(.linear, level: level(lower + 1), u: u, v: v)
        return (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f, a.2 + (b.2 - a.2) * f, a.3 + (b.3 - a.3) * f)
    }

    private func level(_ index: Int) -> Bitmap { index == 0 ? bitmap : levels[index - 1] }

    private func sample(_ filter: SamplingFilter, level: Bitmap, u: Double, v: Double) -> (Double, Double, Double, Double) {
        let w = level.width, hgt = level.height
        switch filter {
        case .nearest:
            let tx = clampIndex(Int(clampedTexel(u * Double(w), w).rounded(.down)), w)
            let ty = clampIndex(Int(clampedTexel(v * Double(hgt), hgt).rounded(.down)), hgt)
            return texel(level, tx, ty)
        case .linear, .trilinear:
            // Texel centres sit at half-integers: weight between the four around (u, v).
            let tx = clampedTexel(u * Double(w) - 0.5, w), ty = clampedTexel(v * Double(hgt) - 0.5, hgt)
            let fx0 = tx.rounded(.down), fy0 = ty.rounded(.down)
            let fx = tx - fx0, fy = ty - fy0
            let x0 = clampIndex(Int(fx0), w), x1 = clampIndex(Int(fx0) + 1, w)
            let y0 = clampIndex(Int(fy0), hgt), y1 = clampIndex(Int(fy0) + 1, hgt)
            let a = texel(level, x0, y0), b = texel(level, x1, y0), c = texel(level, x0, y1), d = texel(level, x1, y1)
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

    private func texel(_ level: Bitmap, _ x: Int, _ y: Int) -> (Double, Double, Double, Double) {
        let i = (y * level.width + x) * 4
        let p = level.pixels
        return (Double(p[i]) / 255, Double(p[i + 1]) / 255, Double(p[i + 2]) / 255, Double(p[i + 3]) / 255)
    }
}
