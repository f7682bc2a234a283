// Values boxed as Apple's code boxes them (NSValue, NSNumber of any numeric type) are accepted
// wherever the API takes Any: animation values, keyframes, key-value coding. A value an animation
// cannot use is said once on standard error, naming the key path and the type, and the whole
// animation is skipped.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

private func presented(_ layer: CALayer, _ keyPath: String, at t: Double) -> Any? {
    layer.presentationTree(atMediaTime: t).value(forKeyPath: keyPath)
}

private func basic(_ keyPath: String, from: Any?, to: Any?, on layer: CALayer) {
    let animation = CABasicAnimation(keyPath: keyPath)
    animation.fromValue = from
    animation.toValue = to
    animation.beginTime = 100
    animation.duration = 2
    layer.add(animation, forKey: "test")
}

@Suite("Boxed values")
struct BoxedValueTests {
    @Test("NSValue boxes and unboxes transforms, points, sizes, rects and affine transforms")
    func roundTrips() {
        var t = CATransform3DMakeRotation(0.3, 0, 1, 0)
        t.m34 = -1.0 / 500
        #expect(NSValue(caTransform3D: t).caTransform3DValue == t)
        #expect(NSValue(cgPoint: CGPoint(x: 1, y: -2)).cgPointValue == CGPoint(x: 1, y: -2))
        #expect(NSValue(cgSize: CGSize(width: 3, height: 4)).cgSizeValue == CGSize(width: 3, height: 4))
        #expect(NSValue(cgRect: CGRect(x: 1, y: 2, width: 3, height: 4)).cgRectValue == CGRect(x: 1, y: 2, width: 3, height: 4))
        let affine = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        #expect(NSValue(cgAffineTransform: affine).cgAffineTransformValue == affine)
        #expect(NSValue(cgPoint: .zero).caTransform3DValue == CATransform3DIdentity, "a box of another type reads as the identity")
    }

    @Test("boxed from and to values animate position, bounds and transform")
    func boxedBasicAnimations() throws {
        let layer = CALayer()
        basic("position", from: NSValue(cgPoint: CGPoint(x: 0, y: 0)), to: NSValue(cgPoint: CGPoint(x: 100, y: 50)), on: layer)
        #expect(presented(layer, "position", at: 101) as? CGPoint == CGPoint(x: 50, y: 25))

        let sized = CALayer()
        basic("bounds", from: NSValue(cgRect: CGRect(x: 0, y: 0, width: 10, height: 10)),
              to: NSValue(cgRect: CGRect(x: 0, y: 0, width: 30, height: 50)), on: sized)
        #expect(presented(sized, "bounds", at: 101) as? CGRect == CGRect(x: 0, y: 0, width: 20, height: 30))

        let moved = CALayer()
        basic("transform", from: NSValue(caTransform3D: CATransform3DIdentity),
              to: NSValue(caTransform3D: CATransform3DMakeTranslation(40, 0, 0)), on: moved)
        let t = try #require(presented(moved, "transform", at: 101) as? CATransform3D)
        #expect(abs(t.m41 - 20) < 1e-9)

        // The case: a translation boxed as a size.
        let translated = CALayer()
        basic("transform.translation", from: NSValue(cgSize: .zero), to: NSValue(cgSize: CGSize(width: 10, height: 30)), on: translated)
        #expect(presented(translated, "transform.translation", at: 101) as? CGSize == CGSize(width: 5, height: 15))
    }

    @Test("keyframe values boxed as NSValue animate")
    func boxedKeyframes() throws {
        let layer = CALayer()
        let keyframes = CAKeyframeAnimation(keyPath: "transform")
        keyframes.values = [CATransform3DIdentity, CATransform3DMakeScale(2, 2, 1), CATransform3DMakeScale(4, 4, 1)]
            .map { NSValue(caTransform3D: $0) }
        keyframes.beginTime = 100
        keyframes.duration = 2
        layer.add(keyframes, forKey: "grow")
        let t = try #require(presented(layer, "transform", at: 101) as? CATransform3D)
        #expect(abs(t.m11 - 2) < 1e-9 && abs(t.m22 - 2) < 1e-9)
    }

    @Test("an NSNumber or number of every numeric type animates opacity", arguments: [
        Int8(1), Int16(1), Int32(1), Int64(1), UInt8(1), UInt16(1), UInt32(1), UInt64(1), Int(1), UInt(1),
        Float(1), Double(1), CGFloat(1), NSNumber(value: Int16(1)), NSNumber(value: Float(1)), NSNumber(value: true),
    ] as [any Sendable])
    func numbersOfEveryType(one: any Sendable) throws {
        let layer = CALayer()
        layer.opacity = 0
        basic("opacity", from: 0.0, to: one, on: layer)
        let mid = try #require(presented(layer, "opacity", at: 101) as? NumberConvertible)
        #expect(abs(mid.doubleValue - 0.5) < 1e-6, "\(type(of: one))")
    }

    @Test("key-value coding takes boxed values")
    func boxedKeyValueCoding() {
        let layer = CALayer()
        layer.setValue(NSValue(cgPoint: CGPoint(x: 7, y: 8)), forKeyPath: "position")
        #expect(layer.position == CGPoint(x: 7, y: 8))
        layer.setValue(NSValue(caTransform3D: CATransform3DMakeScale(2, 2, 1)), forKeyPath: "transform")
        #expect(layer.transform == CATransform3DMakeScale(2, 2, 1))
        layer.setValue(NSValue(cgSize: CGSize(width: 3, height: 4)), forKeyPath: "transform.translation")
        #expect(layer.transform.m41 == 3 && layer.transform.m42 == 4)
        layer.setValue(NSValue(cgSize: .zero), forKeyPath: "position") // a box of the wrong type is refused
        #expect(layer.position == CGPoint(x: 7, y: 8))
    }

    @Test("a value the property cannot take skips the animation, said once on standard error")
    func unusableValueIsSaid() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let layer = CALayer()
            layer.position = CGPoint(x: 10, y: 10)
            // A rectangle where a point is stored (a size would do: Core Animation reads a pair of
            // numbers either way, see ApplePortingParityTests).
            basic("position", from: NSValue(cgRect: CGRect(x: 1, y: 1, width: 2, height: 2)), to: NSValue(cgPoint: CGPoint(x: 90, y: 90)), on: layer)
            for t in [100.5, 101, 101.5] {
                // Not half-applied: the usable toValue does not animate from the current value.
                guard presented(layer, "position", at: t) as? CGPoint == CGPoint(x: 10, y: 10) else { exit(3) }
            }
            let keyframes = CAKeyframeAnimation(keyPath: "opacity")
            keyframes.values = [0.0, "half", 1.0]
            keyframes.beginTime = 100
            keyframes.duration = 1
            layer.add(keyframes, forKey: "fade")
            guard presented(layer, "opacity", at: 100.5) as? NumberConvertible == nil
                    || (presented(layer, "opacity", at: 100.5) as? NumberConvertible)?.doubleValue == 1 else { exit(4) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.components(separatedBy: "CABasicAnimation on \"position\"").count == 2, "said once: \(message)")
        #expect(message.contains("fromValue is an NSValue boxing {CGRect=") && message.contains("a point (CGPoint)"), "\(message)")
        #expect(message.contains("CAKeyframeAnimation on \"opacity\": its values[1] is a String"), "\(message)")
    }
}
