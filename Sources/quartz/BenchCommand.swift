import ArgumentParser
import Foundation
import GLBackend
import OpenQuartzCore
import QuartzBench

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure this machine's GPU driver (or the CPU backend) on compositor workloads, MotionMark-style.",
        discussion: """
        For each workload (--list shows them) the complexity is ramped to the largest that holds the target \
        frame rate (the score, with its 95% confidence interval), then a fixed complexity is timed frame by \
        frame (median, p90, p99, and the mean time of each stage: update, evaluation, rasterization, \
        flattening, GL submission, GPU execution, readback). The total score is the geometric mean of the \
        scores. Warm-up frames are not counted; frames are checked against the CPU reference on the way, and \
        a frame that misses the agreement bar fails its workload (exit 1). A frame's time is the whole of it, \
        from the model's update to the pixels in memory, one frame after another. docs/bench.md has more.
        """)

    @Option(help: "gpu (GLES through EGL, the device `quartz info` shows) or cpu (the reference rasterizer).")
    var backend: RenderBackend = .gpu
    @Option(help: "The frame rate the ramp holds workloads to.") var fps = 60.0
    @Option(help: "Only these workloads, comma-separated (default: all).") var workloads: String?
    @Option(help: "Seconds each workload's ramp may take.") var seconds = 12.0
    @Option(help: "Frames of the fixed-complexity run (at most; it also stops after --fixed-seconds).") var fixedFrames = 30
    @Option(help: "Seconds the fixed-complexity run may take (at least 5 frames).") var fixedSeconds = 5.0
    @Flag(help: "A short run (1.5 s ramps, 8 fixed frames): a smoke test, not a measurement.") var quick = false
    @Flag(help: "Print the report as one line of JSON on standard output instead of the table.") var json = false
    @Option(name: .shortAndLong, help: "Write the JSON report to this file.") var output: String?
    @Option(help: "Write the HTML report (plots, one self-contained page) to this file.") var html: String?
    @Option(help: "Write one frame of each workload at its fixed complexity as NAME.png into this folder.") var frames: String?
    @Option(parsing: .upToNextOption, help: "Print ratios between two reports (A.json B.json) and exit.") var compare: [String] = []
    @Flag(help: "List the workloads and exit.") var list = false

    func validate() throws {
        guard fps.isFinite, fps >= 1, fps <= 1000 else { throw ValidationError("--fps must be from 1 to 1000 (got \(fps))") }
        guard seconds.isFinite, seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be more than 0 and at most 600 (got \(seconds))") }
        guard fixedSeconds.isFinite, fixedSeconds > 0, fixedSeconds <= 600 else {
            throw ValidationError("--fixed-seconds must be more than 0 and at most 600 (got \(fixedSeconds))")
        }
        guard (1...10_000).contains(fixedFrames) else { throw ValidationError("--fixed-frames must be from 1 to 10000 (got \(fixedFrames))") }
        guard compare.isEmpty || compare.count == 2 else {
            throw ValidationError("--compare takes two reports, A.json B.json (got \(compare.count))")
        }
    }

    func run() throws {
        if list {
            for w in BenchWorkload.all { print("\(w.name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(w.summary) (fixed: \(w.fixedComplexity) \(w.unit))") }
            return
        }
        if !compare.isEmpty { return try runCompare() }
        var settings = BenchSettings()
        settings.backend = backend
        settings.fps = fps
        settings.rampSeconds = quick ? 1.5 : seconds
        settings.fixedFrames = quick ? 8 : fixedFrames
        settings.fixedSeconds = quick ? 1 : fixedSeconds
        if let workloads {
            settings.workloads = try workloads.split(separator: ",").map { name in
                let name = name.trimmingCharacters(in: .whitespaces)
                guard let w = BenchWorkload.named(name) else {
                    printError("quartz bench: \(BenchError.unknownWorkload(name, known: BenchWorkload.all.map(\.name)))")
                    throw QuartzExit.badInput
                }
                return w
            }
        }
        // Outputs are checked before the minutes of measuring, not after.
        for path in [output, html].compactMap({ $0 }) { try checkWritable(path) }
        if let frames { try writeFrames(settings, to: frames) }
        if settings.backend == .gpu {
            do { _ = try GLDevice.shared() } catch {
                printError("quartz bench: \(error)")
                throw QuartzExit.renderFailed
            }
        }
        // A bar where standard error is a terminal; elsewhere (CI logs) a line per workload.
        let bar = ProgressBar(total: 1000, enabled: isatty(STDERR_FILENO) == 1)
        var announced = -1
        let report: BenchReport
        do {
            report = try BenchSuite(settings: settings).run { p in
                bar.update(fraction: p.fraction, label: "\(p.index + 1)/\(p.count) \(p.workload): \(p.phase) at \(p.complexity)")
                if !bar.enabled, p.index != announced { printError("quartz bench: \(p.index + 1)/\(p.count) \(p.workload)") }
                announced = p.index
            }
        } catch {
            bar.clear()
            printError("quartz bench: \(error)")
            throw QuartzExit.renderFailed
        }
        bar.clear()
        if let output { try write(Data(try report.json()), to: output) }
        if let html { try write(Data(report.html().utf8), to: html) }
        if json {
            print(String(decoding: try report.json(pretty: false), as: UTF8.self))
        } else {
            print(report.headline)
            print(report.table())
        }
        if !report.failed.isEmpty { throw QuartzExit.disagreement }
    }

    private func runCompare() throws {
        let reports: [BenchReport]
        do {
            reports = try compare.map { try BenchReport.load(URL(fileURLWithPath: $0)) }
        } catch {
            printError("quartz bench --compare: \(error)")
            throw QuartzExit.badInput
        }
        print(reports[0].comparison(with: reports[1], names: (compare[0], compare[1])))
    }

    private func writeFrames(_ settings: BenchSettings, to folder: String) throws {
        let url = URL(fileURLWithPath: folder, isDirectory: true)
        do { try OutputFile.makeFolder(url.path) } catch {
            printError("quartz bench: \(error)")
            throw QuartzExit.badInput
        }
        for w in settings.workloads {
            let loop = BenchFrameLoop(workload: w, complexity: w.fixedComplexity, backend: settings.backend, fps: settings.fps, firstFrame: 30)
            _ = try loop.next()
            if let image = loop.lastImage { try CGImage(bitmap: image).writePNG(to: url.appendingPathComponent("\(w.name).png"), links: .refused) }
        }
    }

    private func checkWritable(_ path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
              FileManager.default.isWritableFile(atPath: folder) else {
            printError("quartz bench: cannot write \(path): \(folder) is not a writable folder")
            throw QuartzExit.badInput
        }
    }

    private func write(_ data: Data, to path: String) throws {
        do { try writeOutput(data, to: path) } catch {
            printError("quartz bench: \(error)")
            throw QuartzExit.badInput
        }
    }
}
