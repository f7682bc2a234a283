// Keyframe animations (each calculation mode), groups (the seed's cut-short child) and springs
// (against the closed-form solution).
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

private func run(_ animation: CAAnimation, on layer: CALayer = CALayer(), keyPath: String, at t: Double) -> Any? {
    animation.beginTime = 10
    layer.add(animation, forKey: "a")
    return layer.presentationTree(atMediaTime: 10 + t).value(forKeyPath: keyPath)
}

private func number(_ any: Any?) -> Double { (any as? NumberConvertible)?.doubleValue ?? .nan }

private func keyframes(_ values: [Any], mode: CAAnimationCalculationMode = .linear, keyTimes: [Double]? = nil) -> CAKeyframeAnimation {
    let animation = CAKeyframeAnimation(keyPath: "position.x")
    animation.values = values
    animation.keyTimes = keyTimes?.map { NSNumber(value: $0) }
    animation.calculationMode = mode
    animation.duration = 1
    return animation
}

@Suite("Keyframes, groups and springs")
struct KeyframeGroupSpringTests {
    @Test("linear keyframes interpolate within the segment the key times put the moment in")
    func linear() {
        #expect(number(run(keyframes([0.0, 10.0, 110.0]), keyPath: "position.x", at: 0.25)) == 5)
        #expect(number(run(keyframes([0.0, 10.0, 110.0]), keyPath: "position.x", at: 0.75)) == 60)
        let uneven = keyframes([0.0, 10.0, 110.0], keyTimes: [0, 0.8, 1])
        #expect(abs(number(run(uneven, keyPath: "position.x", at: 0.9)) - 60) < 1e-9)
    }

    @Test("key times set again, cleared or copied are the ones the animation runs on (their numbers are read once and kept)")
    func keyTimesKept() {
        let animation = keyframes([0.0, 10.0, 110.0], keyTimes: [0, 0.8, 1])
        animation.keyTimes = [0, 0.2, 1]
        #expect(animation.keyTimes == [0, 0.2, 1])
        #expect(abs(number(run(animation, keyPath: "position.x", at: 0.6)) - 60) < 1e-9)
        let copy = animation.copy() as! CAKeyframeAnimation
        #expect(copy.keyTimes == [0, 0.2, 1])
        #expect(abs(number(run(copy, keyPath: "position.x", at: 0.6)) - 60) < 1e-9)
        copy.keyTimes = nil
        #expect(copy.keyTimes == nil && animation.keyTimes == [0, 0.2, 1], "clearing a copy's leaves the original's")
        #expect(abs(number(run(copy, keyPath: "position.x", at: 0.75)) - 60) < 1e-9, "evenly spaced again")
    }

    @Test("discrete keyframes set a layer's own key, a shape layer's, a transform component and a custom key, on library classes and subclasses alike")
    func discreteKeys() {
        final class Subclass: CAShapeLayer {}
        func discrete(_ keyPath: String, _ values: [Any]) -> CAKeyframeAnimation {
            let animation = CAKeyframeAnimation(keyPath: keyPath)
            animation.values = values
            animation.calculationMode = .discrete
            animation.duration = 1
            return animation
        }
        for make in [{ CAShapeLayer() as CALayer }, { Subclass() as CALayer }, { CALayer() }] {
            #expect((run(discrete("hidden", [false, true]), on: make(), keyPath: "hidden", at: 0.75) as? Bool) == true)
            #expect(number(run(discrete("transform.rotation.z", [0.0, 0.5]), on: make(), keyPath: "transform.rotation.z", at: 0.75)) == 0.5)
            #expect(number(run(discrete("custom", [1.0, 2.0, 3.0]), on: make(), keyPath: "custom", at: 0.7)) == 3)
            let layer = make()
            let width = number(run(discrete("lineWidth", [4.0, 6.0]), on: layer, keyPath: "lineWidth", at: 0.75))
            #expect(width == 6, "\(type(of: layer)): a shape layer's key, or a custom key on another")
        }
    }

