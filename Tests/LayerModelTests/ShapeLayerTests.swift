// CAShapeLayer: defaults, its shape drawn by drawPath(in:) (read here as pixels through a subclass
// that draws it into its contents), no backing store of its own, subclass or not, and animated
// properties that redraw a drawing subclass.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

private func image(_ layer: CALayer) throws -> CGImage { try #require(layer.contents as? CGImage) }

/// The shape keys, each of which asks StoredShapeLayer to redraw.
private let shapeKeys: Set<String> = ["path", "fillColor", "fillRule", "strokeColor", "lineWidth", "miterLimit",
                                      "lineCap", "lineJoin", "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd"]

/// A subclass that draws its shape into its contents as well (`drawPath(in:)`), asked to redraw
/// by every shape key: how these tests read the shape's geometry as pixels. (The renderers draw
/// every shape layer from its path: GLBackendTests' PathFillTests and ShapeLayerPathTests.)
private final class StoredShapeLayer: CAShapeLayer {
    override init() {
        super.init()
        setNeedsDisplay()
    }
    override init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { super.init(coder: coder) }
    override class func needsDisplay(forKey key: String) -> Bool { shapeKeys.contains(key) || super.needsDisplay(forKey: key) }
    override func draw(in ctx: CGContext) { drawPath(in: ctx) }
}

/// A subclass that overrides nothing, as lottie-ios's mask and shape layers are.
private final class PlainShapeSubclass: CAShapeLayer {}

/// A 20x4 shape layer stroking a horizontal line through its middle, 2 points wide.
private func strokedLine(color: CGColor = .black) -> CAShapeLayer {
    let shape = StoredShapeLayer()
    shape.bounds = CGRect(x: 0, y: 0, width: 20, height: 4)
    let line = CGMutablePath()
    line.move(to: CGPoint(x: 0, y: 2))
    line.addLine(to: CGPoint(x: 20, y: 2))
    shape.path = line
    shape.strokeColor = color
    shape.lineWidth = 2
    return shape
}

/// The alpha of the drawn backing store at (x, y) in the layer's bounds space.
private func alpha(_ layer: CALayer, _ x: Int, _ y: Int) throws -> UInt8 {
    let origin = layer.drawnContentsFrame?.origin ?? .zero
    return try image(layer).bitmap[x - Int(origin.x), y - Int(origin.y)].3
}

@Suite("CAShapeLayer")
struct ShapeLayerTests {
    @Test("defaults are Core Animation's: black fill, no stroke, width 1, the whole stroke")
    func defaults() {
        let shape = CAShapeLayer()
        #expect(shape.path == nil && shape.fillColor == CGColor.black && shape.strokeColor == nil)
        #expect(shape.lineWidth == 1 && shape.miterLimit == 10 && shape.strokeStart == 0 && shape.strokeEnd == 1)
        #expect(shape.fillRule == .nonZero && shape.lineCap == .butt && shape.lineJoin == .miter)
        #expect(shape.lineDashPattern == nil && !shape.needsDisplay(), "the renderers draw it: nothing to display")
        shape.fillColor = nil
        #expect(shape.fillColor == nil) // nil is a value, not "use the default"
    }

    @Test("drawPath(in:) draws a path past the bounds whole (a layer of zero bounds, as shape layers are usually made)")
    func pathPastBounds() throws {
        let shape = CAShapeLayer()
        shape.path = CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 10))
        let ctx = try #require(CGContext(width: 50, height: 40))
        shape.drawPath(in: ctx)
        #expect(ctx.bitmap[25, 40 - 1 - 25] == (0, 0, 0, 255), "inside the rectangle (y up in the context)")
        #expect(ctx.bitmap[5, 40 - 1 - 25].3 == 0, "left of it")
    }

    @Test("strokeEnd 0.5 strokes the first half of the path's length only")
    func strokeEnd() throws {
        let shape = strokedLine(color: CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        shape.fillColor = nil
        shape.strokeEnd = 0.5
        shape.displayIfNeeded()
        #expect(try alpha(shape, 5, 2) == 255 && alpha(shape, 9, 1) == 255 && alpha(shape, 15, 2) == 0)
    }

    @Test("a dash pattern leaves gaps along the stroke")
    func dashes() throws {
        let shape = strokedLine()
        shape.lineDashPattern = [4, 2]
        shape.displayIfNeeded()
        let row = try (0..<20).map { try alpha(shape, $0, 2) }
        #expect(row[1] == 255 && row[4] == 0 && row[5] == 0 && row[7] == 255 && row[10] == 0)
    }

    @Test("an animated strokeEnd redraws the presentation copy with the animated value")
    func animatedStrokeEnd() throws {
        let shape = strokedLine()
        let draw = CABasicAnimation(keyPath: "strokeEnd")
        draw.fromValue = 0.0
        draw.toValue = 1.0
        draw.beginTime = 1
        draw.duration = 1
        shape.add(draw, forKey: "draw")
        let presented = try #require(shape.presentationTree(atMediaTime: 1.25) as? CAShapeLayer)
        #expect(abs(presented.strokeEnd - 0.25) < 1e-9)
        #expect(try alpha(presented, 3, 2) == 255 && alpha(presented, 8, 2) == 0)
    }

    @Test("dashing and trimming stay finite for degenerate input")
    func degenerate() {
        let line = CGMutablePath()
        line.move(to: .zero)
        line.addLine(to: CGPoint(x: 10, y: 0))
        #expect(line.copy(dashingWithPhase: 0, lengths: [0, 0]).elements == line.elements) // no pattern: unchanged
        #expect(line.copy(dashingWithPhase: .nan, lengths: [1, 1]).elements == line.elements)
        #expect(!line.copy(dashingWithPhase: 0, lengths: [1e-7, 1e-7]).isEmpty) // capped, but finishes
        #expect(line.trimmed(from: 0.8, to: 0.2).isEmpty)
        #expect(line.trimmed(from: .nan, to: 1).elements == line.elements)
    }
}

