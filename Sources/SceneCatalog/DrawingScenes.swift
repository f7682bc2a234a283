import Foundation
import OpenQuartzCore

/// Seed 000's pie layer (Listing 6.39) in Swift: a custom animatable property and draw(in:),
/// presented as its own class (LayerPresentationCopying).
final class PieLayer: CALayer, LayerPresentationCopying {
    @Animatable("part", needsDisplay: true) var part: Double = 0

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "part" || super.needsDisplay(forKey: key)
    }

    override func draw(in ctx: CGContext) {
        let theBounds = bounds
        let center = CGPoint(x: theBounds.midX, y: theBounds.midY)
        let radius = min(theBounds.width, theBounds.height) / 2 - 5
        let angle = 2 * (part - 0.25) * .pi
        ctx.saveGState()
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.move(to: center)
        ctx.addArc(center: center, radius: radius, startAngle: -.pi / 2, endAngle: angle, clockwise: false)
        ctx.addLine(to: center)
        ctx.fillPath()
        ctx.restoreGState()
    }
}

/// Draws a five-pointed star, filled even-odd (hollow centre) and outlined with round joins.
final class StarDrawer: CALayerDelegate, Sendable {
    func draw(_ layer: CALayer, in ctx: CGContext) {
        let b = layer.bounds
        let center = CGPoint(x: b.midX, y: b.midY), radius = min(b.width, b.height) / 2 - 6
        for i in 0..<5 {
            let angle = -CGFloat.pi / 2 + CGFloat(i * 2) * 2 * .pi / 5 // every second point of five
            let p = CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
            if i == 0 { ctx.move(to: p) } else { ctx.addLine(to: p) }
        }
        ctx.closePath()
        ctx.setFillColor(CGColor(red: 1, green: 0.8, blue: 0.1, alpha: 1))
        ctx.setStrokeColor(CGColor(red: 0.3, green: 0.2, blue: 0.1, alpha: 1))
        ctx.setLineWidth(4)
        ctx.setLineJoin(.round)
        ctx.drawPath(using: .eoFillStroke)
    }
}

/// Scenes whose content is drawn by OpenCoreGraphics (seed 000's three ways to give content).
enum DrawingScenes {
    static let size = CGSize(width: 240, height: 120)
    static let starDrawer = StarDrawer()

    static var all: [DemoScene] {
        [drawnContent, animatedPie, shapeLayers, animatedRing, shapeMorph, gradients, replicators, replicatorDelay, mirror, text, textOptions,
         textCrawl]
    }

    /// Seed 000, Listing 6.49: the layer drawn with render(in:) into a context flipped to y down,
    /// then flipped and squashed by `scale`.
    static func mirroredImage(of layer: CALayer, scale: CGFloat, screenScale: CGFloat = 2) -> CGImage? {
        let size = layer.bounds.size
        guard let ctx = CGContext(width: Int(size.width * screenScale), height: Int(size.height * screenScale)) else { return nil }
        ctx.translateBy(x: 0, y: size.height * screenScale) // what UIGraphicsBeginImageContext sets up
        ctx.scaleBy(x: screenScale, y: -screenScale)
        ctx.scaleBy(x: 1, y: -scale)
        ctx.translateBy(x: 0, y: -size.height)
        layer.render(in: ctx)
        return ctx.makeImage()
    }

