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
