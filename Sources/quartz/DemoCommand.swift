import ArgumentParser
import Foundation
import OpenQuartzCore
import PixelDiff
import SceneCatalog

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Render every built-in scene on both backends, write the images and heat maps, and check agreement.",
        discussion: "Writes NAME.gpu.png, NAME.cpu.png and NAME.heatmap.png per scene and summary.txt into the "
            + "output folder. Exits 1 if any scene misses the GPU-vs-CPU agreement bar.")

    @Option(name: .shortAndLong, help: "Output folder.") var out = "out/demo"
    @Option(help: "Render only the scenes whose names contain this.") var only: String?
    @Flag(help: "Render on the CPU only (no GL needed; no agreement check).") var cpuOnly = false
    @Option(help: "Show every scene at this media time (seconds) instead of its own.") var time: Double?

    func validate() throws {
        if let time, !time.isFinite { throw ValidationError("--time must be a finite number of seconds") }
    }

    func run() throws {
        let folder = URL(fileURLWithPath: out, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            printError("quartz demo: cannot create \(out): \(error.localizedDescription)")
            throw QuartzExit.badInput
        }
        let scenes = DemoScene.all.filter { only == nil || $0.name.contains(only!) }
        let bar = AgreementBar.gpuAgainstCPU
        var lines: [String] = ["OpenQuartz demo: \(scenes.count) scenes; bar: \(bar)"]
        if !cpuOnly, let caps = try? GLBackendInfo.caps() { lines.append("GL: \(caps)") }
        print(lines.joined(separator: "\n"))
        var failures = 0
        let start = Date()
        for scene in scenes {
            do {
                let cpu = try render(scene, backend: .cpu)
                try cpu.writePNG(to: folder.appendingPathComponent("\(scene.name).cpu.png"))
                var line = "\(scene.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(cpu.width)x\(cpu.height)"
                if !cpuOnly {
                    let gpu = try render(scene, backend: .gpu)
                    try gpu.writePNG(to: folder.appendingPathComponent("\(scene.name).gpu.png"))
                    let report = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: bar.tolerance)
                    try CGImage(bitmap: try HeatMap.make(expected: cpu.bitmap, actual: gpu.bitmap))
                        .writePNG(to: folder.appendingPathComponent("\(scene.name).heatmap.png"))
                    let verdict = bar.failure(of: report)
                    if verdict != nil { failures += 1 }
                    line += "  \(verdict == nil ? "agree" : "DISAGREE")  \(report)"
                    if let verdict { line += "\n    \(verdict)" }
                }
                print(line)
                lines.append(line)
            } catch {
                printError("quartz demo: \(scene.name): \(error)")
                let summary = lines + ["\(scene.name): failed: \(error)"]
                try? summary.joined(separator: "\n").write(to: folder.appendingPathComponent("summary.txt"), atomically: true, encoding: .utf8)
                throw QuartzExit.renderFailed
            }
        }
        let elapsed = String(format: "%.2f", Date().timeIntervalSince(start))
        let closing = cpuOnly ? "\(scenes.count) scenes rendered on the CPU in \(elapsed) s"
            : "\(scenes.count - failures) of \(scenes.count) scenes agree; \(elapsed) s"
        lines.append(closing)
        print(closing)
        print("images in \(folder.path)")
        try? lines.joined(separator: "\n").write(to: folder.appendingPathComponent("summary.txt"), atomically: true, encoding: .utf8)
        if failures > 0 { throw QuartzExit.disagreement }
    }

    private func render(_ scene: DemoScene, backend: RenderBackend) throws -> CGImage {
        try scene.render(backend: backend, atTime: time)
    }
}

import GLBackend

enum GLBackendInfo {
    static func caps() throws -> String {
        let caps = try GLDevice.shared().caps
        return "\(caps.renderer), \(caps.version), EGL \(caps.platform.rawValue) (\(caps.platformDetail))"
    }
}
