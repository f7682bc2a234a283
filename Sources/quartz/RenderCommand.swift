import ArgumentParser
import Foundation
import OpenQuartzCore
import SceneFormat

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene document to a PNG at one time.",
        discussion: "The document is JSON (format \"openquartz-scene\", version 1; `quartz schema` prints its JSON "
            + "Schema). Every mistake in it is reported with its JSON path, and nothing is written. Exit codes: 0 "
            + "written; 2 bad input (document, options, output path); 3 rendering failed.")

    @Argument(help: "The scene document (JSON).") var scene: String
    @Option(name: .shortAndLong, help: "The PNG to write.") var output: String
    @Option(help: "The time in seconds (default: the document's time, else 0).") var time: Double?
    @Option(help: "gpu or cpu.") var backend: RenderBackend = .gpu
    @Option(help: "Device pixels per point (default: the document's scale).") var scale: Double?
    @Option(help: "The area rendered, WIDTHxHEIGHT in points (default: the document's size).") var size: String?
    @Flag(help: "Print the result as one line of JSON.") var json = false

    func validate() throws {
        if let time, !(time.isFinite && time >= 0) { throw ValidationError("--time must be a finite number of seconds from 0") }
        if let scale, !(scale.isFinite && scale > 0 && scale <= 16) { throw ValidationError("--scale must be a number in (0, 16]") }
        _ = try parseSize(size)
    }

    func run() throws {
        let document = try loadScene(scene, command: "render")
        let renderer = SceneFrameRenderer(document: document, backend: backend, scale: scale.map { CGFloat($0) }, size: try parseSize(size))
        let t = time ?? document.time
        let start = Date()
        let image: CGImage
        do {
            image = try renderer.frame(at: t)
        } catch {
            printError("quartz render: \(scene): \(error)")
            throw QuartzExit.renderFailed
        }
        let url = URL(fileURLWithPath: output)
        do {
            try writeAtomically(try image.pngData(), to: url)
        } catch {
            printError("quartz render: cannot write \(output): \(error.localizedDescription)")
            throw QuartzExit.badInput
        }
        let seconds = Date().timeIntervalSince(start)
        if json {
            printJSON(["output": url.path, "width": image.width, "height": image.height, "backend": backend.rawValue,
                       "time": t, "seconds": seconds])
        } else {
            print("\(output): \(image.width)x\(image.height) at t=\(t) s on the \(backend.rawValue) (\(String(format: "%.3f", seconds)) s)")
        }
    }
}