    @Test("per-segment timing functions pace each segment")
    func segmentTiming() {
        let animation = keyframes([0.0, 100.0, 200.0])
        animation.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .linear)]
        let expected = 100 * CAMediaTimingFunction(name: .easeIn).evaluate(0.5)
        #expect(abs(number(run(animation, keyPath: "position.x", at: 0.25)) - expected) < 1e-9)
        #expect(abs(number(run(keyframes([0.0, 100.0, 200.0]), keyPath: "position.x", at: 0.75)) - 150) < 1e-9)
    }

    @Test("discrete keyframes hold each value until the next key time, for any value type")
    func discrete() {
        let animation = keyframes([1.0, 2.0, 3.0, 4.0], mode: .discrete)
        #expect(number(run(animation, keyPath: "position.x", at: 0.3)) == 2) // [0.25, 0.5)
        let names = CAKeyframeAnimation(keyPath: "contents")
        names.values = ["frame-a", "frame-b"]
        names.calculationMode = .discrete
        names.duration = 1
        #expect(run(names, keyPath: "contents", at: 0.6) as? String == "frame-b")
    }

    @Test("paced keyframes keep a constant speed whatever the spacing of the values")
    func paced() {
        // Distances 10 and 90: at a quarter of the time the layer is at a quarter of the way, 25.
        let animation = keyframes([0.0, 10.0, 100.0], mode: .paced, keyTimes: [0, 0.5, 1])
        #expect(abs(number(run(animation, keyPath: "position.x", at: 0.25)) - 25) < 1e-9)
        let points = CAKeyframeAnimation(keyPath: "position")
        points.values = [CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 40), CGPoint(x: 30, y: 90)] // lengths 50, 50
        points.calculationMode = .paced
        points.duration = 1
        let quarter = run(points, keyPath: "position", at: 0.25) as? CGPoint
        #expect(abs((quarter?.x ?? 0) - 15) < 1e-9 && abs((quarter?.y ?? 0) - 20) < 1e-9)
    }

    @Test("cubic keyframes pass through every value on a Catmull-Rom spline")
    func cubic() {
        let animation = keyframes([0.0, 10.0, 0.0, 10.0], mode: .cubic)
        #expect(abs(number(run(animation, keyPath: "position.x", at: 1.0 / 3)) - 10) < 1e-9)
        // Midway through the middle segment, symmetric tangents (0 at both ends of it) give 5.
        #expect(abs(number(run(keyframes([0.0, 10.0, 0.0, 10.0], mode: .cubic), keyPath: "position.x", at: 0.5)) - 5) < 1e-9)
        // Catmull-Rom through 0, 10, 20, 30 is the straight line: uniform motion.
        let straight = keyframes([0.0, 10.0, 20.0, 30.0], mode: .cubic)
        #expect(abs(number(run(straight, keyPath: "position.x", at: 0.5)) - 15) < 1e-9)
        // Tension 1 flattens the tangents: the middle of a segment is then plain smoothstep.
        let tense = keyframes([0.0, 10.0, 20.0], mode: .cubic)
        tense.tensionValues = [1, 1, 1]
        #expect(abs(number(run(tense, keyPath: "position.x", at: 0.25)) - 5) < 1e-9)
    }

    @Test("a group's duration cuts its children short: a 4 s child in a 1 s group gets a quarter of the way")
    func groupCutsShort() {
        let child = CABasicAnimation(keyPath: "position.x")
        child.fromValue = 0.0
        child.toValue = 160.0
        child.duration = 4
        let group = CAAnimationGroup()
        group.animations = [child]
        group.duration = 1
        group.fillMode = .forwards
        #expect(number(run(group, keyPath: "position.x", at: 0.5)) == 20)
        let layer = CALayer()
        _ = run(group, on: layer, keyPath: "position.x", at: 0)
        #expect(number(layer.presentationTree(atMediaTime: 12).value(forKeyPath: "position.x")) == 40)
    }

    @Test("children begin relative to the group and run in the group's time")
    func groupTime() {
        let child = CABasicAnimation(keyPath: "position.x")
        child.fromValue = 0.0
        child.toValue = 100.0
        child.beginTime = 0.5
        child.duration = 1
        let group = CAAnimationGroup()
        group.animations = [child]
        group.duration = 2
        group.speed = 2
        #expect(number(run(group, keyPath: "position.x", at: 0.5)) == 50) // group time 1, child time 0.5
    }

    @Test("a group that contains itself is cut at the cycle instead of recursing forever")
    func cyclicGroup() {
        let group = CAAnimationGroup()
        let inner = CAAnimationGroup()
        group.animations = [inner]
        inner.animations = [group]
        group.duration = 1
        let layer = CALayer()
        layer.add(group, forKey: "cycle")
        #expect(layer.animationKeys() == ["cycle"])
        _ = layer.presentationTree(atMediaTime: CACurrentMediaTime())
    }

    @Test("an underdamped spring follows the closed-form solution and overshoots")
    func springClosedForm() {
        let spring = CASpringAnimation(keyPath: "position.x")
        spring.fromValue = 0.0
        spring.toValue = 100.0
        spring.damping = 5
        spring.duration = 3
        let omega = 10.0, zeta = 0.25
        let omegaD = omega * (1 - zeta * zeta).squareRoot()
        for t in [0.1, 0.25, 0.5, 1.0] {
            let x = exp(-zeta * omega * t) * (cos(omegaD * t) + zeta * omega / omegaD * sin(omegaD * t))
            let s = CASpringAnimation(keyPath: "position.x")
            s.fromValue = 0.0; s.toValue = 100.0; s.damping = 5; s.duration = 3
            #expect(abs(number(run(s, keyPath: "position.x", at: t)) - 100 * (1 - x)) < 1e-9, "t = \(t)")
        }
        #expect(number(run(spring, keyPath: "position.x", at: 0.3)) > 100) // past the target
    }

    @Test("settling takes about 2.8 s with damping 5, and less with more damping")
    func settling() {
        let spring = CASpringAnimation()
        spring.damping = 5
        #expect(abs(spring.settlingDuration - 2.8) < 0.1)
        let stiff = CASpringAnimation()
        stiff.damping = 20 // critical: no overshoot
        #expect(stiff.settlingDuration < spring.settlingDuration)
        #expect(stiff.displacement(at: 0.1) > 0 && stiff.displacement(at: 1) >= 0)
    }

    @Test("overdamping is clamped to critical unless allowed")
    func overdamping() {
        let heavy = CASpringAnimation()
        heavy.damping = 100
        let allowed = CASpringAnimation()
        allowed.damping = 100
        allowed.allowsOverdamping = true
        let critical = CASpringAnimation()
        critical.damping = 20
        #expect(heavy.displacement(at: 0.3) == critical.displacement(at: 0.3))
        #expect(allowed.displacement(at: 0.3) > critical.displacement(at: 0.3)) // slower approach
    }

    @Test("the perceptual initializer makes a spring that settles near the asked duration without bounce")
    func perceptual() {
        let spring = CASpringAnimation(perceptualDuration: 0.5, bounce: 0)
        #expect(abs(spring.stiffness - pow(2 * .pi / 0.5, 2)) < 1e-9)
        #expect(spring.duration == spring.settlingDuration && spring.settlingDuration > 0.3 && spring.settlingDuration < 1.5)
        #expect((0..<100).allSatisfy { spring.displacement(at: Double($0) / 100) >= 0 }) // critically damped
    }
}

