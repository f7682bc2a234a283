import CPixelKernels
import Compositor
import OpenCoreGraphics

/// Samples a premultiplied bitmap at device pixel centres through a `TextureFill`'s projective
/// map (and nine-slice map), with its magnification and minification filters.
///
/// It reads the texels through pointers lent for one draw (`with`): a sampler holding the
/// bitmaps was copied per pixel where the draw's closures captured it, each copy retaining and
/// releasing the pixel arrays, which cost more than the sampling (images, text and passes on the
/// CPU spent a fifth of their time in retain and release). Only plain values here, so a copy is
/// a copy of bytes.
struct TextureSampler {
    /// Where a level's texels start in `texels`, and its size.
    struct Level {
        let offset: Int
        let width: Int
        let height: Int
    }

    /// Every level's texels one after another: the image, then (trilinear) its mipmap chain.
    private let texels: UnsafeBufferPointer<UInt8>
    /// Level 0 is the image.
    private let levels: UnsafeBufferPointer<Level>
    let map: ProjectiveTransform2D
    let filter: SamplingFilter
    var alphaOnly = false
    var minification: SamplingFilter?
    var lodBias = 0.0
    var slices: NineSlice?

    private init(texels: UnsafeBufferPointer<UInt8>, levels: UnsafeBufferPointer<Level>, fill: TextureFill) {
        self.texels = texels
        self.levels = levels
        map = fill.deviceToTexture
        filter = fill.filter
        alphaOnly = fill.alphaOnly
        minification = fill.minification
        lodBias = fill.lodBias
        slices = fill.slices
    }

    /// `body` with a sampler of `bitmap` through `fill`, valid only inside it.
    static func with<R>(_ bitmap: Bitmap, fill: TextureFill, _ body: (TextureSampler) -> R) -> R {
        let image = Level(offset: 0, width: bitmap.width, height: bitmap.height)
        guard fill.minification == .trilinear else {
            return bitmap.pixels.withUnsafeBufferPointer { texels in
                withUnsafeTemporaryAllocation(of: Level.self, capacity: 1) { levels in
                    levels.initialize(repeating: image)
                    return body(TextureSampler(texels: texels, levels: UnsafeBufferPointer(levels), fill: fill))
                }
            }
        }
        // Made per draw: a trilinear layer costs its image's pixels once more (a third of them
        // again for the chain) per frame on the CPU.
        var all = bitmap.pixels
        var chain = [image]
        for level in bitmap.mipmapLevels() {
            chain.append(Level(offset: all.count, width: level.width, height: level.height))
            all += level.pixels
        }
        return all.withUnsafeBufferPointer { texels in
            chain.withUnsafeBufferPointer { levels in body(TextureSampler(texels: texels, levels: levels, fill: fill)) }
        }
    }

    /// This sampler over pixel columns `columns` and rows `rows` as a `SeparableSampler`, where
    /// its map is axis-aligned and it samples the image alone (no nine-slice, no mipmaps): nil
    /// elsewhere, or where a pixel centre maps off the finite numbers.
    func separable(columns: Range<Int>, rows: Range<Int>) -> SeparableSampler? {
        guard slices == nil, minification == nil, map.m12 == 0, map.m21 == 0, map.m13 == 0, map.m23 == 0,
              !columns.isEmpty, !rows.isEmpty, let base = texels.baseAddress else { return nil }
        let image = levels[0]
        guard let across = SeparableSampler.Axis(pixels: columns, scale: map.m11, offset: map.m31, divisor: map.m33, size: image.width, filter: filter),
              let down = SeparableSampler.Axis(pixels: rows, scale: map.m22, offset: map.m32, divisor: map.m33, size: image.height, filter: filter)
        else { return nil }
        return SeparableSampler(columns: across, rows: down, texels: base + image.offset, width: image.width, alphaOnly: alphaOnly)
    }

    /// Whether rows of source-over can go through `blendRow`: a sampler of the image alone (no
    /// nine-slice, no mipmaps).
    var blendsRows: Bool { slices == nil && minification == nil && texels.baseAddress != nil }

