// Source-over in integers (SourceOver.over) against the doubles it replaced, and a shadow's run
// blended at once (SourceOver.blend(_:times:...)) against blending its pixels one by one: the
// CPU reference's bytes must not move.
import Compositor
import RasterBackend
import Testing

@Suite("Source-over in integers")
struct SourceOverTests {
    @Test("gives the doubles' byte for every source, alpha and pixel beneath")
    func everyTriple() {
        var differing: [(UInt8, UInt8, UInt8)] = []
        for a in 0...255 {
            let keepValue = 1 - ByteUnits.value(UInt8(a)), keep = 255 - a
            for s in 0...255 {
                let source = ByteUnits.value(UInt8(s))
                for d in 0...255 {
                    let expected = SourceOver.quantize(source + ByteUnits.value(UInt8(d)) * keepValue)
                    if SourceOver.over(UInt8(s), keep, UInt8(d)) != expected, differing.count < 10 {
                        differing.append((UInt8(s), UInt8(a), UInt8(d)))
                    }
                    // The run's 16-bit lanes (SourceOver.blend(_:times:...)), for premultiplied
                    // sources: x = 255 s + d keep + 127 and (x + 1 + x >> 8) >> 8 for x / 255.
                    if s <= a {
                        let x = UInt16(255 * s + d * keep + 127)
                        if UInt8(truncatingIfNeeded: (x &+ 1 &+ (x &>> 8)) &>> 8) != expected, differing.count < 10 {
                            differing.append((UInt8(s), UInt8(a), UInt8(d)))
                        }
                    }
                }
            }
        }
        #expect(differing.isEmpty, "source, alpha, pixel: \(differing)")
    }

    @Test("a mask's stretch scaled at once (kept at 1, cleared at 0, else a table) gives the bytes of scaling each pixel",
          arguments: [0.0, 0.001, 0.5, 0.37, 0.999, 0.9985, 1.0, 1.2])
    func scaledStretch(alpha: Double) {
        // Every byte beneath, in stretches shorter and longer than the table's threshold.
        for count in [3, 64, 300] {
            let pixels = (0..<(count * 4)).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            var expected = pixels, actual = pixels
            expected.withUnsafeMutableBufferPointer { out in
                for i in 0..<count { SourceOver.scale(by: alpha, out, at: i * 4) }
            }
            actual.withUnsafeMutableBufferPointer { SourceOver.scale(by: alpha, $0, from: 0, to: count * 4) }
            #expect(actual == expected, "alpha \(alpha), \(count) pixels")
        }
    }

