import ArgumentParser
import Compositor
import Foundation
import GLBackend
import OpenQuartzCore
import RasterBackend
import SceneFormat

/// Where a frame's time goes, summed over the frames rendered.
struct StageTimes {
    /// Running the timeline and evaluating the presentation tree.
    var evaluation = 0.0
    /// Drawing layer content on the CPU (shapes, text, gradients: display()).
    var rasterization = 0.0
    /// Building the render list (geometry, clips, passes).
    var compositing = 0.0
    /// Executing the list: GL draws or the CPU reference.
    var execution = 0.0
    /// Copying GPU frames back to memory: glReadPixels after the draws finished, or for frames in
    /// flight (`begin` / `finish`, what `quartz animate` does) the wait for the GPU and the copy
    /// that the CPU work of the next frame did not cover.
    var readback = 0.0
    /// Encoding and writing images (on a background queue, overlapping the rest).
    var encoding = 0.0

    var json: [String: Double] {
        ["evaluation": evaluation, "rasterization": rasterization, "compositing": compositing,
         "execution": execution, "readback": readback, "encoding": encoding]
    }
}

/// Renders a scene document's frames: the timeline advanced to each time, the presentation tree
/// drawn, composited and executed, each stage timed.
final class SceneFrameRenderer {
    let document: SceneDocument
    let player: ScenePlayer
    let backend: RenderBackend
    let scale: CGFloat
    let size: CGSize
    var times = StageTimes()
    /// The render list of the last frame: what `quartz check --render-list` prints.
    private(set) var lastRenderList: RenderList?
    private let cache = RasterPassCache()

    init(document: SceneDocument, backend: RenderBackend, scale: CGFloat?, size: CGSize?) {
        self.document = document
        player = document.makePlayer()
        self.backend = backend
        self.scale = scale ?? document.scale
        self.size = size ?? document.size
    }

    /// A frame begun: on the GPU, drawn and on its way to memory; on the CPU, drawn.
    enum InFlight {
        case gpu(GLDevice.PendingFrame)
        case drawn(Bitmap)
    }

    /// Builds the frame at `t` and starts drawing it: on the GPU the draws and the copy to memory
    /// are queued (`GLDevice.submit`) and this returns, so the caller can begin the next frame
    /// while the GPU works; `finish` waits for it.
    func begin(at t: Double) throws -> InFlight {
        let list = try renderList(at: t)
        let start = Date()
        defer { times.execution += Date().timeIntervalSince(start) }
        switch backend {
        case .cpu: return .drawn(RasterRenderer().render(list, cache: cache))
        case .gpu: return .gpu(try GLDevice.shared().submit(list))
        }
    }

    /// The image of a frame `begin` started.
    func finish(_ frame: InFlight) throws -> CGImage {
        switch frame {
        case .drawn(let bitmap): return CGImage(bitmap: bitmap)
        case .gpu(let pending):
            let start = Date()
            defer { times.readback += Date().timeIntervalSince(start) }
            return CGImage(bitmap: try GLDevice.shared().collect(pending))
        }
    }

    /// A frame begun and not finished (the run failed).
    func abandon(_ frame: InFlight) {
        if case .gpu(let pending) = frame, let device = try? GLDevice.shared() { device.discard(pending) }
    }

    func frame(at t: Double) throws -> CGImage {
        let list = try renderList(at: t)
        let start = Date()
        let bitmap: Bitmap
        switch backend {
        case .cpu: bitmap = RasterRenderer().render(list, cache: cache)
        case .gpu:
            let device = try GLDevice.shared()
            let before = device.readbackSeconds
            bitmap = try device.render(list)
            let readback = device.readbackSeconds - before
            times.readback += readback
            times.execution -= readback
        }
        times.execution += Date().timeIntervalSince(start)
        return CGImage(bitmap: bitmap)
    }

