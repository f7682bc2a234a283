import Foundation
import LayerModel
import OpenCoreGraphics

/// A Lottie animation shown in a viewport and paused at a frame, as lottie-ios's animation view
/// shows one with `.scaleAspectFit`: the composition scaled to fit the viewport with its aspect
/// kept, centred, over the background (clear without one). Seeking sets the paused time, as
/// lottie-ios's Core Animation engine does (`speed = 0`, `timeOffset`), so any frame can be
/// shown in any order.
public final class LottiePlayer {
    public let document: LottieDocument
    /// The viewport layer (its bounds the viewport) holding the animation.
    public let root: CALayer
    /// The composition's layer, from `makeLayer()`.
    public let animation: CALayer

    /// Lays `document` out in `viewport` (points; default its own size) over `background`. Text
    /// is drawn for renders at `renderScale` pixels a viewport point (its backing store as fine
    /// as the shapes around it). `maxSamples` is `makeLayer`'s budget.
    public init(document: LottieDocument, viewport: CGSize? = nil, background: CGColor? = nil, renderScale: CGFloat = 2,
                maxSamples: Int = LottieDocument.maxSamples) throws {
        self.document = document
        let size = viewport ?? CGSize(width: document.width, height: document.height)
        root = CALayer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.anchorPoint = .zero
        root.position = .zero
        root.backgroundColor = background
        animation = try document.makeLayer(maxSamples: maxSamples)
        let scale = min(size.width / document.width, size.height / document.height)
        animation.transform = CATransform3DMakeScale(scale, scale, 1)
        animation.position = CGPoint(x: (size.width - document.width * scale) / 2, y: (size.height - document.height * scale) / 2)
        animation.speed = 0
        root.addSublayer(animation)
        self.renderScale = renderScale
        func findText(_ layer: CALayer) -> Bool {
            (layer is LottieTextLayer) || (layer.sublayers ?? []).contains(where: findText) || layer.mask.map(findText) == true
        }
        hasText = findText(animation)
        seek(toFrame: document.inFrame)
    }

    /// Pixels a viewport point in the renders the text is drawn for.
    private let renderScale: CGFloat
    private let hasText: Bool

    /// The frame shown: from the document's first frame (`ip`) to its end (`op`).
    public private(set) var currentFrame: Double = 0

    /// Shows `frame`, clamped to `ip`...`op`. The end frame is shown a hair before `op`: Core
    /// Animation's local time wraps at an animation's end, and lottie-ios pauses there too.
    public func seek(toFrame frame: Double) {
        let clamped = frame.isNaN ? document.inFrame : min(max(frame, document.inFrame), document.outFrame)
        currentFrame = clamped
        animation.timeOffset = min(clamped, document.outFrame - 1e-6) / document.frameRate
    }

    /// Shows the frame at `progress` (0 at `ip`, 1 at `op`), as lottie-ios's `currentProgress`.
    public func seek(toProgress progress: Double) { seek(toFrame: document.frame(atProgress: progress)) }

    /// Shows the frame `seconds` after the first (`ip + seconds x fr`), as lottie-ios's `currentTime`.
    public func seek(toTime seconds: Double) { seek(toFrame: document.inFrame + seconds * document.frameRate) }

    /// The viewport as it shows now: the presentation tree, every animation at the paused frame,
    /// without the subtrees of layers hidden then (nothing draws them). Its layers are reused by
    /// the next call (a tree of the same shape every frame need not be allocated again): draw it
    /// before asking for the next.
    public func presentation() -> CALayer {
        // The animation's clock is stopped (speed 0), so the media time does not matter. Drawn
        // content (text) is drawn first, once: presentation copies carry it.
        root.displayTreeIfNeeded()
        let tree = root.presentationTree(atMediaTime: 0, reusing: presentationCache, drawnOnly: true)
        guard hasText, fitTextScales(in: tree) else { return tree }
        root.displayTreeIfNeeded()
        return root.presentationTree(atMediaTime: 0, reusing: presentationCache, drawnOnly: true)
    }

    /// Gives each text layer the backing store scale it shows at in `tree` (renderScale times
    /// every transform above it), rounded up to a quarter octave; true where one changed (its
    /// text is drawn again). Apple's `render(in:)`, which drew lottie-ios's snapshots, draws text
    /// as outlines at the context's resolution; a store of a fixed scale under a parent scaled
    /// down twentyfold is minified past what sampling holds, and thin strokes fall between
    /// samples (pr_2559's labels under a 0.048 precomposition lost the bowls of "%"). Rounding
    /// keeps a text whose scale animates from being drawn again every frame.
    private func fitTextScales(in tree: CALayer) -> Bool {
        var changed = false
        func walk(_ layer: CALayer, _ above: CGAffineTransform) {
            let t = layer.transform
            let here = CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: 0, ty: 0).concatenating(above)
            if let text = layer.model() as? LottieTextLayer {
                let shown = renderScale * max(hypot(here.a, here.b), hypot(here.c, here.d))
                let quarterOctaves = shown > 0 && shown.isFinite ? (log2(shown) * 4).rounded(.up) : 0
                let scale = min(max(pow(2, quarterOctaves / 4), 0.01), 16)
                if text.contentsScale != scale {
                    text.contentsScale = scale
                    text.setNeedsDisplay()
                    changed = true
                }
            }
            let s = layer.sublayerTransform
            let below = CGAffineTransform(a: s.m11, b: s.m12, c: s.m21, d: s.m22, tx: 0, ty: 0).concatenating(here)
            for sublayer in layer.sublayers ?? [] { walk(sublayer, below) }
            // A matte is a mask, in its layer's own space.
            if let mask = layer.mask { walk(mask, here) }
        }
        walk(tree, .identity)
        return changed
    }

    private let presentationCache = PresentationCache()
}

extension LottieDocument {
    /// Seconds from the first frame to the last one shown (`op - 1`): what a loop of the
    /// animation's frames at its frame rate spans.
    public var lastFrameTime: Double { max(0, outFrame - inFrame - 1) / frameRate }

    /// The number of frames from `ip` to `op`.
    public var frameCount: Int { Int((outFrame - inFrame).rounded(.up)) }
}

extension LottieDocument {
    /// Lottie's layer types ("ty") by name.
    static let layerTypeNames: [Int: String] = [0: "precomposition", 1: "solid", 2: "image", 3: "null", 4: "shape", 5: "text",
                                                 6: "audio", 13: "camera"]

    /// How many layers of each type the document defines, in its composition and in its
    /// precompositions (each definition once, however often it is used): what `quartz info` lists.
    public var layerTypeCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for list in [root["layers"]] + assets.values.map({ $0["layers"] }) {
            for layer in (try? list?.array()) ?? [] {
                let type = (try? layer.optionalNumber("ty")).flatMap { $0 }.flatMap { Int(exactly: $0) }
                counts[type.flatMap { Self.layerTypeNames[$0] } ?? "unknown", default: 0] += 1
            }
        }
        return counts
    }
}
