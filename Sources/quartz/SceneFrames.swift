import ArgumentParser
import Compositor
import Foundation
import GLBackend
import OpenQuartzCore
import RasterBackend
import SceneFormat

/// Where a frame's time goes, summed over the frames rendered.
struct StageTimes {
    /// Opening the GL device and building its programs, once a process: what the first frame
    /// waited for of it (`GLWarmUp` starts it while the document is read).
    var setup = 0.0
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
        ["setup": setup, "evaluation": evaluation, "rasterization": rasterization, "compositing": compositing,
         "execution": execution, "readback": readback, "encoding": encoding]
    }
}

/// Renders a document's frames (a scene document's or a Lottie animation's): the tree advanced
/// to each time, the presentation tree drawn, composited and executed, each stage timed.
final class SceneFrameRenderer {
    let document: FrameDocument
    let player: FramePlayer
    let backend: RenderBackend
    let scale: CGFloat
    let size: CGSize
    var times = StageTimes()
    /// The render list of the last frame: what `quartz check --render-list` prints.
    private(set) var lastRenderList: RenderList?
    private let cache = RasterPassCache()
    /// Shape outlines kept from one frame to the next (the same lists, made once per path).
    private let outlines = ShapeOutlineCache()
    /// Whether `begin` draws every frame whole; by default a frame is drawn over the one before
    /// it, only where their render lists differ (`RenderList.damage(since:)`), the same bytes.
    var redrawsWholeFrames = false
    /// The list of the last frame begun: the next frame's damage is worked out against it.
    private var begun: RenderList?
    /// The last frame finished: the next GPU frame is drawn over it (frames are finished in
    /// the order begun, so when one is collected the frame before it is finished).
    private var finished: Bitmap?
    /// The last frame the CPU drew (in `begin`, before the one before it may be finished).
    private var drawnOnCPU: Bitmap?
    /// Whether the GL device is open with its programs built (`prepareDevice`).
    private var devicePrepared = false
    /// Frames drawn, and the pixels drawn for them, with damage tracking: the share of each frame
    /// that was drawn again.
    private(set) var framesDrawn = 0
    private(set) var pixelsDrawn = 0.0

    /// `size` is the area rendered (a scene's, from its origin) or the viewport a Lottie
    /// animation is fitted into; `background` is under a Lottie animation (scenes draw their own).
    init(document: FrameDocument, backend: RenderBackend, scale: CGFloat?, size: CGSize?, background: CGColor? = nil) throws {
        self.document = document
        self.backend = backend
        self.scale = scale ?? document.scale
        self.size = size ?? document.size
        player = try document.makePlayer(size: self.size, scale: self.scale, background: background)
    }

    convenience init(document: SceneDocument, backend: RenderBackend, scale: CGFloat?, size: CGSize?) {
        // A scene document's player cannot fail.
        try! self.init(document: .scene(document), backend: backend, scale: scale, size: size)
    }

    /// A frame begun: on the GPU, drawn and on its way to memory; on the CPU, drawn.
    enum InFlight {
        /// Drawn on the GPU, on its way to memory; where `overPrevious`, only its damage, to be
        /// laid over the frame finished before it.
        case gpu(GLDevice.PendingFrame, overPrevious: Bool)
        case drawn(Bitmap)
        /// The same pixels as the frame before.
        case unchanged
    }

    /// Builds the frame at `t` and starts drawing it: on the GPU the draws and the copy to memory
    /// are queued (`GLDevice.submit`) and this returns, so the caller can begin the next frame
    /// while the GPU works; `finish` waits for it. Frames are finished in the order begun.
    func begin(at t: Double) throws -> InFlight {
        let list = try renderList(at: t)
        try prepareDevice()
        let start = Date()
        defer { times.execution += Date().timeIntervalSince(start) }
        let whole = PixelRect(minX: 0, minY: 0, maxX: list.width, maxY: list.height)
        // The damage against the frame begun before (nil: nothing changed); the whole frame for
        // the first, a new size, or when asked.
        let damage: PixelRect?? = redrawsWholeFrames || begun?.width != list.width || begun?.height != list.height
            ? .none : .some(begun.flatMap { list.damage(since: $0) })
        begun = list
        framesDrawn += 1
        pixelsDrawn += Double(damage.map { $0.map { $0.width * $0.height } ?? 0 } ?? whole.width * whole.height)
            / Double(max(whole.width * whole.height, 1))
        switch backend {
        case .cpu:
            let frame: Bitmap
            if case .some(let damage) = damage, let before = drawnOnCPU {
                frame = damage.map { RasterRenderer().render(list, cache: cache, over: before, damage: $0) } ?? before
            } else {
                frame = RasterRenderer().render(list, cache: cache)
            }
            drawnOnCPU = frame
            return .drawn(frame)
        case .gpu:
            switch damage {
            case .some(.none): return .unchanged
            case .some(.some(let damage)): return .gpu(try GLDevice.shared().submit(list, damage: damage), overPrevious: true)
            case .none: return .gpu(try GLDevice.shared().submit(list), overPrevious: false)
            }
        }
    }

    /// The image of a frame `begin` started.
    func finish(_ frame: InFlight) throws -> CGImage {
        let bitmap: Bitmap
        switch frame {
        case .drawn(let drawn): bitmap = drawn
        case .unchanged:
            guard let finished else { throw RenderError.noFrame }
            bitmap = finished
        case .gpu(let pending, let overPrevious):
            let start = Date()
            defer { times.readback += Date().timeIntervalSince(start) }
            bitmap = try GLDevice.shared().collect(pending, over: overPrevious ? finished : nil)
        }
        finished = bitmap
        return CGImage(bitmap: bitmap)
    }

