// Issue 20: the same code moves as it does on Apple's platforms. Each test here failed before
// the change it covers.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

private func liveLayer<Layer: CALayer>(_ make: () -> Layer = { CALayer() as! Layer }) -> Layer {
    let layer = make()
    layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
    layer.markLive()
    return layer
}

@Suite("Apple parity: how animations move")
struct AppleMotionParityTests {
    @Test("children of a group without a duration span the group's, at any depth")
    func groupChildrenSpanTheGroup() {
        let layer = CALayer()
        let slide = CAKeyframeAnimation(keyPath: "position.x")
        slide.values = [0, 100]
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        let inner = CAAnimationGroup()
        inner.animations = [fade]
        let group = CAAnimationGroup()
        group.animations = [slide, inner]
        group.duration = 0.75
        group.repeatCount = .infinity
        group.beginTime = 1
        layer.add(group, forKey: "pulse")
        // Before: the children ran their 0.25 s default and sat still for the rest of each cycle.
        let halfway = layer.presentationTree(atMediaTime: 1 + 0.375)
        #expect(abs(halfway.position.x - 50) < 1e-9)
        #expect(abs(halfway.opacity - 0.5) < 1e-6)
        let secondCycle = layer.presentationTree(atMediaTime: 1 + 0.75 + 0.6)
        #expect(abs(secondCycle.position.x - 80) < 1e-9)
        #expect(group.animations?.first?.duration == 0, "the caller's animation is not changed")
    }

    @Test("a key that needs redrawing redraws when a group or a nested group animates it")
    func redrawInsideGroups() throws {
        for depth in 0...2 {
            // A subclass that draws its shape into its backing store and asks to redraw when
            // strokeEnd changes (shape layers are drawn from their paths by the renderers, with
            // no store to redraw).
            final class StoredShapeLayer: CAShapeLayer {
                override class func needsDisplay(forKey key: String) -> Bool { key == "strokeEnd" || super.needsDisplay(forKey: key) }
                override func draw(in ctx: CGContext) { drawPath(in: ctx) }
            }
            let shape = liveLayer { StoredShapeLayer() }
            let line = CGMutablePath()
            line.move(to: CGPoint(x: 4, y: 20))
            line.addLine(to: CGPoint(x: 36, y: 20))
            shape.path = line
            shape.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            shape.lineWidth = 8
            shape.setNeedsDisplay()
            shape.displayIfNeeded()
            let grow = CABasicAnimation(keyPath: "strokeEnd")
            grow.fromValue = 0
            grow.toValue = 1
            var animation: CAAnimation = grow
            for _ in 0..<depth {
                let group = CAAnimationGroup()
                group.animations = [animation]
                animation = group
            }
            animation.duration = 1
            animation.beginTime = 10
            shape.add(animation, forKey: "grow")
            let early = try #require(shape.presentationTree(atMediaTime: 10.25).contents as? CGImage)
            let late = try #require(shape.presentationTree(atMediaTime: 10.75).contents as? CGImage)
            // Inked columns along the stroke (the store reaches past the bounds for the pen): a
            // quarter, then three quarters of 32 points.
            func inked(_ image: CGImage) -> Int {
                (0..<image.height).map { y in (0..<image.width).filter { image.bitmap[$0, y].3 > 128 }.count }.max() ?? 0
            }
            #expect(abs(inked(early) - 8) <= 1 && abs(inked(late) - 24) <= 1, "depth \(depth): \(inked(early)), \(inked(late))")
        }
    }

    @Test("cumulative keyframe animations go on from where each repetition ended; additive ones add")
    func cumulativeAndAdditiveKeyframes() {
        let layer = CALayer()
        layer.position = CGPoint(x: 100, y: 0)
        let keyframes = CAKeyframeAnimation(keyPath: "position.x")
        keyframes.values = [0, 10]
        keyframes.duration = 1
        keyframes.repeatCount = 3
        keyframes.isCumulative = true
        keyframes.beginTime = 5
        layer.add(keyframes, forKey: "walk")
        let xs = [5.5, 6.5, 7.5].map { layer.presentationTree(atMediaTime: $0).position.x }
        #expect(xs.map { ($0 * 1e9).rounded() / 1e9 } == [5, 15, 25]) // before: 5, 5, 5

        let path = CAKeyframeAnimation(keyPath: "position")
        let track = CGMutablePath()
        track.move(to: .zero)
        track.addLine(to: CGPoint(x: 10, y: 0))
        path.path = track
        path.duration = 1
        path.repeatCount = 2
        path.isCumulative = true
        path.beginTime = 20
        layer.add(path, forKey: "track")
        #expect(abs(layer.presentationTree(atMediaTime: 21.5).position.x - 15) < 1e-9)
        layer.removeAllAnimations()

        let additive = CAKeyframeAnimation(keyPath: "position.x")
        additive.values = [0, 10]
        additive.duration = 1
        additive.isAdditive = true
        additive.beginTime = 30
        layer.add(additive, forKey: "nudge")
        #expect(abs(layer.presentationTree(atMediaTime: 30.5).position.x - 105) < 1e-9)

        let spring = CASpringAnimation(keyPath: "position.x")
        spring.fromValue = 0
        spring.toValue = 10
        spring.isAdditive = true
        spring.duration = spring.settlingDuration
        spring.beginTime = 40
        layer.add(spring, forKey: "spring")
        let end = layer.presentationTree(atMediaTime: 40 + spring.settlingDuration - 1e-3).position.x
        #expect(abs(end - 110) < 0.05, "an additive spring settles at the model value plus its target: \(end)")
    }

