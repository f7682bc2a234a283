// Every comparator on the constructed cases: identical images, one pixel off by 1, an
// anti-aliased edge shifted by a third of a pixel, a real change of one glyph, and a colour
// shift just under and just over each comparator's bar. The edge and glyph pairs are renders
// checked in under Pairs/ (with the scene documents that made them).
import Foundation
import OpenCoreGraphics
import PixelDiff
import Testing

let pairs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Pairs")

func pair(_ name: String) throws -> (Bitmap, Bitmap) {
    (try CGImage.load(contentsOf: pairs.appendingPathComponent("\(name)-a.png")).bitmap,
     try CGImage.load(contentsOf: pairs.appendingPathComponent("\(name)-b.png")).bitmap)
}

/// A 40x30 card: a bar of `colour` on light gray.
private func card(_ colour: (UInt8, UInt8, UInt8)) -> Bitmap {
    Bitmap(width: 40, height: 30) { x, y in x >= 8 && x < 32 && y >= 6 && y < 24 ? (colour.0, colour.1, colour.2, 255) : (238, 238, 240, 255) }
}

private let comparators: [(String, any PixelComparator)] = [
    ("exact", ExactComparator()),
    ("off by one", OffByOneComparator()),
    ("fuzzy 2% at 8/255", FuzzyComparator(maxDifferingFraction: 0.02, tolerance: 8)),
    ("pixelmatch", PixelmatchComparator()),
    ("ciede2000 0.98", CIEDE2000Comparator(precision: 0.98, perceptualPrecision: 0.98)),
    ("flip", FLIPComparator()),
]

@Suite("Comparators on constructed cases")
struct ConstructedCaseTests {
    @Test("identical images pass every comparator, with a zero score where the score is a difference")
    func identical() throws {
        let (a, _) = try pair("glyph")
        for (name, comparator) in comparators {
            let verdict = try comparator.compare(a, a)
            #expect(verdict.passed && verdict.differingPixels == 0, "\(name): \(verdict)")
        }
        #expect(try FLIP.evaluate(a, a).mean == 0)
    }

    @Test("one pixel off by one: only exact fails")
    func onePixelOffByOne() throws {
        let (a, _) = try pair("glyph")
        var b = a
        b.pixels[(50 * a.width + 80) * 4 + 1] &+= 1
        for (name, comparator) in comparators {
            #expect(try comparator.compare(a, b).passed == (name != "exact"), "\(name)")
        }
    }