    /// The reflection faded by a grey mask from 80% to 0% (CGContextClipToMask), squashed to `scale`.
    static func fadedReflection(of layer: CALayer, scale: CGFloat) -> CGImage? {
        let size = layer.bounds.size
        let height = size.height * scale
        guard let mirrored = mirroredImage(of: layer, scale: scale),
              let ctx = CGContext(width: Int(size.width * 2), height: Int(height * 2)) else { return nil }
        ctx.translateBy(x: 0, y: height * 2)
        ctx.scaleBy(x: 2, y: -2)
        let steps = 32
        let mask = CGImage(bitmap: Bitmap(width: 1, height: steps) { _, y in
            let gray = UInt8((0.8 * (1 - Double(y) / Double(steps - 1)) * 255).rounded())
            return (gray, gray, gray, 255)
        })
        // The context is flipped to y down, so the mask's top row must land at the top: flip it too
        // (and back; not with save/restore, which would drop the clip with the state).
        ctx.translateBy(x: 0, y: height)
        ctx.scaleBy(x: 1, y: -1)
        ctx.clip(to: CGRect(x: 0, y: 0, width: size.width, height: height), mask: mask)
        ctx.scaleBy(x: 1, y: -1)
        ctx.translateBy(x: 0, y: -height)
        // The mirrored image's rows already run top to bottom as they should appear.
        ctx.translateBy(x: 0, y: size.height)
        ctx.scaleBy(x: 1, y: -1)
        ctx.draw(mirrored, in: CGRect(x: 0, y: 0, width: size.width, height: size.height))
        return ctx.makeImage()
    }

    static let mirror = DemoScene(
        name: "mirror-render-in-context",
        summary: "Seed 000's mirror made with render(in:): a test card, and under it its reflection drawn by "
            + "rendering the card into a flipped, squashed (0.6) context and fading it with a grey mask from 80% at "
            + "the card's edge to nothing.",
        size: CGSize(width: 240, height: 140)
    ) {
        let root = SceneKit.root(CGSize(width: 240, height: 140))
        let card = CALayer()
        card.frame = CGRect(x: 60, y: 10, width: 120, height: 75)
        card.contents = TestCard.image()
        root.addSublayer(card)
        let reflection = CALayer()
        reflection.frame = CGRect(x: 60, y: 87, width: 120, height: 45)
        reflection.contents = fadedReflection(of: card, scale: 0.6)
        root.addSublayer(reflection)
        return root
    }

    static func textLayer(_ string: String, _ frame: CGRect, font: String, size: CGFloat, color: CGColor = .black,
                          alignment: CATextLayerAlignmentMode = .natural) -> CATextLayer {
        let layer = CATextLayer()
        layer.frame = frame
        layer.string = string
        layer.font = font
        layer.fontSize = size
        layer.foregroundColor = color
        layer.alignmentMode = alignment
        layer.contentsScale = 2
        return layer
    }

    static let text = DemoScene(
        name: "text-layers",
        summary: "CATextLayers at contentsScale 2: 'Hello, Core Animation' in Helvetica (Liberation Sans) 22 pt; a "
            + "wrapped, centred Times (Liberation Serif) paragraph; right-aligned Courier (Liberation Mono); a line cut "
            + "with an ellipsis at the end; Hebrew shaped right to left (DejaVu Sans); 'office ﬁne AV' kerned and ligated.",
        size: CGSize(width: 320, height: 200)
    ) {
        let root = SceneKit.root(CGSize(width: 320, height: 200), color: .white)
        root.addSublayer(textLayer("Hello, Core Animation", CGRect(x: 10, y: 6, width: 300, height: 30), font: "Helvetica", size: 22))
        let paragraph = textLayer("Layers are rendered headless on Linux, by the GPU and by the CPU, and compared.",
                                  CGRect(x: 10, y: 40, width: 150, height: 80), font: "Times", size: 14,
                                  color: SceneKit.color(0.1, 0.2, 0.6), alignment: .center)
        paragraph.isWrapped = true
        root.addSublayer(paragraph)
        root.addSublayer(textLayer("monospace", CGRect(x: 170, y: 40, width: 140, height: 20), font: "Courier", size: 16,
                                   color: SceneKit.color(0.6, 0.1, 0.1), alignment: .right))
        let cut = textLayer("This line is far too long for its layer", CGRect(x: 170, y: 70, width: 140, height: 20),
                            font: "Helvetica", size: 14)
        cut.truncationMode = .end
        root.addSublayer(cut)
        root.addSublayer(textLayer("שלום עולם", CGRect(x: 10, y: 130, width: 150, height: 30), font: "DejaVu Sans", size: 20,
                                   color: SceneKit.color(0.1, 0.5, 0.2)))
        root.addSublayer(textLayer("office AV To", CGRect(x: 170, y: 130, width: 150, height: 30), font: "DejaVu Serif", size: 20))
        for child in root.sublayers ?? [] { child.setNeedsDisplay() }
        return root
    }

