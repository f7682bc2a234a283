// Masks in the render list: the masked layer and its mask each drawn offscreen, the mask's alpha
// applied by a destination-in quad, cycles cut and reported.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

private func box(_ name: String, _ frame: CGRect, _ color: CGColor? = .black) -> CALayer {
    let l = CALayer()
    l.name = name
    l.frame = frame
    l.backgroundColor = color
    return l
}

private func build(_ root: CALayer) throws -> RenderList {
    try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 40, height: 40)).build(root: root)
}

private func quads(_ pass: RenderPass) -> [QuadOp] {
    pass.ops.compactMap { if case .quad(let q) = $0 { q } else { nil } }
}

@Suite("Masks in the render list")
struct MaskListTests {
    @Test("a masked layer draws offscreen, its mask in its plane, multiplied in by destination-in, then composited with its opacity")
    func maskedLayer() throws {
        let root = box("root", CGRect(x: 0, y: 0, width: 40, height: 40), nil)
        let card = box("card", CGRect(x: 10, y: 10, width: 20, height: 20))
        card.opacity = 0.5
        // Translucent: an opaque rectangle would be applied as a clip instead (below).
        let mask = box("mask", CGRect(x: 5, y: 0, width: 10, height: 20), CGColor(gray: 0, alpha: 0.5))
        card.mask = mask
        root.addSublayer(card)
        let list = try build(root)
        #expect(list.passes.count == 3) // mask, masked content, frame
        let maskPass = list.passes[0], content = list.passes[1]
        // The mask sits in the card's plane: its 10x20 rectangle at x 15...25 of the device.
        let maskQuad = try #require(quads(maskPass).first)
        #expect(maskQuad.source.description == "CALayer 'mask' background")
        // Both passes hold only what the card and its mask both cover: the mask's device x
        // 15...25 (the card's 10...30 holds it), with its edges' half-pixel ramps x 14..<26, so
        // the mask is at 1...11 there.
        #expect(maskPass.width == 12 && content.width == 12)
        let xs = maskQuad.polygon.vertices.map(\.x)
        #expect(xs.min() == 1 && xs.max() == 11)
        #expect(quads(content).map(\.source.description) == ["CALayer 'card' background", "CALayer 'card' mask"])
        let apply = try #require(quads(content).last)
        #expect(apply.blend == .destinationIn)
        guard case .texture(let fill) = apply.fill else { Issue.record("the mask is sampled from its pass"); return }
        #expect(fill.source == .pass(maskPass.id))
        let composite = try #require(quads(list.passes[2]).first)
        #expect(composite.opacity == 0.5)
        guard case .texture(let group) = composite.fill else { Issue.record("the group is sampled"); return }
        #expect(group.source == .pass(content.id))
    }

    @Test("the mask clips the layer's shadow: the shadow is drawn inside the masked pass")
    func maskClipsShadow() throws {
        let card = box("card", CGRect(x: 10, y: 10, width: 20, height: 20))
        card.shadowOpacity = 1
        card.shadowRadius = 2
        card.mask = box("mask", CGRect(x: 0, y: 0, width: 20, height: 20), CGColor(gray: 0, alpha: 0.5))
        let list = try build(card)
        let frame = quads(list.passes.last!)
        #expect(frame.map(\.source.description) == ["CALayer 'card' group"])
        let masked = list.passes[list.passes.count - 2]
        #expect(quads(masked).map(\.source.description) == ["CALayer 'card' shadow", "CALayer 'card' background", "CALayer 'card' mask"])
    }

    @Test("an opaque rectangular mask over a layer that draws one quad is its clip: no pass, nothing outside it")
    func rectangleMaskIsAClip() throws {
        let card = box("card", CGRect(x: 10, y: 10, width: 20, height: 20))
        card.mask = box("mask", CGRect(x: 5, y: 0, width: 10, height: 15))
        let list = try build(card)
        #expect(list.passes.count == 1)
        let drawn = quads(list.passes[0])
        #expect(drawn.map(\.source.description) == ["CALayer 'card' background"])
        // The mask lies at device x 15...25, y 10...25.
        let xs = try #require(drawn.first).polygon.vertices.map(\.x), ys = try #require(drawn.first).polygon.vertices.map(\.y)
        #expect(xs.min()! >= 15 - 1e-9 && xs.max()! <= 25 + 1e-9 && ys.min()! >= 10 - 1e-9 && ys.max()! <= 25 + 1e-9)
    }