@Suite("CAGradientLayer")
struct GradientLayerTests {
    @Test("defaults: top to bottom, axial, no colours")
    func defaults() {
        let layer = CAGradientLayer()
        #expect(layer.startPoint == CGPoint(x: 0.5, y: 0) && layer.endPoint == CGPoint(x: 0.5, y: 1))
        #expect(layer.type == .axial && layer.colors == nil && layer.locations == nil)
        #expect(!layer.needsDisplay(), "the renderers draw it from its formula: nothing to display")
    }

    @Test("an axial gradient runs from startPoint to endPoint in the bounds, y down; no backing store holds it")
    func axial() throws {
        let layer = CAGradientLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 2, height: 10)
        layer.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        #expect(layer.contents == nil, "drawn by the renderers from its formula")
        // Drawn into a context of its own, y down as layer content is drawn.
        let ctx = try #require(CGContext(width: 2, height: 10))
        ctx.translateBy(x: 0, y: 10)
        ctx.scaleBy(x: 1, y: -1)
        layer.drawGradient(in: ctx)
        #expect(ctx.bitmap[0, 0].0 > 200 && ctx.bitmap[0, 9].2 > 200) // red at the top, blue at the bottom
    }

    @Test("every colour is converted into Generic RGB for the gradient, device, calibrated and gray alike; an animation's colours keep their space")
    func colourSpaces() throws {
        let device = CGColorSpaceCreateDeviceRGB()
        let deviceRed = try #require(CGColor(colorSpace: device, components: [1, 0, 0, 1]))
        let deviceBlue = try #require(CGColor(colorSpace: device, components: [0, 0, 1, 1]))
        #expect(deviceRed.isDeviceRGB && deviceRed.colorSpace?.name == CGColorSpace.deviceRGB)
        #expect(!CGColor(red: 1, green: 0, blue: 0, alpha: 1).isDeviceRGB)
        let layer = CAGradientLayer()
        layer.colors = [deviceRed, CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(gray: 0.5, alpha: 0.25), deviceBlue]
        let stops = try #require(layer.cgGradient).stops
        #expect(layer.cgGradient?.isGenericRGB == true)
        // The same colour in either space is the same stop; gray stays gray (the same white) with
        // its alpha; sRGB's blue lies outside Generic RGB's gamut, its red and green clipped to 0.
        #expect(stops[0].red == stops[1].red && stops[0].green == stops[1].green && stops[0].blue == stops[1].blue, "\(stops)")
        let gray = pow(pow((0.5 + 0.055) / 1.055, 2.4), 1 / 1.8)
        #expect(abs(stops[2].red - gray) < 1e-9 && abs(stops[2].green - gray) < 1e-9 && abs(stops[2].blue - gray) < 1e-9
            && stops[2].alpha == 0.25, "\(stops[2])")
        #expect(stops[3].red == 0 && stops[3].green == 0 && stops[3].blue > 0.99 && stops[3].blue < 1, "\(stops[3])")
        // Halfway through an animation between device colours, the colours are device colours.
        layer.colors = [deviceRed, deviceBlue]
        let fade = CABasicAnimation(keyPath: "colors")
        fade.fromValue = [deviceRed, deviceBlue]
        fade.toValue = [deviceBlue, deviceRed]
        fade.beginTime = 1
        fade.duration = 1
        layer.add(fade, forKey: "fade")
        let presented = try #require(layer.presentationTree(atMediaTime: 1.5) as? CAGradientLayer)
        let mixed = (presented.colors ?? []).compactMap { $0 as? CGColor }
        #expect(mixed.count == 2 && mixed.allSatisfy(\.isDeviceRGB) && abs(mixed[0].rgba.red - 0.5) < 1e-9, "\(mixed)")
    }

    @Test("endPoint animates, and its presentation copy is drawn with the animated point")
    func animatedEndPoint() throws {
        let layer = CAGradientLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 2)
        let device = CGColorSpaceCreateDeviceRGB()
        layer.colors = [CGColor(colorSpace: device, components: [1, 0, 0, 1])!, CGColor(colorSpace: device, components: [0, 0, 1, 1])!]
        layer.startPoint = CGPoint(x: 0, y: 0.5)
        let move = CABasicAnimation(keyPath: "endPoint")
        move.fromValue = CGPoint(x: 0.2, y: 0.5)
        move.toValue = CGPoint(x: 1, y: 0.5)
        move.beginTime = 1
        move.duration = 1
        layer.add(move, forKey: "end")
        let presented = try #require(layer.presentationTree(atMediaTime: 1) as? CAGradientLayer)
        #expect(presented.endPoint == CGPoint(x: 0.2, y: 0.5))
        let ctx = try #require(CGContext(width: 10, height: 2))
        presented.drawGradient(in: ctx)
        // Past the end at 2 points: the last stop, blue as a CAGradientLayer draws it.
        let blue = try #require(presented.cgGradient).premultipliedColor(at: 1)
        #expect(ctx.bitmap[5, 0] == (UInt8((blue.0 * 255).rounded()), UInt8((blue.1 * 255).rounded()), UInt8((blue.2 * 255).rounded()), 255)
            && blue.2 > 0.999 && blue.0 < 0.05, "\(ctx.bitmap[5, 0]), \(blue)")
    }
}

