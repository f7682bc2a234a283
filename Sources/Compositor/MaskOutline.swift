import Foundation
import LayerModel
import OpenCoreGraphics

// Shape masks without an offscreen pass. A mask whose alpha is exactly 1 inside a rounded
// rectangle of its own bounds space and exactly 0 outside multiplies the masked layer by that
// outline's coverage, which the compositor can apply directly: a rectangle becomes part of the
// convex device-space clip (any subtree, shadow included), a rounded one the analytic rounded
// coverage of the layer's own quads (when the layer draws nothing else). This is the exact case
// where Core Animation and Chromium take a clip instead of a mask texture; every other mask keeps
// the general route (drawn offscreen, destination-in).

extension RenderListBuilder {
    /// The outline of `mask` when its alpha is exactly that outline's coverage, in the mask's
    /// bounds space; nil when the mask's alpha is anything else (partial alpha, images, sublayers,
    /// strokes, a shadow, its own mask, any path other than a recognized rounded rectangle).
    func exactOutline(of mask: CALayer) -> RoundedRectangle? {
        guard !mask.isHidden, mask.opacity == 1, mask.mask == nil, (mask.sublayers ?? []).isEmpty,
              !mask.shouldRasterize, mask.transitionFrame == nil, !RenderListBuilder.keepsDepth(mask),
              mask.shadowOpacity == 0 || (mask.shadowColor?.alpha ?? 0) == 0,
              GeometryCheck.problem(in: mask) == nil else { return nil }
        let bounds = mask.bounds
        if let shape = mask as? CAShapeLayer {
            // The shape's own drawing is its path; anything else shown would change the alpha.
            guard shape.contents == nil || (shape.contentsAreDrawn && type(of: shape) == CAShapeLayer.self),
                  (shape.backgroundColor?.alpha ?? 0) == 0, shape.borderWidth <= 0 || (shape.borderColor?.alpha ?? 0) == 0,
                  shape.strokeColor == nil || shape.lineWidth <= 0 || (shape.strokeColor?.alpha ?? 0) == 0,
                  let fill = shape.fillColor, fill.alpha >= 1, let path = shape.path, let outline = RoundedRectPath(path),
                  !shape.masksToBounds || bounds.contains(outline.rect) else { return nil }
            let r = Double(outline.cornerRadius)
            return RoundedRectangle(rect: Rect(x: outline.rect.minX, y: outline.rect.minY,
                                               width: outline.rect.width, height: outline.rect.height),
                                    topLeft: r, topRight: r, bottomRight: r, bottomLeft: r)
        }
        // A plain layer: its opaque background, rounded by its corners, is all its alpha (a
        // border over an opaque background adds none).
        guard type(of: mask) == CALayer.self, mask.contents == nil, bounds.size.width > 0, bounds.size.height > 0,
              let background = mask.backgroundColor, background.alpha >= 1 else { return nil }
        return roundedBounds(of: mask)
    }
}