    @Test("a shadow's run blended at once gives the bytes of blending each pixel's colour",
          arguments: [(0.0, 0.0, 0.0, 0.5), (0.0, 0.0, 0.0, 1.0), (0.12, 0.3, 0.05, 0.6), (1.0, 1.0, 1.0, 1.0)])
    func shadowRun(solid: (Double, Double, Double, Double)) {
        let count = 3_000
        var state: UInt32 = 2024
        func next() -> UInt32 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return state >> 8
        }
        // Alphas over the whole range with exact zeros and ones among them.
        let alphas: [Float] = (0..<count).map { i in i % 97 == 0 ? 0 : i % 89 == 0 ? 1 : Float(next() % 100_001) / 100_000 }
        let pixels = Self.pixels(count: count)
        for tint in [nil, (0.9, 0.5, 0.25, 0.8)] as [(Double, Double, Double, Double)?] {
            for opacity in [1.0, 0.37] {
                Self.expectSameBytes(solid, alphas, over: pixels, tint: tint, opacity: opacity)
            }
        }
    }

    @Test("a black shadow's run (its bytes worked out in floats where that is sure) gives the bytes of blending each pixel, on either side of every byte's boundary",
          arguments: [(1.0, 1.0, 1.0), (0.5, 1.0, 1.0), (0.5, 0.8, 0.37), (1.0, 1.0, 0.8123), (0.999_999, 1.0, 1.0), (0.3, 0.9, 0.04)])
    func blackRun(alphaTintOpacity: (Double, Double, Double)) {
        let (alpha, tintAlpha, opacity) = alphaTintOpacity
        // Each byte b's boundary lies where ((alpha * a) * tint) * opacity * 255 + 0.5009765625
        // is b. Alphas a put that sum a little past the kernel's margin (1/1024) on either side,
        // where the floats decide (grouped, so whole sixteens of them take the float path),
        // then within it, where the doubles do; then every 4,099th float of 0...1.
        let k = alpha * tintAlpha * opacity * 255
        func at(_ t: Double) -> Float { Float((t - 0.5009765625) / k) }
        var sure: [Float] = [], unsure: [Float] = []
        for b in 1...255 {
            for delta in [0.0011, 0.002, 0.01, 0.3] { sure += [at(Double(b) + delta), at(Double(b) - delta)] }
            let boundary = at(Double(b))
            unsure += [boundary, boundary.nextUp, boundary.nextDown, boundary.nextUp.nextUp, at(Double(b) + 5e-4), at(Double(b) - 5e-4)]
        }
        let spread = stride(from: UInt32(0), through: Float(1).bitPattern, by: 4_099).map { Float(bitPattern: $0) }
        let alphas = (sure + unsure + spread).filter { $0 >= 0 && $0 <= 1 }
        let tint = tintAlpha == 1 ? nil : (0.5, 0.25, 0.75, tintAlpha)
        Self.expectSameBytes((0, 0, 0, alpha), alphas, over: Self.pixels(count: alphas.count), tint: tint, opacity: opacity)
    }

    /// `count` premultiplied pixels, pseudo-random.
    static func pixels(count: Int) -> [UInt8] {
        var state: UInt32 = 77
        func next() -> UInt32 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return state >> 8
        }
        var pixels = [UInt8](repeating: 0, count: count * 4)
        for i in 0..<count {
            let a = UInt8(next() % 256)
            pixels[i * 4] = UInt8(next() % (UInt32(a) + 1)); pixels[i * 4 + 1] = UInt8(next() % (UInt32(a) + 1))
            pixels[i * 4 + 2] = a / 3; pixels[i * 4 + 3] = a
        }
        return pixels
    }

    @Test("a run of one colour through oq_solid_over gives its table's bytes and blend's, in every copy, at every length")
    func solidRuns() {
        var state: UInt32 = 0x9E37_79B9
        func next() -> UInt32 {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return state
        }
        // Premultiplied colours (each byte at most alpha's) at the ends and in between.
        var colours: [(Double, Double, Double, Double)] = [(0, 0, 0, 0), (0, 0, 0, 1), (1, 1, 1, 1), (0.5, 0.5, 0.5, 0.5),
                                                          (0.2, 0, 0.1, 0.2), (0, 0.003, 0, 0.004), (0.85, 0.1, 0.4, 0.85)]
        for _ in 0..<40 {
            let a = Double(next() % 1001) / 1000
            colours.append((a * Double(next() % 1001) / 1000, a * Double(next() % 1001) / 1000, a * Double(next() % 1001) / 1000, a))
        }
        let pixels = (0..<(64 * 4)).map { _ in UInt8(truncatingIfNeeded: next()) }
        var runs = 0
        for c in colours {
            let table = SourceOver.table(red: c.0, green: c.1, blue: c.2, alpha: c.3)
            #expect(table.source != nil, "\(c) is premultiplied")
            for count in [0, 1, 3, 7, 15, 16, 17, 31, 33, 64] {
                let start = Int(next() % UInt32(64 - count + 1))
                var expected = pixels
                expected.withUnsafeMutableBufferPointer { out in
                    for i in start..<(start + count) { SourceOver.blend(red: c.0, green: c.1, blue: c.2, alpha: c.3, into: out, at: i * 4) }
                }
                // The table's lookups (what ran before the kernel), and the pixel-by-pixel path.
                let lut = SourceOver.lookups(red: c.0, green: c.1, blue: c.2, alpha: c.3)
                var looked = pixels
                for i in (start * 4)..<((start + count) * 4) { looked[i] = lut[i % 4 * 256 + Int(looked[i])] }
                #expect(looked == expected, "the table's lookups, \(c)")
                var slow = pixels
                slow.withUnsafeMutableBufferPointer {
                    SourceOver.apply(table, to: $0, from: start * 4, to: (start + count) * 4, usesKernel: false)
                }
                #expect(slow == expected, "blending pixel by pixel, \(c)")
                for copy in KernelCopies.available {
                    var actual = pixels
                    KernelCopies.with(copy) {
                        actual.withUnsafeMutableBufferPointer { SourceOver.apply(table, to: $0, from: start * 4, to: (start + count) * 4) }
                    }
                    let differing = (0..<pixels.count).filter { actual[$0] != expected[$0] }
                    #expect(differing.isEmpty, "\(KernelCopies.names[copy]): \(differing.count) bytes differ for \(c), \(count) pixels")
                    runs += 1
                }
            }
        }
        #expect(runs >= colours.count * 10)
        // Adding, and a colour byte over alpha's, keep to the lookups.
        #expect(SourceOver.table(red: 0.2, green: 0.2, blue: 0.2, alpha: 0.5, adding: true).source == nil)
        #expect(SourceOver.table(red: 0.6, green: 0.2, blue: 0.2, alpha: 0.5).source == nil)
    }

    /// `SourceOver.blend(_:times:...)` of `solid` times `alphas` over `pixels`, under every copy
    /// of the C kernel this processor runs (baseline, AVX2, AVX-512), against blending each
    /// pixel's colour one by one.
    static func expectSameBytes(_ solid: (Double, Double, Double, Double), _ alphas: [Float], over pixels: [UInt8],
                                tint: (Double, Double, Double, Double)?, opacity: Double) {
        var expected = pixels
        expected.withUnsafeMutableBufferPointer { out in
            for (i, alpha) in alphas.enumerated() {
                let a = Double(alpha)
                var c = (solid.0 * a, solid.1 * a, solid.2 * a, solid.3 * a)
                if let tint { c = (c.0 * tint.0, c.1 * tint.1, c.2 * tint.2, c.3 * tint.3) }
                SourceOver.blend(red: c.0 * opacity, green: c.1 * opacity, blue: c.2 * opacity, alpha: c.3 * opacity, into: out, at: i * 4)
            }
        }
        for copy in KernelCopies.available {
            var actual = pixels
            KernelCopies.with(copy) {
                alphas.withUnsafeBufferPointer { alphas in
                    actual.withUnsafeMutableBufferPointer { out in
                        SourceOver.blend(solid, times: alphas.baseAddress!, count: alphas.count, tint: tint, opacity: opacity, into: out.baseAddress!)
                    }
                }
            }
            let differing = (0..<alphas.count * 4).filter { actual[$0] != expected[$0] }
            #expect(differing.isEmpty, "\(KernelCopies.names[copy]): \(differing.count) bytes differ (solid \(solid), tint \(String(describing: tint)), opacity \(opacity)), the first at \(differing.first ?? -1)")
        }
        #expect(expected != pixels, "the run should change pixels")
    }
}
