// The preroll of the effects: replicator instances, corners and borders, and shadows in the
// render list (the walk itself is RenderListBuilderTests).
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Replicator layers")
struct ReplicatorTests {
    @Test("each instance draws the sublayers once more, one more instanceTransform on, tinted")
    func instances() throws {
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let box = CALayer()
        box.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        box.backgroundColor = CGColor(gray: 1, alpha: 1)
        replicator.addSublayer(box)
        replicator.instanceCount = 3
        replicator.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        replicator.instanceAlphaOffset = -0.25
        let list = try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 100, height: 100)).build(root: replicator)
        let ops = list.passes.last!.ops.compactMap { op -> QuadOp? in
            if case .quad(let q) = op { q } else { nil }
        }
        #expect(ops.count == 3)
        #expect(ops.map { $0.polygon.vertices.map(\.x).min()! } == [0, 20, 40])
        #expect(ops.map(\.tint.alpha) == [1, 0.75, 0.5])
        #expect(ops[1].tint.red == 0.75) // premultiplied: white times alpha
    }

    @Test("no instances draw nothing; absurd counts are capped and reported")
    func counts() throws {
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        let box = CALayer()
        box.frame = CGRect(x: 0, y: 0, width: 1, height: 1)
        box.backgroundColor = .black
        replicator.addSublayer(box)
        replicator.instanceCount = 0
        let builder = RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(try builder.build(root: replicator).passes.last!.ops.isEmpty)
        replicator.instanceCount = 1_000_000
        replicator.instanceTransform = CATransform3DMakeTranslation(1000, 0, 0) // all off screen but the first
        let list = try builder.build(root: replicator)
        #expect(list.diagnostics.contains { $0.contains("instanceCount 1000000") })
        #expect(list.passes.last!.ops.count == 1)
    }
}

@Suite("Corners and borders")
struct CornerBorderTests {
    private func ops(_ root: CALayer, size: Double = 40) throws -> [QuadOp] {
        try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: size, height: size)).build(root: root)
            .passes.last!.ops.compactMap { op -> QuadOp? in
                if case .quad(let q) = op { q } else { nil }
            }
    }

    @Test("a fully rounded square covers the area of its circle")
    func circleArea() throws {
        let layer = CALayer()
        layer.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        layer.backgroundColor = .black
        layer.cornerRadius = 10
        let quad = try #require(ops(layer).first)
        let shape = try #require(quad.rounded)
        var area = 0.0
        for y in 0..<40 { for x in 0..<40 { area += quad.polygon.coverage(atX: Double(x) + 0.5, y: Double(y) + 0.5) * shape.coverage(atX: Double(x) + 0.5, y: Double(y) + 0.5) } }
        #expect(abs(area - .pi * 100) / (.pi * 100) < 0.005)
    }

    @Test("the border is drawn after the sublayers, as a ring inside the bounds")
    func borderOrder() throws {
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 30, height: 30)
        layer.backgroundColor = .white
        layer.borderWidth = 3
        let child = CALayer()
        child.frame = CGRect(x: 0, y: 0, width: 30, height: 30)
        child.backgroundColor = .black
        layer.name = "framed"
        child.name = "child"
        layer.addSublayer(child)
        let list = try ops(layer)
        #expect(list.map(\.source.description) == ["CALayer 'framed' background", "CALayer 'child' background", "CALayer 'framed' border"])
        let ring = try #require(list.last?.rounded)
        #expect(ring.coverage(atX: 1.5, y: 15) == 1 && ring.coverage(atX: 15, y: 15) == 0)
        #expect(ring.coverage(atX: 3, y: 15) == 0.5) // the inner edge at x = 3 crosses this pixel centre
    }

    @Test("nested layers and their borders come out depth first, each border after its own sublayers")
    func nestedBorderOrder() throws {
        func framed(_ name: String, bordered: Bool, _ sublayers: [CALayer] = []) -> CALayer {
            let layer = CALayer()
            layer.name = name
            layer.frame = CGRect(x: 0, y: 0, width: 30, height: 30)
            layer.backgroundColor = .white
            layer.borderWidth = bordered ? 1 : 0
            layer.sublayers = sublayers
            return layer
        }
        let root = framed("root", bordered: true, [
            framed("a", bordered: true, [framed("a1", bordered: false), framed("a2", bordered: true)]),
            framed("b", bordered: false, [framed("b1", bordered: true)]),
            framed("c", bordered: true),
        ])
        let names = try ops(root).map { $0.source.description.replacingOccurrences(of: "CALayer ", with: "") }
        #expect(names == ["'root' background", "'a' background", "'a1' background", "'a2' background", "'a2' border",
                          "'a' border", "'b' background", "'b1' background", "'b1' border", "'c' background",
                          "'c' border", "'root' border"])
    }

    @Test("square corners stay plain quads; masksToBounds rounds the contents too")
    func whenRounded() throws {
        let plain = CALayer()
        plain.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        plain.backgroundColor = .black
        #expect(try ops(plain).first?.rounded == nil)
        let image = CALayer()
        image.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        image.contents = CGImage(bitmap: Bitmap(width: 2, height: 2))
        image.cornerRadius = 4
        #expect(try ops(image).first?.rounded == nil) // not clipped: contents keep their corners
        image.masksToBounds = true
        #expect(try ops(image).first?.rounded != nil)
    }
}

