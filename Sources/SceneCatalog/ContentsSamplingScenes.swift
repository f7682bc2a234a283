import Foundation
import OpenQuartzCore

/// Scenes about how a contents image is sampled: contentsCenter (nine-slice), the minification
/// and magnification filters with mipmaps, and isGeometryFlipped, which keeps images upright.
public enum ContentsSamplingScenes {
    static var all: [DemoScene] { [contentsCenter, contentsFilters, geometryFlipped, edgeAntialiasing] }

    /// A 24x24 "button" image: a rounded frame 6 pixels wide whose four corners carry different
    /// colours, so a stretched corner or a wrong slice shows at once.
    public static func buttonImage() -> CGImage {
        let bitmap = Bitmap(width: 24, height: 24) { x, y in
            let border = x < 6 || y < 6 || x >= 18 || y >= 18
            guard border else { return (235, 240, 250, 255) }
            switch (x < 12, y < 12) {
            case (true, true): return (200, 40, 40, 255)
            case (false, true): return (40, 150, 60, 255)
            case (true, false): return (40, 90, 200, 255)
            case (false, false): return (230, 140, 20, 255)
            }
        }
        return CGImage(bitmap: bitmap)
    }

    static let contentsCenter = DemoScene(
        name: "contents-center",
        summary: "contentsCenter (0.25, 0.25, 0.5, 0.5) on a 24-pixel button image with a 6-pixel frame whose corners "
            + "are red, green, blue and orange: stretched to 180x50, 50x110 and 120x110 the corners keep their 6x6 "
            + "points and the frame its width; at 8x8 (smaller than two corners) the corners shrink to fit; with "
            + "contentsScale 2 the corners are 3 points; with contentsRect (0, 0, 0.5, 1) the slices cut the left half.",
        size: CGSize(width: 460, height: 150)
    ) {
        let root = SceneKit.root(CGSize(width: 460, height: 150))
        let image = buttonImage()
        func button(_ frame: CGRect, scale: CGFloat = 1, contentsRect: CGRect? = nil) {
            let layer = CALayer()
            layer.name = "button"
            layer.frame = frame
            layer.contents = image
            layer.contentsScale = scale
            layer.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
            if let contentsRect { layer.contentsRect = contentsRect }
            root.addSublayer(layer)
        }
        button(CGRect(x: 10, y: 10, width: 180, height: 50))
        button(CGRect(x: 200, y: 10, width: 50, height: 110))
        button(CGRect(x: 260, y: 10, width: 120, height: 110))
        button(CGRect(x: 390, y: 10, width: 8, height: 8))
        button(CGRect(x: 10, y: 75, width: 180, height: 50), scale: 2)
        button(CGRect(x: 390, y: 30, width: 60, height: 90), contentsRect: CGRect(x: 0, y: 0, width: 0.5, height: 1))
        return root
    }

    /// 1-pixel black and white stripes: the image that shows what each minification filter does
    /// with detail finer than the pixels (moire for nearest and linear, even grey for trilinear).
    /// An odd side, so no pixel centre of a 50-point layer falls on a texel boundary, where
    /// nearest sampling would be decided by rounding (float on the GPU, double on the CPU).
    static func stripes(side: Int = 127) -> CGImage {
        CGImage(bitmap: Bitmap(width: side, height: side) { x, y in
            let v: UInt8 = (x + y / 16) % 2 == 0 ? 20 : 235
            return (v, v, v, 255)
        })
    }

    static let contentsFilters = DemoScene(
        name: "contents-filters",
        summary: "Filters. Top: a 16x12 test card magnified to 96x72 with magnificationFilter nearest (hard texels) "
            + "and linear (smooth). Bottom: 127-pixel 1-pixel stripes shrunk to 50x50 with minificationFilter nearest "
            + "and linear (moire) and trilinear (even grey from the mipmaps), trilinear with minificationFilterBias "
            + "-1 (sharper, between), and trilinear on a plane tilted back in perspective, greying with distance.",
        size: CGSize(width: 420, height: 180)
    ) {
        let root = SceneKit.root(CGSize(width: 420, height: 180))
        let card = TestCard.image(width: 16, height: 12)
        for (i, filter) in [CALayerContentsFilter.nearest, .linear].enumerated() {
            let layer = CALayer()
            layer.name = "magnified-\(filter.rawValue)"
            layer.frame = CGRect(x: 10 + CGFloat(i) * 110, y: 10, width: 96, height: 72)
            layer.contents = card
            layer.magnificationFilter = filter
            root.addSublayer(layer)
        }
        let fine = stripes()
        let cases: [(CALayerContentsFilter, Float)] = [(.nearest, 0), (.linear, 0), (.trilinear, 0), (.trilinear, -1)]
        for (i, (filter, bias)) in cases.enumerated() {
            let layer = CALayer()
            layer.name = "minified-\(filter.rawValue)"
            layer.frame = CGRect(x: 10 + CGFloat(i) * 60, y: 100, width: 50, height: 50)
            layer.contents = fine
            layer.minificationFilter = filter
            layer.minificationFilterBias = bias
            root.addSublayer(layer)
        }
        let tilted = CALayer()
        tilted.name = "tilted-trilinear"
        tilted.frame = CGRect(x: 270, y: 20, width: 130, height: 150)
        tilted.contents = fine
        tilted.minificationFilter = .trilinear
        var t = CATransform3DIdentity
        t.m34 = -1 / 300
        tilted.transform = CATransform3DRotate(t, .pi / 3, 1, 0, 0)
        root.addSublayer(tilted)
        return root
    }