    static let textOptions = DemoScene(
        name: "text-options",
        summary: "Every CATextLayer option on one sentence, each in a 150x48 box outlined in grey: left column "
            + "wrapped with alignment left, centre, right and justified (the justified first line meets both "
            + "edges at its spaces); right column unwrapped with truncation none (cut at the box's edge, as a backing store cuts it), start, middle and end "
            + "(ellipses where the text is cut); below, one attributed line mixing 10, 18 and 26 pt runs in "
            + "black, red and blue on a shared baseline.",
        size: CGSize(width: 340, height: 270)
    ) {
        let root = SceneKit.root(CGSize(width: 340, height: 270), color: .white)
        let sentence = "Layers draw text with fontconfig, FreeType and HarfBuzz."
        func box(_ frame: CGRect) -> CALayer {
            let outline = CALayer()
            outline.frame = frame
            outline.borderWidth = 1
            outline.borderColor = CGColor(gray: 0.75, alpha: 1)
            root.addSublayer(outline)
            let layer = textLayer(sentence, frame, font: "Helvetica", size: 12)
            root.addSublayer(layer)
            return layer
        }
        for (i, mode) in [CATextLayerAlignmentMode.left, .center, .right, .justified].enumerated() {
            let layer = box(CGRect(x: 10, y: 10 + CGFloat(i) * 56, width: 150, height: 48)) as! CATextLayer
            layer.isWrapped = true
            layer.alignmentMode = mode
        }
        for (i, mode) in [CATextLayerTruncationMode.none, .start, .middle, .end].enumerated() {
            let layer = box(CGRect(x: 180, y: 10 + CGFloat(i) * 56, width: 150, height: 48)) as! CATextLayer
            layer.truncationMode = mode
        }
        let mixed = NSMutableAttributedString(string: "")
        for (text, size, color) in [("small ", 10.0, CGColor.black), ("medium ", 18.0, SceneKit.color(0.85, 0.1, 0.1)),
                                    ("large", 26.0, SceneKit.color(0.1, 0.25, 0.9))] {
            mixed.append(NSAttributedString(string: text, attributes: [.font: CTFont(name: "Helvetica", size: size),
                                                                       .foregroundColor: color]))
        }
        let attributed = textLayer("", CGRect(x: 10, y: 232, width: 320, height: 34), font: "Helvetica", size: 12)
        attributed.string = mixed
        root.addSublayer(attributed)
        return root
    }

    static let textCrawl = DemoScene(
        name: "text-crawl",
        summary: "Seed 001's crawl with real text: a wrapped, centred yellow paragraph on a layer whose transform has "
            + "m24 = -0.005 leans back into the distance, its lines narrowing toward the top.",
        size: CGSize(width: 240, height: 180)
    ) {
        let root = SceneKit.root(CGSize(width: 240, height: 180), color: .black)
        let crawl = textLayer("A long time ago, on a server far, far away, layers were drawn without a screen. "
                              + "Now they are rendered headless, frame by frame, on every machine.",
                              CGRect(x: 0, y: 0, width: 200, height: 190), font: "Helvetica", size: 21,
                              color: SceneKit.color(0.98, 0.82, 0.2), alignment: .center)
        crawl.isWrapped = true
        crawl.anchorPoint = CGPoint(x: 0.5, y: 1)
        crawl.position = CGPoint(x: 120, y: 175)
        var lean = CATransform3DIdentity
        lean.m24 = -0.005
        crawl.transform = lean
        root.addSublayer(crawl)
        return root
    }

