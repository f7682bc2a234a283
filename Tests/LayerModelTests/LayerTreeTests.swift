// The layer tree: adding, inserting, replacing and removing sublayers, and the refusal of cycles.
import Foundation
import LayerModel
import Testing

private func named(_ name: String) -> CALayer {
    let layer = CALayer()
    layer.name = name
    return layer
}

private func names(_ layer: CALayer) -> [String] { (layer.sublayers ?? []).map { $0.name ?? "?" } }

@Suite("Layer tree")
struct LayerTreeTests {
    @Test("a new layer has no sublayers and no superlayer")
    func empty() {
        let layer = CALayer()
        #expect(layer.sublayers == nil && layer.superlayer == nil)
    }

    @Test("addSublayer appends and sets the superlayer")
    func add() {
        let root = named("root"), a = named("a"), b = named("b")
        root.addSublayer(a)
        root.addSublayer(b)
        #expect(names(root) == ["a", "b"])
        #expect(a.superlayer === root && b.superlayer === root)
    }

    @Test("insertSublayer(at:) inserts at the index, and past the end appends")
    func insertAt() {
        let root = named("root")
        root.addSublayer(named("a"))
        root.addSublayer(named("c"))
        root.insertSublayer(named("b"), at: 1)
        root.insertSublayer(named("z"), at: 99)
        root.insertSublayer(named("0"), at: 0)
        #expect(names(root) == ["0", "a", "b", "c", "z"])
    }

    @Test("insertSublayer(below:) and (above:) place next to the sibling")
    func insertBelowAbove() {
        let root = named("root"), a = named("a"), c = named("c")
        root.addSublayer(a)
        root.addSublayer(c)
        root.insertSublayer(named("b"), below: c)
        root.insertSublayer(named("d"), above: c)
        root.insertSublayer(named("first"), below: nil)
        root.insertSublayer(named("last"), above: nil)
        #expect(names(root) == ["first", "a", "b", "c", "d", "last"])
    }

    @Test("adding a layer that has a superlayer moves it")
    func move() {
        let one = named("one"), two = named("two"), child = named("child")
        one.addSublayer(child)
        two.addSublayer(child)
        #expect(one.sublayers == nil)
        #expect(child.superlayer === two && names(two) == ["child"])
        two.addSublayer(named("other"))
        two.addSublayer(child) // re-adding moves it to the top
        #expect(names(two) == ["other", "child"])
    }

    @Test("replaceSublayer puts the new layer where the old one was")
    func replace() {
        let root = named("root"), a = named("a"), b = named("b"), c = named("c"), new = named("new")
        root.sublayers = [a, b, c]
        root.replaceSublayer(b, with: new)
        #expect(names(root) == ["a", "new", "c"])
        #expect(b.superlayer == nil && new.superlayer === root)
        root.replaceSublayer(named("stranger"), with: named("ignored"))
        #expect(names(root) == ["a", "new", "c"])
    }

    @Test("removeFromSuperlayer detaches, and setting sublayers replaces them all")
    func removeAndSet() {
        let root = named("root"), a = named("a"), b = named("b")
        root.sublayers = [a, b]
        a.removeFromSuperlayer()
        #expect(names(root) == ["b"] && a.superlayer == nil)
        root.sublayers = [a]
        #expect(names(root) == ["a"] && b.superlayer == nil && a.superlayer === root)
        root.sublayers = nil
        #expect(root.sublayers == nil && a.superlayer == nil)
    }

    @Test("isDescendant(of:) follows superlayers")
    func descendant() {
        let root = named("root"), child = named("child"), grandchild = named("grandchild")
        root.addSublayer(child)
        child.addSublayer(grandchild)
        #expect(grandchild.isDescendant(of: root) && grandchild.isDescendant(of: grandchild))
        #expect(!root.isDescendant(of: child))
    }

    @Test("sublayers draw in zPosition order, ties in sublayer order")
    func drawingOrder() {
        let root = named("root")
        let layers = ["a", "b", "c", "d"].map(named)
        layers[0].zPosition = 1
        layers[2].zPosition = -1
        root.sublayers = layers
        #expect(root.sublayersInDrawingOrder.map { $0.name! } == ["c", "b", "d", "a"])
        // Already in order (the fast path): kept as it is; one step back sorts again.
        for (i, layer) in layers.enumerated() { layer.zPosition = [0, 0, 2, 2][i] }
        #expect(root.sublayersInDrawingOrder.map { $0.name! } == ["a", "b", "c", "d"])
        layers[3].zPosition = 1.5
        #expect(root.sublayersInDrawingOrder.map { $0.name! } == ["a", "b", "d", "c"])
    }

    @Test("adding a layer to its own descendant is refused with a message naming both")
    func cycleIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let root = CALayer()
            root.name = "root"
            let child = CALayer()
            child.name = "child"
            root.addSublayer(child)
            child.addSublayer(root)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("'root'") && message.contains("'child'") && message.contains("cycle"))
    }

    @Test("adding a layer to itself is refused")
    func selfIsRefused() async {
        await #expect(processExitsWith: .failure) {
            let layer = CALayer()
            layer.addSublayer(layer)
        }
    }
}
