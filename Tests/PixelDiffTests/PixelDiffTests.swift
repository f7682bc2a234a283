// Image comparison metrics, the agreement bar and heat maps, on images with known differences.
import Foundation
import OpenCoreGraphics
import PixelDiff
import Testing

private func gray(_ value: UInt8, width: Int = 10, height: Int = 10) -> Bitmap {
    Bitmap(width: width, height: height) { _, _ in (value, value, value, 255) }
}

@Suite("Pixel diff")
struct PixelDiffTests {
    @Test("identical images: no delta, infinite PSNR, all within tolerance")
    func identical() throws {
        let report = try ImageComparison.compare(gray(90), gray(90))
        #expect(report.isIdentical && report.psnr == .infinity && report.pixelsOverTolerance == 0)
        #expect(report.meanAbsoluteError == 0 && report.fractionWithinTolerance == 1)
    }

    @Test("one pixel off by 10 in one channel: counted, and the metrics follow by hand")
    func singleDifference() throws {
        var changed = gray(100)
        changed.pixels[(3 * 10 + 4) * 4 + 1] = 110
        let report = try ImageComparison.compare(gray(100), changed, tolerance: 2)
        #expect(report.maxChannelDelta == 10 && report.pixelsOverTolerance == 1)
        #expect(report.fractionOverTolerance == 0.01)
        #expect(abs(report.meanAbsoluteError - 10.0 / 400) < 1e-12)
        // MSE = 100 / 400 = 0.25 -> PSNR = 10 log10(65025 / 0.25)
        #expect(abs(report.psnr - 10 * log10(65025 / 0.25)) < 1e-9)
    }

    @Test("differences within tolerance are not counted")
    func withinTolerance() throws {
        let report = try ImageComparison.compare(gray(100), gray(102), tolerance: 2)
        #expect(report.maxChannelDelta == 2 && report.pixelsOverTolerance == 0)
        #expect(try ImageComparison.compare(gray(100), gray(103), tolerance: 2).pixelsOverTolerance == 100)
    }

    @Test("the bar fails on too many differing pixels or too low a PSNR, and says which")
    func agreementBar() throws {
        let bar = AgreementBar.gpuAgainstCPU
        #expect(bar.failure(of: try ImageComparison.compare(gray(100), gray(101))) == nil)
        let far = try ImageComparison.compare(gray(100), gray(140))
        let message = try #require(bar.failure(of: far))
        #expect(message.contains("100 pixels differ") && message.contains("PSNR"))
        var oneOff = gray(100, width: 100, height: 100)
        oneOff.pixels[0] = 0 // one pixel of 10,000 is 0.01% > 0.1%? no: within the bar's 0.1%
        let report = try ImageComparison.compare(gray(100, width: 100, height: 100), oneOff)
        #expect(report.pixelsOverTolerance == 1 && report.fractionWithinTolerance >= 0.999)
        #expect(bar.failure(of: report) == nil) // PSNR: MSE 10000 / 40000 = 0.25 -> 54 dB
    }

    @Test("images of different sizes cannot be compared")
    func sizeMismatch() {
        #expect(throws: ComparisonError.sizeMismatch(expected: "10x10", actual: "5x10")) {
            try ImageComparison.compare(gray(1), gray(1, width: 5))
        }
    }

    @Test("the heat map is dim gray where equal and on the ramp where not, stronger for larger deltas")
    func heatMap() throws {
        var changed = gray(200, width: 3, height: 1)
        changed.pixels[4] = 201 // pixel 1 off by 1
        changed.pixels[8] = 0   // pixel 2 off by 200
        let map = try HeatMap.make(expected: gray(200, width: 3, height: 1), actual: changed)
        let same = map[0, 0], small = map[1, 0], large = map[2, 0]
        #expect(same.0 == same.1 && same.1 == same.2 && same.0 < 100)
        #expect(small.2 > small.0) // blue end of the ramp
        #expect(large.0 == 255 && large.1 > 100 && large.2 == 0) // yellow end
    }
}
