// The comparators, named as Chromium's pixel_comparator.h: exact, off by one, fuzzy (share of
// differing pixels, channel limit, border, alpha), and pixelmatch's, on constructed cases.
import Foundation
import OpenCoreGraphics
import PixelDiff
import Testing

private func gray(_ value: UInt8, alpha: UInt8 = 255) -> Bitmap {
    Bitmap(width: 10, height: 10) { _, _ in (value, value, value, alpha) }
}

private func with(_ base: Bitmap, _ changes: [(Int, Int, Int)]) -> Bitmap {
    var b = base
    for (x, y, delta) in changes {
        let i = (y * b.width + x) * 4
        for c in 0..<3 { b.pixels[i + c] = UInt8(clamping: Int(b.pixels[i + c]) + delta) }
    }
    return b
}

@Suite("Pixel comparators")
struct PixelComparatorTests {
    @Test("exact: identical passes, one pixel off by one fails")
    func exact() throws {
        let a = gray(100)
        #expect(try ExactComparator().compare(a, a).passed)
        let verdict = try ExactComparator().compare(a, with(a, [(3, 3, 1)]))
        #expect(!verdict.passed && verdict.differingPixels == 1)
    }

    @Test("off by one: rounding differences pass, two off fails")
    func offByOne() throws {
        let a = gray(100)
        #expect(try OffByOneComparator().compare(a, with(a, [(0, 0, 1), (5, 5, -1)])).passed)
        #expect(try !OffByOneComparator().compare(a, with(a, [(5, 5, 2)])).passed)
    }

    @Test("fuzzy: a share of differing pixels and a channel limit; the border left out; alpha discarded on request")
    func fuzzy() throws {
        let a = gray(100)
        let few = with(a, [(2, 2, 20), (7, 7, 20)])            // 2% of pixels, 20 off
        #expect(try FuzzyComparator(maxDifferingFraction: 0.02, maxChannelDelta: 20).compare(a, few).passed)
        #expect(try !FuzzyComparator(maxDifferingFraction: 0.01, maxChannelDelta: 20).compare(a, few).passed)
        #expect(try !FuzzyComparator(maxDifferingFraction: 0.02, maxChannelDelta: 19).compare(a, few).passed)
        let edge = with(a, [(0, 4, 90), (9, 9, 90)])
        #expect(try !FuzzyComparator(maxDifferingFraction: 0, maxChannelDelta: 0).compare(a, edge).passed)
        let bordered = try FuzzyComparator(maxDifferingFraction: 0, maxChannelDelta: 0, border: 1).compare(a, edge)
        #expect(bordered.passed && bordered.pixelCount == 64)
        #expect(try !ExactComparator().compare(a, gray(100, alpha: 200)).passed)
        #expect(try ExactComparator(discardAlpha: true).compare(a, gray(100, alpha: 200)).passed)
        #expect(throws: ComparisonError.self) { try FuzzyComparator(maxDifferingFraction: 1).compare(a, Bitmap(width: 3, height: 3)) }
    }

    @Test("pixelmatch as a comparator: a colour shift below its threshold passes, above fails, with a picture")
    func pixelmatch() throws {
        let a = gray(100)
        let verdict = try PixelmatchComparator().compare(a, with(a, [(4, 4, 60)]))
        #expect(!verdict.passed && verdict.differingPixels == 1 && verdict.diffImage.width == 10)
        #expect(verdict.diffImage[4, 4] == (255, 0, 0, 255))
        #expect(try PixelmatchComparator().compare(a, with(a, [(4, 4, 3)])).passed)
        #expect(try PixelmatchComparator(maxDifferingPixels: 1).compare(a, with(a, [(4, 4, 60)])).passed)
    }
}
