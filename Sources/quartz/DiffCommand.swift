import ArgumentParser
import Foundation
import OpenCoreGraphics
import PixelDiff

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two PNG files; exit 1 when they do not match.",
        discussion: "By default (--comparator bar) any pixel with a channel more than --tolerance apart counts; "
            + "--max-fraction allows a share of such pixels and --min-psnr adds a PSNR floor (the GPU-vs-CPU bar is "
            + "--max-fraction 0.001 --min-psnr 45). The other comparators are Chromium's exact, off-by-one and fuzzy "
            + "(--max-fraction, --max-delta, --tolerance, --border) and pixelmatch's perceptual one (--threshold, "
            + "--include-aa, --max-pixels). --diff-image writes the comparator's own picture.")

    enum Comparator: String, ExpressibleByArgument, CaseIterable {
        case bar, exact, offByOne = "off-by-one", fuzzy, pixelmatch
    }

    @Argument(help: "The expected image (PNG).") var expected: String
    @Argument(help: "The actual image (PNG).") var actual: String
    @Option(help: "bar, exact, off-by-one, fuzzy or pixelmatch.") var comparator: Comparator = .bar
    @Option(help: "Write a heat map of the differences here (PNG).") var heatmap: String?
    @Option(help: "Write the comparator's picture of the differences here (PNG).") var diffImage: String?
    @Option(help: "Per-channel difference (0-255) within which a pixel matches.") var tolerance = 2
    @Option(help: "Largest share of pixels allowed to differ.") var maxFraction = 0.0
    @Option(help: "fuzzy: largest channel difference allowed anywhere.") var maxDelta = 255
    @Option(help: "fuzzy: pixels left out around the edges.") var border = 0
    @Option(help: "Least PSNR in dB (0: not checked).") var minPsnr = 0.0
    @Option(help: "pixelmatch: the threshold, 0 to 1 (pixelmatch's default 0.1).") var threshold = 0.1
    @Flag(help: "pixelmatch: count anti-aliased pixels too.") var includeAa = false
    @Option(help: "pixelmatch: differing pixels allowed.") var maxPixels = 0
    @Flag(help: "Print the comparison as one line of JSON.") var json = false

    func validate() throws {
        guard (0...1).contains(threshold) else { throw ValidationError("--threshold must be between 0 and 1") }
        guard (0...1).contains(maxFraction) else { throw ValidationError("--max-fraction must be between 0 and 1") }
        guard border >= 0, maxPixels >= 0, (0...255).contains(tolerance), (0...255).contains(maxDelta) else {
            throw ValidationError("--border and --max-pixels must not be negative; --tolerance and --max-delta are 0 to 255")
        }
    }

    func run() throws {
        let a: CGImage, b: CGImage
        do {
            a = try CGImage.load(contentsOf: URL(fileURLWithPath: expected))
            b = try CGImage.load(contentsOf: URL(fileURLWithPath: actual))
        } catch {
            printError("quartz diff: \(error)")
            throw QuartzExit.badInput
        }
        let passed: Bool, line: String
        var why = ""
        var fields: [String: Any] = ["expected": expected, "actual": actual, "comparator": comparator.rawValue]
        do {
            if let heatmap {
                try writeAtomically(try CGImage(bitmap: try HeatMap.make(expected: a.bitmap, actual: b.bitmap)).pngData(),
                                    to: URL(fileURLWithPath: heatmap))
            }
            if comparator == .bar {
                let report = try ImageComparison.compare(a.bitmap, b.bitmap, tolerance: tolerance)
                let bar = AgreementBar(tolerance: tolerance, minFractionWithin: 1 - maxFraction, minPSNR: minPsnr)
                let failure = bar.failure(of: report)
                passed = failure == nil
                line = "\(report)"
                why = failure.map { "over the tolerance: \($0)" } ?? ""
                fields.merge(["maxChannelDelta": report.maxChannelDelta, "pixelsOverTolerance": report.pixelsOverTolerance,
                              "meanAbsoluteError": report.meanAbsoluteError, "psnr": report.psnr.isFinite ? report.psnr : 999,
                              "tolerance": tolerance]) { $1 }
                if let diffImage {
                    try writeAtomically(try CGImage(bitmap: try HeatMap.make(expected: a.bitmap, actual: b.bitmap)).pngData(),
                                        to: URL(fileURLWithPath: diffImage))
                }
            } else {
                let chosen: PixelComparator = switch comparator {
                case .exact: ExactComparator()
                case .offByOne: OffByOneComparator()
                case .fuzzy: FuzzyComparator(maxDifferingFraction: maxFraction, maxChannelDelta: maxDelta, tolerance: tolerance, border: border)
                default: PixelmatchComparator(threshold: threshold, includeAntialiasing: includeAa, maxDifferingPixels: maxPixels)
                }
                let verdict = try chosen.compare(a.bitmap, b.bitmap)
                passed = verdict.passed
                line = verdict.summary
                why = "the images do not match: \(verdict.summary)"
                fields.merge(["differingPixels": verdict.differingPixels, "pixelCount": verdict.pixelCount]) { $1 }
                if let diffImage { try writeAtomically(try CGImage(bitmap: verdict.diffImage).pngData(), to: URL(fileURLWithPath: diffImage)) }
            }
        } catch {
            printError("quartz diff: \(error)")
            throw QuartzExit.badInput
        }
        fields["match"] = passed
        if json { printJSON(fields) } else { print(line) }
        if !passed {
            printError("quartz diff: \(why)")
            throw QuartzExit.disagreement
        }
    }
}
