import ArgumentParser
import Foundation
import OpenCoreGraphics
import PixelDiff

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two PNG files; exit 1 when they are over the tolerance.",
        discussion: "By default any pixel with a channel more than 2/255 apart fails; --max-fraction allows a share "
            + "of such pixels and --min-psnr adds a PSNR floor (the GPU-vs-CPU bar is --max-fraction 0.001 --min-psnr 45).")

    @Argument(help: "The expected image (PNG).") var expected: String
    @Argument(help: "The actual image (PNG).") var actual: String
    @Option(help: "Write a heat map of the differences here (PNG).") var heatmap: String?
    @Option(help: "Per-channel difference (0-255) within which a pixel matches.") var tolerance = 2
    @Option(help: "Largest share of pixels allowed over the tolerance.") var maxFraction = 0.0
    @Option(help: "Least PSNR in dB (0: not checked).") var minPsnr = 0.0
    @Flag(help: "Print the comparison as one line of JSON.") var json = false

    func run() throws {
        let report: ComparisonReport
        do {
            let a = try CGImage.load(contentsOf: URL(fileURLWithPath: expected))
            let b = try CGImage.load(contentsOf: URL(fileURLWithPath: actual))
            report = try ImageComparison.compare(a.bitmap, b.bitmap, tolerance: tolerance)
            if let heatmap {
                try CGImage(bitmap: try HeatMap.make(expected: a.bitmap, actual: b.bitmap)).writePNG(to: URL(fileURLWithPath: heatmap))
            }
        } catch {
            printError("quartz diff: \(error)")
            throw QuartzExit.badInput
        }
        let bar = AgreementBar(tolerance: tolerance, minFractionWithin: 1 - maxFraction, minPSNR: minPsnr)
        let failure = bar.failure(of: report)
        if json {
            printJSON(["expected": expected, "actual": actual, "match": failure == nil, "maxChannelDelta": report.maxChannelDelta,
                       "pixelsOverTolerance": report.pixelsOverTolerance, "meanAbsoluteError": report.meanAbsoluteError,
                       "psnr": report.psnr.isFinite ? report.psnr : 999, "tolerance": tolerance])
        } else {
            print(report)
        }
        if let failure {
            printError("quartz diff: over the tolerance: \(failure)")
            throw QuartzExit.disagreement
        }
    }
}
