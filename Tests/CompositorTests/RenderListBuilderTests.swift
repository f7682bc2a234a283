// The preroll: what the compositor puts in a render list for a layer tree, and what it leaves out.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

/// A layer named `name` at `frame` with a gray background (shared by the builder test files).
func namedLayer(_ name: String, _ frame: CGRect, color: CGColor? = CGColor(gray: 0.5, alpha: 1)) -> CALayer {
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

/// The render list of `root` over `viewport` (shared by the builder test files).
func buildList(_ root: CALayer, _ viewport: CGRect = CGRect(x: 0, y: 0, width: 100, height: 100),
                       scale: CGFloat = 1) throws -> RenderList {
    try RenderListBuilder(viewport: viewport, scale: scale).build(root: root)
}

private func perspectiveRoot(m34: CGFloat = -1.0 / 500) -> CALayer {
    let root = namedLayer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
    var p = CATransform3DIdentity
    p.m34 = m34
    root.sublayerTransform = p
    return root
}

@Suite("Render list builder")
struct RenderListBuilderTests {
    @Test("a layer becomes one quad at its device position, scaled and offset by the viewport")
    func placement() throws {
        let root = namedLayer("box", CGRect(x: 10, y: 20, width: 30, height: 40))
        let list = try buildList(root, CGRect(x: 5, y: 5, width: 50, height: 60), scale: 2)
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
            try buildList(CALayer(), CGRect(x: 0, y: 0, width: width, height: 10), scale: scale)
        }
    }

    @Test("pixel sizes round up, forgiving floating-point noise")
    func pixelSize() throws {
        #expect(try RenderListBuilder.pixelSize(viewport: CGRect(x: 0, y: 0, width: 100.5, height: 10), scale: 1) == (101, 10))
        #expect(try RenderListBuilder.pixelSize(viewport: CGRect(x: 0, y: 0, width: 33.333333333, height: 10), scale: 3) == (100, 30))
    }

    @Test("siblings are drawn in zPosition order, ties in sublayer order")
    func zOrder() throws {
        let root = namedLayer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        for (name, z) in [("a", 1.0), ("b", 0.0), ("c", -1.0), ("d", 0.0)] {
            let l = namedLayer(name, CGRect(x: 0, y: 0, width: 10, height: 10))
            l.zPosition = z
            root.addSublayer(l)
        }
        #expect(quads(try buildList(root)).map { $0.source.description } == ["CALayer 'c' background", "CALayer 'b' background",
                                                             "CALayer 'd' background", "CALayer 'a' background"])
    }

    @Test("hidden subtrees and zero opacity draw nothing; opacities multiply")
    func visibility() throws {
        let root = namedLayer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let hidden = namedLayer("hidden", CGRect(x: 0, y: 0, width: 10, height: 10))
        hidden.isHidden = true
        hidden.addSublayer(namedLayer("under hidden", CGRect(x: 0, y: 0, width: 5, height: 5)))
        let clear = namedLayer("clear", CGRect(x: 0, y: 0, width: 10, height: 10))
        clear.opacity = 0
        let half = namedLayer("half", CGRect(x: 0, y: 0, width: 10, height: 10))
        half.opacity = 0.5
        half.allowsGroupOpacity = false // multiplied down the tree instead of composed offscreen
        let quarter = namedLayer("quarter", CGRect(x: 0, y: 0, width: 5, height: 5))
        quarter.opacity = 0.5
        half.addSublayer(quarter)
        root.sublayers = [hidden, clear, half]
        let ops = quads(try buildList(root))
        #expect(ops.map(\.source.description) == ["CALayer 'half' background", "CALayer 'quarter' background"])
        #expect(ops.map(\.opacity) == [0.5, 0.25])
    }

    @Test("group opacity composes a layer with sublayers offscreen, then fades the whole once")
    func groupOpacity() throws {
        let parent = namedLayer("parent", CGRect(x: 0, y: 0, width: 20, height: 20))
        parent.opacity = 0.5
        parent.addSublayer(namedLayer("child", CGRect(x: 5, y: 5, width: 10, height: 10)))
        let list = try buildList(parent)
        #expect(list.passes.count == 2)
        let inner = list.passes[0].ops.compactMap { op -> QuadOp? in if case .quad(let q) = op { q } else { nil } }
        #expect(inner.map(\.opacity) == [1, 1]) // drawn at full strength inside the group
        let composite = try #require(quads(list).first)
        #expect(quads(list).count == 1 && composite.opacity == 0.5)
        guard case .texture(let fill) = composite.fill else { Issue.record("the group should be a texture"); return }
        #expect(fill.source == .pass(list.passes[0].id))
        // Without sublayers there is nothing to overlap: no pass.
        let single = namedLayer("single", CGRect(x: 0, y: 0, width: 20, height: 20))
        single.opacity = 0.5
        #expect(try buildList(single).passes.count == 1)
    }

    @Test("masksToBounds with cornerRadius clips sublayers by the rounded outline, offscreen")
    func roundedClip() throws {
        let parent = namedLayer("parent", CGRect(x: 0, y: 0, width: 40, height: 40), color: nil)
        parent.cornerRadius = 20
        parent.masksToBounds = true
        parent.addSublayer(namedLayer("filling", CGRect(x: 0, y: 0, width: 40, height: 40)))
        let list = try buildList(parent)
        let composite = try #require(quads(list).first)
        let shape = try #require(composite.rounded)
        #expect(shape.coverage(atX: 1.5, y: 1.5) == 0 && shape.coverage(atX: 20, y: 20) == 1)
    }

    @Test("a layer with NaN or infinite geometry is left out with its subtree, and the list says why")
    func nonFiniteGeometry() throws {
        let root = namedLayer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let bad = namedLayer("bad", CGRect(x: 0, y: 0, width: 10, height: 10))
        bad.position.x = .nan
        bad.addSublayer(namedLayer("child", CGRect(x: 0, y: 0, width: 5, height: 5)))
        let worse = namedLayer("worse", CGRect(x: 0, y: 0, width: 10, height: 10))
        worse.transform.m22 = .infinity
        root.sublayers = [bad, worse, namedLayer("fine", CGRect(x: 0, y: 0, width: 10, height: 10))]
        let list = try buildList(root)
        #expect(quads(list).map(\.source.description) == ["CALayer 'fine' background"])
        #expect(list.diagnostics.count == 2)
        #expect(list.diagnostics[0].contains("'bad'") && list.diagnostics[0].contains("position.x is nan"))
        #expect(list.diagnostics[1].contains("'worse'") && list.diagnostics[1].contains("transform"))
    }

    @Test("negative bounds draw nothing of their own and are reported; sublayers still draw")
    func negativeBounds() throws {
        let root = namedLayer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let negative = CALayer()
        negative.name = "negative"
        negative.bounds = CGRect(x: 0, y: 0, width: -10, height: 10)
        negative.backgroundColor = .black
        negative.addSublayer(namedLayer("child", CGRect(x: 0, y: 0, width: 5, height: 5)))
        root.addSublayer(negative)
        let list = try buildList(root)
        #expect(quads(list).map(\.source.description) == ["CALayer 'child' background"])
        #expect(list.diagnostics.contains { $0.contains("'negative'") && $0.contains("negative") })
    }

    @Test("a singular transform (scale 0) leaves no area: nothing of that plane draws")
    func singularTransform() throws {
        let root = namedLayer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let flat = namedLayer("flat", CGRect(x: 10, y: 10, width: 50, height: 50))
        flat.transform = CATransform3DMakeScale(0, 1, 1)
        flat.addSublayer(namedLayer("child", CGRect(x: 0, y: 0, width: 20, height: 20)))
        root.addSublayer(flat)
        let list = try buildList(root)
        #expect(quads(list).isEmpty && list.diagnostics.isEmpty)
    }

    @Test("a zero-size layer draws nothing itself but its sublayers draw")
    func zeroSize() throws {
        let root = namedLayer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let empty = namedLayer("empty", CGRect(x: 10, y: 10, width: 0, height: 0))
        empty.addSublayer(namedLayer("child", CGRect(x: 0, y: 0, width: 20, height: 20)))
        root.addSublayer(empty)
        #expect(quads(try buildList(root)).map(\.source.description) == ["CALayer 'child' background"])
    }

    @Test("a layer turned exactly 90 degrees is seen edge-on and draws nothing")
    func edgeOn() throws {
        for axis in [(CGFloat(0), CGFloat(1)), (1, 0)] {
            let root = perspectiveRoot()
            let card = namedLayer("card", CGRect(x: 30, y: 30, width: 40, height: 40))
            card.transform = CATransform3DMakeRotation(.pi / 2, axis.0, axis.1, 0)
            root.addSublayer(card)
            #expect(quads(try buildList(root)).isEmpty)
        }
    }

    @Test("a layer wholly behind the eye draws nothing")
    func whollyBehind() throws {
        let root = perspectiveRoot()
        let card = namedLayer("card", CGRect(x: 30, y: 30, width: 40, height: 40))
        card.zPosition = 600 // the eye is at z = 500
        root.addSublayer(card)
        #expect(quads(try buildList(root)).isEmpty)
    }

    @Test("a layer reaching past the eye is clipped there, not mirrored")
    func partlyBehind() throws {
        let root = perspectiveRoot(m34: -1.0 / 200)
        let floor = namedLayer("floor", CGRect(x: 0, y: 0, width: 40, height: 600))
        floor.position = CGPoint(x: 50, y: 50)
        floor.transform = CATransform3DMakeRotation(80 * .pi / 180, 1, 0, 0)
        root.addSublayer(floor)
        let q = try #require(quads(try buildList(root)).first)
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
            let card = namedLayer("card", CGRect(x: 30, y: 30, width: 40, height: 40))
            card.isDoubleSided = doubleSided
            card.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
            card.addSublayer(namedLayer("child", CGRect(x: 0, y: 0, width: 10, height: 10)))
            root.addSublayer(card)
            #expect(quads(try buildList(root)).count == (doubleSided ? 2 : 0))
        }
    }

    @Test("masksToBounds clips sublayers to the layer's projected bounds")
    func clipping() throws {
        let root = namedLayer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let parent = namedLayer("parent", CGRect(x: 20, y: 20, width: 40, height: 40))
        parent.masksToBounds = true
        parent.addSublayer(namedLayer("overflow", CGRect(x: 20, y: -30, width: 100, height: 50)))
        root.addSublayer(parent)
        let q = try #require(quads(try buildList(root)).last)
        let xs = q.polygon.vertices.map(\.x), ys = q.polygon.vertices.map(\.y)
        #expect(xs.min() == 40 && xs.max() == 60 && ys.min() == 20 && ys.max() == 40)
    }

    @Test("an edge shared with the clip counts once in the coverage")
    func sharedClipEdge() throws {
        let root = namedLayer("root", CGRect(x: 0, y: 0, width: 100, height: 100), color: nil)
        let parent = namedLayer("parent", CGRect(x: 10.5, y: 10, width: 40, height: 40))
        parent.masksToBounds = true
        parent.addSublayer(namedLayer("filling", CGRect(x: 0, y: 0, width: 40, height: 40)))
        root.addSublayer(parent)
        let q = try #require(quads(try buildList(root)).last)
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
        let l = namedLayer("image", CGRect(x: 0, y: 0, width: 100, height: 80), color: nil)
        l.contents = image
        l.contentsScale = 2
        l.contentsGravity = gravity
        let q = try #require(quads(try buildList(l)).first)
        #expect(q.localRect == Rect(x: expected.minX, y: expected.minY, width: expected.width, height: expected.height))
        guard case .texture(let fill) = q.fill else { Issue.record("contents should be a texture fill"); return }
        #expect(fill.source == .image(image.identifier))
        // The frame's corners map onto the texture's corners.
        let uv = fill.deviceToTexture.apply(CGPoint(x: expected.maxX, y: expected.maxY))
        #expect(abs(uv.x - 1) < 1e-12 && abs(uv.y - 1) < 1e-12)
    }

    @Test("contentsRect picks the part of the image the frame shows")
    func contentsRect() throws {
        let l = namedLayer("half", CGRect(x: 0, y: 0, width: 50, height: 50), color: nil)
        l.contents = CGImage(bitmap: Bitmap(width: 8, height: 8))
        l.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let q = try #require(quads(try buildList(l)).first)
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
            try buildList(root)
        }
    }

    @Test("the list prints one line per op")
    func printable() throws {
        let text = "\(try buildList(namedLayer("box", CGRect(x: 0, y: 0, width: 10, height: 10))))"
        #expect(text.contains("RenderList 100x100") && text.contains("quad CALayer 'box' background: solid"))
    }
}
