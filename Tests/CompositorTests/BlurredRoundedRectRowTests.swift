// The closed-form shadow evaluated a row at a time (BlurredRoundedRect.RowEvaluator, what the CPU
// reference draws with) against the function evaluated pixel by pixel: the same Float, bit for
// bit, for every kind of map and shape, so the reference's pixels do not move.
import Compositor
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Closed-form shadows, row by row")
struct BlurredRoundedRectRowTests {
    static let maps: [(String, ProjectiveTransform2D)] = [
        ("identity, shifted", ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: -3.25, m32: -7.5, m33: 1)),
        ("scaled by 0.5 (a 2x screen)", ProjectiveTransform2D(m11: 0.5, m12: 0, m13: 0, m21: 0, m22: 0.5, m23: 0, m31: 0, m32: 0, m33: 1)),
        ("turned", ProjectiveTransform2D(m11: cos(0.3), m12: -sin(0.3), m13: 0, m21: sin(0.3), m22: cos(0.3), m23: 0, m31: -10, m32: 4, m33: 1)),
        ("in perspective", ProjectiveTransform2D(m11: 1, m12: 0.1, m13: 0.002, m21: 0, m22: 1, m23: 0.001, m31: -5, m32: -5, m33: 1)),
    ]

    /// Rows compared: every one in the optimized suite (`make test-release`, CI), every fourth in
    /// a debug build (`make test`, the sanitizers), where the pixel-by-pixel side took 43 s.
    #if DEBUG
    static let rowStep = 4.0
    #else
    static let rowStep = 1.0
    #endif

    @Test("a row at a time gives alpha(atX:y:) to the bit; a turned or tilted one's grid within 0.6 / 255 of it",
          arguments: [0.0, 3.0, 12.0, 40.0], [0.5, 4.0, 20.0])
    func sameBits(corner: Double, sigma: Double) {
        for (name, map) in Self.maps {
            let shape = BlurredRoundedRect(deviceToLocal: map, rect: Rect(x: 4, y: 6, width: 80, height: 50),
                                           cornerRadius: corner, sigma: sigma,
                                           color: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0.5))
            var rows = BlurredRoundedRect.RowEvaluator(shape)
            var differing = 0, nonzero = 0
            for y in stride(from: -40.5, to: 120, by: Self.rowStep) {
                for x in stride(from: -40.5, to: 140, by: 1) {
                    let a = shape.alpha(atX: x, y: y), b = rows.alpha(atX: x, y: y)
                    // Level: the closed form, exact. Turned or tilted: its grid, read as the GPU reads it.
                    if rows.profile == nil ? a.bitPattern != b.bitPattern : abs(a - b) * 255 > 0.6 { differing += 1 }
                    if a > 0.01 { nonzero += 1 }
                }
            }
            #expect(differing == 0, "\(name), corner \(corner), sigma \(sigma): \(differing) values differ")
            #expect(Double(nonzero) > 1000 / Self.rowStep, "\(name): the shadow should cover the sampled area")
        }
    }

    @Test("a sharp turned or tilted shadow (no grid) gives the closed form's bits, pixel by pixel and a run at a time, its constant pieces' numbers too",
          arguments: [(420.0, 260.0), (60.0, 300.0)], [(24.0, 0.5), (24.0, 1.0), (40.0, 2.0), (12.0, 0.5)])
    func sharpTurnedSameBits(size: (Double, Double), shadow: (corner: Double, sigma: Double)) throws {
        // A card as wide as the peer scenes' (420 x 260), and a narrow one, turned and in
        // perspective: most of its pixels lie in the pieces where the closed form is one number,
        // given without working it out (the core and the arms reaching the edges between the
        // corners), and the pixels along its straight sides share their samples' state.
        let (corner, sigma) = shadow
        for (name, map) in Self.maps.dropFirst(2) {
            let shape = BlurredRoundedRect(deviceToLocal: map, rect: Rect(x: 10, y: 20, width: size.0, height: size.1),
                                           cornerRadius: corner, sigma: sigma,
                                           color: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0.5))
            var rows = BlurredRoundedRect.RowEvaluator(shape), runs = BlurredRoundedRect.RowEvaluator(shape)
            #expect(rows.profile == nil, "\(name): sigma \(sigma) with a corner of \(corner) is past the grid's size")
            let region = try #require(BlurredRoundedRect.ConstantRegion(BlurredRoundedRectProfile.Key(shape)))
            var differing = 0, inCore = 0, inPieces = 0, onCard = 0
            var out = [Float](repeating: .nan, count: 200)
            for y in stride(from: -60.5, to: size.1 + 100, by: 3 * Self.rowStep) {
                // Runs of the row as the CPU's renderer asks for them, every length to 23 and the
                // next run where one ends.
                var first = -61, length = 1
                while first < Int(size.0) + 80 {
                    out.withUnsafeMutableBufferPointer { runs.alphas(row: y, from: first, count: length, into: $0.baseAddress!) }
                    for i in 0..<length where out[i].bitPattern != shape.alpha(atX: Double(first + i) + 0.5, y: y).bitPattern {
                        differing += 1
                    }
                    first += length
                    length = length % 23 + 1
                }
                for x in stride(from: -60.5, to: size.0 + 80, by: 3) {
                    let a = shape.alpha(atX: x, y: y), b = rows.alpha(atX: x, y: y)
                    if a.bitPattern != b.bitPattern { differing += 1 }
                    guard let (px, py) = shape.planePoint(atX: x, y: y), abs(px) <= Float(size.0 / 2), abs(py) <= Float(size.1 / 2) else { continue }
                    onCard += 1
                    if region.core.contains(px: px, py: py) { inCore += 1 }
                    if region.piece(px: px, py: py) != nil { inPieces += 1 }
                }
            }
            #expect(differing == 0, "\(name), \(size), corner \(corner), sigma \(sigma): \(differing) values differ")
            // The pieces leave the corners and erf's reach along the edges (under 8 sigma: 7.8
            // along the sides, 3 along the top and bottom); the core alone left `corner` more
            // along every edge.
            let edge = 8 * sigma, expected = 1 - (2 * edge * (size.0 + size.1) + 4 * (corner + edge) * (corner + edge)) / (size.0 * size.1)
            #expect(Double(inPieces) >= expected * Double(onCard),
                    "\(name), \(size): the pieces hold \(inPieces) of the \(onCard) points on the card (core \(inCore)), under \(expected)")
        }
    }

    @Test("a run at a time (eight pixels a lane) gives alpha(atX:y:) to the bit", arguments: [0.0, 3.0, 12.0, 40.0], [0.5, 4.0, 20.0])
    func runsSameBits(corner: Double, sigma: Double) {
        let maps = Self.maps + [
            ("mirrored, shifted by a third", ProjectiveTransform2D(m11: -1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 150.0 / 3, m32: 1.0 / 3, m33: 1)),
            ("sheared along x, scaled by 3", ProjectiveTransform2D(m11: 3, m12: 0, m13: 0, m21: 0.25, m22: 3, m23: 0, m31: -200, m32: -100, m33: 1)),
            // The centre on a pixel's middle: each pixel right of it mirrors one left of it.
            ("the centre on a pixel's middle", ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: -0.5, m32: 0, m33: 1)),
            // Off the middle by a few billionths, under a Float step: the two sides' px round
            // apart at some pixels, whose mirror images are then not exact negations.
            ("the centre just off a pixel's middle", ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: -0.5 + 3e-9, m32: 0, m33: 1)),
            ("scaled by a third", ProjectiveTransform2D(m11: 1.0 / 3, m12: 0, m13: 0, m21: 0, m22: 1.0 / 3, m23: 0, m31: 4.0 / 3, m32: 0, m33: 1)),
        ]
        // Under every copy of the C kernels this processor runs (baseline, AVX2, AVX-512).
        let cases = maps.flatMap { map in KernelCopies.available.map { (map.0, map.1, $0) } }
        for (name, map, copy) in cases {
            let shape = BlurredRoundedRect(deviceToLocal: map, rect: Rect(x: 4, y: 6, width: 80, height: 50),
                                           cornerRadius: corner, sigma: sigma,
                                           color: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0.5))
            var rows = BlurredRoundedRect.RowEvaluator(shape)
            var differing = 0, nonzero = 0
            var out = [Float](repeating: .nan, count: 400)
            // Runs of every length from 1 to 23 (full lanes and tails), starting anywhere, and
            // the whole row as one run (the pixels on both sides of the centre).
            for y in stride(from: -40.5, to: 120, by: Self.rowStep) {
                var runs = [(-41, 181)], first = -41, length = 1
                while first < 140 {
                    runs.append((first, min(length, 140 - first)))
                    first += length
                    length = length % 23 + 1
                }
                for (first, length) in runs {
                    let run = Self.compare(&rows, row: y, from: first, count: length, copy: copy, out: &out)
                    differing += run.differing
                    nonzero += run.nonzero
                }
            }
            #expect(differing == 0, "\(name), corner \(corner), sigma \(sigma), \(KernelCopies.names[copy]): \(differing) values differ")
            #expect(Double(nonzero) > 300 / Self.rowStep, "\(name): the shadow should cover the sampled area")
        }
    }

    @Test("the same run row after row, its sample rows' erfs kept from row to row, gives alpha(atX:y:) to the bit",
          arguments: [3.0, 12.0, 24.0], [4.0, 20.0, 60.0])
    func keptRowsSameBits(corner: Double, sigma: Double) {
        // Wide against the shape's height (50): most rows sample the same rows of the shape, so
        // their erfs come from the evaluator's cache; two runs in turn every few rows (a
        // shadow's strips beside an opaque layer) empty it and fill it again.
        let map = ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: -0.5, m32: -3.25, m33: 1)
        let shape = BlurredRoundedRect(deviceToLocal: map, rect: Rect(x: 4, y: 6, width: 80, height: 50),
                                       cornerRadius: corner, sigma: sigma,
                                       color: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0.5))
        // Under every copy of the C kernels this processor runs (baseline, AVX2, AVX-512).
        for copy in KernelCopies.available {
            var rows = BlurredRoundedRect.RowEvaluator(shape)
            var out = [Float](repeating: .nan, count: 600)
            var differing = 0, nonzero = 0, compared = 0
            for (index, y) in stride(from: -200.5, to: 260, by: 1).enumerated() {
                let (first, count) = index % 7 < 5 ? (-230, 571) : (-57, 33)
                let run = Self.compare(&rows, row: y, from: first, count: count, copy: copy, out: &out)
                differing += run.differing
                nonzero += run.nonzero
                compared += count
            }
            #expect(differing == 0, "corner \(corner), sigma \(sigma), \(KernelCopies.names[copy]): \(differing) of \(compared) values differ")
            #expect(nonzero > 3000, "the shadow should cover the sampled area")
        }
    }

    /// One run's alphas from `rows` under kernel copy `copy`, against `alpha(atX:y:)` pixel by
    /// pixel: how many differ in any bit, and how many are over 0.01.
    static func compare(_ rows: inout BlurredRoundedRect.RowEvaluator, row y: Double, from first: Int, count: Int, copy: Int,
                        out: inout [Float]) -> (differing: Int, nonzero: Int) {
        KernelCopies.with(copy) {
            out.withUnsafeMutableBufferPointer { rows.alphas(row: y, from: first, count: count, into: $0.baseAddress!) }
        }
        var differing = 0, nonzero = 0
        // Each pixel as the evaluator gives it alone: the closed form where level, the grid where not.
        var pixels = BlurredRoundedRect.RowEvaluator(rows.shape)
        for i in 0..<count {
            let a = rows.profile == nil ? rows.shape.alpha(atX: Double(first + i) + 0.5, y: y) : pixels.alpha(atX: Double(first + i) + 0.5, y: y)
            if a.bitPattern != out[i].bitPattern { differing += 1 }
            if a > 0.01 { nonzero += 1 }
        }
        return (differing, nonzero)
    }

    @Test("erf is ±1 to the bit from erfWhole on, one lane or eight (the row's flat stretches rest on it)")
    func erfWhole() {
        var arguments = Array(stride(from: BlurredRoundedRect.erfWhole, through: 200, by: 0.001))
        arguments += [1e3, 1e6, 1e20, .greatestFiniteMagnitude, .infinity]
        for a in arguments {
            #expect(BlurredRoundedRect.erf(a) == 1 && BlurredRoundedRect.erf(-a) == -1, "erf(±\(a))")
        }
        for start in stride(from: 0, to: arguments.count - 8, by: 997) {
            let lanes = SIMD8<Float>(arguments[start..<start + 8])
            #expect(BlurredRoundedRect.erf(lanes) == SIMD8(repeating: 1) && BlurredRoundedRect.erf(-lanes) == SIMD8(repeating: -1))
        }
        // Just below, it is not: the margin is not zero.
        #expect(BlurredRoundedRect.erf(5.3) < 1)
    }
}
