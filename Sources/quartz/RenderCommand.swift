import ArgumentParser
import Dispatch
import Foundation
import OpenQuartzCore
import SceneFormat

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene document or a Lottie animation to a PNG at one time.",
        discussion: "The document is JSON: a scene document (format \"openquartz-scene\", version 1; `quartz schema` prints "
            + "its JSON Schema) or a Lottie (Bodymovin) animation, told apart by content. Every mistake in it is reported "
            + "with its JSON path, and nothing is written. A Lottie animation is fitted into --size (aspect kept, "
            + "centred), over --background. Exit codes: 0 written; 2 bad input (document, options, output path); 3 "
            + "rendering failed.")

    @OptionGroup var source: SceneSource
    @Option(name: .shortAndLong, help: ArgumentHelp("The PNG to write; - (or /dev/stdout) writes it to standard output, and the report to standard error. "
        + "An existing file is replaced whole (through a link, the file it names); a folder or a device is never replaced."))
    var output: String
    @Option(help: "The time in seconds (default: the document's time, else 0; for a Lottie animation, from its first frame).") var time: Double?
    @Option(help: "The frame: a Lottie animation's frame number (ip to op), a scene's frame at its fps.") var frame: Double?
    @Option(help: "How far through the animation, from 0 to 1 (a Lottie animation's ip to op, a scene's duration).") var progress: Double?
    @Option(help: "gpu or cpu.") var backend: RenderBackend = .gpu
    @Option(help: "Device pixels per point (default: the document's scale).") var scale: Double?
    @Option(help: "The area rendered, WIDTHxHEIGHT in points (default: the document's size); a Lottie animation is fitted into it.") var size: String?
    @Option(help: "The colour under a Lottie animation (#rrggbb, #rrggbbaa or a name; default: clear).") var background: String?
    @Option(help: "Render the frame this many more times and report the median time of a frame (evaluation, render list, drawing and, on the GPU, readback; not decoding or PNG writing), for benchmarks.")
    var repeats = 0
    @Option(help: ArgumentHelp("With --repeats: each repeat this many seconds after the one before, so every repeated frame "
        + "differs (motion, for benchmarks: frames at time + step, time + 2 step, ...; default 0, the same frame)."))
    var repeatStep = 0.0
    @Flag(help: "Print the result as one line of JSON.") var json = false

    func validate() throws {
        guard (0...100_000).contains(repeats) else { throw ValidationError("--repeats must be 0 to 100000") }
        guard repeatStep.isFinite, repeatStep >= 0, repeatStep <= 3600 else {
            throw ValidationError("--repeat-step must be a number of seconds from 0 to 3600 (got \(repeatStep))")
        }
        if repeatStep > 0, repeats == 0 { throw ValidationError("--repeat-step times repeated frames; give --repeats too") }
        try checkTime(time, option: "--time")
        try checkMoment(time: time, frame: frame, progress: progress)
        _ = try parseBackground(background)
        if let scale, !(scale.isFinite && scale > 0 && scale <= 16) { throw ValidationError("--scale must be a number in (0, 16]") }
        _ = try parseSize(size)
    }

    func run() throws {
        InterruptCleanup.install()
        // The output is checked before anything is read or rendered.
        let destination: OutputDestination
        do {
            try OutputDestination.checkNotAnInput([output], inputs: [source.scene])
            destination = try OutputDestination.resolve(output)
        } catch {
            printError("quartz render: \(error)")
            throw QuartzExit.badInput
        }
        GLWarmUp.start(for: backend)
        let document = try source.load(command: "render")
        let scene = source.scene
        let renderer = try makeRenderer(document, backend: backend, scale: scale.map { CGFloat($0) }, size: try parseSize(size),
                                        background: try checkedBackground(background, for: document, command: "render"), command: "render", name: scene)
        try checkFrame(size: renderer.size, scale: renderer.scale, command: "render")
        let t = try moment(time: time, frame: frame, progress: progress, in: document, command: "render")
        let start = Date()
        let image: CGImage
        do {
            image = try renderer.frame(at: t)
        } catch {
            printError("quartz render: \(scene): \(error)")
            throw QuartzExit.renderFailed
        }
        do {
            try destination.write(try image.pngData(), named: output)
        } catch {
            printError("quartz render: \(error)")
            throw QuartzExit.badInput
        }
        let seconds = Date().timeIntervalSince(start)
        var fields: [String: Any] = ["output": destination == .standardOutput ? "-" : URL(fileURLWithPath: output).path, "width": image.width, "height": image.height, "backend": backend.rawValue,
                                     "time": t, "seconds": seconds]
        if repeats > 0 {
            // Steady state: the same frame again and again, as a benchmark loop draws it; with a
            // step, a moving frame: each repeat later than the one before, so nothing is as it was.
            var frames: [Double] = []
            let before = renderer.times.json
            let times = (1...repeats).map { t + Double($0) * repeatStep }
            for repeatTime in times {
                let frameStart = DispatchTime.now().uptimeNanoseconds
                do { _ = try renderer.frame(at: repeatTime) } catch {
                    printError("quartz render: \(scene): \(error)")
                    throw QuartzExit.renderFailed
                }
                frames.append(Double(DispatchTime.now().uptimeNanoseconds - frameStart) / 1e9)
            }
            frames.sort()
            // Where a repeated frame's time went, on average (StageTimes; encoding is not repeated).
            var stages: [String: Double] = [:]
            for (stage, seconds) in renderer.times.json where stage != "encoding" {
                stages[stage] = (seconds - (before[stage] ?? 0)) / Double(repeats)
            }
            fields.merge(["repeats": repeats, "frameSeconds": frames[frames.count / 2], "frameSecondsP25": frames[frames.count / 4],
                          "frameSecondsP75": frames[frames.count * 3 / 4], "stageSeconds": stages]) { $1 }
            if repeatStep > 0 { fields.merge(["repeatStep": repeatStep, "lastRepeatTime": times[times.count - 1]]) { $1 } }
        }
        let peak = ResidentMemory.peak()
        fields["peakResidentBytes"] = peak
        // With the image on standard output, the report goes to standard error.
        let report: (String) -> Void = destination == .standardOutput ? { printError($0) } : { print($0) }
        if json {
            report(jsonLine(fields))
        } else {
            report("\(output): \(image.width)x\(image.height) at t=\(t) s on the \(backend.rawValue) (\(String(format: "%.3f", seconds)) s, "
                + "peak memory \(ResidentMemory.mebibytes(peak)))")
            if let frame = fields["frameSeconds"] as? Double {
                report(String(format: "median frame %.3f ms over %d repeats", frame * 1000, repeats))
            }
        }
    }
}
