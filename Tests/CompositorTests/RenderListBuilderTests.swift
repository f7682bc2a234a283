// The preroll: what the compositor puts in a render list for a layer tree, and what it leaves out.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

private func layer(_ name: String, _ frame: CGRect, color: CGColor? = CGColor(gray: 0.5, alpha: 1)) -> CALayer {
    let l = CALayer()
    l.name = name
    l.frame = frame
    l.backgroundColor = color
    return l
}

private func quads(_ list: RenderList) -> [QuadOp] {
    list.passes.last!.ops.compactMap { op in
        if case .quad(let q) = op { q } else { nil }
    }
}

private func build(_ root: CALayer, _ viewport: CGRect = CGRect(x: 0, y: 0, width: 100, height: 100),
                   scale: CGFloat = 1) throws -> RenderList {
    try RenderListBuilder(viewport: viewport, scale: scale).build(root: root)
}

private func perspectiveRoot(m34: CGFloat = -1.0 / 500) -> CALayer {
    let root = layer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
    var p = CATransform3DIdentity
    p.m34 = m34
    root.sublayerTransform = p
    return root
}

@Suite("Render list builder")
struct RenderListBuilderTests {
    @Test("a layer becomes one quad at its device position, scaled and offset by the viewport")
    func placement() throws {
        let root = layer("box", CGRect(x: 10, y: 20, width: 30, height: 40))
        let list = try build(root, CGRect(x: 5, y: 5, width: 50, height: 60), scale: 2)
        #expect(list.width == 100 && list.height == 120)
        let q = try #require(quads(list).first)
        let xs = q.polygon.vertices.map(\.x), ys = q.polygon.vertices.map(\.y)
        #expect(xs.min() == 10 && xs.max() == 70 && ys.min() == 30 && ys.max() == 110)
        #expect(q.polygon.edges.count == 4 && q.polygon.area == 60 * 80)
        #expect(q.polygon.pixelBounds == PixelRect(minX: 9, minY: 29, maxX: 71, maxY: 111))
    }