@Suite("Keyframe contents")
struct KeyframeContentsTests {
    @Test("contents keyframes: discrete switches images, linear dissolves from one to the next")
    func flipBook() {
        let frames = (0..<3).map { i in CGImage(bitmap: Bitmap(width: 1, height: 1) { _, _ in (UInt8(i * 100), 0, 0, 255) }) }
        for mode in [CAAnimationCalculationMode.discrete, .linear] {
            let layer = CALayer()
            layer.contents = frames[0]
            let flip = CAKeyframeAnimation(keyPath: "contents")
            flip.values = frames
            flip.duration = 2
            flip.calculationMode = mode
            MediaClock.$scoped.withValue(0) { layer.add(flip, forKey: "flip") }
            let shown = layer.presentationTree(atMediaTime: 1.5)
            // Three values, two segments: 1.5 s is three quarters through, half way through the second.
            if mode == .discrete {
                #expect((shown.contents as? CGImage) === frames[2] && shown.contentsCrossFade == nil)
            } else {
                #expect((shown.contents as? CGImage) === frames[2])
                #expect(shown.contentsCrossFade?.from === frames[1] && abs((shown.contentsCrossFade?.fraction ?? 0) - 0.5) < 1e-9)
            }
        }
    }
}

@Suite("Keyframe paths")
struct KeyframePathTests {
    private func follow(_ path: CGPath, mode: CAAnimationCalculationMode = .linear,
                        rotation: CAAnimationRotationMode? = nil, at t: Double) -> CALayer {
        let animation = CAKeyframeAnimation(keyPath: "position")
        animation.path = path
        animation.calculationMode = mode
        animation.rotationMode = rotation
        animation.duration = 1
        animation.beginTime = 10
        let layer = CALayer()
        layer.add(animation, forKey: "follow")
        return layer.presentationTree(atMediaTime: 10 + t)
    }

