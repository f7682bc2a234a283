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

    @Test("an empty layer draws no backing store")
    func emptyLayer() {
        let layer = TopHalfLayer()
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        #expect(layer.contents == nil)
    }
}
