// The mask in the model: presented with the tree, animated in its own time, cycles harmless.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Mask layers in the model")
struct MaskModelTests {
    @Test("the presentation tree carries a presented copy of the mask, with its animations applied")
    func presentedMask() {
        let layer = CALayer()
        let mask = CALayer()
        mask.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.mask = mask
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 0
        move.toValue = 100
        move.duration = 1
        move.beginTime = 10
        mask.add(move, forKey: "move")
        let tree = layer.presentationTree(atMediaTime: 10.5)
        let presented = tree.mask
        #expect(presented != nil && presented !== mask)
        #expect(presented?.model() === mask)
        #expect(abs((presented?.position.x ?? 0) - 50) < 1e-9)
        #expect(presented?.superlayer === tree, "a presented mask's superlayer is its layer's copy, as the model's is")
        #expect(layer.hasAnimationsInSubtree)
    }

    @Test("mask cycles end: a tree whose mask contains the masked layer is presented and walked once")
    func cycles() {
        let root = CALayer(), child = CALayer()
        root.addSublayer(child)
        child.mask = root
        let tree = root.presentationTree(atMediaTime: 0)
        #expect(tree.sublayers?.first?.mask == nil)
        let a = CALayer(), b = CALayer()
        a.mask = b
        b.mask = a
        let presented = a.presentationTree(atMediaTime: 0)
        // a, masked by b, which a would mask again: a is b's superlayer (a mask's superlayer is
        // the layer it masks), so b's mask is its own ancestor and is cut there.
        #expect(presented.mask != nil && presented.mask?.mask == nil)
        #expect(!a.hasAnimationsInSubtree)
        #expect(a.advanceAnimations(toMediaTime: 1) == .infinity)
    }

    @Test("a mask's content is displayed with its layer's tree")
    func maskDisplay() {
        final class Marker: CALayer {
            var draws = 0
            override func draw(in ctx: CGContext) { draws += 1 }
        }
        let layer = CALayer()
        let mask = Marker()
        mask.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        mask.setNeedsDisplay()
        layer.mask = mask
        layer.displayTreeIfNeeded()
        #expect(mask.draws == 1)
        #expect(layer.value(forKey: "mask") as? CALayer === mask)
    }
}