    /// An L: 10 along x, then 90 along y.
    private var ell: CGPath {
        let path = CGMutablePath()
        path.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 90)])
        return path
    }

    @Test("in linear mode each path element takes an equal share of the time")
    func linearPath() {
        #expect(follow(ell, at: 0.25).position == CGPoint(x: 5, y: 0))
        #expect(follow(ell, at: 0.75).position == CGPoint(x: 10, y: 45))
    }

    @Test("paced mode moves at constant speed along the whole length")
    func pacedPath() {
        let p = follow(ell, mode: .paced, at: 0.5).position // 50 of 100: 40 down the second leg
        #expect(abs(p.x - 10) < 1e-6 && abs(p.y - 40) < 1e-3)
        let circle = CGPath(ellipseIn: CGRect(x: -10, y: -10, width: 20, height: 20))
        let quarter = follow(circle, mode: .paced, at: 0.25).position
        #expect(abs(quarter.x) < 0.02 && abs(quarter.y - 10) < 0.02) // a quarter turn from (10, 0)
    }

    @Test("rotateAuto turns the layer along the tangent; rotateAutoReverse the other way")
    func rotation() {
        let down = follow(ell, rotation: .rotateAuto, at: 0.75).transform
        #expect(abs(down.m11) < 1e-9 && abs(down.m12 - 1) < 1e-9) // facing +y: a quarter turn
        let back = follow(ell, rotation: .rotateAutoReverse, at: 0.25).transform
        #expect(abs(back.m11 + 1) < 1e-9) // facing -x
    }
}

@Suite("Key time search")
struct KeyTimeSearchTests {
    /// The scans from the first key time that the searches replace, as they were.
    private func scannedSegment(_ times: [Double], _ f: Double, last: Int) -> Int {
        var i = 0
        while i < last && f >= times[i + 1] { i += 1 }
        return i
    }

    private func scannedLastReached(_ times: [Double], _ f: Double, count: Int) -> Int {
        var index = 0
        for i in 0..<count where f >= times[i] { index = i }
        return index
    }