    @Test("invalid viewports are errors that say what is wrong",
          arguments: [(CGFloat.nan, CGFloat(1)), (100, 0), (100, -1), (0, 1), (1e9, 1), (100, .infinity)])
    func invalidViewport(width: CGFloat, scale: CGFloat) {
        #expect(throws: CompositorError.self) {
            try build(CALayer(), CGRect(x: 0, y: 0, width: width, height: 10), scale: scale)
        }
    }

    @Test("pixel sizes round up, forgiving floating-point noise")
    func pixelSize() throws {
        #expect(try RenderListBuilder.pixelSize(viewport: CGRect(x: 0, y: 0, width: 100.5, height: 10), scale: 1) == (101, 10))
        #expect(try RenderListBuilder.pixelSize(viewport: CGRect(x: 0, y: 0, width: 33.333333333, height: 10), scale: 3) == (100, 30))
    }

    @Test("siblings are drawn in zPosition order, ties in sublayer order")
    func zOrder() throws {
        let root = layer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        for (name, z) in [("a", 1.0), ("b", 0.0), ("c", -1.0), ("d", 0.0)] {
            let l = layer(name, CGRect(x: 0, y: 0, width: 10, height: 10))
            l.zPosition = z
            root.addSublayer(l)
        }
        #expect(quads(try build(root)).map { $0.source } == ["CALayer 'c' background", "CALayer 'b' background",
                                                             "CALayer 'd' background", "CALayer 'a' background"])
    }

    @Test("hidden subtrees and zero opacity draw nothing; opacities multiply")
    func visibility() throws {
        let root = layer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let hidden = layer("hidden", CGRect(x: 0, y: 0, width: 10, height: 10))
        hidden.isHidden = true
        hidden.addSublayer(layer("under hidden", CGRect(x: 0, y: 0, width: 5, height: 5)))
        let clear = layer("clear", CGRect(x: 0, y: 0, width: 10, height: 10))
        clear.opacity = 0
        let half = layer("half", CGRect(x: 0, y: 0, width: 10, height: 10))
        half.opacity = 0.5
        half.allowsGroupOpacity = false // multiplied down the tree instead of composed offscreen
        let quarter = layer("quarter", CGRect(x: 0, y: 0, width: 5, height: 5))
        quarter.opacity = 0.5
        half.addSublayer(quarter)
        root.sublayers = [hidden, clear, half]
        let ops = quads(try build(root))
        #expect(ops.map(\.source) == ["CALayer 'half' background", "CALayer 'quarter' background"])
        #expect(ops.map(\.opacity) == [0.5, 0.25])
    }

    @Test("group opacity composes a layer with sublayers offscreen, then fades the whole once")
    func groupOpacity() throws {
        let parent = layer("parent", CGRect(x: 0, y: 0, width: 20, height: 20))
        parent.opacity = 0.5
        parent.addSublayer(layer("child", CGRect(x: 5, y: 5, width: 10, height: 10)))
        let list = try build(parent)
        #expect(list.passes.count == 2)
        let inner = list.passes[0].ops.compactMap { op -> QuadOp? in if case .quad(let q) = op { q } else { nil } }
        #expect(inner.map(\.opacity) == [1, 1]) // drawn at full strength inside the group
        let composite = try #require(quads(list).first)
        #expect(quads(list).count == 1 && composite.opacity == 0.5)
        guard case .texture(let fill) = composite.fill else { Issue.record("the group should be a texture"); return }
        #expect(fill.source == .pass(list.passes[0].id))
        // Without sublayers there is nothing to overlap: no pass.
        let single = layer("single", CGRect(x: 0, y: 0, width: 20, height: 20))
        single.opacity = 0.5
        #expect(try build(single).passes.count == 1)
    }

    @Test("masksToBounds with cornerRadius clips sublayers by the rounded outline, offscreen")
    func roundedClip() throws {
        let parent = layer("parent", CGRect(x: 0, y: 0, width: 40, height: 40), color: nil)
        parent.cornerRadius = 20
        parent.masksToBounds = true
        parent.addSublayer(layer("filling", CGRect(x: 0, y: 0, width: 40, height: 40)))
        let list = try build(parent)
        let composite = try #require(quads(list).first)
        let shape = try #require(composite.rounded)
        #expect(shape.coverage(atX: 1.5, y: 1.5) == 0 && shape.coverage(atX: 20, y: 20) == 1)
    }

    @Test("a layer with NaN or infinite geometry is left out with its subtree, and the list says why")
    func nonFiniteGeometry() throws {
        let root = layer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let bad = layer("bad", CGRect(x: 0, y: 0, width: 10, height: 10))
        bad.position.x = .nan
        bad.addSublayer(layer("child", CGRect(x: 0, y: 0, width: 5, height: 5)))
        let worse = layer("worse", CGRect(x: 0, y: 0, width: 10, height: 10))
        worse.transform.m22 = .infinity
        root.sublayers = [bad, worse, layer("fine", CGRect(x: 0, y: 0, width: 10, height: 10))]
        let list = try build(root)
        #expect(quads(list).map(\.source) == ["CALayer 'fine' background"])
        #expect(list.diagnostics.count == 2)
        #expect(list.diagnostics[0].contains("'bad'") && list.diagnostics[0].contains("position.x is nan"))
        #expect(list.diagnostics[1].contains("'worse'") && list.diagnostics[1].contains("transform"))
    }

    @Test("negative bounds draw nothing of their own and are reported; sublayers still draw")
    func negativeBounds() throws {
        let root = layer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let negative = CALayer()
        negative.name = "negative"
        negative.bounds = CGRect(x: 0, y: 0, width: -10, height: 10)
        negative.backgroundColor = .black
        negative.addSublayer(layer("child", CGRect(x: 0, y: 0, width: 5, height: 5)))
        root.addSublayer(negative)
        let list = try build(root)
        #expect(quads(list).map(\.source) == ["CALayer 'child' background"])
        #expect(list.diagnostics.contains { $0.contains("'negative'") && $0.contains("negative") })
    }

    @Test("a singular transform (scale 0) leaves no area: nothing of that plane draws")
    func singularTransform() throws {
        let root = layer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let flat = layer("flat", CGRect(x: 10, y: 10, width: 50, height: 50))
        flat.transform = CATransform3DMakeScale(0, 1, 1)
        flat.addSublayer(layer("child", CGRect(x: 0, y: 0, width: 20, height: 20)))
        root.addSublayer(flat)
        let list = try build(root)
        #expect(quads(list).isEmpty && list.diagnostics.isEmpty)
    }

    @Test("a zero-size layer draws nothing itself but its sublayers draw")
    func zeroSize() throws {
        let root = layer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let empty = layer("empty", CGRect(x: 10, y: 10, width: 0, height: 0))
        empty.addSublayer(layer("child", CGRect(x: 0, y: 0, width: 20, height: 20)))
        root.addSublayer(empty)
        #expect(quads(try build(root)).map(\.source) == ["CALayer 'child' background"])
    }

    @Test("a layer turned exactly 90 degrees is seen edge-on and draws nothing")
    func edgeOn() throws {
        for axis in [(CGFloat(0), CGFloat(1)), (1, 0)] {
            let root = perspectiveRoot()
            let card = layer("card", CGRect(x: 30, y: 30, width: 40, height: 40))
            card.transform = CATransform3DMakeRotation(.pi / 2, axis.0, axis.1, 0)
            root.addSublayer(card)
            #expect(quads(try build(root)).isEmpty)
        }
    }

    @Test("a layer wholly behind the eye draws nothing")
    func whollyBehind() throws {
        let root = perspectiveRoot()
        let card = layer("card", CGRect(x: 30, y: 30, width: 40, height: 40))
        card.zPosition = 600 // the eye is at z = 500
        root.addSublayer(card)
        #expect(quads(try build(root)).isEmpty)
    }

    @Test("a layer reaching past the eye is clipped there, not mirrored")
    func partlyBehind() throws {
        let root = perspectiveRoot(m34: -1.0 / 200)
        let floor = layer("floor", CGRect(x: 0, y: 0, width: 40, height: 600))
        floor.position = CGPoint(x: 50, y: 50)
        floor.transform = CATransform3DMakeRotation(80 * .pi / 180, 1, 0, 0)
        root.addSublayer(floor)
        let q = try #require(quads(try build(root)).first)
        // The far edge (local y = 0) is the top of what is drawn; a mirrored part behind the eye
        // would show above it.
        let far = q.localToDevice.apply(CGPoint(x: 20, y: 0))
        #expect(q.polygon.vertices.allSatisfy { $0.y >= far.y - 1e-6 })
        #expect(q.polygon.vertices.contains { $0.y > 100 }) // and it reaches off the bottom
    }

    @Test("isDoubleSided = false culls the back face and its sublayers; true draws it")
    func backFaces() throws {
        for doubleSided in [true, false] {
            let root = perspectiveRoot()
            let card = layer("card", CGRect(x: 30, y: 30, width: 40, height: 40))
            card.isDoubleSided = doubleSided
            card.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
            card.addSublayer(layer("child", CGRect(x: 0, y: 0, width: 10, height: 10)))
            root.addSublayer(card)
            #expect(quads(try build(root)).count == (doubleSided ? 2 : 0))
        }
    }

    @Test("masksToBounds clips sublayers to the layer's projected bounds")
    func clipping() throws {
        let root = layer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let parent = layer("parent", CGRect(x: 20, y: 20, width: 40, height: 40))
        parent.masksToBounds = true
        parent.addSublayer(layer("overflow", CGRect(x: 20, y: -30, width: 100, height: 50)))
        root.addSublayer(parent)
        let q = try #require(quads(try build(root)).last)
        let xs = q.polygon.vertices.map(\.x), ys = q.polygon.vertices.map(\.y)
        #expect(xs.min() == 40 && xs.max() == 60 && ys.min() == 20 && ys.max() == 40)
    }

    @Test("an edge shared with the clip counts once in the coverage")
    func sharedClipEdge() throws {
        let root = layer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let parent = layer("parent", CGRect(x: 10.5, y: 10, width: 40, height: 40))
        parent.masksToBounds = true
        parent.addSublayer(layer("filling", CGRect(x: 0, y: 0, width: 40, height: 40)))
        root.addSublayer(parent)
        let q = try #require(quads(try build(root)).last)
        #expect(q.polygon.edges.count == 4)
        #expect(q.polygon.coverage(atX: 10.5, y: 30) == 0.5) // on the left edge: half, not a quarter
    }

    @Test("contents land where their gravity puts them", arguments: [
        (CALayerContentsGravity.topLeft, CGRect(x: 0, y: 0, width: 10, height: 5)),
        (.bottomRight, CGRect(x: 90, y: 75, width: 10, height: 5)),
        (.center, CGRect(x: 45, y: 37.5, width: 10, height: 5)),
        (.top, CGRect(x: 45, y: 0, width: 10, height: 5)),
        (.left, CGRect(x: 0, y: 37.5, width: 10, height: 5)),
        (.resize, CGRect(x: 0, y: 0, width: 100, height: 80)),
        (.resizeAspect, CGRect(x: 0, y: 15, width: 100, height: 50)),
        (.resizeAspectFill, CGRect(x: -30, y: 0, width: 160, height: 80)),
    ])
    func gravity(gravity: CALayerContentsGravity, expected: CGRect) throws {
        let image = CGImage(bitmap: Bitmap(width: 20, height: 10))
        let l = layer("image", CGRect(x: 0, y: 0, width: 100, height: 80), color: nil)
        l.contents = image
        l.contentsScale = 2
        l.contentsGravity = gravity
        let q = try #require(quads(try build(l)).first)
        #expect(q.localRect == Rect(x: expected.minX, y: expected.minY, width: expected.width, height: expected.height))
        guard case .texture(let fill) = q.fill else { Issue.record("contents should be a texture fill"); return }
        #expect(fill.source == .image(image.identifier))
        // The frame's corners map onto the texture's corners.
        let uv = fill.deviceToTexture.apply(CGPoint(x: expected.maxX, y: expected.maxY))
        #expect(abs(uv.x - 1) < 1e-12 && abs(uv.y - 1) < 1e-12)
    }

    @Test("contentsRect picks the part of the image the frame shows")
    func contentsRect() throws {
        let l = layer("half", CGRect(x: 0, y: 0, width: 50, height: 50), color: nil)
        l.contents = CGImage(bitmap: Bitmap(width: 8, height: 8))
        l.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let q = try #require(quads(try build(l)).first)
        guard case .texture(let fill) = q.fill else { Issue.record("contents should be a texture fill"); return }
        let left = fill.deviceToTexture.apply(CGPoint(x: 0, y: 0)), right = fill.deviceToTexture.apply(CGPoint(x: 50, y: 50))
        #expect(abs(left.x - 0.5) < 1e-12 && abs(right.x - 1) < 1e-12 && abs(right.y - 1) < 1e-12)
    }

    @Test("a tree deeper than the limit is refused, not recursed into")
    func deepTree() {
        let root = CALayer()
        var tip = root
        for _ in 0..<(RenderListBuilder.maxDepth + 1) {
            let next = CALayer()
            tip.addSublayer(next)
            tip = next
        }
        #expect(throws: CompositorError.treeTooDeep(limit: RenderListBuilder.maxDepth)) {
            try build(root)
        }
    }

    @Test("the list prints one line per op")
    func printable() throws {
        let text = "\(try build(layer("box", CGRect(x: 0, y: 0, width: 10, height: 10))))"
        #expect(text.contains("RenderList 100x100") && text.contains("quad CALayer 'box' background: solid"))
    }
}

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
        #expect(list.map(\.source) == ["CALayer 'framed' background", "CALayer 'child' background", "CALayer 'framed' border"])
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
        let names = try ops(root).map { $0.source.replacingOccurrences(of: "CALayer ", with: "") }
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
        #expect(frame.map { $0?.source } == ["CALayer 'card' shadow", "CALayer 'card' background"])
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
        #expect(abs(shape.sigma - 2 / 1.5) < 1e-9 && shape.cornerRadius == 4 && abs(shape.color.alpha - 0.5) < 1e-12)
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