    static let shapeMorph = DemoScene(
        name: "shape-morph",
        summary: "A CAShapeLayer's path animated from a square to a four-pointed star (both eight points joined by "
            + "lines), shown halfway: a filled orange shape whose corners have moved half of the way in and its edge "
            + "midpoints half of the way out; the square (grey) and the star (blue) are outlined behind it.",
        size: CGSize(width: 160, height: 160), time: 0.5
    ) {
        let root = SceneKit.root(CGSize(width: 160, height: 160))
        func polygon(_ points: [CGPoint]) -> CGPath {
            let path = CGMutablePath()
            path.move(to: points[0])
            for p in points.dropFirst() { path.addLine(to: p) }
            path.closeSubpath()
            return path
        }
        let c = CGPoint(x: 80, y: 80)
        let square = polygon([(-50, -50), (0, -50), (50, -50), (50, 0), (50, 50), (0, 50), (-50, 50), (-50, 0)]
            .map { CGPoint(x: c.x + $0.0, y: c.y + $0.1) })
        let star = polygon([(-20, -20), (0, -70), (20, -20), (70, 0), (20, 20), (0, 70), (-20, 20), (-70, 0)]
            .map { CGPoint(x: c.x + $0.0, y: c.y + $0.1) })
        for (path, color) in [(square, CGColor(gray: 0.5, alpha: 1)), (star, SceneKit.color(0.2, 0.4, 0.9))] {
            let outline = CAShapeLayer()
            outline.frame = root.bounds
            outline.path = path
            outline.fillColor = nil
            outline.strokeColor = color
            outline.lineWidth = 1.5
            root.addSublayer(outline)
        }
        let shape = CAShapeLayer()
        shape.frame = root.bounds
        shape.path = star
        shape.fillColor = SceneKit.color(1, 0.55, 0.1, 0.85)
        let morph = CABasicAnimation(keyPath: "path")
        morph.fromValue = square
        morph.toValue = star
        morph.duration = 1
        shape.add(morph, forKey: "morph")
        root.addSublayer(shape)
        return root
    }

    static let replicatorDelay = DemoScene(
        name: "replicator-instance-delay",
        summary: "A loading indicator, shown at t = 0.45 s: a replicator with 10 instances of a dot, 30 points apart, "
            + "instanceDelay 0.1 s; each dot rises 30 points and shrinks to half over 0.5 s (ease in-out), so the "
            + "instances form a wave: the first dot nearly at the top and half size, each later one lower and "
            + "larger, the last five (not started yet) at rest.",
        size: CGSize(width: 320, height: 90), time: 0.45
    ) {
        let root = SceneKit.root(CGSize(width: 320, height: 90))
        let row = CAReplicatorLayer()
        row.frame = CGRect(x: 10, y: 10, width: 300, height: 70)
        row.instanceCount = 10
        row.instanceTransform = CATransform3DMakeTranslation(30, 0, 0)
        row.instanceDelay = 0.1
        let dot = SceneKit.box("dot", CGRect(x: 5, y: 45, width: 20, height: 20), SceneKit.color(0.15, 0.45, 0.9))
        dot.cornerRadius = 10
        let rise = CABasicAnimation(keyPath: "position.y")
        rise.byValue = -30
        let shrink = CABasicAnimation(keyPath: "transform.scale")
        shrink.fromValue = 1
        shrink.toValue = 0.5
        for child in [rise, shrink] {
            // Children keep their own timing in a group (0.25 s by default): give them the group's.
            child.duration = 0.5
            child.fillMode = .forwards
        }
        let group = CAAnimationGroup()
        group.animations = [rise, shrink]
        group.duration = 0.5
        group.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        group.fillMode = .forwards
        group.isRemovedOnCompletion = false
        dot.add(group, forKey: "wave")
        row.addSublayer(dot)
        root.addSublayer(row)
        return root
    }