    @Test("searching by halves finds the segment and the last reached key time the scan from the start found, for ascending, repeated, unordered, NaN and evenly spaced times")
    func searchesMatchScans() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<3_000 {
            // Short tracks are scanned, long ones (48 key times and more) searched by halves.
            let count = Int.random(in: 1...160, using: &generator)
            var times = (0..<count).map { _ in Double(Int.random(in: 0...20, using: &generator)) / 20 }
            switch round % 4 {
            case 0: times.sort()                                  // ascending, with repeats
            case 1: break                                         // in any order
            case 2: times.sort(); times[Int.random(in: 0..<count, using: &generator)] = .nan
            default: times = (0..<count).map { Double($0) / Double(max(count - 1, 1)) }
            }
            let list = CAKeyframeAnimation.KeyTimeList(times.map { NSNumber(value: $0) })
            let moments = times.filter(\.isFinite) + [-1, 0, 0.5, 1, 2, .nan, .infinity, -.infinity]
                + (0..<8).map { _ in Double.random(in: -0.1...1.1, using: &generator) }
            for f in moments {
                // Linear and path animations: count values, count - 1 segments.
                let segments = count - 1
                if segments >= 1 {
                    let bounds = CAKeyframeAnimation.KeyTimeBounds(list, segments: segments)
                    #expect(bounds.segment(of: f, last: segments - 1) == scannedSegment(times, f, last: segments - 1),
                            "times \(times), f \(f)")
                }
                // Discrete animations: count or count - 1 values.
                for values in [count, count - 1] where values >= 1 {
                    let bounds = CAKeyframeAnimation.KeyTimeBounds(list, segments: values, orCount: true)
                    #expect(bounds.lastReached(by: f, count: values) == scannedLastReached(times, f, count: values),
                            "times \(times), f \(f), values \(values)")
                }
            }
            // Evenly spaced: no list.
            let even = CAKeyframeAnimation.KeyTimeBounds(nil, segments: count)
            let evenTimes = (0...count).map { Double($0) / Double(count) }
            for f in evenTimes + [0.37, .nan, 2] {
                #expect(even.segment(of: f, last: count - 1) == scannedSegment(evenTimes, f, last: count - 1))
                #expect(even.lastReached(by: f, count: count) == scannedLastReached(evenTimes, f, count: count))
            }
        }
    }

    @Test("a track of 2,000 samples a frame apart gives each frame its own sample, and unordered key times the values the scan gave")
    func longTrack() {
        let count = 2_000
        let animation = keyframes((0..<count).map { Double($0) * 3 })
        animation.keyTimes = (0..<count).map { NSNumber(value: Double($0) / Double(count - 1)) }
        for k in stride(from: 0, to: count, by: 97) {
            let t = Double(k) / Double(count - 1)
            #expect(abs(number(run(animation, keyPath: "position.x", at: t)) - Double(k) * 3) < 1e-6)
        }
        // Out of order: the first segment whose next key time is past the moment, as before.
        let unordered = keyframes([0.0, 10.0, 20.0, 30.0], keyTimes: [0, 0.6, 0.3, 1])
        #expect(abs(number(run(unordered, keyPath: "position.x", at: 0.45)) - 7.5) < 1e-9)
    }
}

@Suite("Transform keyframes")
struct TransformKeyframeTests {
    @Test("transform keyframes blend as CATransform3D.interpolated does, to the bit, with their decompositions made once: turned, scaled, mirrored, in perspective and singular")
    func decomposedOnce() {
        var generator = SystemRandomNumberGenerator()
        func random(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &generator) }
        var transforms: [CATransform3D] = []
        for k in 0..<12 {
            var t = CATransform3DMakeRotation(random(-3...3), random(-1...1), random(-1...1), 1)
            t = CATransform3DScale(t, random(0.2...2) * (k % 3 == 0 ? -1 : 1), random(0.2...2), 1)
            t = CATransform3DTranslate(t, random(-50...50), random(-50...50), 0)
            if k % 4 == 1 { t.m34 = -1 / 400 }
            if k % 5 == 2 { t = CATransform3DMakeScale(0, 1, 1) } // no decomposition: blended element-wise
            transforms.append(t)
        }
        let animation = CAKeyframeAnimation(keyPath: "transform")
        animation.values = transforms
        animation.duration = 1
        animation.beginTime = 10
        let layer = CALayer()
        layer.add(animation, forKey: "t")
        let segments = Double(transforms.count - 1)
        // Moments whose media time 10 + f gives back f exactly (the clock's sums are exact).
        for step in 0..<256 { // (at 1 the animation has ended)
            let f = Double(step) / 256
            let presented = layer.presentationTree(atMediaTime: 10 + f).transform
            let i = min(Int(f * segments), transforms.count - 2)
            let s = min(max((f - Double(i) / segments) / (Double(i + 1) / segments - Double(i) / segments), 0), 1)
            let expected = transforms[i].interpolated(to: transforms[i + 1], fraction: s)
            #expect(presented == expected, "at \(f)")
        }
    }
}