    @Test("an anti-aliased edge shifted by a third of a pixel: the tolerant comparators pass, exact and off-by-one fail")
    func shiftedEdge() throws {
        let (a, b) = try pair("edge")
        let outcomes = try comparators.map { ($0.0, try $0.1.compare(a, b).passed) }
        let expected = ["exact": false, "off by one": false, "fuzzy 2% at 8/255": true, "pixelmatch": true, "ciede2000 0.98": true, "flip": true]
        for (name, passed) in outcomes { #expect(passed == expected[name], "\(name)") }
        // At full precision every changed edge pixel counts, as swift-snapshot-testing would say.
        #expect(try !CIEDE2000Comparator(precision: 1, perceptualPrecision: 0.98).compare(a, b).passed)
    }

    @Test("a real change of one glyph: pixelmatch and FLIP fail it while passing the edge shift; share-based bars cannot tell the two apart")
    func changedGlyph() throws {
        let (a, b) = try pair("glyph")
        // The glyph is 0.9% of this image and the shifted edge 1.5%: a bar that allows a share of
        // differing pixels large enough for the edge lets the glyph through. That is why the
        // perceptual comparators exist.
        let letThrough: Set<String> = ["fuzzy 2% at 8/255", "ciede2000 0.98"]
        for (name, comparator) in comparators {
            let verdict = try comparator.compare(a, b)
            #expect(verdict.passed == letThrough.contains(name), "\(name): \(verdict)")
            // The '7' -> '1' sits right of x = 90; nothing to the left is marked.
            let mask = verdict.diffMask
            var marked = 0, leftOfGlyph = 0
            for y in 0..<mask.height {
                for x in 0..<mask.width where mask[x, y] == (255, 0, 0, 255) {
                    marked += 1
                    if x < 90 { leftOfGlyph += 1 }
                }
            }
            #expect(marked > 20 && leftOfGlyph == 0, "\(name): \(marked) marked, \(leftOfGlyph) left of the glyph")
        }
    }

    @Test("a colour shift just under each perceptual bar passes and just over fails")
    func colourShift() throws {
        let base = card((51, 102, 204))
        // ΔE00 of these shifts of the bar: about 0.9 and 3.
        let slight = card((53, 104, 207)), clear = card((60, 112, 214))
        let deltaSlight = CIEDE2000.difference(CIEDE2000.lab(51, 102, 204), CIEDE2000.lab(53, 104, 207))
        let deltaClear = CIEDE2000.difference(CIEDE2000.lab(51, 102, 204), CIEDE2000.lab(60, 112, 214))
        #expect(deltaSlight < 2 && deltaClear > 2, "ΔE \(deltaSlight), \(deltaClear)")
        for comparator: any PixelComparator in [CIEDE2000Comparator(precision: 1, perceptualPrecision: 0.98), PixelmatchComparator(threshold: 0.03),
                                                FLIPComparator()] {
            #expect(try comparator.compare(base, slight).passed, "\(comparator)")
            #expect(try !comparator.compare(base, clear).passed, "\(comparator)")
        }
    }

    @Test("CIEDE2000 agrees with Sharma, Wu and Dalal's published test pairs")
    func sharmaPairs() {
        // (L, a, b) pairs and ΔE00 from the paper's table 1 (pairs 1, 7, 13, 17, 25, 34).
        let cases: [((Double, Double, Double), (Double, Double, Double), Double)] = [
            ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
            ((50, 0, 0), (50, -1, 2), 2.3669),
            ((50, 2.49, -0.001), (50, -2.49, 0.0011), 7.2195),
            ((50, 2.5, 0), (73, 25, -18), 27.1492),
            ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
            ((22.7233, 20.0904, -46.694), (23.0331, 14.973, -42.5619), 2.0373),
        ]
        for (p, q, expected) in cases {
            let d = CIEDE2000.difference(.init(l: p.0, a: p.1, b: p.2), .init(l: q.0, a: q.1, b: q.2))
            #expect(abs(d - expected) < 1e-4, "\(p) \(q): \(d), expected \(expected)")
        }
    }

    @Test("pictures: the triptych is expected | picture | actual; FLIP's map is magma; comparing other sizes is an error")
    func pictures() throws {
        let (a, b) = try pair("glyph")
        let verdict = try FLIPComparator().compare(a, b)
        let triptych = verdict.triptych(expected: a, actual: b)
        #expect(triptych.width == a.width * 3 + 8 && triptych.height == a.height)
        #expect(triptych[3, 3] == a[3, 3] && triptych[a.width * 2 + 8 + 3, 3] == b[3, 3])
        #expect(verdict.diffImage[2, 2] == (0, 0, 4, 255)) // magma's black where nothing differs
        for (name, comparator) in comparators {
            #expect(throws: ComparisonError.self, "\(name)") { try comparator.compare(a, Bitmap(width: 3, height: 3)) }
        }
    }

    @Test("FLIP refuses pixels per degree outside (0, 1000] with an error, where the filter sizes would overflow")
    func flipPixelsPerDegree() throws {
        let a = Bitmap(width: 8, height: 8) { x, _ in (UInt8(x * 30), 90, 90, 255) }
        let b = Bitmap(width: 8, height: 8) { x, _ in (UInt8(x * 30 + 5), 90, 90, 255) }
        for ppd: Float in [.infinity, .nan, 0, -1, 1e30, 1_000.5] {
            #expect(throws: ComparisonError.self, "\(ppd)") { _ = try FLIP.evaluate(a, b, pixelsPerDegree: ppd) }
        }
        #expect(try FLIP.evaluate(a, b, pixelsPerDegree: FLIP.maxPixelsPerDegree).mean > 0)
    }
}

