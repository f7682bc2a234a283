// RenderList.damage(since:): the pixels two frames' lists can differ in. Each expectation is
// worked out from the layers' geometry, not read back from the function.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

/// A 200 x 100 grey page (actions off) with what `fill` adds to it.
private func blankPage(_ fill: (CALayer) -> Void) -> CALayer {
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    defer { CATransaction.commit() }
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
    root.backgroundColor = CGColor(gray: 0.9, alpha: 1)
    fill(root)
    return root
}

/// A 200 x 100 page with three cards; `x` places the middle one.
private func page(middleX: CGFloat = 100,
                  shadow: Bool = false, rasterized: CGFloat? = nil) -> CALayer {
    blankPage { root in
        for (i, x) in [30.0, middleX, 170.0].enumerated() {
            let card = CALayer()
            card.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
            card.position = CGPoint(x: x, y: 50)
            card.backgroundColor = i == 1 ? CGColor(red: 0, green: 0, blue: 1, alpha: 1) : CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            if i == 1, shadow {
                card.shadowOpacity = 1
                card.shadowRadius = 6
            }
            if i == 1, let rasterized {
                card.shouldRasterize = true
                card.rasterizationScale = 1
                card.cornerRadius = rasterized
                let dot = CALayer()
                dot.frame = CGRect(x: 5, y: 5, width: 4, height: 4)
                dot.backgroundColor = CGColor(gray: 0, alpha: 1)
                card.addSublayer(dot)
            }
            root.addSublayer(card)
        }
    }
}

private func list(_ root: CALayer) throws -> RenderList {
    try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
}

/// The lists of `root` before and after `edit` (with actions off). Draws name their layers, so
/// frames are compared as a renderer compares them: one tree, edited.
private func lists(_ root: CALayer, _ edit: (CALayer) -> Void) throws -> (old: RenderList, new: RenderList) {
    let old = try list(root)
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    edit(root)
    CATransaction.commit()
    return (old, try list(root))
}

private func middle(_ root: CALayer) -> CALayer { root.sublayers![1] }

@Suite("Render list damage")
struct RenderListDamageTests {
    @Test("equal lists have no damage")
    func equal() throws {
        let (old, new) = try lists(page()) { _ in }
        #expect(new.damage(since: old) == nil)
    }

    @Test("a card moved damages its old and new places, with the margin, and nothing of the page between")
    func moved() throws {
        let (old, new) = try lists(page(middleX: 100)) { middle($0).position.x = 110 }
        let damage = new.damage(since: old, margin: 2)
        // The card spans x 90..110 before and 100..120 after, y 40..60; a quad's pixel bounds
        // hold a pixel more each side (CoveragePolygon), and the margin two more.
        #expect(damage == PixelRect(minX: 87, minY: 37, maxX: 123, maxY: 63))
    }

