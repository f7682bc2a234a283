import Foundation
import LottieImport
import OpenQuartzCore
import SceneFormat

/// What `render`, `animate`, `check` and `info` render, recognised by its content (never by its
/// name): a scene document (`"format": "openquartz-scene"`), or a Lottie animation (a JSON
/// object with `layers` and a frame rate, `fr`, or a dotLottie archive: a ZIP).
enum FrameDocument {
    case scene(SceneDocument)
    case lottie(LottieDocument)

    /// Largest file read before its format is known: a Lottie file embeds its images, so it may
    /// be larger than a scene document (which checks its own, smaller limit).
    static let maxBytes = max(LottieDocument.maxBytes, SceneLimits.standard.maxFileBytes)

    /// Reads `data` as whichever format it is; `assets` is the folder its image files are read
    /// from (nothing outside it).
    init(data: Data, assets: URL?) throws {
        if DotLottieArchive.isArchive(data) {
            // An archive holds its own images; --assets is not read.
            self = .lottie(try DotLottieArchive(data: data).document())
        } else if let json = FrameDocument.lottieJSON(data) {
            self = .lottie(try LottieDocument(json: json, assets: assets))
        } else {
            self = .scene(try SceneDocument(data: data, baseDirectory: assets))
        }
    }

    /// `data` read as JSON when it is a Lottie document (a JSON object whose members include
    /// `layers` and `fr` and not a scene document's `format`), else nil: a scene document is
    /// left to its own reader, so its mistakes are reported as its.
    static func lottieJSON(_ data: Data) -> LottieJSONTape? {
        // A Lottie document names the keys "layers" and "fr": bytes that lack either spelling, and
        // hold no escape that could spell one otherwise, are not one, so a scene document is not
        // parsed a second time here.
        let mayBeLottie = contains(data, "\\u") || (contains(data, "\"layers\"") && contains(data, "\"fr\""))
        guard mayBeLottie, data.count <= LottieDocument.maxBytes,
              let tape = try? LottieDocument.parse(data),
              !tape.rootHasMember("format"), tape.rootHasMember("layers"), tape.rootHasMember("fr") else { return nil }
        return tape
    }

    /// Whether `text`'s bytes occur in `data`: each place its first byte occurs found by C's
    /// memchr, the rest compared by memcmp, where Data.range(of:) compared byte by byte through
    /// generic slices (a fifth of reading a Lottie file that holds no escape).
    static func contains(_ data: Data, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard let first = needle.first else { return true }
        return data.withUnsafeBytes { bytes in
            guard let start = bytes.baseAddress else { return false }
            let end = start + bytes.count
            var from = start
            while from < end, let hit = memchr(from, Int32(first), end - from) {
                let at = UnsafeRawPointer(hit)
                if end - at >= needle.count, memcmp(at, needle, needle.count) == 0 { return true }
                from = at + 1
            }
            return false
        }
    }

    /// The frame's size in points when the command line gives none.
    var size: CGSize {
        switch self {
        case .scene(let scene): scene.size
        case .lottie(let lottie): CGSize(width: lottie.width, height: lottie.height)
        }
    }

    /// Device pixels per point when the command line gives none.
    var scale: CGFloat {
        switch self {
        case .scene(let scene): scene.scale
        case .lottie: 1
        }
    }

    /// The time a still shows when the command line gives none: a scene's `time`, a Lottie
    /// animation's first frame.
    var time: Double {
        switch self {
        case .scene(let scene): scene.time
        case .lottie: 0
        }
    }

    /// The last time `animate` renders by default: a scene's `duration`; a Lottie animation's
    /// last frame before `op` (frames `ip` to `op - 1`, so a loop of them repeats without a
    /// doubled frame).
    var duration: Double {
        switch self {
        case .scene(let scene): scene.duration
        case .lottie(let lottie): lottie.lastFrameTime
        }
    }

    /// Frames a second when the command line gives none.
    var fps: Double {
        switch self {
        case .scene(let scene): scene.fps
        case .lottie(let lottie): lottie.frameRate
        }
    }

    /// The time of `frame`: Lottie's frame numbers (from `ip`, at `fr`), a scene's frames at its fps.
    func time(ofFrame frame: Double) -> Double {
        switch self {
        case .scene(let scene): frame / scene.fps
        case .lottie(let lottie): (frame - lottie.inFrame) / lottie.frameRate
        }
    }

    /// The time at `progress` (0 to 1) of the animation: of a scene's duration; of a Lottie
    /// animation's `ip` to `op`, as lottie-ios's `currentProgress`.
    func time(ofProgress progress: Double) -> Double {
        switch self {
        case .scene(let scene): progress * scene.duration
        case .lottie(let lottie): (lottie.frame(atProgress: progress) - lottie.inFrame) / lottie.frameRate
        }
    }

    /// A fresh tree to play, shown in a viewport of `size` points: a scene's area from its
    /// origin; a Lottie animation fitted into it, aspect kept and centred, over `background`.
    func makePlayer(size: CGSize, scale: CGFloat, background: CGColor?) throws -> FramePlayer {
        switch self {
        case .scene(let scene): return scene.makePlayer()
        case .lottie(let lottie):
            return LottieFramePlayer(try LottiePlayer(document: lottie, viewport: size, background: background, renderScale: scale))
        }
    }

    /// What the document's reader noticed and did not draw (a Lottie file's text layers,
    /// expressions, ...), after `makePlayer` built its tree.
    var warnings: [String] {
        switch self {
        case .scene: []
        case .lottie(let lottie): lottie.warnings
        }
    }
}

/// A document's tree played to a time: the model tree and how it looks then.
protocol FramePlayer: AnyObject {
    /// The model tree (its content is drawn before each frame).
    var root: CALayer { get }
    /// Brings the tree to `t` seconds.
    func advance(to t: Double)
    /// The tree as it looks at the current time.
    func presentation() -> CALayer
}

extension ScenePlayer: FramePlayer {}

/// A Lottie animation paused at the frame of each time asked for, in any order.
final class LottieFramePlayer: FramePlayer {
    let player: LottiePlayer
    init(_ player: LottiePlayer) { self.player = player }
    var root: CALayer { player.root }
    func advance(to t: Double) { player.seek(toTime: t) }
    func presentation() -> CALayer { player.presentation() }
}
