// Animations as key-value containers, as Apple's are: a tag set with setValue(_:forKey:) comes
// back in animationDidStop on the copy the layer ran, and every declared property reads and
// writes by its Objective-C key, numbers as NSNumber of any type.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

private final class Watcher: CAAnimationDelegate {
    var stoppedTags: [String] = []
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        stoppedTags.append(anim.value(forKey: "tag") as? String ?? "untagged")
    }
}

@Suite("Animation key-value coding")
struct AnimationKeyValueCodingTests {
    @Test("a tag set on an animation comes back in animationDidStop")
    func tagReachesDelegate() {
        let watcher = Watcher()
        let layer = CALayer()
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.setValue("fade-out", forKey: "tag")
        fade.toValue = 0
        fade.beginTime = 10
        fade.duration = 1
        fade.delegate = watcher
        layer.add(fade, forKey: "fade")
        _ = layer.advanceAnimations(toMediaTime: 10.5)
        _ = layer.advanceAnimations(toMediaTime: 12)
        #expect(watcher.stoppedTags == ["fade-out"])
    }

    @Test("declared properties read and write by their keys")
    func declaredKeys() throws {
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.setValue(NSNumber(value: Int16(3)), forKey: "duration")
        spin.setValue(Float(2), forKey: "repeatCount")
        spin.setValue(false, forKey: "removedOnCompletion")
        spin.setValue("forwards", forKey: "fillMode")
        spin.setValue(NSNumber(value: true), forKey: "additive")
        spin.setValue(Double.pi, forKey: "toValue")
        #expect(spin.duration == 3 && spin.repeatCount == 2 && !spin.isRemovedOnCompletion && spin.fillMode == .forwards && spin.isAdditive)
        #expect(spin.value(forKey: "keyPath") as? String == "transform.rotation.z")
        #expect(spin.value(forKey: "toValue") as? Double == Double.pi)
        spin.setValue("three", forKey: "duration")
        #expect(spin.duration == 3, "a value of the wrong type is ignored")

        let keyframes = CAKeyframeAnimation(keyPath: "position")
        keyframes.setValue([0, 0.25, 1], forKey: "keyTimes")
        keyframes.setValue("paced", forKey: "calculationMode")
        #expect(keyframes.keyTimes?.map(\.doubleValue) == [0, 0.25, 1] && keyframes.calculationMode == .paced)

        let spring = CASpringAnimation(keyPath: "position.x")
        spring.setValue(NSNumber(value: 5), forKey: "damping")
        #expect(spring.damping == 5 && (spring.value(forKey: "settlingDuration") as? Double ?? 0) > 0)

        let transition = CATransition()
        transition.setValue("push", forKey: "type")
        transition.setValue("fromTop", forKey: "subtype")
        #expect(transition.type == .push && transition.subtype == .fromTop)

        let group = CAAnimationGroup()
        group.setValue([spin, keyframes], forKey: "animations")
        #expect(group.animations?.count == 2)
    }

    @Test("keys of one's own are stored, copied with the animation, and default to defaultValue(forKey:)")
    func customKeys() {
        let animation = CABasicAnimation(keyPath: "opacity")
        #expect(animation.value(forKey: "step") == nil)
        animation.setValue(4, forKey: "step")
        let copy = animation.copy() as! CABasicAnimation
        #expect(copy.value(forKey: "step") as? Int == 4 && copy.value(forKeyPath: "step") as? Int == 4)
        #expect(CAAnimation.defaultValue(forKey: "anything") == nil && animation.shouldArchiveValue(forKey: "step"))
    }
}

@Suite("Animation key-value coding, every declared key")
struct AnimationKeyRoundTripTests {
    private final class Listener: CAAnimationDelegate {}
    nonisolated(unsafe) private static let listener = Listener()