    @Test("a recoloured card damages its own pixels only")
    func recoloured() throws {
        let (old, new) = try lists(page()) { middle($0).backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1) }
        let damage = new.damage(since: old, margin: 0)
        #expect(damage == PixelRect(minX: 89, minY: 39, maxX: 111, maxY: 61))
    }

    @Test("a shadow's reach is damage: a shadowed card moved damages the blur's extent too")
    func shadowReach() throws {
        let (old, new) = try lists(page(middleX: 100, shadow: true)) { middle($0).position.x = 110 }
        let damage = try #require(new.damage(since: old, margin: 0))
        // Blur radius 6 reaches well past the card's own 20 points, and the default shadow
        // offset (0, -3) moves it up.
        #expect(damage.minX <= 90 - 6 && damage.maxX >= 120 + 6)
        #expect(damage.minY <= 40 - 6 - 3 && damage.maxY >= 60 + 6 - 3)
        #expect(damage.maxX - damage.minX < 200)
    }

    @Test("a change inside a rasterized layer's pass damages the quad that draws the pass")
    func passContents() throws {
        let (old, new) = try lists(page(rasterized: 4)) { middle($0).sublayers![0].backgroundColor = CGColor(gray: 1, alpha: 1) }
        #expect(new.passes.count > 1, "the card is drawn through a pass")
        let damage = try #require(new.damage(since: old, margin: 0))
        #expect(damage.minX >= 78 && damage.maxX <= 122 && damage.minY >= 28 && damage.maxY <= 72)
        #expect(damage.minX <= 90 && damage.maxX >= 110)
    }

    @Test("a new size damages the whole frame")
    func resized() throws {
        let (old, new) = try lists(page()) { $0.frame = CGRect(x: 0, y: 0, width: 240, height: 100) }
        #expect(new.damage(since: old) == PixelRect(minX: 0, minY: 0, maxX: 240, maxY: 100))
    }

    @Test("two cards that change with still ones between damage both, and the edit script keeps the still one out")
    func editScript() throws {
        let root = page(middleX: 100)
        // The still card between them is taller: were it damage, the rectangle would be too.
        root.sublayers![1].bounds.size.height = 80
        let (old, new) = try lists(root) {
            $0.sublayers![0].position.x += 4
            $0.sublayers![2].position.x += 4
        }
        let damage = try #require(new.damage(since: old, margin: 0))
        // One rectangle holds both ends' cards (20..44 and 160..184, a pixel more each side), no
        // taller than they are.
        #expect(damage == PixelRect(minX: 19, minY: 39, maxX: 185, maxY: 61))
    }

    /// A bordered card (background and border, drawn as one pair where they are neighbours) with
    /// a dot outside it drawn between the two.
    private func borderedCard() -> CALayer {
        blankPage { root in
            let card = CALayer()
            card.frame = CGRect(x: 20, y: 20, width: 60, height: 40)
            card.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 0.7)
            card.borderWidth = 3
            card.borderColor = CGColor(red: 0.9, green: 0.2, blue: 0.2, alpha: 0.6)
            card.cornerRadius = 6
            let dot = CALayer()
            dot.frame = CGRect(x: 100, y: 10, width: 8, height: 8)
            dot.backgroundColor = CGColor(gray: 0, alpha: 1)
            card.addSublayer(dot)
            root.addSublayer(card)
        }
    }

    @Test("a background and its border that become neighbours are damage: the backends blend such a pair in one step")
    func borderPairs() throws {
        let (old, new) = try lists(borderedCard()) { $0.sublayers![0].sublayers![0].removeFromSuperlayer() }
        let damage = try #require(new.damage(since: old, margin: 0))
        // Not only the dot's pixels (120..128, 30..38): the card's (20..80, 20..60) too.
        #expect(damage.minX <= 20 && damage.minY <= 20 && damage.maxX >= 128 && damage.maxY >= 60, "\(damage)")
    }

    @Test("restricting a frame to a damage never makes a background and its border neighbours")
    func restrictedKeepsPairs() throws {
        let list = try list(borderedCard())
        let frame = try #require(list.passes.last)
        // Inside the card, away from the dot: the dot's draw stays, so the card's two stay apart.
        let inside = try #require(list.restricted(to: PixelRect(minX: 30, minY: 30, maxX: 40, maxY: 40)))
        #expect(inside.passes.last?.ops.count == frame.ops.count)
        // Around the dot alone: the card is left out, and so is nothing else that pairs.
        let dot = try #require(list.restricted(to: PixelRect(minX: 118, minY: 28, maxX: 130, maxY: 40)))
        #expect((dot.passes.last?.ops.count ?? 0) < frame.ops.count)
    }

    @Test("a frame pass that blurs its whole target is damaged whole when anything changed")
    func wholeTargetReads() throws {
        var (old, new) = try lists(page()) { middle($0).position.x = 110 }
        let blur = DrawOp.blur(BlurOp(source: 0, horizontal: true, weights: [1]))
        old.passes[old.passes.count - 1].ops.append(blur)
        new.passes[new.passes.count - 1].ops.append(blur)
        #expect(new.damage(since: old) == PixelRect(minX: 0, minY: 0, maxX: 200, maxY: 100))
    }
}

