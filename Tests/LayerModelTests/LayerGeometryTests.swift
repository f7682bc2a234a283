// Frame, bounds, position and anchor point, conversion between layers, and hit testing, as Core
// Animation defines them. Expected values are worked out by hand in the comments.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

private func close(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

private func close(_ a: CGSize, _ b: CGSize, _ tolerance: CGFloat = 1e-9) -> Bool {
    abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}

private func close(_ a: CGRect, _ b: CGRect, _ tolerance: CGFloat = 1e-9) -> Bool {
    close(a.origin, b.origin, tolerance) && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}

@Suite("Layer geometry")
struct LayerGeometryTests {
    @Test("defaults are Core Animation's")
    func defaults() {
        let layer = CALayer()
        #expect(layer.bounds == .zero && layer.position == .zero && layer.zPosition == 0)
        #expect(layer.anchorPoint == CGPoint(x: 0.5, y: 0.5) && layer.anchorPointZ == 0)
        #expect(CATransform3DIsIdentity(layer.transform) && CATransform3DIsIdentity(layer.sublayerTransform))
        #expect(layer.opacity == 1 && !layer.isHidden && layer.backgroundColor == nil && layer.contents == nil)
        #expect(layer.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(layer.contentsGravity == .resize && layer.contentsScale == 1)
        #expect(!layer.masksToBounds && layer.isDoubleSided && layer.name == nil)
    }

    @Test("frame is position minus anchor times size, and setting it sets position and bounds size")
    func frameWithoutTransform() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 7, y: 9, width: 100, height: 50) // the bounds origin does not move the frame
        layer.anchorPoint = CGPoint(x: 0.25, y: 1)
        layer.position = CGPoint(x: 200, y: 300)
        #expect(layer.frame == CGRect(x: 175, y: 250, width: 100, height: 50))
        layer.frame = CGRect(x: 10, y: 20, width: 40, height: 80)
        #expect(layer.bounds == CGRect(x: 7, y: 9, width: 40, height: 80))
        #expect(layer.position == CGPoint(x: 20, y: 100)) // 10 + 0.25 * 40, 20 + 1 * 80
    }

    @Test("with a scale transform, frame is the scaled box about the anchor point")
    func frameWithScale() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        layer.position = CGPoint(x: 100, y: 100)
        layer.transform = CATransform3DMakeScale(2, 3, 1)
        #expect(close(layer.frame, CGRect(x: 0, y: 25, width: 200, height: 150)))
        layer.frame = CGRect(x: 10, y: 10, width: 60, height: 30)
        #expect(close(layer.bounds, CGRect(x: 0, y: 0, width: 30, height: 10)))
        #expect(close(layer.frame, CGRect(x: 10, y: 10, width: 60, height: 30)))
    }

    @Test("with a quarter turn, frame swaps width and height, and setting it round-trips")
    func frameWithQuarterTurn() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 40)
        layer.position = CGPoint(x: 50, y: 50)
        layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        #expect(close(layer.frame, CGRect(x: 30, y: 0, width: 40, height: 100)))
        layer.frame = CGRect(x: 0, y: 0, width: 20, height: 60)
        #expect(close(layer.bounds.size, CGSize(width: 60, height: 20)))
        #expect(close(layer.frame, CGRect(x: 0, y: 0, width: 20, height: 60)))
    }

    @Test("with a 45-degree turn, setting the frame takes its size as the bounds size and places the box")
    func frameWithDiagonalTurn() {
        let layer = CALayer()
        layer.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        layer.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        #expect(close(layer.bounds.size, CGSize(width: 40, height: 40)))
        #expect(close(layer.frame.origin, CGPoint(x: 10, y: 10)))
    }

    @Test("a non-finite frame is ignored")
    func nonFiniteFrame() {
        let layer = CALayer()
        layer.frame = CGRect(x: 1, y: 2, width: 3, height: 4)
        layer.frame = CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10)
        layer.frame = CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 10)
        #expect(layer.frame == CGRect(x: 1, y: 2, width: 3, height: 4))
    }

    @Test("affineTransform reads and writes the transform's 2D part")
    func affineTransform() {
        let layer = CALayer()
        let m = CGAffineTransform(rotationAngle: 0.5).translatedBy(x: 3, y: 4)
        layer.setAffineTransform(m)
        #expect(layer.affineTransform() == m)
        #expect(CATransform3DIsAffine(layer.transform))
    }

    @Test("convert goes through positions, anchor points, transforms and sublayerTransforms")
    func convertPoints() {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.position = CGPoint(x: 100, y: 100)
        let a = CALayer()
        a.frame = CGRect(x: 10, y: 20, width: 50, height: 50)
        let b = CALayer()
        b.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        b.position = CGPoint(x: 100, y: 100)
        b.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        root.addSublayer(a)
        root.addSublayer(b)
        // a's origin is at (10, 20) in root.
        #expect(close(a.convert(CGPoint(x: 0, y: 0), to: root), CGPoint(x: 10, y: 20)))
        // b's (0, 0) is (-20, -10) from its centre; a quarter turn makes that (10, -20); plus (100, 100).
        #expect(close(b.convert(CGPoint(x: 0, y: 0), to: root), CGPoint(x: 110, y: 80)))
        #expect(close(root.convert(CGPoint(x: 110, y: 80), to: b), CGPoint(x: 0, y: 0)))
        // From a into b: a (0, 0) is root (10, 20); from b's point of view...
        let viaRoot = b.convert(a.convert(CGPoint(x: 5, y: 5), to: root), from: root)
        #expect(close(a.convert(CGPoint(x: 5, y: 5), to: b), viaRoot))
        #expect(close(b.convert(CGPoint(x: 5, y: 5), from: a), viaRoot))
        // The root's superlayer space (nil) adds the root's own placement: here the identity.
        #expect(close(a.convert(CGPoint(x: 0, y: 0), to: nil), CGPoint(x: 10, y: 20)))
        // A sublayerTransform on root moves its sublayers in root's space, about root's anchor.
        root.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        // a's origin (10, 20) is (-90, -80) from the anchor (100, 100); doubled, (-180, -160); back: (-80, -60).
        #expect(close(a.convert(CGPoint(x: 0, y: 0), to: root), CGPoint(x: -80, y: -60)))
    }

    @Test("convert(rect) is the bounding box of the converted corners")
    func convertRect() {
        let root = CALayer()
        let child = CALayer()
        child.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
        child.position = CGPoint(x: 50, y: 50)
        child.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        root.addSublayer(child)
        #expect(close(child.convert(child.bounds, to: root), CGRect(x: 45, y: 40, width: 10, height: 20)))
        #expect(close(root.convert(CGRect(x: 45, y: 40, width: 10, height: 20), to: child), child.bounds))
    }

    @Test("convert flattens perspective: a point on a receding plane maps where it is drawn")
    func convertUnderPerspective() {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.position = CGPoint(x: 100, y: 100)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        root.sublayerTransform = perspective
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        card.position = CGPoint(x: 100, y: 100)
        card.transform = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
        root.addSublayer(card)
        // The card's right edge centre (100, 50) is 50 from the anchor: rotated 60 degrees about y it
        // sits at x = 25, z = -50 * sin(60) = -43.30; w = 1 + 43.30 / 500; drawn at 100 + 25 / w.
        let z = -50 * sin(CGFloat.pi / 3)
        let w = 1 - z / 500
        let expected = CGPoint(x: 100 + 25 / w, y: 100)
        #expect(close(card.convert(CGPoint(x: 100, y: 50), to: root), expected, 1e-9))
        #expect(close(root.convert(expected, to: card), CGPoint(x: 100, y: 50), 1e-9))
    }

    @Test("a layer seen edge-on has no point to convert to")
    func convertThroughEdgeOn() {
        let root = CALayer()
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        card.transform = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        root.addSublayer(card)
        #expect(root.convert(CGPoint(x: 1, y: 1), to: card).x.isNaN)
        #expect(card.hitTest(CGPoint(x: 0, y: 0)) == nil)
    }

    @Test("contains tests the bounds in the layer's own space")
    func contains() {
        let layer = CALayer()
        layer.bounds = CGRect(x: -10, y: -10, width: 20, height: 20)
        #expect(layer.contains(CGPoint(x: -5, y: 5)))
        #expect(!layer.contains(CGPoint(x: 15, y: 0)))
    }

    @Test("hitTest finds the frontmost, deepest layer and respects hidden, masksToBounds and zPosition")
    func hitTest() {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.position = CGPoint(x: 50, y: 50)
        let back = CALayer(), front = CALayer(), inner = CALayer()
        back.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
        front.frame = CGRect(x: 40, y: 40, width: 60, height: 60)
        inner.frame = CGRect(x: 0, y: 0, width: 10, height: 10) // front's top-left corner: root (40, 40)...(50, 50)
        front.addSublayer(inner)
        root.addSublayer(back)
        root.addSublayer(front)
        #expect(root.hitTest(CGPoint(x: 45, y: 45)) === inner)
        #expect(root.hitTest(CGPoint(x: 55, y: 55)) === front)
        #expect(root.hitTest(CGPoint(x: 10, y: 10)) === back)
        #expect(root.hitTest(CGPoint(x: 90, y: 10)) === root)
        #expect(root.hitTest(CGPoint(x: 150, y: 10)) == nil)
        back.zPosition = 1 // now drawn, and hit, above front
        #expect(root.hitTest(CGPoint(x: 55, y: 55)) === back)
        back.isHidden = true
        #expect(root.hitTest(CGPoint(x: 55, y: 55)) === front)
        // A sublayer outside its superlayer is hit unless the superlayer masks to bounds.
        inner.frame = CGRect(x: -30, y: -30, width: 10, height: 10) // root (10, 10)...(20, 20)
        #expect(root.hitTest(CGPoint(x: 15, y: 15)) === inner)
        front.masksToBounds = true
        #expect(root.hitTest(CGPoint(x: 15, y: 15)) === root)
    }
}
