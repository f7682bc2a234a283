// Draws name their layer by identity, not by its description: ported code overrides
// `description`, often alike for every layer of a class, and layers share names.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

/// A layer class as ported code writes them: one description for every instance.
private final class Tile: CALayer {
    override var description: String { "Tile" }
}

@Suite("Draw sources")
struct DrawSourceTests {
    /// A rounded card clipping its sublayers (masksToBounds), and a sublayer filling the card's
    /// whole bounds, which the rounded corners must cut. `alike` makes the two layers look the
    /// same to anyone reading descriptions: both Tiles, or both named "card".
    static func card(alike: String, background: Bool) -> CALayer {
        let make: () -> CALayer = { alike == "description" ? Tile() : CALayer() }
        let card = make(), filling = make()
        if alike == "name" { card.name = "card"; filling.name = "card" }
        card.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        card.cornerRadius = 20
        card.masksToBounds = true
        if background { card.backgroundColor = CGColor(gray: 0.9, alpha: 1) }
        filling.frame = card.bounds
        filling.backgroundColor = CGColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 1)
        card.addSublayer(filling)
        return card
    }

    @Test("a sublayer described or named as its parent is still clipped by the parent's rounded corners",
          arguments: ["description", "name"], [false, true])
    func alikeSublayerIsClipped(alike: String, background: Bool) throws {
        let list = try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 40, height: 40), scale: 1)
            .build(root: DrawSourceTests.card(alike: alike, background: background))
        // The filling crosses the outline, so the clip cuts it: the sublayers go through a pass
        // composited through the rounded outline, whose corner pixel it leaves out.
        #expect(list.passes.count > 1, "\(list)")
        let frame = list.passes.last!.ops.compactMap { op -> QuadOp? in if case .quad(let q) = op { q } else { nil } }
        let composite = try #require(frame.last { if case .texture = $0.fill { true } else { false } })
        let shape = try #require(composite.rounded)
        #expect(shape.coverage(atX: 1.5, y: 1.5) == 0 && shape.coverage(atX: 20, y: 20) == 1)
    }

    @Test("a source reads as the layer's class and name, or its identity, then the part; equal only for one layer")
    func describedAndCompared() {
        let a = CALayer(), b = CALayer(), tile = Tile()
        a.name = "card"; b.name = "card"
        #expect(DrawSource(a, part: "background").description == "CALayer 'card' background")
        #expect(DrawSource(tile, part: "border").description.hasPrefix("Tile <"))
        #expect(DrawSource(a, part: "background") != DrawSource(b, part: "background"))
        #expect(DrawSource(a, part: "background") == DrawSource(a, part: "background"))
        #expect(DrawSource(a, part: "border").isFrom(a) && !DrawSource(a, part: "border").isFrom(b))
        #expect(!("rectangle" as DrawSource).isFrom(a) && ("rectangle" as DrawSource).description == "rectangle")
    }
}