@Suite("Shadows")
struct ShadowListTests {
    @Test("a shadow is drawn first: its shape offscreen, blurred along x then y, then tinted and shifted")
    func shadowPasses() throws {
        let card = CALayer()
        card.name = "card"
        card.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        card.backgroundColor = .white
        card.shadowOpacity = 0.5
        card.shadowRadius = 2
        card.shadowOffset = CGSize(width: 3, height: 4)
        card.addSublayer(CALayer()) // a sublayer: the shadow's shape is no longer a plain rounded rectangle
        let list = try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 40, height: 40)).build(root: card)
        #expect(list.passes.count == 4) // shape, blur x, blur y, frame
        guard case .blur(let x) = list.passes[1].ops.first, case .blur(let y) = list.passes[2].ops.first else {
            Issue.record("expected two blur passes"); return
        }
        #expect(x.horizontal && !y.horizontal && x.weights == GaussianBlur.weights(sigma: 2))
        let frame = list.passes.last!.ops.map { op -> QuadOp? in if case .quad(let q) = op { q } else { nil } }
        #expect(frame.map { $0?.source.description } == ["CALayer 'card' shadow", "CALayer 'card' background"])
        let shadow = try #require(frame.first ?? nil)
        #expect(shadow.tint.alpha == 0.5)
        guard case .texture(let fill) = shadow.fill else { Issue.record("shadow should be a texture"); return }
        #expect(fill.alphaOnly)
        // The shadow's pass holds a region of the frame around the card (not the whole frame),
        // drawn back shifted by the offset: device pixel (13, 14) samples the blurred shape
        // where device pixel (10, 10) was.
        let shapePass = list.passes[0]
        #expect(shapePass.width < 40 && shapePass.width == Int(shadow.localRect.width))
        let origin = (x: shadow.localRect.x - 3, y: shadow.localRect.y - 4)
        let uv = fill.deviceToTexture.apply(CGPoint(x: 13, y: 14))
        #expect(abs(uv.x * shadow.localRect.width + origin.x - 10) < 1e-9)
        #expect(abs(uv.y * shadow.localRect.height + origin.y - 10) < 1e-9)
    }

    @Test("a plain rounded layer's shadow under a similarity is one closed-form quad; under perspective it is not")
    func closedForm() throws {
        let card = CALayer()
        card.name = "card"
        card.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        card.backgroundColor = .white
        card.cornerRadius = 4
        card.shadowOpacity = 0.5
        card.shadowRadius = 2
        card.setAffineTransform(CGAffineTransform(rotationAngle: 0.3).scaledBy(x: 1.5, y: 1.5))
        let list = try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 40, height: 40)).build(root: card)
        #expect(list.passes.count == 1)
        let first = list.passes[0].ops.first
        guard case .quad(let quad) = first, case .blurredRoundedRect(let shape) = quad.fill else {
            Issue.record("expected a closed-form shadow quad first, got \(String(describing: first))"); return
        }
        // The sigma is the layer's own shadowRadius: the closed form is evaluated in its plane,
        // where the shadow lives, so the layer's scale of 1.5 makes it 1.5 times as soft on screen.
        #expect(abs(shape.sigma - 2) < 1e-9 && shape.cornerRadius == 4 && abs(shape.color.alpha - 0.5) < 1e-12)
        var tilt = CATransform3DIdentity
        tilt.m34 = -1.0 / 100
        card.transform = CATransform3DConcat(CATransform3DMakeRotation(0.5, 0, 1, 0), tilt)
        #expect(try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 40, height: 40)).build(root: card).passes.count > 1)
    }

    @Test("a shadowPath that is exactly a rectangle, rounded rectangle or circle is drawn in closed form; other paths go offscreen",
          arguments: [
              ("rect", CGPath(rect: CGRect(x: 2, y: 3, width: 14, height: 12)), 0.0),
              ("rounded", CGPath(roundedRect: CGRect(x: 2, y: 3, width: 14, height: 12), cornerWidth: 5, cornerHeight: 5), 5),
              ("circle", CGPath(ellipseIn: CGRect(x: 1, y: 1, width: 16, height: 16)), 8),
              ("oval", CGPath(ellipseIn: CGRect(x: 1, y: 1, width: 16, height: 10)), -1),
              ("elliptical corners", CGPath(roundedRect: CGRect(x: 2, y: 3, width: 14, height: 12), cornerWidth: 5, cornerHeight: 3), -1),
              ("triangle", { let p = CGMutablePath(); p.addLines(between: [.zero, CGPoint(x: 10, y: 0), CGPoint(x: 0, y: 10)]); p.closeSubpath(); return p }(), -1),
          ] as [(String, CGPath, Double)])
    func closedFormShadowPath(name: String, path: CGPath, radius: Double) throws {
        let card = CALayer()
        card.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        card.shadowOpacity = 0.5
        card.shadowRadius = 2
        card.shadowPath = path
        card.addSublayer(CALayer()) // with a shadowPath, the layer's own content does not matter
        let list = try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 40, height: 40)).build(root: card)
        let first = list.passes.last?.ops.first
        guard radius >= 0 else {
            #expect(list.passes.count > 1, "\(name): expected the offscreen route")
            return
        }
        #expect(list.passes.count == 1, "\(name)")
        guard case .quad(let quad) = first, case .blurredRoundedRect(let shape) = quad.fill else {
            Issue.record("\(name): expected a closed-form shadow quad, got \(String(describing: first))"); return
        }
        #expect(shape.rect == Rect(x: path.boundingBox.minX, y: path.boundingBox.minY,
                                   width: path.boundingBox.width, height: path.boundingBox.height))
        #expect(abs(shape.cornerRadius - radius) < 1e-9 && abs(shape.color.alpha - 0.5) < 1e-12, "\(name)")
    }

    @Test("a corner under 0.165 sigma is drawn square in closed form; a larger one stays rounded")
    func negligibleCorners() throws {
        for (corner, radius, expected) in [(6.5, 40.0, 0.0), (7.0, 40.0, 7.0)] {
            let card = CALayer()
            card.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
            card.backgroundColor = .white
            card.cornerRadius = corner
            card.shadowOpacity = 0.5
            card.shadowRadius = radius
            let list = try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 40, height: 40)).build(root: card)
            guard case .quad(let quad)? = list.passes.last?.ops.first, case .blurredRoundedRect(let shape) = quad.fill else {
                Issue.record("expected a closed-form shadow"); return
            }
            #expect(shape.cornerRadius == expected, "corner \(corner), radius \(radius)")
        }
    }

    @Test("no shadow without opacity; over-large radii are capped and reported")
    func limits() throws {
        let card = CALayer()
        card.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        card.backgroundColor = .black
        #expect(try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 10, height: 10)).build(root: card).passes.count == 1)
        card.shadowOpacity = 1
        card.shadowRadius = 1000
        let list = try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 10, height: 10)).build(root: card)
        #expect(list.diagnostics.contains { $0.contains("shadowRadius 1000") })
    }
}
