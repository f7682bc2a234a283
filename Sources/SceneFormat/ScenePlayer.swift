import Foundation
import OpenQuartzCore

/// Plays a document's timeline on its layer tree: advancing to a time runs every transaction due
/// by then, at its own time, and moves the animations' lifecycle along a 240 Hz clock, so that
/// delegates and completion blocks (whose changes start new implicit animations) run within
/// 1/240 s of when they are due; stretches where nothing animates are skipped. The result at a time does not depend on which earlier times
/// were visited, so stills, animations and the shards of an animation agree frame for frame.
public final class ScenePlayer {
    /// The model tree (the one transactions change).
    public let root: CALayer
    /// Where the timeline stands.
    public private(set) var time: Double = 0
    /// Steps of the lifecycle clock, per second.
    public static let ticksPerSecond = 240.0

    private var pending: [(time: Double, transaction: SceneTransaction)]
    private var tick = 0
    let imagePaths: [UInt64: String]

    init(scene: DecodedScene, imagePaths: [UInt64: String], latestTime: Double) {
        self.latestTime = latestTime
        root = scene.root
        pending = scene.transactions
        self.imagePaths = imagePaths
        // As if the first frame had been shown at time 0: changes from now on animate implicitly.
        MediaClock.$scoped.withValue(0) {
            root.displayTreeIfNeeded()
            root.markLive()
        }
        runDue(upTo: 0)
    }

    /// The latest time the timeline runs to (the document's `SceneLimits.maxDuration`): a later
    /// time shows the scene as it is then, so no time costs more than the limit's worth of ticks.
    public let latestTime: Double

    /// Runs the timeline up to `t` (never backwards; NaN does nothing; past `latestTime`, to it).
    public func advance(to requested: Double) {
        let t = min(requested, latestTime)
        guard t > time else { return }
        while true {
            let nextTick = Double(tick + 1) / ScenePlayer.ticksPerSecond
            let nextTransaction = pending.first?.time ?? .infinity
            let step = min(nextTick, nextTransaction)
            guard step <= t else { break }
            if nextTick <= nextTransaction { tick += 1 }
            time = step
            let nextChange = MediaClock.$scoped.withValue(step) { root.advanceAnimations(toMediaTime: step) }
            if !runDue(upTo: step), nextChange > step {
                // Nothing animates until `nextChange`: the ticks before it would change nothing,
                // so the clock goes on from the first tick at or after it (or the next
                // transaction, or `t`), as stepping through them would.
                let quiet = min(nextChange, pending.first?.time ?? .infinity, t)
                tick = max(tick, Int(clampingPixels: quiet * ScenePlayer.ticksPerSecond, .up, to: 0...(1 << 52)) - 1)
            }
        }
        time = t
        MediaClock.$scoped.withValue(t) { _ = root.advanceAnimations(toMediaTime: t) }
    }

    /// The tree as it looks at the current time: the presentation tree while anything animates
    /// (its copies kept from one call to the next), the model's content drawn first.
    public func presentation() -> CALayer {
        MediaClock.$scoped.withValue(time) { root.displayTreeIfNeeded() }
        return root.hasAnimationsInSubtree ? root.presentationTree(atMediaTime: time, reusing: presentationCache) : root
    }

    private let presentationCache = PresentationCache()

    /// Runs the transactions due by `t`; whether there were any.
    @discardableResult
    private func runDue(upTo t: Double) -> Bool {
        var ran = false
        while let next = pending.first, next.time <= t {
            pending.removeFirst()
            MediaClock.$scoped.withValue(next.time) { ScenePlayer.run(next.transaction) }
            ran = true
        }
        return ran
    }

    /// Runs one transaction (and its nested ones) the way code would: begin, settings, changes,
    /// commit; its completion block runs the completion transaction when its animations end.
    static func run(_ transaction: SceneTransaction) {
        CATransaction.begin()
        if let duration = transaction.duration { CATransaction.setAnimationDuration(duration) }
        if let function = transaction.timingFunction { CATransaction.setAnimationTimingFunction(function) }
        if let disable = transaction.disableActions { CATransaction.setDisableActions(disable) }
        if let completion = transaction.completion {
            CATransaction.setCompletionBlock {
                MediaClock.$scoped.withValue(CACurrentMediaTime()) { run(completion) }
            }
        }
        for change in transaction.changes {
            switch change {
            case let .set(layer, assignments):
                for (property, value) in assignments { property.set(layer, value) }
            case let .add(layer, animation, key):
                layer.add(animation, forKey: key)
            case let .remove(layer, key):
                layer.removeAnimation(forKey: key)
            case let .addSublayer(layer, parent):
                parent.addSublayer(layer)
            case .removeFromSuperlayer(let layer):
                layer.removeFromSuperlayer()
            }
        }
        for inner in transaction.nested { run(inner) }
        CATransaction.commit()
    }
}