    /// A frame begun and not finished (the run failed): the next frame is drawn whole.
    func abandon(_ frame: InFlight) {
        begun = nil
        finished = nil
        drawnOnCPU = nil
        if case .gpu(let pending, _) = frame, let device = try? GLDevice.shared() { device.discard(pending) }
    }

    func frame(at t: Double) throws -> CGImage {
        let list = try renderList(at: t)
        try prepareDevice()
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

    /// For the GPU, the device opened and its programs built before the first frame is drawn,
    /// timed as the setup stage rather than as that frame's drawing.
    private func prepareDevice() throws {
        guard backend == .gpu, !devicePrepared else { return }
        let start = Date()
        defer { times.setup += Date().timeIntervalSince(start) }
        try GLDevice.shared().prepare()
        devicePrepared = true
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
        var builder = RenderListBuilder(viewport: CGRect(origin: .zero, size: size), scale: scale)
        builder.outlineCache = outlines
        let list = try builder.build(root: tree)
        lastRenderList = list
        lap(&times.compositing)
        return list
    }
}

/// The document a command renders (a scene document or a Lottie animation, told apart by
/// content): a file (a link is followed), or `-` for standard input, and the folder its images
/// are read from.
struct SceneSource: ParsableArguments {
    @Argument(help: "The scene document or Lottie animation (JSON), or - to read it from standard input.") var scene: String
    @Option(help: ArgumentHelp("The folder the document's images are read from; nothing outside it is read (default: the "
        + "document's folder; for standard input, the current folder).", valueName: "folder"))
    var assets: String?

    /// Loads the document, printing each mistake on a line of its own; exits 2 when it cannot be used.
    func load(command: String) throws -> FrameDocument {
        let name = scene == "-" ? "standard input" : scene
        do {
            let data: Data, folder: URL
            if scene == "-" {
                data = try SceneDocument.readAll(fileDescriptor: STDIN_FILENO, name: name, maxBytes: FrameDocument.maxBytes)
                folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            } else {
                (data, folder) = try SceneDocument.readFile(URL(fileURLWithPath: scene), maxBytes: FrameDocument.maxBytes)
            }
            return try FrameDocument(data: data, assets: assets.map { URL(fileURLWithPath: $0) } ?? folder)
        } catch let error as SceneError {
            for line in error.lines(file: name) { printError("quartz \(command): \(line)") }
        } catch {
            printError("quartz \(command): \(name): \(error)")
        }
        throw QuartzExit.badInput
    }
}

/// Builds the renderer for `document`, printing what its reader left undrawn (each a warning)
/// and exiting 2 when its tree cannot be built (a Lottie file over its budget).
func makeRenderer(_ document: FrameDocument, backend: RenderBackend, scale: CGFloat?, size: CGSize?, background: CGColor?,
                  command: String, name: String, printsWarnings: Bool = true) throws -> SceneFrameRenderer {
    let renderer: SceneFrameRenderer
    do {
        renderer = try SceneFrameRenderer(document: document, backend: backend, scale: scale, size: size, background: background)
    } catch {
        printError("quartz \(command): \(name): \(error)")
        throw QuartzExit.badInput
    }
    for warning in document.warnings where printsWarnings { printError("quartz \(command): \(name): warning: \(warning)") }
    return renderer
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

/// At most one of --time, --frame and --progress, each in range (a frame's range depends on the
/// document, checked by `moment`).
func checkMoment(time: Double?, frame: Double?, progress: Double?) throws {
    guard [time, frame, progress].compactMap({ $0 }).count <= 1 else { throw ValidationError("give one of --time, --frame and --progress") }
    if let progress, !(progress.isFinite && (0...1).contains(progress)) {
        throw ValidationError("--progress must be a number from 0 to 1 (got \(progress))")
    }
    if let frame, !frame.isFinite { throw ValidationError("--frame must be a frame number (got \(frame))") }
}

/// The time a still shows: --time, --frame or --progress in `document`'s terms, else its own time.
/// A frame outside the animation (a Lottie file's ip to op; a scene's timeline) is bad input.
func moment(time: Double?, frame: Double?, progress: Double?, in document: FrameDocument, command: String) throws -> Double {
    if let time { return time }
    if let progress { return document.time(ofProgress: progress) }
    guard let frame else { return document.time }
    if case .lottie(let lottie) = document, !(lottie.inFrame...lottie.outFrame).contains(frame) {
        printError("quartz \(command): frame \(frame) is outside the animation's frames \(lottie.inFrame) (ip) to \(lottie.outFrame) (op)")
        throw QuartzExit.badInput
    }
    let t = document.time(ofFrame: frame)
    do { try checkTime(t, option: "--frame") } catch {
        printError("quartz \(command): \(error)")
        throw QuartzExit.badInput
    }
    return t
}

/// --background as a colour.
func parseBackground(_ text: String?) throws -> CGColor? {
    guard let text else { return nil }
    do { return try SceneDocument.color(text) } catch {
        throw ValidationError("--background: \(error)")
    }
}

/// --background for `document`: a Lottie animation's; a scene document draws its own root, so
/// one given for it is bad input rather than ignored.
func checkedBackground(_ text: String?, for document: FrameDocument, command: String) throws -> CGColor? {
    guard let color = try parseBackground(text) else { return nil }
    guard case .lottie = document else {
        printError("quartz \(command): --background is for Lottie animations; a scene document sets its root layer's backgroundColor")
        throw QuartzExit.badInput
    }
    return color
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