@Suite("CATextLayer")
struct TextLayerTests {
    @Test("defaults are Core Animation's: 36 points, white, unwrapped, natural alignment")
    func defaults() {
        let layer = CATextLayer()
        #expect(layer.fontSize == 36 && layer.foregroundColor == CGColor.white && !layer.isWrapped)
        #expect(layer.alignmentMode == .natural && layer.truncationMode == .none && layer.string == nil)
        #expect(layer.resolvedFont.pointSize == 36 && layer.needsDisplay())
    }

    @Test("newlines break lines, and wrapping breaks words at the width")
    func lines() {
        let layer = CATextLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 80, height: 200)
        layer.fontSize = 14
        layer.string = "one\ntwo three four five six"
        #expect(layer.layoutLines() == ["one", "two three four five six"])
        layer.isWrapped = true
        let wrapped = layer.layoutLines()
        #expect(wrapped.count > 2 && wrapped.first == "one")
        let font = layer.resolvedFont
        #expect(wrapped.allSatisfy { $0.split(separator: " ").count == 1 || CTLine(string: $0, font: font).width <= 80 })
    }

    @Test("the text is drawn into the backing store, black where the glyphs are")
    func drawing() throws {
        let layer = CATextLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 60, height: 30)
        layer.string = "Hi"
        layer.fontSize = 24
        layer.foregroundColor = CGColor.black
        layer.displayIfNeeded()
        let image = try #require(layer.contents as? CGImage)
        let inked = image.bitmap.pixels.enumerated().filter { $0.offset % 4 == 3 && $0.element > 200 }.count
        #expect(inked > 40)
        #expect(image.bitmap[59, 29].3 == 0) // nothing at the far corner
    }
}

