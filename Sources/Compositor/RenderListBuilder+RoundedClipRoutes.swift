import Foundation
import LayerModel
import OpenCoreGraphics

// Which route a rounded clip of sublayers (masksToBounds with cornerRadius) takes. Its outline
// must be anti-aliased once over everything it clips, which in general takes a group pass
// composited through the outline (`drawIsolated`): drawing each sublayer through the outline
// instead would blend each one's partial coverage at the edge (the background shows through the
// overlap), and a stencil is binary there. But where everything the sublayers draw lies inside
// the outline, a pixel's reach in from it, the clip cuts nothing: the layer's own background,
// contents and border carry the outline themselves (as any rounded layer's do) and the
// sublayers (and a shape layer's own fill and stroke) are drawn as they are, with no pass,
// exactly. A card with inset content is that case. With a border, the sublayers must lie inside
// its inner outline too: then the border, which they do not touch, is drawn straight after the
// background, and the two are drawn as one, by area (`QuadOp.isBorder(over:)`); drawn after the
// sublayers, the background would show through the border's outer edge, which in the pass it
// does not.

extension RenderListBuilder {
    /// Subtrees larger than this are not tried: the test draws the subtree once more.
    static let roundedClipTrialLayers = 256

    /// Whether the rounded clip of `visit`'s layer cuts nothing its sublayers draw: their draws,
    /// built once more and thrown away, all lie inside the outline by a pixel's reach (in the
    /// layer's plane), and inside its border's inner outline where it has a border. Never nested:
    /// inside a trial, an inner clip takes its pass.
    func roundedClipCutsNothing(_ visit: Visit, map: ProjectiveTransform2D, state: inout BuildState) -> Bool {
        let layer = visit.layer
        let b = layer.bounds
        let border = layer.borderWidth.isFinite && layer.borderColor != nil ? min(max(layer.borderWidth, 0), min(b.width, b.height) / 2) : 0
        // A rasterized layer is drawn into its bitmap inside its group pass, as before.
        guard triesRoundedClips, !state.inTrial, !layer.shouldRasterize, let inverse = map.inverted(), let outline = roundedBounds(of: layer, inset: border),
              let unit = RenderListBuilder.localUnitsPerDevicePixel(at: outline.rect, map: map),
              RenderListBuilder.subtreeSize(of: layer, limit: RenderListBuilder.roundedClipTrialLayers) <= RenderListBuilder.roundedClipTrialLayers
        else { return false }
        let saved = state
        defer { state = saved }
        state.inTrial = true
        var inner = visit
        inner.isolation = .group
        inner.opacity = 1
        inner.tint = .opaqueWhite
        inner.clip = RenderListBuilder.guardBand(state.width, state.height)
        guard let content = try? collectOps(&state, { try walk(from: inner, state: &$0) }) else { return false }
        // Continuous corners' distance is first-order off the outline: a wider margin for them.
        let margin = (PolygonCoverage.reach + 0.05) * unit * (outline.continuous ? 1.5 : 1)
        for op in content {
            let points: [DevicePoint]
            switch op {
            case .quad(let quad):
                // The background and border carry the outline (drawn as one, by area); contents
                // do too, but over a background or under a border each would show through the
                // other's edge (drawn apart, two anti-aliased edges blend), so then they must
                // stay inside, as any sublayer.
                if quad.source.isFrom(layer), quad.source.part == "background" || quad.source.part == "border" { continue }
                if border == 0, layer.backgroundColor == nil, quad.source.isFrom(layer) { continue }
                points = quad.polygon.vertices
            case .path(let path):
                // The layer's own fill and stroke do not carry its outline: they are held to it too.
                points = Array(path.contours.joined())
            case .blur, .halve:
                return false
            }
            for p in points {
                let h = inverse.applyHomogeneous(x: p.x, y: p.y)
                guard h.w > 0, outline.signedDistance(x: h.x / h.w, y: h.y / h.w).distance <= -margin else { return false }
            }
        }
        return true
    }

    /// The layers of the subtree (the layer, sublayers and masks), counted up to just past `limit`.
    static func subtreeSize(of layer: CALayer, limit: Int) -> Int {
        var count = 0
        var stack = [layer]
        while let next = stack.popLast(), count <= limit {
            count += 1
            stack.append(contentsOf: next.sublayers ?? [])
            if let mask = next.mask { stack.append(mask) }
        }
        return count
    }
}
