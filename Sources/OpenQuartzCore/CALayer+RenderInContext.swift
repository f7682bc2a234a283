import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import RasterBackend

extension CALayer {
    /// Draws the layer and its sublayers, as they are now, into `ctx`: the context's user space is
    /// taken as the layer's bounds space (the layer's own transform and position are left out, as
    /// in Core Animation; its opacity applies), rasterized by the CPU reference at the context's
    /// scale. In a context flipped to y down (as UIKit's), the drawing is upright; seed 000's
    /// mirror draws a layer this way, flipped. As Apple documents for this method, layers that
    /// use 3D transforms (turned about x or y, or in perspective) are not rendered, nor their
    /// sublayers; compositing filters of the non-separable blend modes are drawn source-over, as
    /// Apple's frames show (`RenderListBuilder.DrawingRules.renderInContext`).
    public func render(in ctx: CGContext) {
        let b = bounds
        guard b.size.width > 0, b.size.height > 0 else { return }
        let m = ctx.ctm
        let scale = max((abs(m.a * m.d - m.b * m.c)).squareRoot(), 1e-3)
        displayTreeIfNeeded()
        let tree = hasAnimationsInSubtree ? presentationTree(atMediaTime: CACurrentMediaTime()) : self
        var builder = RenderListBuilder(viewport: b, scale: scale)
        builder.rules = .renderInContext
        guard let list = try? builder.build(contentOf: tree) else { return }
        let image = CGImage(bitmap: RasterRenderer().render(list))
        ctx.saveGState()
        ctx.setAlpha(CGFloat(tree.opacity))
        // Images draw upright in a y-up space; the layer's top row belongs at its minY.
        ctx.translateBy(x: 0, y: b.minY + b.maxY)
        ctx.scaleBy(x: 1, y: -1)
        ctx.draw(image, in: b)
        ctx.restoreGState()
    }
}