@Suite("CATextLayer attributed strings")
struct AttributedTextTests {
    @Test("each run draws in its own colour and font")
    func runs() throws {
        let text = NSMutableAttributedString(string: "IIII")
        text.addAttribute(.foregroundColor, value: CGColor(red: 1, green: 0, blue: 0, alpha: 1), range: NSRange(location: 0, length: 2))
        text.addAttribute(.foregroundColor, value: CGColor(red: 0, green: 0, blue: 1, alpha: 1), range: NSRange(location: 2, length: 2))
        text.addAttribute(.font, value: "DejaVu Sans Mono", range: NSRange(location: 0, length: 4))
        let layer = CATextLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 120, height: 40)
        layer.fontSize = 30
        layer.string = text
        #expect(layer.layoutLines() == ["IIII"])
        layer.displayIfNeeded()
        let image = try #require(layer.contents as? CGImage)
        var reds = 0, blues = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.bitmap[x, y]
                guard p.3 > 250 else { continue }
                if p.0 > 250 && x < 36 { reds += 1 }
                if p.2 > 250 && x >= 36 { blues += 1 }
            }
        }
        #expect(reds > 20 && blues > 20)
    }
}

@Suite("Path animation")
struct PathAnimationTests {
    private func polygon(_ points: [CGPoint]) -> CGPath {
        let path = CGMutablePath()
        path.move(to: points[0])
        for p in points.dropFirst() { path.addLine(to: p) }
        path.closeSubpath()
        return path
    }

    @Test("a path animates point by point between paths of the same elements, and the shape redraws")
    func pointwise() throws {
        let square = polygon([CGPoint(x: 0, y: 0), CGPoint(x: 20, y: 0), CGPoint(x: 20, y: 20), CGPoint(x: 0, y: 20)])
        let diamond = polygon([CGPoint(x: 10, y: -10), CGPoint(x: 30, y: 10), CGPoint(x: 10, y: 30), CGPoint(x: -10, y: 10)])
        let layer = StoredShapeLayer()
        layer.bounds = CGRect(x: -10, y: -10, width: 40, height: 40)
        layer.path = diamond
        let morph = CABasicAnimation(keyPath: "path")
        morph.fromValue = square
        morph.toValue = diamond
        morph.duration = 1
        MediaClock.$scoped.withValue(0) { layer.add(morph, forKey: "morph") }
        let half = try #require(layer.presentationTree(atMediaTime: 0.5) as? CAShapeLayer)
        let points = try #require(half.path).elements.flatMap(\.points)
        #expect(points == [CGPoint(x: 5, y: -5), CGPoint(x: 25, y: 5), CGPoint(x: 15, y: 25), CGPoint(x: -5, y: 15)])
        // The presented copy was re-rasterized with the halfway path.
        #expect(half.contents != nil && (half.contents as AnyObject) !== (layer.contents as AnyObject?))
    }

    @Test("no shape layer draws its shape into a backing store, subclass or not (the renderers draw its path); a subclass that draws asks for contents")
    func noBackingStore() throws {
        let plain = CAShapeLayer(), subclass = PlainShapeSubclass(), stored = StoredShapeLayer()
        for layer in [plain, subclass, stored] {
            layer.bounds = CGRect(x: 0, y: 0, width: 16, height: 12)
            layer.path = CGPath(rect: CGRect(x: 2, y: 3, width: 10, height: 6))
            layer.strokeColor = CGColor.black
            layer.displayIfNeeded()
        }
        #expect(plain.contents == nil && !plain.needsDisplay())
        #expect(subclass.contents == nil && !subclass.needsDisplay(), "a path change asks no subclass to display")
        plain.setNeedsDisplay()
        plain.displayIfNeeded()
        #expect(plain.contents == nil, "a plain shape layer asked to display makes no empty image")
        #expect(stored.contents != nil, "a subclass that draws, asked to, gets its drawing as contents")
        // Presentation copies answer for their models (a subclass is presented as CAShapeLayer).
        let grow = CABasicAnimation(keyPath: "strokeEnd")
        grow.fromValue = 0
        grow.toValue = 1
        grow.duration = 1
        for layer in [plain, stored] { MediaClock.$scoped.withValue(0) { layer.add(grow, forKey: "grow") } }
        let plainCopy = try #require(plain.presentationTree(atMediaTime: 0.5) as? CAShapeLayer)
        let storedCopy = try #require(stored.presentationTree(atMediaTime: 0.5) as? CAShapeLayer)
        #expect(plainCopy.contents == nil && plainCopy.strokeEnd == 0.5)
        #expect(storedCopy.contents != nil)
        // The stroke to fill: the path trimmed to strokeEnd and stroked, half the rectangle's
        // 32-point perimeter, 1 point wide.
        let outline = try #require(plainCopy.strokeOutline)
        #expect(outline.boundingBoxOfPath.width > 9 && outline.boundingBoxOfPath.height > 5)
        plainCopy.strokeColor = nil
        #expect(plainCopy.strokeOutline == nil)
    }

