// What the layer-tree fuzz target found (fuzz/Sources/FuzzLayerTree), one test per finding; the
// inputs stay in fuzz/corpus/FuzzLayerTree/ (crash-*), replayed by every fuzz run.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Fuzz findings: layer trees")
struct LayerFuzzRegressionTests {
    @Test("a drawn layer (a shape) with bounds 1e30 wide has no backing store instead of trapping on the pixel count")
    func hugeDrawnLayer() throws {
        let shape = CAShapeLayer()
        shape.bounds = CGRect(x: 0, y: 0, width: 1e30, height: 20)
        shape.position = CGPoint(x: 10, y: 10)
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        shape.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        shape.displayIfNeeded()
        #expect(shape.contents == nil)
        _ = try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 32, height: 32)).build(root: shape)
    }

    @Test("a shadow offset 1e30 (drawn from its shape, not in closed form) lands nowhere and traps nothing")
    func hugeShadowOffset() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
        let layer = CALayer()
        layer.frame = CGRect(x: 4, y: 4, width: 16, height: 16)
        layer.shadowOpacity = 1
        layer.shadowRadius = 3
        for offset in [CGSize(width: 1e30, height: 0), CGSize(width: 0, height: -1e30), CGSize(width: 1e300, height: 1e300)] {
            layer.shadowOffset = offset
            let child = CALayer()
            child.frame = CGRect(x: 2, y: 2, width: 4, height: 4)
            child.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            layer.sublayers = [child]
            root.sublayers = [layer]
            let list = try RenderListBuilder(viewport: root.frame).build(root: root)
            #expect(list.passes.count == 1, "no blur pass for a shadow that lands nowhere")
        }
    }
}