    static let replicators = DemoScene(
        name: "replicator-layers",
        summary: "Left, seed 000's mirror: a replicator with 2 instances shows a test card and, below it, the card "
            + "flipped and squashed to 0.6 of its height with alpha offset -0.3 (a fainter reflection). Right, 12 "
            + "instances of a bar, each turned 30 degrees more about the replicator's centre, blue fading to red "
            + "(red offset +1/12, blue offset -1/12).",
        size: CGSize(width: 240, height: 140)
    ) {
        let root = SceneKit.root(CGSize(width: 240, height: 140))
        let mirror = CAReplicatorLayer()
        mirror.frame = CGRect(x: 20, y: 10, width: 90, height: 68)
        let card = CALayer()
        card.frame = mirror.bounds
        card.contents = TestCard.image()
        mirror.addSublayer(card)
        mirror.instanceCount = 2
        mirror.instanceAlphaOffset = -0.3
        let h = mirror.bounds.height
        mirror.instanceTransform = CATransform3DTranslate(CATransform3DMakeScale(1, -0.6, 1), 0, -4.0 / 3.0 * h, 0)
        root.addSublayer(mirror)

        let fan = CAReplicatorLayer()
        fan.frame = CGRect(x: 130, y: 20, width: 100, height: 100)
        let bar = SceneKit.box("bar", CGRect(x: 47, y: 4, width: 6, height: 28), .white)
        fan.addSublayer(bar)
        fan.instanceCount = 12
        fan.instanceTransform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        fan.instanceColor = SceneKit.color(0, 0.3, 1)
        fan.instanceRedOffset = 1.0 / 12
        fan.instanceBlueOffset = -1.0 / 12
        root.addSublayer(fan)
        return root
    }

    static let gradients = DemoScene(
        name: "gradient-layers",
        summary: "Three CAGradientLayers: axial red -> yellow -> blue from top to bottom (yellow at location 0.3); "
            + "radial white -> green from the centre to the edges; conic around the centre starting at 3 o'clock, "
            + "red -> blue -> red clockwise.",
        size: size
    ) {
        let root = SceneKit.root(size)
        let kinds: [CAGradientLayerType] = [.axial, .radial, .conic]
        for (i, kind) in kinds.enumerated() {
            let layer = CAGradientLayer()
            layer.frame = CGRect(x: 10 + CGFloat(i) * 77, y: 15, width: 67, height: 90)
            layer.type = kind
            switch kind {
            case .axial:
                layer.colors = [SceneKit.color(0.9, 0.1, 0.1), SceneKit.color(1, 0.9, 0.1), SceneKit.color(0.1, 0.2, 0.9)]
                layer.locations = [0, 0.3, 1]
            case .radial:
                layer.colors = [SceneKit.color(1, 1, 1), SceneKit.color(0.1, 0.6, 0.2)]
                layer.startPoint = CGPoint(x: 0.5, y: 0.5)
                layer.endPoint = CGPoint(x: 1, y: 1)
            default:
                layer.colors = [SceneKit.color(0.9, 0.1, 0.1), SceneKit.color(0.1, 0.2, 0.9), SceneKit.color(0.9, 0.1, 0.1)]
                layer.startPoint = CGPoint(x: 0.5, y: 0.5)
                layer.endPoint = CGPoint(x: 1, y: 0.5)
            }
            root.addSublayer(layer)
        }
        return root
    }

    /// A ring path: a circle starting at 12 o'clock, clockwise on screen.
    static func ring(center: CGPoint, radius: CGFloat) -> CGPath {
        let path = CGMutablePath()
        path.addArc(center: center, radius: radius, startAngle: -.pi / 2, endAngle: 1.5 * .pi, clockwise: false)
        return path
    }