    @Test("a circle shape mask over a layer that draws only its background rounds that quad: no pass")
    func circleMaskRoundsTheQuad() throws {
        let card = box("card", CGRect(x: 10, y: 10, width: 20, height: 20))
        let circle = CAShapeLayer()
        circle.frame = CGRect(x: 2, y: 2, width: 16, height: 16)
        circle.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 16, height: 16), transform: nil)
        circle.displayIfNeeded() // its contents are its own drawing, which the clip replaces
        card.mask = circle
        let list = try build(card)
        #expect(list.passes.count == 1)
        let quad = try #require(quads(list.passes[0]).first)
        let rounded = try #require(quad.rounded)
        #expect(rounded.outer.rect == Rect(x: 0, y: 0, width: 16, height: 16) && rounded.outer.topLeft == 8 && rounded.inner == nil)
        // Device (20, 20), the card's centre, is the circle's centre (8, 8).
        let centre = rounded.deviceToLocal.apply(CGPoint(x: 20, y: 20))
        #expect(abs(centre.x - 8) < 1e-9 && abs(centre.y - 8) < 1e-9)
    }

    @Test("masks whose alpha is not exactly one rounded outline keep the offscreen group; one drawing only a path is applied as that path, any other through a pass of its own",
          arguments: ["translucent", "sublayer", "masked layer has sublayers", "stroked", "contents set", "half opacity",
                      "oval", "outline past the layer", "masked layer has a shadow", "masked layer draws two quads"])
    func inexactMasksGoOffscreen(_ kind: String) throws {
        let card = box("card", CGRect(x: 10, y: 10, width: 20, height: 20))
        let shape = CAShapeLayer()
        shape.path = CGPath(roundedRect: CGRect(x: 2, y: 2, width: 16, height: 16), cornerWidth: 4, cornerHeight: 4)
        var mask: CALayer = shape
        switch kind {
        case "translucent": shape.fillColor = CGColor(gray: 0, alpha: 0.9)
        case "sublayer": shape.addSublayer(CALayer())
        case "masked layer has sublayers": card.addSublayer(box("child", CGRect(x: 0, y: 0, width: 5, height: 5)))
        case "stroked": shape.strokeColor = .black
        case "contents set":
            shape.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
            shape.contents = CGImage(bitmap: Bitmap(width: 2, height: 2) { _, _ in (0, 0, 0, 255) })
        case "half opacity": shape.opacity = 0.5
        case "masked layer has a shadow": card.shadowOpacity = 0.5
        case "masked layer draws two quads": card.contents = CGImage(bitmap: Bitmap(width: 2, height: 2))
        case "oval": shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 16, height: 10), transform: nil)
        case "outline past the layer": shape.path = CGPath(roundedRect: CGRect(x: -4, y: 2, width: 16, height: 16),
                                                          cornerWidth: 4, cornerHeight: 4)
        default:
            mask = box("plain", CGRect(x: 0, y: 0, width: 10, height: 10))
        }
        card.mask = mask
        let list = try build(card)
        let byPass = list.passes.contains { pass in quads(pass).contains { $0.blend == .destinationIn } }
        let byPath = list.passes.contains { pass in
            pass.ops.contains { if case .path(let path) = $0 { path.blend == .destinationIn } else { false } }
        }
        // The shape draws its path and nothing else (an empty sublayer draws nothing): no mask pass.
        let pathOnly = kind != "contents set"
        if pathOnly {
            // The group and the frame (and a shadow's passes).
            #expect(byPath && !byPass && list.passes.count == (kind == "masked layer has a shadow" ? 5 : 2), "\(kind): \(list)")
        } else {
            #expect(byPass && !byPath && list.passes.count >= 3, "\(kind): \(list)")
        }
    }

    @Test("a mask that is the layer, its ancestor, or masks its own masked layer is left out and reported")
    func cycles() throws {
        let root = box("root", CGRect(x: 0, y: 0, width: 40, height: 40))
        let child = box("child", CGRect(x: 0, y: 0, width: 10, height: 10))
        root.addSublayer(child)
        child.mask = root
        var list = try build(root)
        #expect(list.diagnostics.contains { $0.contains("'child'") && $0.contains("unmasked") })
        child.mask = child
        list = try build(root)
        #expect(list.diagnostics.contains { $0.contains("unmasked") })
        let a = box("a", CGRect(x: 0, y: 0, width: 10, height: 10)), b = box("b", CGRect(x: 0, y: 0, width: 10, height: 10))
        a.mask = b
        b.mask = a
        list = try build(a)
        #expect(list.diagnostics.contains { $0.contains("'a'") && $0.contains("unmasked") })
        // Drawing it ends: a masked by b, whose mask a is its superlayer (the layer b masks) and
        // so is left out: three passes.
        #expect(list.passes.count == 3, "\(list)")
    }
}
