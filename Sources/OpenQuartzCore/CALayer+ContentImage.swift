import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics

extension CALayer {
    /// The layer and its sublayers as `render(in:)` draws them into a context the size of its
    /// bounds: the layer's own bounds space (its transform and position left out, as Core
    /// Animation's `render(in:)` leaves them), its opacity applied, at `scale` device pixels per
    /// point, on `backend`. Layout runs first, as snapshot strategies ask for it
    /// (`setNeedsLayout`, `layoutIfNeeded`). Without a time the model tree is drawn, animations
    /// left out, as Apple's `render(in:)` draws it; at media time `t` animations are included: as
    /// with a `CARenderer` frame, the media clock is set to `t` first, so animations still
    /// uncommitted begin at `t`, and one with a `beginTime` of its own is shown `t - beginTime`
    /// into it. `size` (in points, from the bounds' origin) replaces the bounds' size as the image's.
    /// `render(in:)`'s rules apply (`RenderListBuilder.DrawingRules.renderInContext`): layers that
    /// use 3D transforms are not drawn, as Apple documents for it.
    public func renderedContentImage(size: CGSize? = nil, scale: CGFloat = 1, backend: RenderBackend = .cpu,
                                     atTime t: Double? = nil) throws -> CGImage {
        if let t, !t.isFinite { throw RenderError.invalidTime(t) }
        var opacity = 1.0
        if let t { MediaClock.set(t) }
        let list = try CATransaction.withLock { () throws -> RenderList in
            CATransaction.flush()
            setNeedsLayout()
            layoutIfNeeded()
            displayTreeIfNeeded()
            let tree = if let t, hasAnimationsInSubtree { presentationTree(atMediaTime: t) } else { self }
            opacity = Double(tree.opacity)
            do {
                var builder = RenderListBuilder(viewport: CGRect(origin: bounds.origin, size: size ?? bounds.size), scale: scale)
                // render(in:)'s rules: layers turned in 3D left out, non-separable blend filters source-over.
                builder.rules = .renderInContext
                return try builder.build(contentOf: tree)
            } catch let error as CompositorError {
                throw RenderError.compositing(error)
            }
        }
        var bitmap = try backend.draw(list)
        // The whole drawing faded at once, as a context's alpha fades the image render(in:) draws.
        if opacity < 1 {
            let keep = max(0, opacity)
            for i in bitmap.pixels.indices { bitmap.pixels[i] = UInt8((Double(bitmap.pixels[i]) * keep).rounded()) }
        }
        return CGImage(bitmap: bitmap)
    }
}
