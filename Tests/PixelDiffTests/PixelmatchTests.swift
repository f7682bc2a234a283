// The pixelmatch comparator: constructed cases (identical, one pixel off, an anti-aliased edge
// shifted, a real change, colour shifts around the threshold). The cross-check against the
// reference package is in ReferencePackageTests.
import Foundation
import OpenCoreGraphics
import PixelDiff
import Testing

/// An opaque image: white, with an anti-aliased disc (exact area coverage, 8x8 samples) and a
/// bar of `bar` colour.
private func picture(discAt center: (Double, Double), radius: Double = 11, bar: (UInt8, UInt8, UInt8) = (40, 90, 200),
                     width: Int = 48, height: Int = 40) -> Bitmap {
    Bitmap(width: width, height: height) { x, y in
        if x >= 30 && x < 44 && y >= 6 && y < 34 { return (bar.0, bar.1, bar.2, 255) }
        var inside = 0
        for sy in 0..<8 {
            for sx in 0..<8 {
                let dx = Double(x) + (Double(sx) + 0.5) / 8 - center.0, dy = Double(y) + (Double(sy) + 0.5) / 8 - center.1
                if dx * dx + dy * dy <= radius * radius { inside += 1 }
            }
        }
        let c = 255 - UInt8(Double(inside) / 64 * 235)
        return (c, c, 255 - UInt8(Double(inside) / 64 * 100), 255)
    }
}

@Suite("Pixelmatch")
struct PixelmatchTests {
    @Test("identical images: nothing differs")
    func identical() throws {
        let a = picture(discAt: (15, 20))
        #expect(try Pixelmatch.compare(a, a).differingPixels == 0)
        // The fast path for identical images draws the picture the full comparison draws.
        var nearly = a
        nearly.pixels[(10 * a.width + 40) * 4] &+= 1 // inside the bar: 40 -> 41
        #expect(try Pixelmatch.compare(a, a).diffImage == Pixelmatch.compare(a, nearly).diffImage)
    }

    @Test("one pixel changed a lot is one differing pixel; by 1/255 it is none")
    func onePixel() throws {
        let a = picture(discAt: (15, 20))
        var b = a, c = a
        let i = (10 * a.width + 40) * 4 // inside the bar
        b.pixels[i] = 255
        c.pixels[i] &+= 1
        #expect(try Pixelmatch.compare(a, b).differingPixels == 1)
        #expect(try Pixelmatch.compare(a, c).differingPixels == 0)
    }

    @Test("an anti-aliased edge moved by a fraction of a pixel is anti-aliasing, not a difference, unless included")
    func shiftedEdge() throws {
        let a = picture(discAt: (15, 20)), b = picture(discAt: (15.4, 20.3))
        let report = try Pixelmatch.compare(a, b)
        #expect(report.antialiasedPixels > 10)
        #expect(report.differingPixels < report.antialiasedPixels / 4, "\(report)")
        #expect(try Pixelmatch.compare(a, b, includeAntialiasing: true).differingPixels > report.differingPixels)
    }

    @Test("a colour shift below the threshold passes, one above it fails every pixel of the bar")
    func colourShift() throws {
        let a = picture(discAt: (15, 20))
        let slight = picture(discAt: (15, 20), bar: (44, 94, 204)), strong = picture(discAt: (15, 20), bar: (90, 140, 240))
        #expect(try Pixelmatch.compare(a, slight).differingPixels == 0)
        #expect(try Pixelmatch.compare(a, strong).differingPixels == 14 * 28)
        #expect(throws: ComparisonError.self) { try Pixelmatch.compare(a, Bitmap(width: 2, height: 2)) }
    }
}
