// CABasicAnimation: the from/by/to table (seed 000, Tabelle 6.6), fill modes, repetition, key paths,
// value types, additive and cumulative animations, delegates. Animations get explicit begin times,
// so no test depends on the media clock.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

private func animated(_ keyPath: String, from: Any? = nil, to: Any? = nil, by: Any? = nil,
                      configure: (CABasicAnimation) -> Void = { _ in }) -> CALayer {
    let layer = CALayer()
    layer.position = CGPoint(x: 10, y: 20)
    layer.opacity = 0.5
    let animation = CABasicAnimation(keyPath: keyPath)
    animation.fromValue = from
    animation.toValue = to
    animation.byValue = by
    animation.beginTime = 100
    animation.duration = 2
    configure(animation)
    layer.add(animation, forKey: "test")
    return layer
}

private func value(_ layer: CALayer, _ keyPath: String, at t: Double) -> Any? {
    layer.presentationTree(atMediaTime: t).value(forKeyPath: keyPath)
}

private func number(_ layer: CALayer, _ keyPath: String, at t: Double) -> Double {
    (value(layer, keyPath, at: t) as? NumberConvertible)?.doubleValue ?? .nan
}

@Suite("CABasicAnimation")
struct BasicAnimationTests {
    @Test("from/by/to table: each row's start and end", arguments: [
        // (from, by, to, expected start, expected end); the property's current value is 0.5
        (Double?(0.0), Double?(nil), Double?(1.0), 0.0, 1.0),
        (0.2, 0.3, nil, 0.2, 0.5),
        (nil, 0.3, 0.9, 0.6, 0.9),
        (0.2, nil, nil, 0.2, 0.5),
        (nil, nil, 0.9, 0.5, 0.9),
        (nil, 0.25, nil, 0.5, 0.75),
        (nil, nil, nil, 0.5, 0.5),
    ])
    func table(from: Double?, by: Double?, to: Double?, start: Double, end: Double) {
        let layer = animated("opacity", from: from, to: to, by: by)
        #expect(abs(number(layer, "opacity", at: 100) - start) < 1e-6)
        #expect(abs(number(layer, "opacity", at: 101) - (start + end) / 2) < 1e-6)
        #expect(abs(number(layer, "opacity", at: 101.999999) - end) < 1e-5)
    }

    @Test("outside the active interval, fill modes decide what shows", arguments: [
        (CAMediaTimingFillMode.removed, 0.5, 0.5), (.forwards, 0.5, 1.0), (.backwards, 0.0, 0.5), (.both, 0.0, 1.0),
    ])
    func fillModes(mode: CAMediaTimingFillMode, before: Double, after: Double) {
        let layer = animated("opacity", from: 0.0, to: 1.0) { $0.fillMode = mode }
        #expect(number(layer, "opacity", at: 99) == before)
        #expect(number(layer, "opacity", at: 103) == after)
    }

    @Test("a timing function paces each iteration")
    func timingFunction() {
        let layer = animated("opacity", from: 0.0, to: 1.0) { $0.timingFunction = CAMediaTimingFunction(name: .easeIn) }
        let expected = CAMediaTimingFunction(name: .easeIn).evaluate(0.25)
        #expect(abs(number(layer, "opacity", at: 100.5) - expected) < 1e-7) // opacity is a Float
    }

    @Test("repeatCount 1.5 ends halfway through the second iteration; autoreverses plays back")
    func repetition() {
        let repeating = animated("opacity", from: 0.0, to: 1.0) {
            $0.repeatCount = 1.5
            $0.fillMode = .forwards
        }
        #expect(abs(number(repeating, "opacity", at: 102.5) - 0.25) < 1e-9)
        #expect(abs(number(repeating, "opacity", at: 110) - 0.5) < 1e-9) // held at the end: halfway
        let reversing = animated("opacity", from: 0.0, to: 1.0) { $0.autoreverses = true }
        #expect(abs(number(reversing, "opacity", at: 102) - 1) < 1e-9) // end of the forward half
        #expect(abs(number(reversing, "opacity", at: 103) - 0.5) < 1e-9) // halfway back
        #expect(number(reversing, "opacity", at: 104.5) == 0.5) // over: the model value
        let forever = animated("opacity", from: 0.0, to: 1.0) { $0.repeatCount = .infinity }
        #expect(abs(number(forever, "opacity", at: 1001) - 0.5) < 1e-9)
        let bounded = animated("opacity", from: 0.0, to: 1.0) { $0.repeatDuration = 3 }
        #expect(abs(number(bounded, "opacity", at: 102.5) - 0.25) < 1e-9 && number(bounded, "opacity", at: 103.5) == 0.5)
    }

