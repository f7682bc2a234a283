// Implicit animations and transactions (seed 000, 6.3.10; seed 003): which changes animate, with
// which duration and curve, how actions are found, and when completion blocks run.
// Each test sets the media clock for its own task only (MediaClock.$scoped), so tests can run in
// parallel.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

/// A layer that has been drawn (only those animate implicitly).
private func liveLayer() -> CALayer {
    let layer = CALayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    layer.markLive()
    return layer
}

private func presented(_ layer: CALayer, _ keyPath: String, at t: Double) -> Any? {
    layer.presentationTree(atMediaTime: t).value(forKeyPath: keyPath)
}

@Suite("Implicit animation and transactions")
struct ImplicitAnimationTests {
    @Test("changing a drawn layer's position animates it over 0.25 s with the default curve")
    func implicitPosition() throws {
        try MediaClock.$scoped.withValue(10) {
            let layer = liveLayer()
            layer.position = CGPoint(x: 100, y: 0)
            CATransaction.flush()
            let animation = try #require(layer.animation(forKey: "position") as? CABasicAnimation)
            #expect(animation.duration == 0.25 && animation.beginTime == 10)
            #expect(animation.timingFunction == CAMediaTimingFunction(name: .default))
            #expect(animation.fromValue as? CGPoint == .zero)
            let mid = try #require(presented(layer, "position", at: 10.125) as? CGPoint)
            let expected = CAMediaTimingFunction(name: .default).evaluate(0.5) * 100
            #expect(abs(mid.x - expected) < 1e-9)
            #expect(layer.position.x == 100) // the model has the new value at once
        }
    }

    @Test("a layer that was never drawn does not animate")
    func notLive() {
        let layer = CALayer()
        layer.position = CGPoint(x: 100, y: 0)
        CATransaction.flush()
        #expect(layer.animationKeys() == nil)
    }

    @Test("with actions disabled the dragged layer follows the finger without lag")
    func disableActions() {
        MediaClock.$scoped.withValue(0) {
            let layer = liveLayer()
            for x in stride(from: 0.0, through: 100, by: 10) {
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                layer.position = CGPoint(x: x, y: 0)
                CATransaction.commit()
            }
            #expect(layer.animationKeys() == nil)
            #expect((presented(layer, "position", at: 0) as? CGPoint)?.x == 100)
        }
    }

