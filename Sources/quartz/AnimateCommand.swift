import ArgumentParser
import Dispatch
import Foundation
import FrameShards
import OpenQuartzCore
import SceneFormat

struct AnimateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "animate",
        abstract: "Render a scene document's or a Lottie animation's frames: a folder of PNGs, an animated PNG, a GIF, or an MP4.",
        discussion: """
        A Lottie animation's frames are ip to op - 1 at its frame rate by default (times count from ip), fitted into \
        --size (aspect kept, centred) over --background. \
        The output's extension picks the format: none (a folder of frame-NNNNNN.png), .png or .apng (animated PNG), \
        .gif, .mp4 (through ffmpeg, which must be on PATH). On the GPU each frame is built while the one before is \
        drawn and read back (through pixel buffers); frames are encoded on background threads while the next \
        renders. --shard i/n renders the i-th of n contiguous ranges of the frames into a folder, numbered as in \
        the whole run, so n shards together write exactly the frames of one unsharded run; --shards n takes i from \
        JOB_COMPLETION_INDEX (0 to n-1, as a Kubernetes Indexed Job sets it). A finished shard writes \
        shard-i-of-n.json beside its frames, last; quartz join checks and assembles the shards. A progress bar shows on a \
        terminal. Exit codes: 0 written; 2 bad input; 3 rendering failed. Nothing is left behind on failure but \
        the frames of a folder already finished.
        """)

    @OptionGroup var source: SceneSource
    @Option(name: .shortAndLong, help: ArgumentHelp("A folder, or a .png/.apng, .gif or .mp4 file; - (or /dev/stdout) streams an animated PNG to "
        + "standard output. A file is replaced whole; a folder, a device or anything else not of the output's kind is never replaced."))
    var output: String
    @Option(help: "Frames per second (default: the document's fps, else 30).") var fps: Double?
    @Option(help: "First frame's time in seconds.") var from = 0.0
    @Option(help: "Last time in seconds (default: the document's duration).") var to: Double?
    @Option(help: "gpu or cpu.") var backend: RenderBackend = .gpu
    @Option(help: "Device pixels per point (default: the document's scale).") var scale: Double?
    @Option(help: "The area rendered, WIDTHxHEIGHT in points (default: the document's size); a Lottie animation is fitted into it.") var size: String?
    @Option(help: "The colour under a Lottie animation (#rrggbb, #rrggbbaa or a name; default: clear).") var background: String?
    @Option(help: "i/n: render only the i-th (from 1) of n equal ranges of frames (folder output only).") var shard: String?
    @Option(help: ArgumentHelp("n: render one of n equal ranges of frames, the one the environment variable JOB_COMPLETION_INDEX "
        + "names (0 to n-1, as a Kubernetes Indexed Job sets it; folder output only).")) var shards: Int?
    @Option(help: ArgumentHelp("PNG frames (a folder, an animated PNG): fast (libpng's fast writing: 3 to 5 times faster, "
        + "0 to 45% larger) or small (its default compression, as quartz render writes).")) var pngCompression: CGImage.PNGCompression = .fast
    @Flag(help: ArgumentHelp("Draw every frame whole. By default a frame is drawn over the one before it, only where their "
        + "layers differ, with the same bytes.")) var fullRedraw = false
    @Flag(help: "Print the result (frames, timing per stage) as one line of JSON.") var json = false

    func validate() throws {
        try checkTime(from, option: "--from")
        try checkTime(to, option: "--to")
        if let fps, !(fps.isFinite && fps > 0 && fps <= 1000) { throw ValidationError("--fps must be a number in (0, 1000] (got \(fps))") }
        if let scale, !(scale.isFinite && scale > 0 && scale <= 16) { throw ValidationError("--scale must be a number in (0, 16]") }
        _ = try parseSize(size)
        _ = try parseBackground(background)
        if shard != nil, shards != nil { throw ValidationError("give --shard i/n or --shards n, not both") }
        if shard != nil || shards != nil {
            _ = try shardIndex()
            guard FrameSinks.kind(of: output) == .folder else {
                throw ValidationError("--shard and --shards write numbered frames into a folder; give a folder as --output, not \(output)")
            }
        }
    }

    /// The shard this run renders, 1-based (nil: all frames), from --shard i/n or from --shards n
    /// and the 0-based JOB_COMPLETION_INDEX a Kubernetes Indexed Job gives each pod.
    func shardIndex(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (index: Int, count: Int)? {
        if let shard { return try parseShard(shard) }
        guard let shards else { return nil }
        guard (1...ShardManifest.Limits.maxFrames).contains(shards) else {
            throw ValidationError("--shards must be a whole number from 1 to \(ShardManifest.Limits.maxFrames) (got \(shards))")
        }
        guard let text = environment["JOB_COMPLETION_INDEX"] else {
            throw ValidationError("--shards \(shards) takes the shard from JOB_COMPLETION_INDEX (0 to \(shards - 1)), which is not set; "
                + "run it in a Kubernetes Indexed Job, set it, or give --shard i/n")
        }
        guard let index = Int(text), index >= 0, index < shards else {
            throw ValidationError("JOB_COMPLETION_INDEX must be a whole number from 0 to \(shards - 1) for --shards \(shards) (got \"\(text)\")")
        }
        return (index + 1, shards)
    }

    func parseShard(_ text: String) throws -> (index: Int, count: Int) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 1, i <= n, n <= ShardManifest.Limits.maxFrames else {
            throw ValidationError("--shard must be i/n with 1 <= i <= n <= \(ShardManifest.Limits.maxFrames) (got \"\(text)\")")
        }
        return (i, n)
    }

    func run() throws {
        InterruptCleanup.install()
        let scene = source.scene
        let kind = FrameSinks.kind(of: output)
        // The output is checked before anything is read or rendered.
        do {
            try OutputDestination.checkNotAnInput([output], inputs: [source.scene])
            if kind == .folder { try PNGFolderSink.check(output) } else { _ = try OutputDestination.resolve(output) }
        } catch {
            printError("quartz animate: \(error)")
            throw QuartzExit.badInput
        }
        GLWarmUp.start(for: backend)
        let document = try source.load(command: "animate")
        let rate = fps ?? document.fps
        let end = to ?? document.duration
        // A Lottie animation of one frame is that frame; a scene without a duration has none.
        if case .scene = document, end <= from, to == nil {
            printError("quartz animate: \(scene) has no duration; give --to (seconds)")
            throw QuartzExit.badInput
        }
        let allTimes: [Double]
        do { allTimes = try CARenderer.frameTimes(from: from, to: end, fps: rate) } catch {
            printError("quartz animate: \(error)")
            throw QuartzExit.badInput
        }
        // This shard's contiguous range of frame indices.
        var range = 0..<allTimes.count
        let shardIndex = try shardIndex()
        if let (i, n) = shardIndex { range = ShardManifest.range(shard: i, of: n, frames: allTimes.count) }
        let renderer = try makeRenderer(document, backend: backend, scale: scale.map { CGFloat($0) }, size: try parseSize(size),
                                        background: try checkedBackground(background, for: document, command: "animate"), command: "animate", name: scene)
        renderer.redrawsWholeFrames = fullRedraw
        try checkFrame(size: renderer.size, scale: renderer.scale, command: "animate")
        let pixelWidth = Int((renderer.size.width * renderer.scale).rounded(.up)), pixelHeight = Int((renderer.size.height * renderer.scale).rounded(.up))
        let url = URL(fileURLWithPath: output)
        let sink: FrameSink
        do {
            switch kind {
            case .folder:
                sink = try PNGFolderSink(folder: url, compression: pngCompression, frames: range,
                                         also: shardIndex.map { [ShardManifest.fileName(shard: $0.index, of: $0.count)] } ?? [])
            case .apng: sink = AnimatedPNGSink(path: output, width: pixelWidth, height: pixelHeight, fps: rate, compression: pngCompression)
            case .gif: sink = GIFSink(path: output, width: pixelWidth, height: pixelHeight, fps: rate)
            case .mp4:
                guard let ffmpeg = FrameSinks.ffmpeg() else {
                    printError("quartz animate: writing MP4 needs ffmpeg on PATH, and there is none; install it (apt-get install ffmpeg) "
                        + "or write a folder, .png (animated) or .gif")
                    throw QuartzExit.badInput
                }
                sink = try FFmpegSink(ffmpeg: ffmpeg, path: output, width: pixelWidth, height: pixelHeight, fps: rate)
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError("quartz animate: \(error)")
            throw QuartzExit.badInput
        }

        let progress = ProgressBar(total: range.count, enabled: isatty(STDERR_FILENO) == 1 && !json)
        let encoder = FrameEncoder(sink: sink)
        let start = Date()
        // Resident memory once a tenth of the frames are done (caches and the driver warmed up)
        // and at the end: a run that keeps growing between them holds on to something per frame.
        let tenth = range.lowerBound + max(range.count / 10, 1) - 1
        var residentAfterTenth: Int?
        // Two frames in flight: frame n + 1 is built (evaluation, content, render list) and its
        // draws queued while the GPU still draws and copies frame n, whose image is then
        // collected through its pixel buffer and handed to the encoders.
        var inFlight: (index: Int, frame: SceneFrameRenderer.InFlight)?
        func hand(_ frame: SceneFrameRenderer.InFlight, index: Int) throws {
            encoder.add(try renderer.finish(frame), index: index)
            try encoder.check()
            progress.update(done: index - range.lowerBound + 1)
            if index == tenth { residentAfterTenth = ResidentMemory.current() }
        }
        do {
            for index in range {
                let next = try renderer.begin(at: allTimes[index])
                if let previous = inFlight {
                    inFlight = nil
                    do { try hand(previous.frame, index: previous.index) } catch {
                        renderer.abandon(next)
                        throw error
                    }
                }
                inFlight = (index, next)
            }
            if let last = inFlight {
                inFlight = nil
                try hand(last.frame, index: last.index)
            }
            try encoder.finish()
            // Last, after every frame: a shard's manifest says it finished.
            if let (i, n) = shardIndex {
                let manifest = ShardManifest(shard: i, shards: n, firstFrame: range.lowerBound, frames: range.count, totalFrames: allTimes.count,
                                             fps: rate, width: pixelWidth, height: pixelHeight, pngCompression: pngCompression.rawValue,
                                             run: runIdentity(rate: rate, end: end, renderer: renderer))
                do { try writeOutput(manifest.json, to: url.appendingPathComponent(manifest.fileName).path, links: .refused) } catch {
                    throw ImageWriteFailure(underlying: error)
                }
            }
        } catch {
            if let pending = inFlight { renderer.abandon(pending.frame) }
            progress.clear()
            encoder.abandon()
            printError("quartz animate: \(error is ImageWriteFailure ? "" : "\(scene): ")\(error)")
            throw error is ImageWriteFailure ? QuartzExit.badInput : QuartzExit.renderFailed
        }
        progress.clear()
        var times = renderer.times
        times.encoding = encoder.encodingSeconds
        let seconds = Date().timeIntervalSince(start)
        let framesPerSecond = Double(range.count) / max(seconds, 1e-9)
        // With the frames on standard output, the report goes to standard error.
        let report: (String) -> Void = OutputDestination.isStandardOutput(output) ? { printError($0) } : { print($0) }
        let peak = ResidentMemory.peak()
        var memory: [String: Any] = ["peakResidentBytes": peak]
        if let early = residentAfterTenth, let late = ResidentMemory.current() {
            memory["residentAfterTenthBytes"] = early
            memory["residentAtEndBytes"] = late
        }
        if json {
            report(jsonLine(["output": OutputDestination.isStandardOutput(output) ? "-" : url.path, "frames": range.count, "firstFrame": range.lowerBound, "totalFrames": allTimes.count,
                       "width": pixelWidth, "height": pixelHeight, "backend": backend.rawValue, "seconds": seconds,
                       "framesPerSecond": framesPerSecond, "stages": times.json, "memory": memory,
                       "drawnShare": renderer.pixelsDrawn / Double(max(renderer.framesDrawn, 1))]))
        } else {
            let stages = times.json.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.2f", $0.value)) s" }
            report("\(output): \(range.count) frames \(pixelWidth)x\(pixelHeight) on the \(backend.rawValue) in "
                + "\(String(format: "%.2f", seconds)) s (\(String(format: "%.1f", framesPerSecond)) frames/s; \(stages.joined(separator: ", ")); "
                + "\(String(format: "%.1f", 100 * renderer.pixelsDrawn / Double(max(renderer.framesDrawn, 1))))% of the pixels drawn; "
                + "peak memory \(ResidentMemory.mebibytes(peak)))")
        }
    }
}

