// Members of Apple's QuartzCore interface that ported code uses and that have no picture of their
// own: overridable hit testing, the scroll layer's visible rect, shared ancestors, corner curve
// expansion, the drawing hints, shape layers' cap and join types, keyframe times as NSNumber.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

/// Hit-tests by its circle, as shape layers do by overriding contains.
private final class RoundButton: CALayer {
    override func contains(_ p: CGPoint) -> Bool {
        let r = bounds.width / 2
        return hypot(p.x - bounds.midX, p.y - bounds.midY) <= r
    }
}

@Suite("Layer members")
struct LayerMembersTests {
    @Test("an overridden contains decides hitTest")
    func overriddenContains() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let button = RoundButton()
        button.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        root.addSublayer(button)
        #expect(root.hitTest(CGPoint(x: 20, y: 20)) === button)
        #expect(root.hitTest(CGPoint(x: 2, y: 2)) === root, "the square's corner is outside the circle")
    }

    @Test("visibleRect is the bounds cut by the enclosing scroll layer")
    func visibleRect() {
        let scroller = CAScrollLayer()
        scroller.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        let content = CALayer()
        content.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        scroller.addSublayer(content)
        #expect(content.visibleRect == CGRect(x: 0, y: 0, width: 50, height: 50))
        scroller.scroll(to: CGPoint(x: 30, y: 10))
        #expect(content.visibleRect == CGRect(x: 30, y: 10, width: 50, height: 50))
        let alone = CALayer()
        alone.bounds = CGRect(x: 0, y: 0, width: 7, height: 9)
        #expect(alone.visibleRect == alone.bounds)
    }

    @Test("ancestorShared(with:) finds the nearest common ancestor")
    func sharedAncestor() {
        let root = CALayer(), a = CALayer(), b = CALayer(), a1 = CALayer(), other = CALayer()
        root.addSublayer(a)
        root.addSublayer(b)
        a.addSublayer(a1)
        #expect(a1.ancestorShared(with: b) === root)
        #expect(a1.ancestorShared(with: a) === a)
        #expect(a1.ancestorShared(with: other) == nil)
    }

    @Test("corner curves, hints and archiving answer as Apple documents")
    func answers() {
        #expect(CALayer.cornerCurveExpansionFactor(.circular) == 1)
        #expect(CALayer.cornerCurveExpansionFactor(.continuous) == 1.528)
        let layer = CALayer()
        #expect(!layer.isOpaque && !layer.drawsAsynchronously && layer.contentsFormat == .RGBA8Uint)
        layer.isOpaque = true
        layer.drawsAsynchronously = true
        layer.contentsFormat = .gray8Uint
        let copy = CALayer(layer: layer)
        #expect(copy.isOpaque && copy.drawsAsynchronously && copy.contentsFormat.rawValue == "Gray8")
        #expect(layer.shouldArchiveValue(forKey: "position"))
    }

    @Test("shape layers' caps and joins are Core Animation's types and names")
    func capsAndJoins() {
        let shape = CAShapeLayer()
        #expect(shape.lineCap == .butt && shape.lineJoin == .miter)
        shape.lineCap = CAShapeLayerLineCap.round
        shape.lineJoin = CAShapeLayerLineJoin(rawValue: "bevel")
        #expect(shape.lineCap.rawValue == "round" && shape.lineJoin == .bevel)
        #expect([CAShapeLayerFillRule.nonZero, .evenOdd].map(\.rawValue) == ["non-zero", "even-odd"])
    }

    @Test("keyTimes take NSNumbers, as Apple declares them")
    func keyTimesAreNumbers() throws {
        let layer = CALayer()
        let keyframes = CAKeyframeAnimation(keyPath: "opacity")
        keyframes.values = [0.0, 0.2, 1.0]
        keyframes.keyTimes = [0, NSNumber(value: 0.8), 1]
        keyframes.beginTime = 100
        keyframes.duration = 1
        layer.add(keyframes, forKey: "fade")
        let value = try #require(layer.presentationTree(atMediaTime: 100.4).value(forKeyPath: "opacity") as? NumberConvertible)
        #expect(abs(value.doubleValue - 0.1) < 1e-6)
    }
}