    @Test("a keyframed path blends each segment's two paths at every frame (curves and lines), the cached values read like the first frame's")
    func keyframedPathFrames() throws {
        func shape(_ k: CGFloat) -> CGPath {
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 0, y: 0))
            path.addCurve(to: CGPoint(x: 40 * k, y: 0), control1: CGPoint(x: 10, y: 20 * k), control2: CGPoint(x: 30 * k, y: -20))
            path.addQuadCurve(to: CGPoint(x: 40, y: 40 * k), control: CGPoint(x: 50 * k, y: 20))
            path.addLine(to: CGPoint(x: 0, y: 40))
            path.closeSubpath()
            return path
        }
        let layer = CAShapeLayer()
        layer.path = shape(1)
        let morph = CAKeyframeAnimation(keyPath: "path")
        morph.values = [shape(1), shape(2), shape(4)]
        morph.duration = 2
        MediaClock.$scoped.withValue(0) { layer.add(morph, forKey: "morph") }
        let cache = PresentationCache()
        // Frames across both segments, each checked against the blend of its segment's two
        // paths (CGPath.blended: end points straight, a cubic's handles turned).
        for (t, from, to, f) in [(0.5, 1.0, 2.0, 0.5), (1.5, 2.0, 4.0, 0.5), (0.25, 1.0, 2.0, 0.25), (1.75, 2.0, 4.0, 0.75)] {
            let copy = try #require(layer.presentationTree(atMediaTime: t, reusing: cache) as? CAShapeLayer)
            let expected = try #require(shape(CGFloat(from)).blended(to: shape(CGFloat(to)), fraction: CGFloat(f)))
            let presented = try #require(copy.path)
            #expect(presented.elements == expected.elements, "t = \(t)")
            #expect(presented.elements.map { $0.points.count } == [1, 3, 2, 1, 0], "the elements' kinds are kept")
        }
    }

    @Test("an additive keyframe animation adds to the property as it is at each frame, not as it was at the first")
    func additiveKeyframesFollowTheModel() throws {
        let layer = CAShapeLayer()
        layer.lineWidth = 2
        let grow = CAKeyframeAnimation(keyPath: "lineWidth")
        grow.values = [0, 10]
        grow.isAdditive = true
        grow.duration = 1
        MediaClock.$scoped.withValue(0) { layer.add(grow, forKey: "grow") }
        let cache = PresentationCache()
        let first = try #require(layer.presentationTree(atMediaTime: 0.5, reusing: cache) as? CAShapeLayer)
        #expect(first.lineWidth == 7)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.lineWidth = 20
        CATransaction.commit()
        let second = try #require(layer.presentationTree(atMediaTime: 0.5, reusing: cache) as? CAShapeLayer)
        #expect(second.lineWidth == 25)
    }

    @Test("paths with different elements do not blend: the model path shows")
    func mismatched() throws {
        let triangle = polygon([CGPoint(x: 0, y: 0), CGPoint(x: 20, y: 0), CGPoint(x: 10, y: 20)])
        let square = polygon([CGPoint(x: 0, y: 0), CGPoint(x: 20, y: 0), CGPoint(x: 20, y: 20), CGPoint(x: 0, y: 20)])
        let layer = CAShapeLayer()
        layer.path = square
        let morph = CABasicAnimation(keyPath: "path")
        morph.fromValue = triangle
        morph.toValue = square
        morph.duration = 1
        MediaClock.$scoped.withValue(0) { layer.add(morph, forKey: "morph") }
        let half = try #require(layer.presentationTree(atMediaTime: 0.5) as? CAShapeLayer)
        #expect(half.path == square)
    }
}
