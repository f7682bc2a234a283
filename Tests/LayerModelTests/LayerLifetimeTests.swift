// Layers are freed when the last reference goes: nothing the model keeps for animations (a
// transition's snapshot of the old tree, presentation copies) may hold its model in a cycle.
// Found by the scene-document fuzzer's leak check.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Layer lifetime")
struct LayerLifetimeTests {
    @Test("a layer with a transition attached (its old tree snapshotted) is freed with its tree")
    func transitionFreed() {
        weak var freed: CALayer?
        weak var freedChild: CALayer?
        do {
            let root = CALayer()
            let panel = CALayer()
            panel.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            root.addSublayer(panel)
            root.markLive()
            CATransaction.begin()
            let transition = CATransition()
            transition.type = .push
            panel.add(transition, forKey: "t")
            panel.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            CATransaction.commit()
            // The implicit transaction addSublayer opened commits too (a run loop turn would).
            CATransaction.flush()
            _ = root.presentationTree(atMediaTime: CACurrentMediaTime() + 0.1)
            #expect(panel.animationKeys()?.contains("t") == true)
            freed = panel
            freedChild = root
        }
        #expect(freed == nil, "the layer with a transition was kept alive")
        #expect(freedChild == nil)
    }
}