    /// Source-over of pixels `start..<end` of row `y` (each wholly covered) onto `pixels`, a
    /// target `width` wide: `sample` times `tint` and then `opacity` at each centre and the
    /// blend, in C (`oq_projective_texture_over`), the same bytes. Only where `blendsRows`.
    func blendRow(_ y: Int, from start: Int, to end: Int, tint: PremultipliedColor, opacity: Double,
                  into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int) {
        guard end > start, blendsRows else { return }
        let image = levels[0]
        // The map's nine entries and the tint's four as one tuple on the stack (a homogeneous
        // tuple's elements lie one after another; arrays were two allocations a row).
        let values = (map.m11, map.m12, map.m13, map.m21, map.m22, map.m23, map.m31, map.m32, map.m33,
                      tint.red, tint.green, tint.blue, tint.alpha)
        withUnsafePointer(to: values) {
            $0.withMemoryRebound(to: Double.self, capacity: 13) { v in
                oq_projective_texture_over(pixels.baseAddress! + (y * width + start) * 4, end - start, start, Double(y) + 0.5, v,
                                           texels.baseAddress! + image.offset, image.width, image.height,
                                           filter == .nearest ? 1 : 0, v + 9, opacity, alphaOnly ? 1 : 0)
            }
        }
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
        let image = levels[0]
        guard let minification else { return sample(filter, level: image, u: u, v: v) }
        let lod = TextureLevelOfDetail.at(x: x, y: y, map: map, slices: slices, width: image.width, height: image.height)
            + lodBias
        guard lod > 0 else { return sample(filter, level: image, u: u, v: v) }
        let chain = levels.count - 1
        guard minification == .trilinear, chain > 0 else { return sample(minification, level: image, u: u, v: v) }
        // Levels 0 (the image) ... chain; between two, mixed by the fraction.
        let top = Double(chain)
        let d = min(lod, top)
        let lower = Int(d.rounded(.down)), f = d - d.rounded(.down)
        let a = sample(.linear, level: levels[lower], u: u, v: v)
        guard f > 0, lower < chain else { return a }
        let b = sample(.linear, level: levels[lower + 1], u: u, v: v)
        return (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f, a.2 + (b.2 - a.2) * f, a.3 + (b.3 - a.3) * f)
    }

    @inline(__always)
    private func sample(_ filter: SamplingFilter, level: Level, u: Double, v: Double) -> (Double, Double, Double, Double) {
        let x = TextureSampler.span(u, size: level.width, filter: filter), y = TextureSampler.span(v, size: level.height, filter: filter)
        let a = texel(level, x.lower, y.lower)
        guard filter != .nearest else { return a }
        return TextureSampler.mix(a, texel(level, x.upper, y.lower), texel(level, x.lower, y.upper), texel(level, x.upper, y.upper),
                                  fx: x.weight, fy: y.weight)
    }

    /// One axis of a sample at `t` (0...1 over `size` texels): the texel indices either side of it
    /// and the weight of the upper one (the same index twice and 0 for nearest), clamped to the
    /// edge. Texel centres sit at half-integers. `SeparableSampler` makes its columns and rows
    /// with it too, so both samplers pick the same texels.
    @inline(__always)
    static func span(_ t: Double, size: Int, filter: SamplingFilter) -> (lower: Int, upper: Int, weight: Double) {
        switch filter {
        case .nearest:
            let i = clampIndex(Int(clampedTexel(t * Double(size), size).rounded(.down)), size)
            return (i, i, 0)
        case .linear, .trilinear:
            let position = clampedTexel(t * Double(size) - 0.5, size)
            let below = position.rounded(.down)
            return (clampIndex(Int(below), size), clampIndex(Int(below) + 1, size), position - below)
        }
    }

    /// Four texels mixed bilinearly: across by `fx` on each row (a, b above; c, d below), then
    /// down by `fy`.
    @inline(__always)
    static func mix(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double), _ c: (Double, Double, Double, Double),
                    _ d: (Double, Double, Double, Double), fx: Double, fy: Double) -> (Double, Double, Double, Double) {
        func mix(_ p: Double, _ q: Double, _ r: Double, _ s: Double) -> Double {
            (p * (1 - fx) + q * fx) * (1 - fy) + (r * (1 - fx) + s * fx) * fy
        }
        return (mix(a.0, b.0, c.0, d.0), mix(a.1, b.1, c.1, d.1), mix(a.2, b.2, c.2, d.2), mix(a.3, b.3, c.3, d.3))
    }

    static func clampIndex(_ i: Int, _ n: Int) -> Int { min(max(i, 0), n - 1) }

    /// Clamp to edge happens on indices, but far-away coordinates are clamped first so the
    /// conversion to Int cannot overflow.
    static func clampedTexel(_ t: Double, _ n: Int) -> Double { min(max(t, -2), Double(n) + 1) }

    @inline(__always)
    private func texel(_ level: Level, _ x: Int, _ y: Int) -> (Double, Double, Double, Double) {
        let i = level.offset + (y * level.width + x) * 4
        let p = texels
        return (ByteUnits.value(p[i]), ByteUnits.value(p[i + 1]), ByteUnits.value(p[i + 2]), ByteUnits.value(p[i + 3]))
    }
}
