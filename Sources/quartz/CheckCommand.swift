import ArgumentParser
import Foundation
import GLBackend
import OpenQuartzCore
import PixelDiff
import SceneFormat

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a scene document or a Lottie animation, and with --backend both render it on the GPU and the CPU and compare.",
        discussion: "Exit codes: 0 the document is valid (and, rendered on both, the images agree within the GPU-vs-CPU "
            + "bar); 1 they disagree; 2 bad input (every mistake in the document is listed); 3 rendering failed.")

    enum Mode: String, ExpressibleByArgument { case both, none }

    @OptionGroup var source: SceneSource
    @Option(help: "both: render on both backends and compare; none: only check the document.") var backend: Mode = .both
    @Option(help: "The time in seconds (default: the document's time; for a Lottie animation, from its first frame).") var time: Double?
    @Option(help: "The frame: a Lottie animation's frame number (ip to op), a scene's frame at its fps.") var frame: Double?
    @Option(help: "How far through the animation, from 0 to 1.") var progress: Double?
    @Option(help: "Write the CPU image, the GPU image and the heat map with this prefix (PREFIX.cpu.png, ...); with --passes, each offscreen pass too (PREFIX.pass-ID.cpu.png, ...).")
    var images: String?
    @Flag(help: "Print the frame's render list (every pass and op, as both backends execute it) before the result.")
    var renderList = false
    @Flag(help: "Compare every pass of the frame on both backends (the list cut after it) and print each: the first that disagrees is where the backends part.")
    var passes = false
    @Flag(help: "Print the result as one line of JSON.") var json = false

    func validate() throws {
        try checkTime(time, option: "--time")
        try checkMoment(time: time, frame: frame, progress: progress)
    }

    func run() throws {
        let scene = source.scene
        let document = try source.load(command: "check")
        // Its tree is built either way: a Lottie file's layers and animations are checked as they are made.
        let cpuRenderer = try makeRenderer(document, backend: .cpu, scale: nil, size: nil, background: nil, command: "check", name: scene)
        guard backend == .both else {
            let kind = if case .lottie = document { "Lottie animation" } else { "scene document" }
            if json { printJSON(["scene": scene, "valid": true, "warnings": document.warnings]) } else { print("\(scene): a valid \(kind)") }
            return
        }
        let t = try moment(time: time, frame: frame, progress: progress, in: document, command: "check")
        let bar = AgreementBar.gpuAgainstCPU
        let cpu: CGImage, gpu: CGImage
        do {
            cpu = try cpuRenderer.frame(at: t)
            if renderList, let list = cpuRenderer.lastRenderList { print(list) }
            gpu = try SceneFrameRenderer(document: document, backend: .gpu, scale: nil, size: nil).frame(at: t)
            if passes, let list = cpuRenderer.lastRenderList {
                for row in try PassAgreement.rows(of: list, device: GLDevice.shared()) {
                    print(PassAgreement.describe(row, of: list.passes.count))
                    guard let images, row.index < list.passes.count - 1 else { continue }
                    try writeOutput(try CGImage(bitmap: row.cpu).pngData(), to: images + ".pass-\(row.pass.id).cpu.png")
                    try writeOutput(try CGImage(bitmap: row.gpu).pngData(), to: images + ".pass-\(row.pass.id).gpu.png")
                }
            }
        } catch {
            printError("quartz check: \(scene): \(error)")
            throw QuartzExit.renderFailed
        }
        let report = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: bar.tolerance)
        if let images {
            do {
                try writeOutput(try cpu.pngData(), to: images + ".cpu.png")
                try writeOutput(try gpu.pngData(), to: images + ".gpu.png")
                try writeOutput(try CGImage(bitmap: try HeatMap.make(expected: cpu.bitmap, actual: gpu.bitmap)).pngData(),
                                to: images + ".heatmap.png")
            } catch {
                printError("quartz check: \(error)")
                throw QuartzExit.badInput
            }
        }
        let failure = bar.failure(of: report)
        if json {
            printJSON(["scene": scene, "valid": true, "agree": failure == nil, "time": t, "maxChannelDelta": report.maxChannelDelta,
                       "pixelsOverTolerance": report.pixelsOverTolerance, "psnr": report.psnr.isFinite ? report.psnr : 999])
        } else {
            print("\(scene) at t=\(t) s: GPU and CPU \(failure == nil ? "agree" : "DISAGREE"): \(report)")
            if let failure { print("  \(failure)") }
        }
        if failure != nil { throw QuartzExit.disagreement }
    }
}