    @Test("nested transactions: position animates 0.75 s, opacity 0.5 s")
    func nestedDurations() {
        MediaClock.$scoped.withValue(0) {
            let layer = liveLayer()
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.75)
            layer.position = CGPoint(x: 50, y: 50)
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.5)
            layer.opacity = 0
            #expect(CATransaction.animationDuration() == 0.5)
            CATransaction.commit()
            #expect(CATransaction.animationDuration() == 0.75)
            CATransaction.commit()
            #expect(layer.animation(forKey: "position")?.duration == 0.75)
            #expect(layer.animation(forKey: "opacity")?.duration == 0.5)
            #expect(CATransaction.animationDuration() == 0.25) // back to the default outside
        }
    }

    @Test("the transaction's timing function paces its implicit animations")
    func transactionTimingFunction() {
        MediaClock.$scoped.withValue(0) {
            let layer = liveLayer()
            CATransaction.begin()
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            layer.opacity = 0
            CATransaction.commit()
            #expect(layer.animation(forKey: "opacity")?.timingFunction == CAMediaTimingFunction(name: .linear))
        }
    }

    @Test("a change mid-animation starts the new animation from where the layer is shown")
    func retargeting() throws {
        try MediaClock.$scoped.withValue(0) {
            let layer = liveLayer()
            CATransaction.begin()
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            CATransaction.setAnimationDuration(1)
            layer.position = CGPoint(x: 100, y: 0)
            CATransaction.commit()
            try MediaClock.$scoped.withValue(0.5) {
                layer.position = CGPoint(x: 0, y: 0)
                let restart = try #require(layer.animation(forKey: "position") as? CABasicAnimation)
                #expect((restart.fromValue as? CGPoint)?.x == 50)
            }
        }
    }

    @Test("the action search goes delegate, actions, style, defaultAction, and NSNull stops it")
    func lookupOrder() {
        final class Delegate: CALayerDelegate {
            var answer: CAAction?
            func action(for layer: CALayer, forKey event: String) -> CAAction? { answer }
        }
        final class Layer: CALayer {
            nonisolated(unsafe) static var fallback: CAAction?
            override class func defaultAction(forKey event: String) -> CAAction? { fallback }
        }
        let fromDelegate = CABasicAnimation(), fromActions = CABasicAnimation()
        let fromStyle = CABasicAnimation(), fromDefault = CABasicAnimation()
        let layer = Layer()
        let delegate = Delegate()
        layer.delegate = delegate
        Layer.fallback = fromDefault
        #expect(layer.action(forKey: "custom") === fromDefault)
        layer.style = ["style": ["actions": ["custom": fromStyle]]] // found recursively
        #expect(layer.action(forKey: "custom") === fromStyle)
        layer.actions = ["custom": fromActions]
        #expect(layer.action(forKey: "custom") === fromActions)
        delegate.answer = fromDelegate
        #expect(layer.action(forKey: "custom") === fromDelegate)
        delegate.answer = NSNull()
        #expect(layer.action(forKey: "custom") == nil)
        delegate.answer = nil
        layer.actions = ["custom": NSNull()]
        #expect(layer.action(forKey: "custom") == nil)
        Layer.fallback = nil
        layer.actions = nil
        layer.style = nil
        #expect(layer.action(forKey: "position") is CABasicAnimation) // the implicit animation
        #expect(layer.action(forKey: "name") == nil) // not animatable
    }

    @Test("action(forKey:) still sees the old value, and the new one is set before the action runs")
    func actionSeesOldValue() {
        final class Recording: CALayer {
            var seen: [Double] = []
            override func action(forKey event: String) -> CAAction? {
                if event == "opacity" { seen.append(Double(opacity)) }
                return super.action(forKey: event)
            }
        }
        MediaClock.$scoped.withValue(0) {
            let layer = Recording()
            layer.markLive()
            layer.opacity = 0.25
            #expect(layer.seen == [1])
            #expect(layer.opacity == 0.25)
        }
    }

    @Test("the completion block runs once every animation of the transaction has finished")
    func completionBlock() {
        MediaClock.$scoped.withValue(0) {
            let layer = liveLayer()
            var completed = 0
            CATransaction.begin()
            CATransaction.setCompletionBlock { completed += 1 }
            CATransaction.setAnimationDuration(1)
            layer.position = CGPoint(x: 10, y: 0)
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            layer.opacity = 0
            CATransaction.commit()
            CATransaction.commit()
            layer.advanceAnimations(toMediaTime: 1.5)
            #expect(completed == 0) // opacity runs until 2
            layer.advanceAnimations(toMediaTime: 2.5)
            #expect(completed == 1)
            layer.advanceAnimations(toMediaTime: 3)
            #expect(completed == 1)

            var immediate = false
            CATransaction.begin()
            CATransaction.setCompletionBlock { immediate = true }
            CATransaction.commit()
            #expect(immediate) // nothing to wait for
        }
    }

    @Test("a custom property animates through an action the layer gives for it (seed 000's pie)")
    func customPropertyAction() throws {
        final class PieLayer: CALayer {
            var part: Double {
                get { value(forKey: "part") as? Double ?? 0 }
                set { setValue(newValue, forKey: "part") }
            }
            override class func defaultValue(forKey key: String) -> Any? { key == "part" ? 0.0 : super.defaultValue(forKey: key) }
            override func action(forKey event: String) -> CAAction? {
                guard event == "part" else { return super.action(forKey: event) }
                let animation = CABasicAnimation(keyPath: "part")
                animation.fromValue = value(forKey: "part") // still the old value here
                animation.duration = 1
                return animation
            }
            func setPart(_ newValue: Double) {
                let action = self.action(forKey: "part")
                part = newValue
                action?.run(forKey: "part", object: self, arguments: nil)
            }
        }
        try MediaClock.$scoped.withValue(0) {
            let pie = PieLayer()
            pie.markLive()
            pie.setPart(0.6)
            let mid = try #require(pie.presentationTree(atMediaTime: 0.5).value(forKey: "part") as? Double)
            #expect(abs(mid - 0.3) < 1e-9)
        }
    }

    @Test("entering a tree runs the layer's onOrderIn action, leaving it onOrderOut")
    func orderActions() {
        final class Counter: CAAction {
            var events: [String] = []
            func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) { events.append(event) }
        }
        let counter = Counter()
        let parent = liveLayer(), child = liveLayer()
        child.actions = [kCAOnOrderIn: counter, kCAOnOrderOut: counter]
        parent.addSublayer(child)
        child.removeFromSuperlayer()
        #expect(counter.events == [kCAOnOrderIn, kCAOnOrderOut])
    }
}

@Suite("Run loop commit")
struct RunLoopCommitTests {
    @Test("on a thread that runs its run loop, the implicit transaction commits at the end of the turn")
    func commitsAtEndOfTurn() async {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<(Bool, Bool, Bool), Never>) in
            let thread = Thread {
                let layer = CALayer()
                layer.markLive()
                nonisolated(unsafe) var completed = false
                CATransaction.setDisableActions(true) // opens the implicit transaction; nothing to wait for
                layer.opacity = 0.5
                CATransaction.setCompletionBlock { completed = true }
                let before = completed
                RunLoop.current.run(until: Date().addingTimeInterval(0.05))
                continuation.resume(returning: (before, completed, CATransaction.disableActions()))
            }
            thread.start()
        }
        #expect(!result.0) // not before the turn ends
        #expect(result.1) // committed, and with no animation to wait for the block ran
        #expect(!result.2) // the implicit transaction's settings are gone
    }
}