    /// The frame at `t` as a render list: the timeline advanced, content drawn, the presentation
    /// tree composited, each stage timed.
    func renderList(at t: Double) throws -> RenderList {
        var start = Date()
        func lap(_ stage: inout Double) {
            let now = Date()
            stage += now.timeIntervalSince(start)
            start = now
        }
        player.advance(to: t)
        lap(&times.evaluation)
        // The model's content is drawn once, where it changed; presentation copies redraw only
        // for animated keys that need it.
        MediaClock.$scoped.withValue(t) { player.root.displayTreeIfNeeded() }
        lap(&times.rasterization)
        let tree = MediaClock.$scoped.withValue(t) { player.presentation() }
        lap(&times.evaluation)
        tree.displayTreeIfNeeded()
        lap(&times.rasterization)
        let list = try RenderListBuilder(viewport: CGRect(origin: .zero, size: size), scale: scale).build(root: tree)
        lastRenderList = list
        lap(&times.compositing)
        return list
    }
}

/// The scene document a command renders: a file (a link is followed), or `-` for standard input,
/// and the folder its images are read from.
struct SceneSource: ParsableArguments {
    @Argument(help: "The scene document (JSON), or - to read it from standard input.") var scene: String
    @Option(help: ArgumentHelp("The folder the document's images are read from; nothing outside it is read (default: the "
        + "document's folder; for standard input, the current folder).", valueName: "folder"))
    var assets: String?

    /// Loads the document, printing each mistake on a line of its own; exits 2 when it cannot be used.
    func load(command: String) throws -> SceneDocument {
        let assetsURL = assets.map { URL(fileURLWithPath: $0) }
        do {
            if scene == "-" {
                return try SceneDocument.read(fileDescriptor: STDIN_FILENO, name: "standard input",
                                              assets: assetsURL ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            }
            return try SceneDocument.load(contentsOf: URL(fileURLWithPath: scene), assets: assetsURL)
        } catch {
            for line in error.lines(file: scene == "-" ? "standard input" : scene) { printError("quartz \(command): \(line)") }
            throw QuartzExit.badInput
        }
    }
}

/// Loads a document file (the demo's examples), printing each mistake; exits 2 when it cannot be used.
func loadScene(_ path: String, command: String) throws -> SceneDocument {
    do {
        return try SceneDocument.load(contentsOf: URL(fileURLWithPath: path))
    } catch {
        for line in error.lines(file: path) { printError("quartz \(command): \(line)") }
        throw QuartzExit.badInput
    }
}

/// A time from the command line: finite, from 0 to the timeline limit a document has too
/// (`SceneLimits.maxDuration`), so every later conversion of it is in range.
func checkTime(_ value: Double?, option: String) throws {
    guard let value else { return }
    let limit = SceneLimits.standard.maxDuration
    guard value.isFinite, value >= 0, value <= limit else {
        throw ValidationError("\(option) must be a number of seconds from 0 to \(Int(limit)), the timeline limit (got \(value))")
    }
}

/// The frame's size in pixels for `size` at `scale`, each side and the pixel count within the
/// limits a document has (`SceneLimits`): the command line cannot ask for more than a document may.
func checkFrame(size: CGSize, scale: CGFloat, command: String) throws {
    let limits = SceneLimits.standard
    let exactWidth = Double(size.width * scale), exactHeight = Double(size.height * scale)
    guard exactWidth >= 1, exactHeight >= 1 else {
        printError("quartz \(command): a frame of size \(size.width)x\(size.height) at scale \(scale) is less than a pixel wide or high")
        throw QuartzExit.badInput
    }
    let width = exactWidth.rounded(.up), height = exactHeight.rounded(.up)
    guard width <= Double(limits.maxSide), height <= Double(limits.maxSide), width * height <= Double(limits.maxPixels) else {
        printError("quartz \(command): a frame of \(String(format: "%.0fx%.0f", width, height)) pixels "
            + "(size \(size.width)x\(size.height) at scale \(scale)) is more than the limits of \(limits.maxSide) pixels a "
            + "side and \(limits.maxPixels) pixels")
        throw QuartzExit.badInput
    }
}

/// "WxH" as a size in points.
func parseSize(_ text: String?) throws -> CGSize? {
    guard let text else { return nil }
    let parts = text.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w >= 1, h >= 1, w <= 16_384, h <= 16_384 else {
        throw ValidationError("--size must be WIDTHxHEIGHT in points, each from 1 to 16384 (got \"\(text)\")")
    }
    return CGSize(width: w, height: h)
}

/// One line of JSON for `--json`.
func printJSON(_ object: [String: Any]) {
    print(jsonLine(object))
}

func jsonLine(_ object: [String: Any]) -> String {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
}

extension RenderBackend: ExpressibleByArgument {}
