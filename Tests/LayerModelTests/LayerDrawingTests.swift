// Drawn content (seed 000: contents image, the delegate's draw(_:in:), a subclass's draw(in:)):
// a layer marked with setNeedsDisplay() gets a backing store of its bounds at contentsScale.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

/// Fills the top half of its bounds, so orientation shows.
private final class TopHalfLayer: CALayer {
    override func draw(in ctx: CGContext) {
        ctx.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        ctx.fill(CGRect(x: bounds.minX, y: bounds.minY, width: bounds.width, height: bounds.height / 2))
    }
}

private final class Painter: CALayerDelegate {
    var calls = 0
    func draw(_ layer: CALayer, in ctx: CGContext) {
        calls += 1
        ctx.setFillColor(CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        ctx.fill(layer.bounds)
    }
}

@Suite("Layer drawing")
struct LayerDrawingTests {
    @Test("draw(in:) paints in the layer's bounds space, y down, at contentsScale")
    func subclassDrawing() throws {
        let layer = TopHalfLayer()
        layer.bounds = CGRect(x: 5, y: 5, width: 4, height: 4) // a bounds origin moves the drawing space
        layer.contentsScale = 2
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        let image = try #require(layer.contents as? CGImage)
        #expect(image.width == 8 && image.height == 8)
        #expect(image.bitmap[3, 0] == (0, 0, 255, 255) && image.bitmap[3, 3] == (0, 0, 255, 255))
        #expect(image.bitmap[3, 4].3 == 0 && !layer.needsDisplay())
    }

    @Test("without a subclass, the delegate's draw(_:in:) gives the content")
    func delegateDrawing() throws {
        let painter = Painter()
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 3, height: 3)
        layer.delegate = painter
        layer.displayIfNeeded()
        #expect(painter.calls == 0 && layer.contents == nil) // never marked: never drawn
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        #expect(painter.calls == 1)
        let image = try #require(layer.contents as? CGImage)
        #expect(image.bitmap[1, 1] == (0, 255, 0, 255))
    }

    @Test("a redraw does not run the contents action")
    func redrawIsNotAContentsChange() {
        MediaClock.$scoped.withValue(0) {
            let layer = TopHalfLayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
            layer.markLive()
            layer.setNeedsDisplay()
            layer.displayIfNeeded()
            #expect(layer.animationKeys() == nil)
        }
    }

    @Test("needsDisplayOnBoundsChange marks the layer when its size changes")
    func boundsChange() {
        let layer = CALayer()
        layer.needsDisplayOnBoundsChange = true
        layer.bounds.origin = CGPoint(x: 3, y: 3)
        #expect(!layer.needsDisplay())
        layer.bounds.size = CGSize(width: 10, height: 10)
        #expect(layer.needsDisplay())
    }

    @Test("contents a layer drew are marked as drawn; contents set on it are not")
    func contentsAreDrawn() {
        final class StoredShapeLayer: CAShapeLayer { // a subclass that draws its shape into its store
            override func draw(in ctx: CGContext) { drawPath(in: ctx) }
        }
        let shape = StoredShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        shape.path = CGPath(rect: shape.bounds)
        shape.setNeedsDisplay()
        #expect(!shape.contentsAreDrawn)
        shape.displayIfNeeded()
        #expect(shape.contents != nil && shape.contentsAreDrawn)
        shape.contents = CGImage(bitmap: Bitmap(width: 1, height: 1))
        #expect(!shape.contentsAreDrawn)
    }

    @Test("an empty layer draws no backing store")
    func emptyLayer() {
        let layer = TopHalfLayer()
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        #expect(layer.contents == nil)
    }
}

@Suite("CAScrollLayer")
struct ScrollLayerTests {
    @Test("scrolling moves the bounds origin in the allowed directions and clips")
    func scrollToPoint() {
        let scroller = CAScrollLayer()
        scroller.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        #expect(scroller.masksToBounds && scroller.scrollMode == .both)
        scroller.scroll(to: CGPoint(x: 30, y: 40))
        #expect(scroller.bounds.origin == CGPoint(x: 30, y: 40))
        scroller.scrollMode = .vertically
        scroller.scroll(to: CGPoint(x: 0, y: 0))
        #expect(scroller.bounds.origin == CGPoint(x: 30, y: 0))
    }

    @Test("scroll(to: rect) moves the least distance that shows the rect")
    func scrollToRect() {
        let scroller = CAScrollLayer()
        scroller.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        scroller.scroll(to: CGRect(x: 150, y: 10, width: 20, height: 20))
        #expect(scroller.bounds.origin == CGPoint(x: 70, y: 0))
    }

    @Test("a sublayer asks its scroll layer to show part of it")
    func scrollFromSublayer() {
        let scroller = CAScrollLayer()
        scroller.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        let content = CALayer()
        content.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        scroller.addSublayer(content)
        content.scrollRectToVisible(CGRect(x: 300, y: 300, width: 10, height: 10))
        #expect(scroller.bounds.origin == CGPoint(x: 210, y: 260))
        content.scroll(CGPoint(x: 5, y: 6))
        #expect(scroller.bounds.origin == CGPoint(x: 5, y: 6))
    }
}
