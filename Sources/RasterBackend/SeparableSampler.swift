import CPixelKernels
import Compositor
import OpenCoreGraphics

/// A texture sampled through an axis-aligned map (no turn, skew or perspective: a group's or
/// mask's pass composited where it was drawn, an image scaled into its layer): the texel
/// columns and weights of each pixel column are worked out once, and those of each row once,
/// where `TextureSampler` maps every pixel centre through the projective map.
///
/// The same numbers as `TextureSampler.sample`: each column's indices and weight are made by its
/// very expressions (a map with m12 = m21 = m13 = m23 = 0 gives u = (x m11 + m31) / m33
/// exactly, whatever the row; m33 is 1 but for the last bits an inverse leaves), and the four texels are mixed by its expression. Where every
/// weight is 0 (nearest sampling, or bilinear whose pixel centres land on texel centres: a pass
/// shifted by whole pixels) each pixel is one texel (`picks`), and a row of source-over is
/// blended from per-channel tables of the bytes (`blendPicks`). `SeparableSamplerTests` holds its
/// frames to the projective sampler's, byte for byte.
///
/// Valid only inside `TextureSampler.with`, as the texels it reads.
struct SeparableSampler {
    /// One axis: for each pixel column (or row) from `first`, the two texel indices either side
    /// of its sample and the weight of the second (0 for nearest).
    struct Axis {
        let first: Int
        let lower: [Int]
        let upper: [Int]
        let weight: [Double]
        /// Every weight is 0: each pixel reads the texel at `lower`.
        let picks: Bool

        /// The axis over `pixels` of a texture `size` texels long, a pixel centre c mapped to
        /// (c * scale + offset) / divisor (in 0...1 over the texture); nil where a centre maps off
        /// the finite numbers.
        init?(pixels: Range<Int>, scale: Double, offset: Double, divisor: Double, size: Int, filter: SamplingFilter) {
            first = pixels.lowerBound
            var lower = [Int](), upper = [Int](), weight = [Double]()
            lower.reserveCapacity(pixels.count); upper.reserveCapacity(pixels.count); weight.reserveCapacity(pixels.count)
            var picks = true
            for p in pixels {
                // TextureSampler.sampleTexel's u, one axis, and its texels and weight there.
                let u = ((Double(p) + 0.5) * scale + offset) / divisor
                guard u.isFinite else { return nil }
                let span = TextureSampler.span(u, size: size, filter: filter)
                lower.append(span.lower); upper.append(span.upper); weight.append(span.weight)
                if span.weight != 0 { picks = false }
            }
            (self.lower, self.upper, self.weight, self.picks) = (lower, upper, weight, picks)
        }
    }

    let columns: Axis
    let rows: Axis
    let texels: UnsafePointer<UInt8>
    let width: Int
    let alphaOnly: Bool

    /// Each pixel is one texel.
    var picks: Bool { columns.picks && rows.picks }

    /// Premultiplied RGBA in 0...1 at pixel (x, y) (its centre), as `TextureSampler.sample` gives it.
    @inline(__always)
    func sample(_ x: Int, _ y: Int) -> (Double, Double, Double, Double) {
        let i = x - columns.first, j = y - rows.first
        let x0 = columns.lower[i], y0 = rows.lower[j]
        let c: (Double, Double, Double, Double)
        if picks {
            c = texel(x0, y0)
        } else {
            let x1 = columns.upper[i], y1 = rows.upper[j]
            c = TextureSampler.mix(texel(x0, y0), texel(x1, y0), texel(x0, y1), texel(x1, y1), fx: columns.weight[i], fy: rows.weight[j])
        }
        return alphaOnly ? (c.3, c.3, c.3, c.3) : c
    }

    @inline(__always)
    private func texel(_ x: Int, _ y: Int) -> (Double, Double, Double, Double) {
        let p = texels + (y * width + x) * 4
        return (ByteUnits.value(p[0]), ByteUnits.value(p[1]), ByteUnits.value(p[2]), ByteUnits.value(p[3]))
    }

    /// Source-over of pixels `start..<end` of row `y`, each wholly covered, its colour the sample
    /// times `tint` and then `opacity`, rounded by `SourceOver.blend` as the quad's slow path
    /// rounds it (which blends the same colours, only through runs and tables).
    /// `usesKernel`: through `oq_texture_over`, the same bytes (the tests hold the two together).
    func blendRow(_ y: Int, from start: Int, to end: Int, tint: PremultipliedColor, opacity: Double,
                  into pixels: UnsafeMutableBufferPointer<UInt8>, width targetWidth: Int, usesKernel: Bool = true) {
        guard end > start else { return }
        if usesKernel {
            let j = y - rows.first, i = start - columns.first
            let top = texels + rows.lower[j] * width * 4, bottom = texels + rows.upper[j] * width * 4
            // The tint's four values as a tuple on the stack (an array was an allocation a row).
            withUnsafePointer(to: (tint.red, tint.green, tint.blue, tint.alpha)) {
                $0.withMemoryRebound(to: Double.self, capacity: 4) { tints in
                    columns.lower.withUnsafeBufferPointer { lower in
                        columns.upper.withUnsafeBufferPointer { upper in
                            columns.weight.withUnsafeBufferPointer { weight in
                                oq_texture_over(pixels.baseAddress! + (y * targetWidth + start) * 4, end - start, top, bottom,
                                                lower.baseAddress! + i, upper.baseAddress! + i, weight.baseAddress! + i,
                                                rows.weight[j], tints, opacity, alphaOnly ? 1 : 0)
                            }
                        }
                    }
                }
            }
            return
        }
        let t = (tint.red, tint.green, tint.blue, tint.alpha), k = opacity
        for x in start..<end {
            let c = sample(x, y)
            SourceOver.blend(red: c.0 * t.0 * k, green: c.1 * t.1 * k, blue: c.2 * t.2 * k, alpha: c.3 * t.3 * k,
                             into: pixels, at: (y * targetWidth + x) * 4)
        }
    }

