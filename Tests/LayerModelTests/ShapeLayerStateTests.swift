// A shape layer's properties are typed fields of its state (ShapeLayerState), not values found
// by key: a subclass's defaultValue(forKey:) still gives its defaults, presentation copies carry
// them, animations write them, and on any other layer the same names stay custom keys.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

/// A subclass with defaults of its own for two of the shape's keys.
private final class ThickShapeLayer: CAShapeLayer {
    override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "lineWidth": NSNumber(value: 6)
        case "lineJoin": "round"
        default: super.defaultValue(forKey: key)
        }
    }
}

@Suite("Shape layers' typed state")
struct ShapeLayerStateTests {
    @Test("a subclass's defaultValue(forKey:) gives a new layer its defaults; CAShapeLayer keeps Apple's")
    func subclassDefaults() {
        let thick = ThickShapeLayer()
        #expect(thick.lineWidth == 6 && thick.lineJoin == .round)
        #expect(thick.value(forKey: "lineWidth") as? CGFloat == 6 && thick.value(forKey: "lineJoin") as? String == "round")
        #expect(thick.miterLimit == 10 && thick.fillColor == CGColor.black, "keys it does not answer for keep CAShapeLayer's")
        let plain = CAShapeLayer()
        #expect(plain.lineWidth == 1 && plain.lineJoin == .miter && plain.strokeEnd == 1 && plain.path == nil)
    }

    @Test("presentation copies carry every shape property")
    func copies() {
        let shape = CAShapeLayer()
        shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        shape.fillColor = nil
        shape.strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        shape.lineWidth = 3
        shape.lineCap = .round
        shape.lineDashPattern = [2, 1]
        shape.strokeStart = 0.25
        shape.fillRule = .evenOdd
        let copy = CAShapeLayer(layer: shape)
        #expect(copy.path == shape.path && copy.fillColor == nil && copy.strokeColor == shape.strokeColor)
        #expect(copy.lineWidth == 3 && copy.lineCap == .round && copy.lineDashPattern?.map(\.doubleValue) == [2, 1])
        #expect(copy.strokeStart == 0.25 && copy.fillRule == .evenOdd)
    }

    @Test("a keyframe animation of strokeEnd writes the shape's stroke end, and a plain layer's key of that name")
    func animationsWrite() {
        func animation() -> CAKeyframeAnimation {
            let a = CAKeyframeAnimation(keyPath: "strokeEnd")
            a.values = [NSNumber(value: 0), NSNumber(value: 1)]
            a.duration = 1
            a.beginTime = 1e-9
            a.fillMode = .both
            a.isRemovedOnCompletion = false
            return a
        }
        let shape = CAShapeLayer()
        shape.speed = 0
        shape.timeOffset = 0.25
        shape.add(animation(), forKey: "trim")
        let presented = shape.presentationTree(atMediaTime: 0) as? CAShapeLayer
        #expect(abs((presented?.strokeEnd ?? -1) - 0.25) < 1e-6, "\(String(describing: presented?.strokeEnd))")
        #expect(shape.strokeEnd == 1, "the model keeps its own")

        let plain = CALayer()
        plain.speed = 0
        plain.timeOffset = 0.75
        plain.setValue(NSNumber(value: 0.5), forKey: "strokeEnd")
        #expect((plain.value(forKey: "strokeEnd") as? NSNumber)?.doubleValue == 0.5, "a custom key on a plain layer")
        plain.add(animation(), forKey: "trim")
        let shown = plain.presentationTree(atMediaTime: 0).value(forKey: "strokeEnd")
        #expect(abs((shown.flatMap(numberValue) ?? -1) - 0.75) < 1e-6, "\(String(describing: shown))")
    }

    @Test("ends that single precision cannot tell apart stroke nothing; ends a hair apart stroke a dot")
    func meetingEnds() throws {
        let shape = CAShapeLayer()
        shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100), transform: nil)
        shape.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        shape.lineWidth = 10
        shape.lineCap = .round
        shape.strokeStart = 0
        shape.strokeEnd = .leastNonzeroMagnitude // an animation's first instant past 0
        #expect(shape.strokeOutline?.isEmpty ?? true)
        shape.strokeEnd = 1e-4
        let dot = try #require(shape.strokeOutline)
        #expect(!dot.isEmpty && dot.boundingBox.width > 9, "\(dot.boundingBox)")
        shape.strokeStart = 0.5
        shape.strokeEnd = 0.5.nextUp
        #expect(shape.strokeOutline?.isEmpty ?? true)
    }
}

/// A number in any spelling key-value coding hands back.
private func numberValue(_ value: Any) -> Double? {
    (value as? NSNumber)?.doubleValue ?? (value as? Double) ?? (value as? CGFloat).map(Double.init)
}
