import Foundation
import OpenQuartzCore

/// The seeds' listings ported to Swift against OpenQuartz's API, as an application would write
/// them: the same scenes as the documents of the same names in `Examples/` (a test holds each
/// port to its document), rendered by `swift run seed-examples`. Each listing is a file named
/// after it (Pie.swift, PageFold.swift, ...); this one holds the catalog and what they share.
public enum SeedExamples {
    public struct Example: Sendable {
        public let name: String
        public let size: CGSize
        /// The time the example is shown at (its animations start at time 0).
        public let time: Double
        let builder: @Sendable () -> CALayer
        /// What the app does at given times (a finger moving, a button pressed), in time order:
        /// code that changes the tree found by layer names, in transactions of its own.
        let script: [(time: Double, action: @Sendable (CALayer) -> Void)]

        init(name: String, size: CGSize, time: Double, builder: @escaping @Sendable () -> CALayer,
             script: [(time: Double, action: @Sendable (CALayer) -> Void)] = []) {
            self.name = name
            self.size = size
            self.time = time
            self.builder = builder
            self.script = script
        }

        /// A fresh tree, its animations added at media time 0.
        public func build() -> CALayer { MediaClock.$scoped.withValue(0) { builder() } }

        /// The example at its time: shown first at time 0 (so later changes animate), then each
        /// scripted change made at its own time, then rendered.
        public func render(backend: RenderBackend) throws -> CGImage {
            let root = build()
            MediaClock.$scoped.withValue(0) {
                root.displayTreeIfNeeded()
                root.markLive()
            }
            for step in script where step.time <= time {
                MediaClock.$scoped.withValue(step.time) {
                    _ = root.advanceAnimations(toMediaTime: step.time)
                    step.action(root)
                    CATransaction.flush()
                }
            }
            return try CARenderer.image(of: root, bounds: CGRect(origin: .zero, size: size), backend: backend, atTime: time)
        }
    }

    /// The layer called `name` in the tree under `root`.
    static func layer(_ name: String, in root: CALayer) -> CALayer {
        func search(_ layer: CALayer) -> CALayer? {
            layer.name == name ? layer : (layer.sublayers ?? []).lazy.compactMap(search).first
        }
        guard let found = search(root) else { fatalError("no layer is named \(name)") }
        return found
    }

    public static let all: [Example] = [
        Example(name: "pie", size: CGSize(width: 240, height: 240), time: 1.5, builder: pie),
        Example(name: "gradient-text-mask", size: CGSize(width: 400, height: 160), time: 0, builder: gradientTextMask),
        Example(name: "gradient-button", size: CGSize(width: 320, height: 120), time: 0, builder: gradientButton),
        Example(name: "replicator-mirror", size: CGSize(width: 240, height: 260), time: 0, builder: replicatorMirror),
        Example(name: "keyframe-circle", size: CGSize(width: 240, height: 240), time: 1.5, builder: keyframeCircle),
        Example(name: "group-cut-short", size: CGSize(width: 200, height: 200), time: 0.99, builder: groupCutShort),
        Example(name: "basic-animations", size: CGSize(width: 300, height: 140), time: 0.75, builder: basicAnimations),
        Example(name: "zposition-anchorpointz", size: CGSize(width: 360, height: 200), time: 0, builder: zPositionAndAnchorPointZ),
        Example(name: "star-wars-crawl", size: CGSize(width: 1280, height: 720), time: 12, builder: starWarsCrawl),
        Example(name: "layer-gallery", size: CGSize(width: 780, height: 180), time: 0, builder: layerGallery),
        Example(name: "nested-transactions", size: CGSize(width: 320, height: 180), time: 1.25, builder: nestedTransactionsTree,
                script: [(1, nestedTransactions)]),
        Example(name: "page-fold", size: CGSize(width: 320, height: 240), time: 2, builder: pageFoldTree,
                script: (1...20).map { step in (0.1 * Double(step), { root in pinch(root, to: 1 - 0.52 * Double(step) / 20) }) }),
        Example(name: "hypnosis-drag", size: CGSize(width: 480, height: 380), time: 0.8, builder: hypnosisTree,
                script: [(0.3, 40.0), (0.45, 90), (0.6, 140), (0.75, 190)].map { time, dy in (time, { root in drag(root, by: dy) }) }),
        Example(name: "push-transition", size: CGSize(width: 200, height: 160), time: 1.3, builder: pushTree,
                script: [(1, pushFromTop)]),
        Example(name: "flip-book", size: CGSize(width: 280, height: 150), time: 1.5, builder: flipBook,
                script: [(1.3, { root in pauseFlipBook(root, at: 1.3) }), (2.5, { root in resumeFlipBook(root, pausedAt: 1.3, now: 2.5) })]),
    ]

    /// The Examples folder (for its images).
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")

    static func rgb(_ hex: UInt32, alpha: CGFloat = 1) -> CGColor {
        CGColor(red: CGFloat(hex >> 16 & 0xFF) / 255, green: CGFloat(hex >> 8 & 0xFF) / 255, blue: CGFloat(hex & 0xFF) / 255, alpha: alpha)
    }

    static func root(_ width: CGFloat, _ height: CGFloat, _ color: CGColor) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        root.backgroundColor = color
        return root
    }
}