    @Test("a transition added without a key goes under kCATransition")
    func transitionKey() {
        let layer = CALayer()
        layer.add(CATransition(), forKey: nil)
        #expect(layer.animationKeys() == [kCATransition])
    }

    @Test("every animatable property has its default action; doubleSided has none, as Apple's table says")
    func defaultActions() {
        let layer = CALayer()
        for key in ["hidden", "masksToBounds", "mask", "shadowPath", "filters", "sublayers", "anchorPointZ", "contentsCenter"] {
            #expect((layer.action(forKey: key) as? CABasicAnimation)?.keyPath == key, "\(key)")
        }
        for key in ["backgroundFilters", "compositingFilter", "contents"] {
            #expect((layer.action(forKey: key) as? CATransition)?.type == .fade, "\(key)")
        }
        #expect(layer.action(forKey: "doubleSided") == nil)
    }

    @Test("hiding fades the layer out over the action's time and hides it at the end; showing fades it in")
    func hiddenFades() {
        MediaClock.$scoped.withValue(100) {
            let layer = liveLayer()
            layer.isHidden = true
            let half = layer.presentationTree(atMediaTime: 100.125)
            #expect(!half.isHidden && half.opacity > 0.05 && half.opacity < 0.95, "fading: \(half.opacity)")
            #expect(layer.presentationTree(atMediaTime: 100.3).isHidden)
            layer.removeAllAnimations()
            layer.isHidden = false
            let fadingIn = layer.presentationTree(atMediaTime: 100.125)
            #expect(!fadingIn.isHidden && fadingIn.opacity > 0.05 && fadingIn.opacity < 0.95, "fading in: \(fadingIn.opacity)")
            layer.masksToBounds = true
            #expect(layer.presentationTree(atMediaTime: 100.01).masksToBounds, "a flag that does not fade shows its new value at once")
        }
    }

    @Test("kCAOnOrderIn runs for a layer entering a rendered tree, and on being shown; kCAOnOrderOut on being hidden")
    func orderEvents() {
        final class Recorder: CAAction {
            var events: [String] = []
            func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) { events.append(event) }
        }
        let recorder = Recorder()
        let root = liveLayer()
        let newcomer = CALayer() // never drawn yet
        newcomer.actions = [kCAOnOrderIn: recorder, kCAOnOrderOut: recorder, "hidden": NSNull()]
        root.addSublayer(newcomer)
        #expect(recorder.events == [kCAOnOrderIn]) // before: nothing, the newcomer was not live
        newcomer.markLive()
        newcomer.isHidden = true
        newcomer.isHidden = false
        #expect(recorder.events == [kCAOnOrderIn, kCAOnOrderOut, kCAOnOrderIn])
    }

    @Test("a completion block waits only for animations added after it is set")
    func completionBlockWaitsForLaterAnimations() {
        MediaClock.$scoped.withValue(0) {
            let layer = liveLayer()
            var completed = false
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            layer.position = CGPoint(x: 10, y: 0) // added before the block: not waited for
            CATransaction.setCompletionBlock { completed = true }
            CATransaction.commit()
            #expect(completed, "no animation was added after the block, so it runs at the commit")

            var first = false, second = false
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            CATransaction.setCompletionBlock { first = true }
            CATransaction.setCompletionBlock { second = true } // replaces it: the first runs now
            #expect(first && !second)
            layer.opacity = 0
            CATransaction.commit()
            #expect(!second)
            layer.advanceAnimations(toMediaTime: 1.5)
            #expect(second)
        }
    }

    @Test("presentation() is nil until the layer has been committed to a rendered tree")
    func presentationOfUncommittedLayer() {
        let layer = CALayer()
        #expect(layer.presentation() == nil)
        layer.markLive()
        #expect(layer.presentation() != nil)
    }

    @Test("settlingDuration gives the figures Apple documents for damping 5 and 15")
    func springSettling() {
        let spring = CASpringAnimation()
        spring.damping = 5
        #expect(abs(spring.settlingDuration - 2.85) < 0.01, "about 2.85 s: \(spring.settlingDuration)")
        spring.damping = 15
        #expect(spring.settlingDuration > 1 && spring.settlingDuration < 1.05, "just over 1 second: \(spring.settlingDuration)")
    }
}

@Suite("Apple parity: layers coming and going in a drawn tree")
struct LayerOrderParityTests {
    @Test("a sublayer added to a drawn layer shows at once, quietly, and the sublayers action still runs its time")
    func sublayerAddedToLiveTree() throws {
        let pipe = Pipe()
        let saved = dup(STDERR_FILENO)
        dup2(pipe.fileHandleForWriting.fileDescriptor, STDERR_FILENO)
        MediaClock.$scoped.withValue(50) {
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
            root.markLive()
            let child = CALayer()
            child.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            root.addSublayer(child)
            #expect(root.animationKeys() == ["sublayers"])
            let shown = root.presentationTree(atMediaTime: 50.1)
            #expect(shown.sublayers?.count == 1 && shown.sublayers?.first !== child, "the new sublayer shows, as a presentation copy")
        }
        dup2(saved, STDERR_FILENO)
        close(saved)
        try pipe.fileHandleForWriting.close()
        let said = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // (Other tests print beside this one; only a word about this animation counts.)
        #expect(!said.contains("on \"sublayers\""), "nothing said about the sublayers action: \(said)")
    }
}