    /// The bytes a picked texel's channels become as a source: entry channel x 256 + byte is
    /// `(value * tint) * opacity` rounded, the colour the quad's slow path blends (`SourceOver.blend`
    /// rounds it so), for `blendPicks`.
    struct PickTable {
        let bytes: [UInt8]
        /// Every entry is its own byte (no tint, opacity 1): each source is its texel as it is.
        let isIdentity: Bool

        init(tint: PremultipliedColor, opacity: Double) {
            let factors = [tint.red, tint.green, tint.blue, tint.alpha]
            let bytes = (0..<1024).map { SourceOver.rounded(ByteUnits.value(UInt8($0 & 255)) * factors[$0 >> 8] * opacity) }
            self.bytes = bytes
            isIdentity = bytes.indices.allSatisfy { bytes[$0] == UInt8($0 & 255) }
        }
    }

    /// Source-over (or, `masking`, destination-in) of pixels `start..<end` of row `y`, each wholly
    /// covered and one texel (`picks`), its channels' source bytes read from `table`:
    /// `SourceOver.blend` and `SourceOver.scale` of the bytes the slow path rounds its colour to.
    /// `usesKernel`: through `oq_picks_over`, the same bytes (`PassCompositeKernelTests` holds the
    /// two together), which blends a run of texels one after another under the identity table
    /// (a pass composited where it was drawn, whole) many bytes at once.
    func blendPicks(row y: Int, from start: Int, to end: Int, table: PickTable, masking: Bool = false,
                    into pixels: UnsafeMutableBufferPointer<UInt8>, width targetWidth: Int, usesKernel: Bool = true) {
        guard end > start else { return }
        let rowTexels = texels + rows.lower[y - rows.first] * width * 4
        if usesKernel {
            table.bytes.withUnsafeBufferPointer { bytes in
                columns.lower.withUnsafeBufferPointer { lower in
                    oq_picks_over(pixels.baseAddress! + (y * targetWidth + start) * 4, end - start, rowTexels,
                                  lower.baseAddress! + (start - columns.first), bytes.baseAddress!, alphaOnly ? 1 : 0,
                                  masking ? 1 : 0, table.isIdentity ? 1 : 0)
                }
            }
            return
        }
        // Alpha-only: every channel reads the texel's alpha.
        let source = alphaOnly ? (3, 3, 3, 3) : (0, 1, 2, 3)
        table.bytes.withUnsafeBufferPointer { table in
            columns.lower.withUnsafeBufferPointer { lower in
                for x in start..<end {
                    let t = rowTexels + lower[x - columns.first] * 4, i = (y * targetWidth + x) * 4
                    if masking {
                        // The alpha byte's value, which SourceOver.scale rounds to that very byte.
                        SourceOver.scale(by: ByteUnits.value(table[768 + Int(t[source.3])]), pixels, at: i)
                    } else {
                        SourceOver.blend(r: table[Int(t[source.0])], g: table[256 + Int(t[source.1])], b: table[512 + Int(t[source.2])],
                                         a: table[768 + Int(t[source.3])], into: pixels, at: i)
                    }
                }
            }
        }
    }
}

extension RasterRenderer {
    /// How a quad's texture is sampled over its pixels (the tests check which path a frame took).
    package enum TextureSampling: Equatable, Sendable {
        /// Each pixel one texel, through byte tables where blended over.
        case picks
        /// Through the columns' and rows' texels and weights worked out once.
        case separable
        /// Each pixel centre through the projective map.
        case projective
    }

    /// The path `quad`'s texture takes over its pixel bounds; nil where it draws no texture.
    package func textureSampling(of quad: QuadOp, textures: [UInt64: Bitmap], passes: [Int: Bitmap] = [:]) -> TextureSampling? {
        guard case .texture(let fill) = quad.fill, let bitmap = Self.bitmap(of: fill, images: textures, passes: passes) else { return nil }
        let bounds = quad.polygon.pixelBounds
        return TextureSampler.with(bitmap, fill: fill) { sampler in
            guard samplesSeparably, let separable = sampler.separable(columns: bounds.minX..<bounds.maxX, rows: bounds.minY..<bounds.maxY)
            else { return .projective }
            return separable.picks ? .picks : .separable
        }
    }
}