    /// A layer drawing a triangle that points to its min-y side and a dot near its min-x/min-y
    /// corner: drawing follows the layer's geometry, so in a flipped one it points down.
    public final class ArrowLayer: CALayer {
        public override func draw(in ctx: CGContext) {
            ctx.setFillColor(SceneKit.color(0.15, 0.2, 0.3))
            let b = bounds
            ctx.move(to: CGPoint(x: b.midX, y: b.minY + 4))
            ctx.addLine(to: CGPoint(x: b.maxX - 6, y: b.maxY - 6))
            ctx.addLine(to: CGPoint(x: b.minX + 6, y: b.maxY - 6))
            ctx.closePath()
            ctx.fillPath()
            ctx.fillEllipse(in: CGRect(x: b.minX + 2, y: b.minY + 2, width: 6, height: 6))
        }
    }

    static let geometryFlipped = DemoScene(
        name: "geometry-flipped",
        summary: "isGeometryFlipped. Left: a plain panel; right: the same panel with isGeometryFlipped. Its sublayers "
            + "are placed from the bottom (the red bar at y 10 sits at the bottom, the cream inner panel at y 115 at the "
            + "top), a rotation by +30 degrees turns the other way, the drawn arrow follows the flipped geometry (points "
            + "down, its dot at the bottom), while the test-card image and the text stay upright. The inner panel "
            + "flips again, back to y down: its blue bar is at its top, as in the plain panel.",
        size: CGSize(width: 420, height: 200)
    ) {
        let root = SceneKit.root(CGSize(width: 420, height: 200))
        for (column, flipped) in [false, true].enumerated() {
            let panel = SceneKit.box("panel", CGRect(x: 10 + CGFloat(column) * 205, y: 10, width: 195, height: 180),
                                     SceneKit.color(0.85, 0.88, 0.95))
            panel.isGeometryFlipped = flipped
            panel.addSublayer(SceneKit.box("bar", CGRect(x: 10, y: 10, width: 80, height: 12), SceneKit.color(0.8, 0.2, 0.2)))
            let image = CALayer()
            image.name = "image"
            image.frame = CGRect(x: 10, y: 30, width: 64, height: 48)
            image.contents = TestCard.image()
            panel.addSublayer(image)
            let arrow = ArrowLayer()
            arrow.name = "arrow"
            arrow.frame = CGRect(x: 85, y: 30, width: 40, height: 48)
            arrow.setNeedsDisplay()
            panel.addSublayer(arrow)
            let turned = SceneKit.box("turned", CGRect(x: 140, y: 35, width: 40, height: 12), SceneKit.color(0.3, 0.6, 0.3))
            turned.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 6))
            panel.addSublayer(turned)
            let text = CATextLayer()
            text.name = "text"
            text.frame = CGRect(x: 10, y: 85, width: 175, height: 24)
            text.string = "Upright text"
            text.fontSize = 16
            text.foregroundColor = SceneKit.color(0.1, 0.1, 0.2)
            panel.addSublayer(text)
            let inner = SceneKit.box("inner", CGRect(x: 10, y: 115, width: 175, height: 55), SceneKit.color(0.95, 0.93, 0.85))
            inner.isGeometryFlipped = flipped
            inner.addSublayer(SceneKit.box("inner-bar", CGRect(x: 5, y: 5, width: 60, height: 10), SceneKit.color(0.2, 0.3, 0.8)))
            panel.addSublayer(inner)
            root.addSublayer(panel)
        }
        return root
    }

    static let edgeAntialiasing = DemoScene(
        name: "edge-antialiasing",
        summary: "Edge anti-aliasing on cards turned 17 degrees: allowsEdgeAntialiasing true (smooth edges), false "
            + "(stair-stepped edges, as iOS draws by default), and true with edgeAntialiasingMask left and right only "
            + "(hard top and bottom). Right: two turned halves of a card whose shared edges are masked out, meeting "
            + "without a seam, beside two whose shared edges are anti-aliased (a faint seam of the backdrop).",
        size: CGSize(width: 440, height: 130)
    ) {
        let root = SceneKit.root(CGSize(width: 440, height: 130))
        let settings: [(Bool, CAEdgeAntialiasingMask)] = [(true, [.layerLeftEdge, .layerRightEdge, .layerTopEdge, .layerBottomEdge]),
                                                          (false, [.layerLeftEdge, .layerRightEdge, .layerTopEdge, .layerBottomEdge]),
                                                          (true, [.layerLeftEdge, .layerRightEdge])]
        for (i, (allows, mask)) in settings.enumerated() {
            let card = SceneKit.box("card", CGRect(x: 20 + CGFloat(i) * 90, y: 30, width: 60, height: 70), SceneKit.color(0.2, 0.35, 0.7))
            card.allowsEdgeAntialiasing = allows
            card.edgeAntialiasingMask = mask
            card.setAffineTransform(CGAffineTransform(rotationAngle: 17 * .pi / 180))
            root.addSublayer(card)
        }
        for (i, seamless) in [true, false].enumerated() {
            let holder = CALayer()
            holder.name = "pair"
            holder.frame = CGRect(x: 290 + CGFloat(i) * 75, y: 25, width: 60, height: 80)
            holder.setAffineTransform(CGAffineTransform(rotationAngle: 17 * .pi / 180))
            for half in 0..<2 {
                let part = SceneKit.box("half", CGRect(x: CGFloat(half) * 30, y: 0, width: 30, height: 80), SceneKit.color(0.1, 0.1, 0.12))
                if seamless { part.edgeAntialiasingMask = half == 0 ? [.layerLeftEdge, .layerTopEdge, .layerBottomEdge]
                                                                    : [.layerRightEdge, .layerTopEdge, .layerBottomEdge] }
                holder.addSublayer(part)
            }
            root.addSublayer(holder)
        }
        return root
    }
}
