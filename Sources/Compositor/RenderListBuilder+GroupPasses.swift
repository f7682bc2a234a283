import Foundation
import LayerModel
import OpenCoreGraphics

// Isolated groups: a layer whose opacity applies to its subtree as one (group opacity), whose
// rounded corners clip its sublayers, or whose mask multiplies all it composites is drawn
// offscreen first and composited once (needsOffscreenPass decides).

extension RenderListBuilder {
    /// The layer's subtree drawn offscreen, in a pass as large as what it covers, then composited
    /// over the target with the layer's opacity and either, with a mask, the mask's alpha (the
    /// mask drawn into a pass of its own in the layer's plane) or, with masksToBounds and
    /// cornerRadius, its rounded outline.
    func drawIsolated(_ visit: Visit, map: ProjectiveTransform2D, planeToDevice: CATransform3D, opacity: Double,
                      mask: CALayer? = nil, state: inout BuildState) throws {
        let layer = visit.layer
        var inner = visit
        inner.isolation = mask == nil ? .group : .masked
        inner.opacity = 1
        inner.tint = .opaqueWhite
        inner.clip = RenderListBuilder.guardBand(state.width, state.height)
        let content = try collectOps(&state) { try walk(from: inner, state: &$0) }
        guard let region = PixelRect.covering(content) else { return }
        var ops = moved(content, into: region)
        if let mask {
            let maskOps = try drawMask(mask, planeToDevice: planeToDevice, depth: visit.depth, state: &state)
            let maskPass = try addPass(moved(maskOps, into: region), width: region.width, height: region.height, state: &state)
            ops += fullTargetOps([(.pass(maskPass), 1)], width: region.width, height: region.height, filter: .nearest,
                                 blend: .destinationIn, source: "\(layer) mask")
        }
        let id = try addPass(ops, width: region.width, height: region.height, state: &state)
        var rounded: RoundedShape?
        if mask == nil, layer.masksToBounds, layer.cornerRadius > 0, let inverse = map.inverted(), let outline = roundedBounds(of: layer) {
            rounded = RoundedShape(deviceToLocal: inverse, outer: outline)
        }
        composite(pass: id, at: region, shiftedBy: (0, 0), filter: .nearest, clip: visit.clip, part: "group", layer: layer,
                  opacity: opacity, tint: visit.tint, rounded: rounded, state: &state)
    }

    /// How far past its bounds, in its own units, a layer draws inside the group pass whose
    /// composite applies its rounded outline (masksToBounds with cornerRadius): two device pixels
    /// at the bounds' corners, where a pixel reaches farthest in the layer's plane. Its
    /// background, border and sublayers' clip reach that far, so the outline is anti-aliased
    /// once, by the composite: drawn to the outline inside the pass too, the edge pixels were
    /// covered a^2 (a background looked thinner and lighter, and a border a(2a - a^2)). Nil where
    /// the composite applies no outline.
    func outlineMargin(of visit: Visit, map: ProjectiveTransform2D) -> Double? {
        let layer = visit.layer
        guard visit.isolation == .group, layer.masksToBounds, layer.cornerRadius > 0, let inverse = map.inverted() else { return nil }
        let b = layer.bounds
        var reach = 0.0
        for (x, y) in [(b.minX, b.minY), (b.maxX, b.minY), (b.maxX, b.maxY), (b.minX, b.maxY)] {
            let p = map.applyHomogeneous(x: x, y: y)
            guard p.w > 0 else { continue }
            let dx = p.x / p.w, dy = p.y / p.w
            let h = inverse.applyHomogeneous(x: dx, y: dy)
            guard h.w != 0 else { continue }
            // d(local)/d(device) of the projective map, as RoundedShape takes it.
            let w2 = h.w * h.w
            let dxdx = (inverse.m11 * h.w - h.x * inverse.m13) / w2, dxdy = (inverse.m21 * h.w - h.x * inverse.m23) / w2
            let dydx = (inverse.m12 * h.w - h.y * inverse.m13) / w2, dydy = (inverse.m22 * h.w - h.y * inverse.m23) / w2
            reach = max(reach, abs(dxdx) + abs(dxdy), abs(dydx) + abs(dydy))
        }
        guard reach.isFinite, reach > 0 else { return nil }
        return min(2 * reach, max(b.width, b.height))
    }
}