    /// Every settable declared key of the animation classes, with a value as Apple's key-value
    /// coding hands it and whether an animation holds it.
    nonisolated(unsafe) static let keys: [(make: () -> CAAnimation, key: String, value: Any, took: (CAAnimation) -> Bool)] = {
        let easeIn = CAMediaTimingFunction(name: .easeIn)
        let path = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil)
        let basic = { CABasicAnimation(keyPath: "opacity") as CAAnimation }
        let spring = { CASpringAnimation(keyPath: "position.x") as CAAnimation }
        let keyframe = { CAKeyframeAnimation(keyPath: "position") as CAAnimation }
        let transition = { CATransition() as CAAnimation }
        func b(_ a: CAAnimation) -> CABasicAnimation { a as! CABasicAnimation }
        func s(_ a: CAAnimation) -> CASpringAnimation { a as! CASpringAnimation }
        func k(_ a: CAAnimation) -> CAKeyframeAnimation { a as! CAKeyframeAnimation }
        func t(_ a: CAAnimation) -> CATransition { a as! CATransition }
        return [
            (basic, "beginTime", NSNumber(value: 2), { $0.beginTime == 2 }),
            (basic, "duration", NSNumber(value: Int8(3)), { $0.duration == 3 }),
            (basic, "speed", NSNumber(value: 2.0), { $0.speed == 2 }),
            (basic, "timeOffset", NSNumber(value: 0.5), { $0.timeOffset == 0.5 }),
            (basic, "repeatCount", NSNumber(value: Float.infinity), { $0.repeatCount == .infinity }),
            (basic, "repeatDuration", NSNumber(value: 4), { $0.repeatDuration == 4 }),
            (basic, "autoreverses", NSNumber(value: true), { $0.autoreverses }),
            (basic, "fillMode", "both", { $0.fillMode == .both }),
            (basic, "timingFunction", easeIn, { $0.timingFunction == easeIn }),
            (basic, "removedOnCompletion", NSNumber(value: false), { !$0.isRemovedOnCompletion }),
            (basic, "delegate", listener, { $0.delegate === listener }),
            (basic, "preferredFrameRateRange", CAFrameRateRange(minimum: 30, maximum: 60, preferred: 60), { $0.preferredFrameRateRange.maximum == 60 }),
            (basic, "keyPath", "position.y", { ($0 as! CAPropertyAnimation).keyPath == "position.y" }),
            (basic, "additive", NSNumber(value: 1), { ($0 as! CAPropertyAnimation).isAdditive }),
            (basic, "cumulative", NSNumber(value: 1), { ($0 as! CAPropertyAnimation).isCumulative }),
            (basic, "valueFunction", CAValueFunction(name: .rotateZ)!, { ($0 as! CAPropertyAnimation).valueFunction?.name == .rotateZ }),
            (basic, "fromValue", NSNumber(value: 0.25), { (b($0).fromValue as? NSNumber)?.doubleValue == 0.25 }),
            (basic, "toValue", NSNumber(value: 0.75), { (b($0).toValue as? NSNumber)?.doubleValue == 0.75 }),
            (basic, "byValue", NSNumber(value: 0.5), { (b($0).byValue as? NSNumber)?.doubleValue == 0.5 }),
            (spring, "mass", NSNumber(value: 2), { s($0).mass == 2 }),
            (spring, "stiffness", NSNumber(value: 50), { s($0).stiffness == 50 }),
            (spring, "damping", NSNumber(value: 5), { s($0).damping == 5 }),
            (spring, "initialVelocity", NSNumber(value: -1), { s($0).initialVelocity == -1 }),
            (spring, "allowsOverdamping", NSNumber(value: true), { s($0).allowsOverdamping }),
            (keyframe, "values", [NSNumber(value: 0), NSNumber(value: 1)], { k($0).values?.count == 2 }),
            (keyframe, "path", path, { k($0).path == path }),
            (keyframe, "keyTimes", [NSNumber(value: 0), NSNumber(value: 1)], { k($0).keyTimes?.map(\.doubleValue) == [0, 1] }),
            (keyframe, "timingFunctions", [easeIn], { k($0).timingFunctions == [easeIn] }),
            (keyframe, "calculationMode", "cubic", { k($0).calculationMode == .cubic }),
            (keyframe, "rotationMode", "auto", { k($0).rotationMode == .rotateAuto }),
            (keyframe, "tensionValues", [NSNumber(value: 0.5)], { k($0).tensionValues?.map(\.doubleValue) == [0.5] }),
            (keyframe, "continuityValues", [NSNumber(value: -0.5)], { k($0).continuityValues?.map(\.doubleValue) == [-0.5] }),
            (keyframe, "biasValues", [NSNumber(value: 0.25)], { k($0).biasValues?.map(\.doubleValue) == [0.25] }),
            ({ CAAnimationGroup() }, "animations", [CABasicAnimation(keyPath: "opacity")], { ($0 as! CAAnimationGroup).animations?.count == 1 }),
            (transition, "type", "moveIn", { t($0).type == .moveIn }),
            (transition, "subtype", "fromBottom", { t($0).subtype == .fromBottom }),
            (transition, "startProgress", NSNumber(value: 0.25), { t($0).startProgress == 0.25 }),
            (transition, "endProgress", NSNumber(value: 0.75), { t($0).endProgress == 0.75 }),
            (transition, "filter", "CIBarsSwipeTransition", { t($0).filter as? String == "CIBarsSwipeTransition" }),
        ]
    }()

    @Test("every declared key of every animation class round-trips, and copies keep it", arguments: keys.indices)
    func roundTrip(index: Int) {
        let (make, key, value, took) = Self.keys[index]
        let animation = make()
        #expect(!took(animation), "\(key): the test's value is the default, so it proves nothing")
        animation.setValue(value, forKey: key)
        #expect(took(animation), "\(key): the property did not take the value")
        let other = make()
        other.setValue(animation.value(forKey: key), forKey: key)
        #expect(took(other), "\(key): the value read back is not the value set")
        #expect(took(animation.copy() as! CAAnimation), "\(key): a copy lost it")
    }

    @Test("the spring's derived durations read by key")
    func springReadOnlyKeys() {
        let spring = CASpringAnimation(perceptualDuration: 0.5, bounce: 0.3)
        #expect((spring.value(forKey: "perceptualDuration") as? CFTimeInterval).map { abs($0 - 0.5) < 1e-9 } == true)
        #expect((spring.value(forKey: "bounce") as? CGFloat).map { abs($0 - 0.3) < 1e-9 } == true)
        #expect((spring.value(forKey: "settlingDuration") as? CFTimeInterval ?? 0) > 0)
    }
}
