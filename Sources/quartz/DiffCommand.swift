import ArgumentParser
import Dispatch
import Foundation
import OpenCoreGraphics
import PixelDiff

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two PNG files, or two folders of PNGs matched by name; exit 1 when they do not match.",
        discussion: """
            Comparators: bar (default: any pixel with a channel more than --tolerance apart counts; --max-fraction \
            allows a share of such pixels and --min-psnr adds a PSNR floor; the GPU-vs-CPU bar is --max-fraction \
            0.001 --min-psnr 45); Chromium's exact, off-by-one and fuzzy (--max-fraction, --max-delta, --tolerance, \
            --border); pixelmatch (--threshold, --include-aa, --max-pixels); ciede2000 with swift-snapshot-testing's \
            --precision and --perceptual-precision (0.98: a pixel may be off by ΔE00 2); flip, NVIDIA's FLIP (LDR), \
            passing while the mean error is at most --max-mean (at --ppd pixels per degree).

            Pictures: --diff-image (the comparator's own: heat map, ΔE map, FLIP's magma map or pixelmatch's), \
            --diff-mask (differing pixels red over gray), --triptych (expected | picture | actual). With two \
            folders, or with --report, an HTML report (side by side, slider, picture and mask per pair) is written \
            to --report; exit 1 when an image differs or is missing on one side, 2 when one cannot be read \
            (the report is written first). --repeats N times the comparison alone and prints megapixels per second.

            Shards: with two folders, --shard i/n (or SNAPSHOT_TESTING_SHARD=i/n, as a CI matrix sets it) compares \
            only the images whose names fall in the i-th of n stable slices; --merge R1 R2 ... --report OUT then \
            merges the shards' report folders into one (refusing a name in two of them) and exits as one run \
            would: 1 when any pair differs or is missing.
            """)

    enum Comparator: String, ExpressibleByArgument, CaseIterable {
        case bar, exact, offByOne = "off-by-one", fuzzy, pixelmatch, ciede2000, flip
    }

    @Argument(help: "The expected image (PNG), or a folder of them.") var expected: String?
    @Argument(help: "The actual image (PNG), or a folder of them.") var actual: String?
    @Option(help: "Folders: compare only the i-th of n stable slices of the images' names (default: SNAPSHOT_TESTING_SHARD).")
    var shard: String?
    @Option(parsing: .upToNextOption, help: "Merge these report folders (written by shards with --report) into --report.")
    var merge: [String] = []
    @Option(help: "bar, exact, off-by-one, fuzzy, pixelmatch, ciede2000 or flip.") var comparator: Comparator = .bar
    @Option(help: "Write a heat map of the channel differences here (PNG).") var heatmap: String?
    @Option(help: "Write the comparator's picture of the differences here (PNG).") var diffImage: String?
    @Option(help: "Write the differing pixels, red over gray, here (PNG).") var diffMask: String?
    @Option(help: "Write expected | picture | actual here (PNG).") var triptych: String?
    @Option(help: "Write an HTML report (index.html and its images) into this folder.") var report: String?
    @Option(help: "Per-channel difference (0-255) within which a pixel matches.") var tolerance = 2
    @Option(help: "Largest share of pixels allowed to differ.") var maxFraction = 0.0
    @Option(help: "fuzzy: largest channel difference allowed anywhere.") var maxDelta = 255
    @Option(help: "fuzzy: pixels left out around the edges.") var border = 0
    @Option(help: "Least PSNR in dB (0: not checked).") var minPsnr = 0.0
    @Option(help: "pixelmatch: the threshold, 0 to 1 (pixelmatch's default 0.1).") var threshold = 0.1
    @Flag(help: "pixelmatch: count anti-aliased pixels too.") var includeAa = false
    @Option(help: "pixelmatch: differing pixels allowed.") var maxPixels = 0
    @Option(help: "ciede2000: least share of matching pixels (swift-snapshot-testing's precision).") var precision = 1.0
    @Option(help: "ciede2000: how alike a pixel must look, 0 to 1 (ΔE00 up to (1 - this) x 100 matches).") var perceptualPrecision = 0.98
    @Option(help: "flip: largest mean FLIP error (any pixel over 0.5 fails too).") var maxMean = 0.05
    @Option(help: "flip: the observer's pixels per degree (FLIP's default about 67).") var ppd = Double(FLIP.defaultPixelsPerDegree)
    @Option(help: "Compare this many times and print the speed (the comparison alone, not decoding).") var repeats = 0
    @Option(help: ArgumentHelp("The most memory one comparison may take, in MiB: a pair whose estimate (from the images' "
        + "headers, before decoding) is larger is refused, naming both (docs/robustness.md).")) var maxMemoryMb = 4_096
    @Flag(help: "Print the comparison as one line of JSON.") var json = false

    func validate() throws {
        if merge.isEmpty {
            guard expected != nil, actual != nil else { throw ValidationError("give the expected and the actual image or folder, or --merge") }
        } else {
            guard expected == nil, actual == nil, report != nil else {
                throw ValidationError("--merge takes report folders and writes one into --report; give no images with it")
            }
        }
        if let shard { do { _ = try ShardSlice(parsing: shard) } catch { throw ValidationError("--shard: \(error)") } }
        guard (0...1).contains(threshold) else { throw ValidationError("--threshold must be between 0 and 1") }
        guard (0...1).contains(maxFraction) else { throw ValidationError("--max-fraction must be between 0 and 1") }
        guard (0...1).contains(precision), (0...1).contains(perceptualPrecision) else {
            throw ValidationError("--precision and --perceptual-precision must be between 0 and 1")
        }
        guard maxMean >= 0, (0...100_000).contains(repeats) else { throw ValidationError("--max-mean must not be negative; --repeats is 0 to 100000") }
        guard ppd > 0, ppd <= Double(FLIP.maxPixelsPerDegree) else {
            throw ValidationError("--ppd must be in (0, \(Int(FLIP.maxPixelsPerDegree))] (got \(ppd))")
        }
        guard minPsnr.isFinite, minPsnr >= 0 else { throw ValidationError("--min-psnr must be a number of dB from 0 (got \(minPsnr))") }
        guard (1...(1 << 20)).contains(maxMemoryMb) else { throw ValidationError("--max-memory-mb must be from 1 to 1048576 (got \(maxMemoryMb))") }
        guard border >= 0, maxPixels >= 0, (0...255).contains(tolerance), (0...255).contains(maxDelta) else {
            throw ValidationError("--border and --max-pixels must not be negative; --tolerance and --max-delta are 0 to 255")
        }
    }

    var chosen: RowComparator {
        switch comparator {
        case .bar: AgreementBarComparator(AgreementBar(tolerance: tolerance, minFractionWithin: 1 - maxFraction, minPSNR: minPsnr))
        case .exact: ExactComparator()
        case .offByOne: OffByOneComparator()
        case .fuzzy: FuzzyComparator(maxDifferingFraction: maxFraction, maxChannelDelta: maxDelta, tolerance: tolerance, border: border)
        case .pixelmatch: PixelmatchComparator(threshold: threshold, includeAntialiasing: includeAa, maxDifferingPixels: maxPixels)
        case .ciede2000: CIEDE2000Comparator(precision: precision, perceptualPrecision: perceptualPrecision)
        case .flip: FLIPComparator(maxMean: maxMean, pixelsPerDegree: Float(ppd))
        }
    }

    func run() throws {
        if !merge.isEmpty { return try mergeReports() }
        let expected = expected!, actual = actual!
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: expected, isDirectory: &isFolder), isFolder.boolValue {
            try compareFolders(expected, actual)
        } else {
            try comparePair(expected, actual)
        }
    }

    /// The shards' reports as one: exit 1 when a pair in any of them differs or is missing.
    private func mergeReports() throws {
        let merged: (page: URL, rows: [DiffReport.Row])
        do {
            merged = try DiffReport.merge(merge.map { URL(fileURLWithPath: $0) }, into: URL(fileURLWithPath: report!),
                                          title: "quartz diff: \(merge.count) shard reports merged")
        } catch {
            printError("quartz diff: \(error)")
            throw QuartzExit.badInput
        }
        let failing = merged.rows.filter { !$0.passed }
        if json {
            printJSON(["merged": merge, "pairs": merged.rows.count, "failing": failing.count, "match": failing.isEmpty, "report": merged.page.path])
        } else {
            for row in failing { print("\(row.problem == nil ? "DIFFERS" : "PROBLEM") \(row.name): \(row.problem ?? row.summary ?? "")") }
            print("\(merged.rows.count - failing.count) of \(merged.rows.count) images match in \(merge.count) shard reports; report: \(merged.page.path)")
        }
        if !failing.isEmpty { throw QuartzExit.disagreement }
    }

    /// Checks the pair's memory estimate (from the files' headers, before a pixel is decoded)
    /// against `--max-memory-mb`; errors name the files. Files are compared band by band: plain
    /// PNGs are read a row at a time, others decoded whole (DiffMemoryEstimate).
    private func checkMemory(_ expected: String, _ actual: String, pictures: [BandedComparison.Picture]) throws {
        let limit = Double(maxMemoryMb) * 1_048_576
        func fileSize(_ path: String) -> Int {
            var info = stat()
            return stat(path, &info) == 0 ? Int(info.st_size) : 0
        }
        let fileBytes = fileSize(expected) + fileSize(actual)
        guard Double(fileBytes) <= limit else { throw DiffMemoryError(expected: expected, actual: actual, bytes: Double(fileBytes), limit: limit) }
        let files = [try ImageRows(path: expected), try ImageRows(path: actual)]
        let width = files.map(\.width).max()!, height = files.map(\.height).max()!
        let whole = files.filter { !$0.isStreamed }
        let estimate = repeats > 0
            ? DiffMemoryEstimate.bytes(pixels: width * height, comparator: chosen, pictures: !pictures.isEmpty,
                                       triptych: pictures.contains(.triptych), fileBytes: fileBytes)
            : DiffMemoryEstimate.bandedBytes(width: width, height: height, comparator: chosen, pictures: pictures,
                                             wholeImages: whole.count, wholeFileBytes: whole.map { fileSize($0.source) }.reduce(0, +))
        guard estimate <= limit else { throw DiffMemoryError(expected: expected, actual: actual, bytes: estimate, limit: limit) }
    }

    private func comparePair(_ expected: String, _ actual: String) throws {
        let pictures: [(String?, BandedComparison.Picture)] = [(heatmap, .heatMap), (diffImage, .diffImage), (diffMask, .diffMask), (triptych, .triptych)]
        do {
            try OutputDestination.checkNotAnInput(pictures.map(\.0), inputs: [expected, actual])
            try checkMemory(expected, actual, pictures: pictures.filter { $0.0 != nil }.map(\.1) + (report != nil ? [.diffImage] : []))
        } catch {
            printError("quartz diff: \(error)")
            throw QuartzExit.badInput
        }
        var fields: [String: Any] = ["expected": expected, "actual": actual, "comparator": comparator.rawValue]
        let outcome: BandedComparison.Outcome
        do {
            outcome = try BandedComparison.compare(expected: expected, actual: actual, with: chosen)
            if repeats > 0 {
                let a = try CGImage.load(contentsOf: URL(fileURLWithPath: expected)), b = try CGImage.load(contentsOf: URL(fileURLWithPath: actual))
                fields.merge(try timing(a.bitmap, b.bitmap)) { $1 }
            }
            // Each picture drawn and written a band at a time.
            for case let (path?, picture) in pictures {
                let size = BandedComparison.size(of: picture, imageWidth: outcome.width, imageHeight: outcome.height)
                try writeRows(to: path, width: size.width, height: size.height) { writer in
                    try BandedComparison.draw(picture, expected: expected, actual: actual, comparator: chosen, into: writer)
                }
            }
            if let report {
                let folder = URL(fileURLWithPath: report)
                try DiffReport.makeFolder(folder)
                let row = try DiffReport.writePair(name: URL(fileURLWithPath: actual).lastPathComponent, outcome, expected: expected,
                                                   actual: actual, comparator: chosen, index: 0, into: folder)
                try DiffReport.finish(title: "quartz diff \(comparator.rawValue)", rows: [row], in: folder)
            }
        } catch {
            printError("quartz diff: \(error)")
            throw QuartzExit.badInput
        }
        let verdict = outcome.judgement
        if comparator == .bar {
            let report = ImageComparison.report(outcome.tally, width: outcome.width, height: outcome.height, tolerance: tolerance)
            fields.merge(["maxChannelDelta": report.maxChannelDelta, "pixelsOverTolerance": report.pixelsOverTolerance,
                          "meanAbsoluteError": report.meanAbsoluteError, "psnr": report.psnr.isFinite ? report.psnr : 999,
                          "tolerance": tolerance]) { $1 }
        }
        fields.merge(["differingPixels": verdict.differingPixels, "pixelCount": verdict.pixelCount, "match": verdict.passed,
                      "score": verdict.score.isFinite ? verdict.score : 999, "summary": verdict.summary]) { $1 }
        if json { printJSON(fields) } else {
            print(verdict.summary)
            if let speed = fields["megapixelsPerSecond"] as? Double { print(String(format: "%.1f megapixels per second", speed)) }
        }
        if !verdict.passed {
            printError("quartz diff: the images do not match: \(verdict.summary)")
            throw QuartzExit.disagreement
        }
    }

    /// Seconds per comparison (the median of `repeats` runs) and the speed it means.
    private func timing(_ a: Bitmap, _ b: Bitmap) throws -> [String: Any] {
        var seconds: [Double] = []
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try chosen.compare(a, b)
            seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let median = seconds.sorted()[seconds.count / 2]
        return ["compareSeconds": median, "megapixelsPerSecond": Double(a.width * a.height) / median / 1e6, "repeats": repeats]
    }

    /// Every PNG under either folder, matched by relative path; one missing on either side fails.
    private func compareFolders(_ expected: String, _ actual: String) throws {
        let slice: ShardSlice?
        do { slice = try shard.map(ShardSlice.init(parsing:)) ?? ShardSlice.fromEnvironment() } catch {
            printError("quartz diff: \(error)")
            throw QuartzExit.badInput
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: actual, isDirectory: &isFolder), isFolder.boolValue else {
            printError("quartz diff: \(expected) is a folder but \(actual) is not; give two PNG files or two folders")
            throw QuartzExit.badInput
        }
        let left = Self.pngs(under: expected), right = Self.pngs(under: actual)
        // Pair by pair: each pair's images are written into the report as it is compared and
        // only its row is kept, so memory holds one pair's pixels at a time, not the folder's.
        let reportFolder = report.map { URL(fileURLWithPath: $0) }
        if let reportFolder {
            do { try DiffReport.makeFolder(reportFolder) } catch {
                printError("quartz diff: cannot write the report to \(report!): \(OutputFile.reason(error))")
                throw QuartzExit.badInput
            }
        }
        var rows: [DiffReport.Row] = []
        var results: [[String: Any]] = []
        var unreadable: [String] = []
        var (pairs, failing) = (0, 0)
        let leftSet = Set(left), rightSet = Set(right)
        for name in leftSet.union(rightSet).sorted() where slice?.contains(name) ?? true {
            let outcome: PairOutcome
            if !rightSet.contains(name) {
                outcome = .problem("missing from \(actual)")
            } else if !leftSet.contains(name) {
                outcome = .problem("not in \(expected) (a new image)")
            } else {
                let (left, right) = (URL(fileURLWithPath: expected).appendingPathComponent(name).path,
                                     URL(fileURLWithPath: actual).appendingPathComponent(name).path)
                do {
                    try checkMemory(left, right, pictures: reportFolder == nil ? [] : [.diffImage])
                    outcome = .compared(try BandedComparison.compare(expected: left, actual: right, with: chosen), expected: left, actual: right)
                } catch {
                    outcome = .problem("\(error)")
                    unreadable.append("\(name): \(error)")
                }
            }
            pairs += 1
            if !outcome.passed { failing += 1 }
            if let reportFolder {
                do {
                    switch outcome {
                    case let .compared(compared, left, right):
                        rows.append(try DiffReport.writePair(name: name, compared, expected: left, actual: right, comparator: chosen,
                                                             index: pairs - 1, into: reportFolder))
                    case let .problem(message):
                        rows.append(try DiffReport.writePair(.init(name: name, outcome: .problem(message)), index: pairs - 1, into: reportFolder))
                    }
                } catch {
                    printError("quartz diff: cannot write the report to \(report!): \(error)")
                    throw QuartzExit.badInput
                }
            }
            switch outcome {
            case let .compared(compared, _, _):
                let verdict = compared.judgement
                results.append(["name": name, "match": verdict.passed, "summary": verdict.summary, "differingPixels": verdict.differingPixels])
                if !json { print("\(verdict.passed ? "match  " : "DIFFERS") \(name): \(verdict.summary)") }
            case let .problem(message):
                results.append(["name": name, "match": false, "problem": message])
                if !json { print("PROBLEM \(name): \(message)") }
            }
        }
        var page: URL?
        if let reportFolder {
            do {
                page = try DiffReport.finish(title: "quartz diff: \(expected) against \(actual) (\(comparator.rawValue))"
                                             + (slice.map { ", shard \($0)" } ?? ""), rows: rows, in: reportFolder)
            } catch {
                printError("quartz diff: cannot write the report to \(report!): \(error)")
                throw QuartzExit.badInput
            }
        }
        if json {
            printJSON(["expected": expected, "actual": actual, "comparator": comparator.rawValue, "pairs": results,
                       "failing": failing, "match": failing == 0, "report": page?.path ?? NSNull(), "shard": slice?.description ?? NSNull()])
        } else {
            print("\(pairs - failing) of \(pairs) images match" + (slice.map { " in shard \($0)" } ?? "")
                  + (page.map { "; report: \($0.path)" } ?? ""))
        }
        // A shard may hold none of a small folder's names; without one, no images is a mistake.
        if pairs == 0 && slice == nil {
            printError("quartz diff: no PNG files in \(expected) or \(actual)")
            throw QuartzExit.badInput
        }
        if !unreadable.isEmpty {
            printError("quartz diff: \(unreadable.count) pair(s) could not be compared: " + unreadable.joined(separator: "; "))
            throw QuartzExit.badInput
        }
        if failing > 0 { throw QuartzExit.disagreement }
    }

    /// Relative paths of the PNG files under a folder, recursively.
    static func pngs(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }
    }
}

/// What became of one pair of a folder comparison: compared (band by band, from these files), or
/// a problem (missing on one side, unreadable).
enum PairOutcome {
    case compared(BandedComparison.Outcome, expected: String, actual: String)
    case problem(String)

    var passed: Bool {
        if case let .compared(outcome, _, _) = self { return outcome.judgement.passed }
        return false
    }
}

/// A pair refused before decoding: its estimated memory is over `--max-memory-mb`.
struct DiffMemoryError: Error, CustomStringConvertible {
    let expected: String, actual: String
    let bytes: Double, limit: Double
    var description: String {
        "comparing \(ShownText.escaped(expected, limit: 1_024)) with \(ShownText.escaped(actual, limit: 1_024)) would take about "
            + "\(Int((bytes / 1_048_576).rounded(.up))) MiB, more than --max-memory-mb \(Int(limit / 1_048_576)); "
            + "raise it where the machine has the memory, or compare smaller images"
    }
}
