import ArgumentParser
import Foundation
import OpenQuartzCore
import PixelDiff
import SceneCatalog
import SceneFormat

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Render every built-in scene and the showcase documents on both backends, write the images, heat maps and an index page, and check agreement.",
        discussion: "Writes NAME.gpu.png, NAME.cpu.png and NAME.heatmap.png per scene, summary.txt and index.html (every "
            + "scene with its GPU and CPU images, heat map and agreement) into the output folder. The scene documents in "
            + "--examples (default: Examples/ when it exists) are rendered at their own time too. Exits 1 if any scene "
            + "misses the GPU-vs-CPU agreement bar.")

    @Option(name: .shortAndLong, help: "Output folder.") var out = "out/demo"
    @Option(help: "Render only the scenes whose names contain this.") var only: String?
    @Flag(help: "Render on the CPU only (no GL needed; no agreement check).") var cpuOnly = false
    @Option(help: "Show every scene at this media time (seconds) instead of its own.") var time: Double?
    @Option(help: "A folder of scene documents (*.json) to render too (default: Examples, when it exists).") var examples: String?
    @Flag(help: "Print one line of JSON at the end (scenes, agreement, seconds) instead of the report.") var json = false

    func validate() throws {
        try checkTime(time, option: "--time")
    }

    func run() throws {
        let folder = URL(fileURLWithPath: out, isDirectory: true)
        do {
            try OutputFile.makeFolder(folder.path)
        } catch {
            printError("quartz demo: \(error)")
            throw QuartzExit.badInput
        }
        var scenes = DemoScene.all.filter { only == nil || $0.name.contains(only!) }.map(ShowcaseScene.builtIn)
        let documents = try exampleDocuments()
        scenes += documents.filter { only == nil || $0.name.contains(only!) }
        let bar = AgreementBar.gpuAgainstCPU
        var lines: [String] = ["OpenQuartz demo: \(scenes.count) scenes; bar: \(bar)"]
        if !cpuOnly, let caps = try? GLBackendInfo.caps() { lines.append("GL: \(caps)") }
        if !json { print(lines.joined(separator: "\n")) }
        var failures = 0
        var entries: [IndexPage.Entry] = []
        let start = Date()
        for scene in scenes {
            do {
                let cpu = try render(scene, backend: .cpu)
                try cpu.writePNG(to: folder.appendingPathComponent("\(scene.name).cpu.png"), links: .refused)
                var line = "\(scene.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(cpu.width)x\(cpu.height)"
                if !cpuOnly {
                    let gpu = try render(scene, backend: .gpu)
                    try gpu.writePNG(to: folder.appendingPathComponent("\(scene.name).gpu.png"), links: .refused)
                    let report = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: bar.tolerance)
                    try CGImage(bitmap: try HeatMap.make(expected: cpu.bitmap, actual: gpu.bitmap))
                        .writePNG(to: folder.appendingPathComponent("\(scene.name).heatmap.png"), links: .refused)
                    let verdict = bar.failure(of: report)
                    if verdict != nil { failures += 1 }
                    line += "  \(verdict == nil ? "agree" : "DISAGREE")  \(report)"
                    if let verdict { line += "\n    \(verdict)" }
                    entries.append(IndexPage.Entry(name: scene.name, summary: scene.summary, source: scene.source,
                                                   agrees: verdict == nil, report: "\(report)"))
                } else {
                    entries.append(IndexPage.Entry(name: scene.name, summary: scene.summary, source: scene.source, agrees: nil, report: ""))
                }
                if !json { print(line) }
                lines.append(line)
            } catch {
                printError("quartz demo: \(scene.name): \(error)")
                let summary = lines + ["\(scene.name): failed: \(error)"]
                try? writeOutput(Data(summary.joined(separator: "\n").utf8), to: folder.appendingPathComponent("summary.txt").path, links: .refused)
                throw QuartzExit.renderFailed
            }
        }
        let elapsed = String(format: "%.2f", Date().timeIntervalSince(start))
        let closing = cpuOnly ? "\(scenes.count) scenes rendered on the CPU in \(elapsed) s"
            : "\(scenes.count - failures) of \(scenes.count) scenes agree; \(elapsed) s"
        lines.append(closing)
        if json {
            printJSON(["scenes": scenes.count, "disagreeing": entries.filter { $0.agrees == false }.map(\.name),
                       "agree": failures == 0, "seconds": Date().timeIntervalSince(start),
                       "index": folder.appendingPathComponent("index.html").path])
        } else {
            print(closing)
            print("images in \(folder.path); open index.html")
        }
        try? writeOutput(Data(lines.joined(separator: "\n").utf8), to: folder.appendingPathComponent("summary.txt").path, links: .refused)
        // Files inside the output folder: a link at one of their names is refused, not followed.
        try? writeOutput(Data(IndexPage.html(entries, title: "OpenQuartz demo", closing: closing).utf8),
                         to: folder.appendingPathComponent("index.html").path, links: .refused)
        if failures > 0 { throw QuartzExit.disagreement }
    }

    private func render(_ scene: ShowcaseScene, backend: RenderBackend) throws -> CGImage {
        switch scene {
        case .builtIn(let demo): return try demo.render(backend: backend, atTime: time)
        case let .document(_, document, _):
            return try SceneFrameRenderer(document: document, backend: backend, scale: nil, size: nil).frame(at: time ?? document.time)
        }
    }

    /// The scene documents of the examples folder, each checked (a broken one is bad input).
    private func exampleDocuments() throws -> [ShowcaseScene] {
        let folder = examples ?? "Examples"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            if examples != nil {
                printError("quartz demo: --examples \(folder) is not a folder")
                throw QuartzExit.badInput
            }
            return []
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        return try files.map { file in
            let path = (folder as NSString).appendingPathComponent(file)
            return .document(name: String(file.dropLast(5)), try loadScene(path, command: "demo"), path: path)
        }
    }
}

/// A scene of the showcase: built into the binary, or a scene document.
enum ShowcaseScene {
    case builtIn(DemoScene)
    case document(name: String, SceneDocument, path: String)

    var name: String {
        switch self {
        case .builtIn(let scene): scene.name
        case .document(let name, _, _): name
        }
    }

    var summary: String {
        switch self {
        case .builtIn(let scene): scene.summary
        case let .document(_, document, path): "\(path) at t = \(document.time) s"
        }
    }

    var source: String {
        switch self {
        case .builtIn: "built in"
        case .document(_, _, let path): path
        }
    }
}

import GLBackend

enum GLBackendInfo {
    static func caps() throws -> String {
        let caps = try GLDevice.shared().caps
        return "\(caps.renderer), \(caps.version), EGL \(caps.platform.rawValue) (\(caps.platformDetail))"
    }
}
