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
        let mask = box("mask", CGRect(x: 5, y: 0, width: 10, height: 20))
        card.mask = mask
        root.addSublayer(card)
        let list = try build(root)
        #expect(list.passes.count == 3) // mask, masked content, frame
        let maskPass = list.passes[0], content = list.passes[1]
        // The mask sits in the card's plane: its 10x20 rectangle at x 15...25 of the device.
        let maskQuad = try #require(quads(maskPass).first)
        #expect(maskQuad.source == "CALayer 'mask' background")
        // Both passes hold only what the card covers: x 9..<31 (its edges' half-pixel ramps
        // included), so the mask's device x 15...25 is 6...16 there.
        #expect(maskPass.width == 22 && content.width == 22)
        let xs = maskQuad.polygon.vertices.map(\.x)
        #expect(xs.min() == 6 && xs.max() == 16)
        #expect(quads(content).map(\.source) == ["CALayer 'card' background", "CALayer 'card' mask"])
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
        card.mask = box("mask", CGRect(x: 0, y: 0, width: 20, height: 20))
        let list = try build(card)
        let frame = quads(list.passes.last!)
        #expect(frame.map(\.source) == ["CALayer 'card' group"])
        let masked = list.passes[list.passes.count - 2]
        #expect(quads(masked).map(\.source) == ["CALayer 'card' shadow", "CALayer 'card' background", "CALayer 'card' mask"])
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
        // Drawing it ends: a masked by b masked by a, whose mask b is in use: five passes.
        #expect(list.passes.count == 5)
    }
}
