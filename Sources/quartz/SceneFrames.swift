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
    /// Copying GPU frames back to memory (glReadPixels after the draws finished).
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

    func frame(at t: Double) throws -> CGImage {
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
        lap(&times.execution)
        return CGImage(bitmap: bitmap)
    }
}

/// Loads a document, printing each mistake on a line of its own; exits 2 when it cannot be used.
func loadScene(_ path: String, command: String) throws -> SceneDocument {
    do {
        return try SceneDocument.load(contentsOf: URL(fileURLWithPath: path))
    } catch {
        for line in error.lines(file: path) { printError("quartz \(command): \(line)") }
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

/// Writes `data` to `url` through a temporary file in the same folder, so a failed run leaves no
/// partial file behind.
func writeAtomically(_ data: Data, to url: URL) throws {
    let folder = url.deletingLastPathComponent()
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: folder.path,
                                                    NSLocalizedDescriptionKey: "the folder \(folder.path) does not exist"])
    }
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).partial")
    try InterruptCleanup.write(data, temporary: temporary, destination: url)
}

/// One line of JSON for `--json`.
func printJSON(_ object: [String: Any]) {
    if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
        print(String(decoding: data, as: UTF8.self))
    }
}

extension RenderBackend: ExpressibleByArgument {}
