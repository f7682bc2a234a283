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

    // A superlayer is not retained by its sublayers (as in Core Animation); a layer that outlives
    // its superlayer or masked layer reads nil there, never the freed layer.

    @Test("a sublayer and a mask that outlive their layer have no superlayer; a mask keeps a superlayer of its own")
    func linksOutliveTheirLayer() {
        let child = CALayer(), mask = CALayer(), ownedMask = CALayer()
        let holder = CALayer()
        holder.addSublayer(ownedMask)
        do {
            let parent = CALayer()
            parent.addSublayer(child)
            parent.mask = mask
            let other = CALayer()
            other.mask = ownedMask
            #expect(child.superlayer === parent && mask.superlayer === parent)
            #expect(ownedMask.superlayer === holder, "a mask that already has a superlayer keeps it")
        }
        #expect(child.superlayer == nil)
        #expect(mask.superlayer == nil)
        #expect(ownedMask.superlayer === holder)
        #expect(child.convert(CGPoint(x: 1, y: 2), to: nil) == CGPoint(x: 1, y: 2), "the freed superlayer is not reached")
    }

    @Test("a layer two levels down, held elsewhere, loses its superlayer link when the tree above it is freed")
    func grandchildOutlivesItsTree() {
        // No weak reference to the middle layer here: one would change how it is counted.
        let grandchild = CALayer()
        var root: CALayer? = CALayer()
        do {
            let middle = CALayer()
            root?.addSublayer(middle)
            middle.addSublayer(grandchild)
        }
        #expect(grandchild.superlayer?.superlayer === root)
        // Only the root holds the middle layer when the root goes; its release frees the middle
        // layer iteratively (deep trees), after taking its sublayers from it: the grandchild's
        // link to it goes too.
        root = nil
        #expect(grandchild.superlayer == nil)
    }

    @Test("presentation copies kept between frames: a sublayer moved to another layer, whose old layer goes, keeps its new superlayer")
    func presentationLinksAcrossFrames() throws {
        let root = CALayer(), first = CALayer(), second = CALayer(), moving = CALayer()
        root.addSublayer(first)
        root.addSublayer(second)
        first.addSublayer(moving)
        let cache = PresentationCache()
        var tree: CALayer? = root.presentationTree(atMediaTime: 0, reusing: cache)
        let movingCopy = try #require(tree?.sublayers?.first?.sublayers?.first)
        #expect(movingCopy.superlayer === tree?.sublayers?.first)
        // The layer moves from the first sublayer to the second, and the first leaves the tree:
        // its copy is dropped while the moved copy lives on under the second's.
        second.addSublayer(moving)
        first.removeFromSuperlayer()
        tree = root.presentationTree(atMediaTime: 0, reusing: cache)
        let secondCopy = try #require(tree?.sublayers?.first)
        let movedCopy = try #require(secondCopy.sublayers?.first)
        #expect(movedCopy === movingCopy, "the copy is reused")
        #expect(movedCopy.superlayer === secondCopy)
        #expect(secondCopy.superlayer === tree)
        tree = nil
        #expect(movedCopy.superlayer === secondCopy, "the copy's layer is still held by the cache")
        _ = root.presentationTree(atMediaTime: 0, reusing: PresentationCache())
    }

    @Test("a replicator's delayed instances that outlive its presentation copy have no superlayer")
    func delayedInstancesOutliveTheirReplicator() throws {
        let replicator = CAReplicatorLayer()
        replicator.instanceCount = 3
        replicator.instanceDelay = 0.1
        let dot = CALayer()
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 0
        fade.toValue = 1
        fade.duration = 1
        replicator.addSublayer(dot)
        MediaClock.$scoped.withValue(0) { dot.add(fade, forKey: "fade") }
        var instance: CALayer?
        do {
            let copy = try #require(replicator.presentationTree(atMediaTime: 0.5) as? CAReplicatorLayer)
            instance = copy.delayedInstances.first?.first
            #expect(instance?.superlayer === copy)
        }
        #expect(instance != nil)
        #expect(instance?.superlayer == nil)
    }
}