    @Test("timeOffset starts playback later in the timeline and wraps around")
    func timeOffset() {
        let layer = animated("opacity", from: 0.0, to: 1.0) { $0.timeOffset = 1 }
        #expect(abs(number(layer, "opacity", at: 100) - 0.5) < 1e-9)
        #expect(abs(number(layer, "opacity", at: 101.5) - 0.25) < 1e-9) // wrapped to the start
    }

    @Test("the animation's speed scales its time")
    func speed() {
        let layer = animated("opacity", from: 0.0, to: 1.0) { $0.speed = 2 }
        #expect(abs(number(layer, "opacity", at: 100.5) - 0.5) < 1e-9)
    }

    @Test("additive animations add to the model value; cumulative ones build up per iteration")
    func additiveAndCumulative() {
        let additive = animated("position.x", from: 0.0, to: 100.0) { $0.isAdditive = true }
        #expect(abs(number(additive, "position.x", at: 101) - 60) < 1e-9) // 10 + 50
        let cumulative = animated("position.x", from: 0.0, to: 100.0) {
            $0.isCumulative = true
            $0.repeatCount = 3
        }
        #expect(abs(number(cumulative, "position.x", at: 103) - 150) < 1e-9) // second iteration, halfway
    }

    @Test("points, sizes, rects and colours interpolate component by component")
    func valueTypes() throws {
        let point = animated("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 100, y: 50))
        #expect(value(point, "position", at: 101) as? CGPoint == CGPoint(x: 50, y: 25))
        let size = animated("bounds.size", from: CGSize(width: 10, height: 10), to: CGSize(width: 30, height: 50))
        #expect(value(size, "bounds.size", at: 101) as? CGSize == CGSize(width: 20, height: 30))
        let rect = animated("bounds", from: CGRect(x: 0, y: 0, width: 10, height: 10), to: CGRect(x: 10, y: 20, width: 30, height: 50))
        #expect(value(rect, "bounds", at: 101) as? CGRect == CGRect(x: 5, y: 10, width: 20, height: 30))
        let color = animated("backgroundColor", from: CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                             to: CGColor(red: 0, green: 0, blue: 1, alpha: 0))
        let mid = try #require(value(color, "backgroundColor", at: 101) as? CGColor)
        #expect(mid.components == [0.5, 0, 0.5, 0.5])
        let width = animated("bounds.size.width", from: 0.0, to: 40.0)
        #expect(number(width, "bounds.size.width", at: 101.5) == 30)
    }

    @Test("a transform animation turns rigidly: halfway to a quarter turn is an eighth turn")
    func transformInterpolation() throws {
        let layer = animated("transform", from: CATransform3DIdentity, to: CATransform3DMakeRotation(.pi / 2, 0, 0, 1))
        let mid = try #require(value(layer, "transform", at: 101) as? CATransform3D)
        let expected = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        #expect(zip(mid.rows, expected.rows).allSatisfy { abs($0 - $1) < 1e-12 })
    }

    @Test("decomposed interpolation keeps translation, scale and perspective apart")
    func transformPieces() {
        var from = CATransform3DMakeTranslation(10, 0, 0)
        from.m34 = -1.0 / 500
        var to = CATransform3DScale(CATransform3DMakeTranslation(30, 40, 0), 3, 3, 1)
        to.m34 = -1.0 / 500
        let mid = from.interpolated(to: to, fraction: 0.5)
        #expect(abs(mid.m41 - 20) < 1e-9 && abs(mid.m42 - 20) < 1e-9)
        #expect(abs(mid.m11 - 2) < 1e-9 && abs(mid.m22 - 2) < 1e-9 && abs(mid.m34 + 1.0 / 500) < 1e-12)
        for t in [from, to, CATransform3DRotate(to, 0.7, 1, 2, 3)] {
            let same = t.interpolated(to: t, fraction: 0.3)
            #expect(zip(same.rows, t.rows).allSatisfy { abs($0 - $1) < 1e-9 })
        }
    }

    @Test("a mirrored transform turned in its plane decomposes and recomposes to itself, and blends through mirrored turns")
    func mirroredTransforms() {
        // A negative x scale decomposes as a negative scale and a half turn about an axis in the
        // plane, whose quaternion has w = 0: the signs of its x and y must still come out right,
        // or the mirrored layer comes back turned the other way (a Lottie group's scale of
        // (-100, 100) under a rotation animated to -30 degrees drew turned by +30).
        for degrees in [-30.0, 0, 15, 90, 135, 180, -170] {
            let angle = degrees * .pi / 180
            let mirrored = CATransform3DConcat(CATransform3DMakeScale(-1, 1, 1), CATransform3DMakeRotation(angle, 0, 0, 1))
            let same = mirrored.interpolated(to: mirrored, fraction: 0.4)
            #expect(zip(same.rows, mirrored.rows).allSatisfy { abs($0 - $1) < 1e-9 }, "\(degrees) degrees: \(same)")
        }
        // Halfway from mirrored and unturned to mirrored and turned by -60 degrees: mirrored, -30.
        let from = CATransform3DMakeScale(-1, 1, 1)
        let to = CATransform3DConcat(from, CATransform3DMakeRotation(-.pi / 3, 0, 0, 1))
        let mid = from.interpolated(to: to, fraction: 0.5)
        let expected = CATransform3DConcat(from, CATransform3DMakeRotation(-.pi / 6, 0, 0, 1))
        #expect(zip(mid.rows, expected.rows).allSatisfy { abs($0 - $1) < 1e-9 }, "\(mid)")
    }

    @Test("transform.rotation.z animates the angle, so a full turn passes through a half turn")
    func rotationKeyPath() {
        let layer = animated("transform.rotation.z", from: 0.0, to: 2 * Double.pi)
        #expect(abs(number(layer, "transform.rotation.z", at: 100.5) - .pi / 2) < 1e-9)
        let scale = animated("transform.scale", from: 1.0, to: 3.0)
        #expect(abs(number(scale, "transform.scale", at: 101) - 2) < 1e-9)
        let moved = animated("sublayerTransform.translation.x", from: 0.0, to: 50.0)
        #expect(abs(number(moved, "sublayerTransform.translation.x", at: 101) - 25) < 1e-9)
    }

    @Test("a value function turns the animated number into a transform")
    func valueFunction() throws {
        let layer = animated("transform", from: 0.0, to: 2 * Double.pi) { $0.valueFunction = CAValueFunction(name: .rotateZ) }
        let mid = try #require(value(layer, "transform", at: 101) as? CATransform3D)
        #expect(abs(mid.m11 + 1) < 1e-9) // a half turn: cos(pi) = -1
    }

    @Test("the key is the key path when keyPath is nil")
    func keyAsKeyPath() {
        let layer = CALayer()
        let animation = CABasicAnimation()
        animation.fromValue = 0.0
        animation.toValue = 1.0
        animation.beginTime = 1
        layer.add(animation, forKey: "opacity")
        #expect(abs(number(layer, "opacity", at: 1.125) - 0.5) < 1e-9) // default duration 0.25 s
    }

    @Test("add copies the animation and a zero beginTime becomes now in the layer's time")
    func addCopiesAndStamps() {
        let layer = CALayer()
        layer.speed = 2
        let animation = CABasicAnimation(keyPath: "opacity")
        MediaClock.$scoped.withValue(50) { layer.add(animation, forKey: "fade") }
        animation.duration = 99
        #expect(layer.animation(forKey: "fade")?.duration == 0)
        #expect(layer.animation(forKey: "fade")?.beginTime == 100)
        #expect(layer.animationKeys() == ["fade"])
    }

    @Test("delegates hear starts and ends; finished animations are removed unless told not to")
    func lifecycle() {
        final class Recorder: CAAnimationDelegate {
            var events: [String] = []
            func animationDidStart(_ anim: CAAnimation) { events.append("start") }
            func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { events.append(flag ? "done" : "cut") }
        }
        let recorder = Recorder()
        let layer = animated("opacity", from: 0.0, to: 1.0) { $0.delegate = recorder }
        #expect(layer.advanceAnimations(toMediaTime: 99) == 100) // next change: the start
        #expect(recorder.events.isEmpty)
        #expect(layer.advanceAnimations(toMediaTime: 101) == 101) // animating: every frame
        #expect(recorder.events == ["start"])
        #expect(layer.advanceAnimations(toMediaTime: 102.5) == .infinity)
        #expect(recorder.events == ["start", "done"] && layer.animationKeys() == nil)

        let kept = animated("opacity", from: 0.0, to: 1.0) {
            $0.isRemovedOnCompletion = false
            $0.fillMode = .forwards
            $0.delegate = recorder
        }
        kept.advanceAnimations(toMediaTime: 105)
        kept.advanceAnimations(toMediaTime: 106)
        #expect(kept.animationKeys() == ["test"] && number(kept, "opacity", at: 106) == 1)
        #expect(recorder.events.suffix(2) == ["start", "done"])
        let heard = recorder.events.count
        kept.removeAnimation(forKey: "test")
        #expect(recorder.events.count == heard) // it already reported its stop, once

        let cut = animated("opacity", from: 0.0, to: 1.0) { $0.delegate = recorder }
        cut.advanceAnimations(toMediaTime: 101)
        cut.removeAnimation(forKey: "test")
        #expect(recorder.events.suffix(2) == ["start", "cut"])
    }

    @Test("non-finite begin times, speeds and durations make an animation a no-op, not a NaN",
          arguments: ["beginTime", "speed", "duration", "timeOffset"])
    func nonFiniteTiming(property: String) {
        let layer = animated("opacity", from: 0.0, to: 1.0) { animation in
            switch property {
            case "beginTime": animation.beginTime = .nan
            case "speed": animation.speed = .infinity
            case "duration": animation.duration = .nan
            default: animation.timeOffset = -.infinity
            }
        }
        #expect(number(layer, "opacity", at: 101) == 0.5)
        #expect(layer.advanceAnimations(toMediaTime: 101).isNaN == false)
    }

    @Test("the presentation tree copies every layer, leaves the model alone, and points back to it")
    func presentationTree() {
        let root = CALayer(), child = animated("position.x", from: 0.0, to: 100.0)
        root.addSublayer(child)
        let tree = root.presentationTree(atMediaTime: 101)
        let presented = tree.sublayers?.first
        #expect(presented !== child && presented?.model() === child)
        #expect(presented?.position.x == 50 && child.position.x == 10)
        #expect(root.hasAnimationsInSubtree && !CALayer().hasAnimationsInSubtree)
    }

    @Test("a renderer's reused presentation copies show the same as fresh ones, frame after frame")
    func presentationCache() {
        let root = CALayer(), kept = animated("position.x", from: 0.0, to: 100.0), dropped = CALayer()
        root.sublayers = [kept, dropped]
        let cache = PresentationCache()
        let first = root.presentationTree(atMediaTime: 100.5, reusing: cache)
        let firstChild = first.sublayers?.first
        #expect(firstChild?.position.x == 25)
        dropped.removeFromSuperlayer()
        kept.opacity = 0.25
        let second = root.presentationTree(atMediaTime: 101, reusing: cache)
        #expect(second === first && second.sublayers?.first === firstChild) // refreshed, not reallocated
        #expect(second.sublayers?.count == 1)
        #expect(second.sublayers?.first?.position.x == 50 && second.sublayers?.first?.opacity == 0.25)
        let fresh = root.presentationTree(atMediaTime: 101)
        #expect(fresh.sublayers?.first?.position == second.sublayers?.first?.position)
    }

    @Test("a still layer's reused copy shows its model's changes between frames, and loses what was written into the copy")
    func presentationCacheStillLayers() {
        let root = CALayer(), still = CAShapeLayer(), once = animated("opacity", from: 0.0, to: 1.0)
        still.position = CGPoint(x: 3, y: 4)
        root.sublayers = [still, once]
        let cache = PresentationCache()
        func copies(at t: CFTimeInterval) -> [CALayer] { root.presentationTree(atMediaTime: t, reusing: cache).sublayers ?? [] }
        #expect(copies(at: 100.5)[0].position == CGPoint(x: 3, y: 4))
        // Unchanged, then changed in the model, then written into the copy itself.
        #expect(copies(at: 100.6)[0].position == CGPoint(x: 3, y: 4))
        still.position.x = 9
        still.lineWidth = 7
        var now = copies(at: 100.7)
        #expect(now[0].position.x == 9 && (now[0] as? CAShapeLayer)?.lineWidth == 7)
        now[0].position.x = -1
        now[0].backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        now = copies(at: 100.8)
        #expect(now[0].position.x == 9 && now[0].backgroundColor == nil)
        // An animated layer's copy follows its animation each frame, and its unchanged model
        // once the animation is gone.
        #expect(abs(now[1].opacity - 0.4) < 1e-6)
        once.removeAllAnimations() // the model's opacity, 0.5, unchanged
        #expect(copies(at: 100.9)[1].opacity == 0.5)
        #expect(copies(at: 101.0)[1].opacity == 0.5)
    }

    @Test("reused copies follow their layers when the tree's order changes between frames: inserted, reordered, moved under another, masked")
    func presentationCacheReordered() {
        let root = CALayer(), a = animated("position.x", from: 0.0, to: 100.0), b = CALayer(), c = CALayer()
        b.position = CGPoint(x: 7, y: 0)
        c.position = CGPoint(x: 9, y: 0)
        root.sublayers = [a, b, c]
        let cache = PresentationCache()
        func copies(_ tree: CALayer) -> [CALayer] { tree.sublayers ?? [] }
        let first = root.presentationTree(atMediaTime: 100.5, reusing: cache)
        let copyOf = Dictionary(uniqueKeysWithValues: copies(first).map { (ObjectIdentifier($0.model()), $0) })
        // A new layer in front, the others reversed, and c moved under b with a mask on a.
        let d = CALayer(), mask = CALayer()
        root.sublayers = [d, b, a]
        b.addSublayer(c)
        a.mask = mask
        let second = root.presentationTree(atMediaTime: 101, reusing: cache)
        let now = copies(second)
        #expect(now.count == 3 && now.map { $0.model() } == [d, b, a])
        #expect(now[1] === copyOf[ObjectIdentifier(b)] && now[2] === copyOf[ObjectIdentifier(a)], "kept layers keep their copies")
        #expect(now[0].model() === d && now[0] !== copyOf[ObjectIdentifier(b)])
        let movedC = now[1].sublayers?.first
        #expect(movedC === copyOf[ObjectIdentifier(c)] && movedC?.position.x == 9 && movedC?.superlayer === now[1])
        #expect(now[2].position.x == 50 && now[2].mask?.model() === mask && now[2].mask?.superlayer === now[2])
        // Each copy once: no copy stands for two layers.
        var seen = Set<ObjectIdentifier>(), pending = [second]
        while let layer = pending.popLast() {
            #expect(seen.insert(ObjectIdentifier(layer)).inserted)
            pending += (layer.sublayers ?? []) + (layer.mask.map { [$0] } ?? [])
        }
        #expect(seen.count == 6)
        let fresh = root.presentationTree(atMediaTime: 101)
        #expect(copies(fresh).map(\.position) == now.map(\.position))
    }

    @Test("a renderer's tree of what is drawn leaves out a hidden layer's sublayers and mask while it is hidden, and has them once it shows")
    func drawnOnly() throws {
        let root = CALayer(), group = CALayer(), inner = CALayer(), mask = CALayer(), plain = CALayer()
        group.sublayers = [inner]
        group.mask = mask
        root.sublayers = [group, plain]
        // Hidden from 100 to 101, as a Lottie layer is outside its frames.
        let visibility = CAKeyframeAnimation(keyPath: "hidden")
        visibility.values = [true, false]
        visibility.keyTimes = [0, 0.5]
        visibility.calculationMode = .discrete
        visibility.beginTime = 100
        visibility.duration = 2
        group.add(visibility, forKey: "hidden")
        let cache = PresentationCache()
        let hidden = root.presentationTree(atMediaTime: 100.5, reusing: cache, drawnOnly: true)
        let hiddenGroup = try #require(hidden.sublayers?.first)
        #expect(hiddenGroup.isHidden && (hiddenGroup.sublayers ?? []).isEmpty && hiddenGroup.mask == nil)
        #expect(hidden.sublayers?.count == 2, "the hidden layer's own copy stays, and its siblings")
        let shown = root.presentationTree(atMediaTime: 101.5, reusing: cache, drawnOnly: true)
        let shownGroup = try #require(shown.sublayers?.first)
        #expect(!shownGroup.isHidden && shownGroup.sublayers?.first?.model() === inner && shownGroup.mask?.model() === mask)
        // Every subtree otherwise.
        let whole = root.presentationTree(atMediaTime: 100.5, reusing: PresentationCache())
        #expect(whole.sublayers?.first?.isHidden == true && whole.sublayers?.first?.sublayers?.count == 1)
    }

    @Test("shape, gradient and transform layers' copies are refreshed too, a subclass's made anew, each showing what a fresh copy shows")
    func presentationCacheLibraryClasses() {
        final class Outline: CAShapeLayer {}
        let root = CATransformLayer(), shape = CAShapeLayer(), gradient = CAGradientLayer(), outline = Outline()
        let trim = CABasicAnimation(keyPath: "strokeEnd")
        trim.fromValue = 0.0
        trim.toValue = 1.0
        trim.beginTime = 100
        trim.duration = 1
        shape.add(trim, forKey: "trim")
        gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        root.sublayers = [shape, gradient, outline]
        let cache = PresentationCache()
        let first = root.presentationTree(atMediaTime: 100.25, reusing: cache)
        let firstCopies = first.sublayers ?? []
        #expect((firstCopies.first as? CAShapeLayer)?.strokeEnd == 0.25)
        shape.fillColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        gradient.startPoint = CGPoint(x: 0.2, y: 0.1)
        let second = root.presentationTree(atMediaTime: 100.75, reusing: cache)
        let copies = second.sublayers ?? []
        #expect(second === first && copies.count == 3)
        #expect(copies.first === firstCopies.first && copies.dropFirst().first === firstCopies.dropFirst().first)
        #expect(copies.last !== firstCopies.last && copies.last is Outline == false && copies.last is CAShapeLayer)
        let fresh = root.presentationTree(atMediaTime: 100.75).sublayers ?? []
        #expect((copies.first as? CAShapeLayer)?.strokeEnd == 0.75 && (fresh.first as? CAShapeLayer)?.strokeEnd == 0.75)
        #expect((copies.first as? CAShapeLayer)?.fillColor == shape.fillColor)
        #expect((copies.dropFirst().first as? CAGradientLayer)?.startPoint == CGPoint(x: 0.2, y: 0.1))
        #expect(copies.map { ObjectIdentifier(type(of: $0)) } == fresh.map { ObjectIdentifier(type(of: $0)) })
    }

    @Test("custom keys hold values and animate like properties")
    func customKeys() {
        final class PieLayer: CALayer {
            override class func defaultValue(forKey key: String) -> Any? { key == "part" ? 0.25 : super.defaultValue(forKey: key) }
        }
        let pie = PieLayer()
        #expect(pie.value(forKey: "part") as? Double == 0.25)
        pie.setValue(0.5, forKey: "part")
        let animation = CABasicAnimation(keyPath: "part")
        animation.toValue = 1.0
        animation.beginTime = 1
        animation.duration = 1
        pie.add(animation, forKey: "part")
        let presented = pie.presentationTree(atMediaTime: 1.5)
        #expect(presented.value(forKey: "part") as? Double == 0.75)
    }

    @Test("a subclass that cannot be presented as its own class still draws its animated values, and its model is left as it was")
    func subclassPresentedByItsLibraryClass() throws {
        // Written as ported code is: an initializer of its own, no init(layer:), no adoption of
        // LayerPresentationCopying. Its presentation copies are CALayers.
        final class Bar: CALayer {
            @Animatable("level", needsDisplay: true) var level: Double = 0
            let color: CGColor
            init(color: CGColor) {
                self.color = color
                super.init()
            }
            required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
            override class func needsDisplay(forKey key: String) -> Bool { key == "level" || super.needsDisplay(forKey: key) }
            override func draw(in ctx: CGContext) {
                ctx.setFillColor(color)
                ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * level, height: bounds.height))
            }
        }
        let bar = Bar(color: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        bar.bounds = CGRect(x: 0, y: 0, width: 10, height: 1)
        bar.setNeedsDisplay()
        bar.displayIfNeeded()
        let animation = CABasicAnimation(keyPath: "level")
        animation.fromValue = 0
        animation.toValue = 1
        animation.beginTime = 1
        animation.duration = 1
        bar.add(animation, forKey: "level")
        let presented = bar.presentationTree(atMediaTime: 1.5)
        #expect(type(of: presented) == CALayer.self)
        #expect(presented.value(forKey: "level") as? Double == 0.5)
        let image = try #require(presented.contents as? CGImage)
        let covered = (0..<image.width).filter { image.bitmap[$0, 0].3 > 0 }.count
        #expect(covered == 5, "the subclass's draw(in:) drew the animated level")
        #expect(bar.level == 0 && bar.contents as? CGImage !== image, "the model keeps its own values and content")
    }
}