    static let shapeLayers = DemoScene(
        name: "shape-layers",
        summary: "Three CAShapeLayers with zero bounds whose paths reach out: a progress ring stroked to strokeEnd 0.7 "
            + "with round caps; a dashed rounded rectangle (dashes 8 on, 4 off); two overlapping circles filled "
            + "even-odd (the lens where they overlap is empty).",
        size: size
    ) {
        let root = SceneKit.root(size)
        let progress = CAShapeLayer()
        progress.path = ring(center: CGPoint(x: 45, y: 60), radius: 32)
        progress.fillColor = nil
        progress.strokeColor = SceneKit.color(0.1, 0.6, 0.3)
        progress.lineWidth = 10
        progress.lineCap = .round
        progress.strokeEnd = 0.7
        let dashed = CAShapeLayer()
        dashed.path = CGPath(roundedRect: CGRect(x: 90, y: 25, width: 60, height: 70), cornerWidth: 12, cornerHeight: 12)
        dashed.fillColor = SceneKit.color(0.85, 0.9, 1)
        dashed.strokeColor = SceneKit.color(0.2, 0.3, 0.8)
        dashed.lineWidth = 3
        dashed.lineDashPattern = [8, 4]
        let lens = CAShapeLayer()
        let circles = CGMutablePath()
        circles.addEllipse(in: CGRect(x: 165, y: 30, width: 45, height: 45))
        circles.addEllipse(in: CGRect(x: 185, y: 45, width: 45, height: 45))
        lens.path = circles
        lens.fillRule = .evenOdd
        lens.fillColor = SceneKit.color(0.9, 0.3, 0.2)
        for layer in [progress, dashed, lens] { root.addSublayer(layer) }
        return root
    }

    static let animatedRing = DemoScene(
        name: "anim-stroke-end",
        summary: "A ring drawn by animating strokeEnd from 0 to 1 over 1 s (linear): at 0.25 s a quarter of the ring, "
            + "from 12 to 3 o'clock, is drawn; the presentation copy redraws the shape each frame.",
        size: size, time: 0.25
    ) {
        let root = SceneKit.root(size)
        let ring = CAShapeLayer()
        ring.path = DrawingScenes.ring(center: CGPoint(x: 120, y: 60), radius: 40)
        ring.fillColor = nil
        ring.strokeColor = SceneKit.color(0.2, 0.4, 0.9)
        ring.lineWidth = 8
        let draw = CABasicAnimation(keyPath: "strokeEnd")
        draw.fromValue = 0.0
        draw.toValue = 1.0
        draw.duration = 1
        ring.add(draw, forKey: "draw")
        root.addSublayer(ring)
        return root
    }

    static let drawnContent = DemoScene(
        name: "drawn-content",
        summary: "Seed 000's drawn content: left, a PieLayer subclass (draw(in:)) showing part 0.3 as a red wedge "
            + "from 12 o'clock clockwise; right, a delegate-drawn star, filled even-odd (hollow pentagon in the middle) "
            + "and outlined 4 points wide with round joins, at contentsScale 2.",
        size: size
    ) {
        let root = SceneKit.root(size)
        let pie = PieLayer()
        pie.frame = CGRect(x: 10, y: 10, width: 100, height: 100)
        pie.backgroundColor = CGColor(gray: 1, alpha: 1)
        pie.part = 0.3
        pie.setNeedsDisplay()
        let star = CALayer()
        star.frame = CGRect(x: 130, y: 10, width: 100, height: 100)
        star.contentsScale = 2
        star.delegate = starDrawer
        star.setNeedsDisplay()
        root.addSublayer(pie)
        root.addSublayer(star)
        return root
    }

    static let animatedPie = DemoScene(
        name: "anim-pie",
        summary: "Seed 000's animated pie: part animates from 0 to 1 over 1 s (linear); at 0.5 s the presentation "
            + "layer redraws itself with part 0.5, a red half disc on the right.",
        size: size, time: 0.5
    ) {
        let root = SceneKit.root(size)
        let pie = PieLayer()
        pie.frame = CGRect(x: 70, y: 10, width: 100, height: 100)
        pie.setNeedsDisplay()
        let grow = CABasicAnimation(keyPath: "part")
        grow.fromValue = 0.0
        grow.toValue = 1.0
        grow.duration = 1
        pie.add(grow, forKey: "part")
        root.addSublayer(pie)
        return root
    }
}