extension AnimateCommand {
    /// What makes shards parts of one run: the document's bytes and every option that changes a
    /// frame or its numbering (`ShardManifest.run`).
    func runIdentity(rate: Double, end: Double, renderer: SceneFrameRenderer) -> String {
        let document = source.scene == "-" ? "standard input"
            : FileManager.default.contents(atPath: source.scene).map { "document \(ShardManifest.fingerprint($0))" } ?? "document unreadable"
        return "\(document); from \(from) to \(end) s at \(rate) fps; \(renderer.size.width)x\(renderer.size.height) pt at scale "
            + "\(renderer.scale); \(backend.rawValue); png \(pngCompression.rawValue)"
    }
}

extension CGImage.PNGCompression: ExpressibleByArgument {}

/// An error writing frames (as opposed to rendering them).
struct ImageWriteFailure: Error, CustomStringConvertible {
    let underlying: Error
    var description: String { "\(underlying)" }
}

/// Encodes frames on background threads (several at once: PNG compression costs about as much
/// as rendering a frame) and writes them in order on one serial queue, at most a few frames
/// behind the renderer, so encoding overlaps rendering instead of adding to it.
final class FrameEncoder: @unchecked Sendable {
    private let sink: FrameSink
    private let encoders = DispatchQueue(label: "quartz.encode", attributes: .concurrent)
    private let writer = DispatchQueue(label: "quartz.write")
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var failure: Error?
    private(set) var encodingSeconds = 0.0

