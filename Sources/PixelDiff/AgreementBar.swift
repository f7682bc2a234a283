import OpenCoreGraphics

/// When two renderings of one frame agree: the GPU-against-CPU bar of docs/testing.md, enforced by the
/// scene tests and by `quartz demo`.
///
/// Default: at least 99.9% of pixels within 2/255 on every channel, and PSNR at least 45 dB.
public struct AgreementBar: Equatable, Sendable, CustomStringConvertible {
    /// Per-channel difference within which a pixel matches. Default: 2.
    public var tolerance: Int
    /// Least share of matching pixels. Default: 0.999.
    public var minFractionWithin: Double
    /// Least PSNR in dB. Default: 45.
    public var minPSNR: Double

    public init(tolerance: Int = 2, minFractionWithin: Double = 0.999, minPSNR: Double = 45) {
        self.tolerance = tolerance
        self.minFractionWithin = minFractionWithin
        self.minPSNR = minPSNR
    }

    public static let gpuAgainstCPU = AgreementBar()

    /// nil when `report` meets the bar, else what it misses.
    public func failure(of report: ComparisonReport) -> String? {
        var misses: [String] = []
        if report.tolerance != tolerance {
            misses.append("report made with tolerance \(report.tolerance), bar needs \(tolerance)")
        }
        if report.fractionWithinTolerance < minFractionWithin {
            misses.append("\(report.pixelsOverTolerance) pixels differ by more than \(tolerance)/255 "
                + "(\(report.fractionWithinTolerance * 100)% within, bar \(minFractionWithin * 100)%)")
        }
        if report.psnr < minPSNR { misses.append("PSNR \(report.psnr) dB is under \(minPSNR) dB") }
        return misses.isEmpty ? nil : misses.joined(separator: "; ")
    }

    public var description: String {
        "\(minFractionWithin * 100)% of pixels within \(tolerance)/255 per channel and PSNR >= \(minPSNR) dB"
    }
}

/// The agreement bar as a comparator: per-channel tolerance, share of pixels within it, PSNR.
public struct AgreementBarComparator: RowComparator {
    public var bar: AgreementBar
    public init(_ bar: AgreementBar = .gpuAgainstCPU) { self.bar = bar }

    public func compare(_ expected: Bitmap, _ actual: Bitmap) throws -> ComparatorVerdict {
        let judgement = judge(try tallyWhole(expected, actual), width: expected.width, height: expected.height)
        let tolerance = bar.tolerance, width = expected.width
        return ComparatorVerdict(
            judgement,
            picture: { HeatMap.make(expected, actual, discardAlpha: false) },
            mask: { DiffMask.make(expected: expected) { x, y in ChannelScan.delta(expected, actual, (y * width + x) * 4, discardAlpha: false) > tolerance } })
    }

    public func contextRows(width: Int, height: Int) -> Int { 0 }

    public func tally(_ expected: Bitmap, _ actual: Bitmap, rows: Range<Int>, firstRow: Int, imageHeight: Int, into tally: inout DiffTally) throws {
        try ImageComparison.tally(expected, actual, rows: rows, tolerance: bar.tolerance, into: &tally)
    }

    public func judge(_ tally: DiffTally, width: Int, height: Int) -> Judgement {
        let report = ImageComparison.report(tally, width: width, height: height, tolerance: bar.tolerance)
        let failure = bar.failure(of: report)
        return Judgement(passed: failure == nil, comparator: "bar", differingPixels: report.pixelsOverTolerance, pixelCount: report.pixelCount,
                         summary: "bar: \(report)" + (failure.map { "; misses the bar: \($0)" } ?? ""), score: report.psnr)
    }
}