    init(sink: FrameSink) {
        self.sink = sink
        slots = DispatchSemaphore(value: max(2, ProcessInfo.processInfo.activeProcessorCount + 1))
    }

    private var failed: Bool { lock.withLock { failure != nil } }

    private func record(_ error: Error) {
        lock.withLock { if failure == nil { failure = ImageWriteFailure(underlying: error) } }
    }

    func add(_ image: CGImage, index: Int) {
        slots.wait()
        final class Box: @unchecked Sendable { var encoded: Any? }
        let box = Box(), encoded = DispatchGroup()
        encoders.async(group: encoded) { [self] in
            guard !failed else { return }
            let start = Date()
            do { box.encoded = try sink.encode(image) } catch { record(error) }
            lock.withLock { encodingSeconds += Date().timeIntervalSince(start) }
        }
        writer.async { [self] in
            defer { slots.signal() }
            encoded.wait()
            guard !failed, let value = box.encoded else { return }
            do { try sink.write(value, index: index) } catch { record(error) }
        }
    }

    /// Throws the first encoding or write failure so far.
    func check() throws {
        if let failure = lock.withLock({ failure }) { throw failure }
    }

    func finish() throws {
        writer.sync {}
        try check()
        do { try sink.finish() } catch { throw ImageWriteFailure(underlying: error) }
    }

    /// After a failure: waits for the queues so no write runs after the command ends.
    func abandon() {
        writer.sync {}
        sink.abandon()
    }
}
