import Foundation
import LayerModel
import OpenCoreGraphics

// Isolated groups: a layer whose opacity applies to its subtree as one (group opacity), whose
// rounded corners clip its sublayers, whose mask multiplies all it composites, or whose
// compositingFilter blends it with the backdrop is drawn offscreen first and composited once
// (needsOffscreenPass decides).

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
        // The composite applies the layer's rounded outline (drawn inside, its edges reach past
        // it) unless an enclosing one of the same shape applies it already.
        var outline: EnclosingOutline?
        if mask == nil, layer.masksToBounds, layer.cornerRadius > 0, let shape = roundedBounds(of: layer) {
            outline = EnclosingOutline(outline: shape, map: map)
        }
        let appliesOutline = outline != nil && !(outline.map { visit.outline?.coincides(with: $0.outline, map: map) == true } ?? false)
        inner.outline = outline ?? visit.outline
        // Blended with the backdrop by its compositingFilter, mask and all (not a group inside a
        // mask's pass, whose composite is the one that blends).
        let blend = visit.isolation == .none ? compositingMode(of: layer) : nil
        // Where the composite leaves the target alone under a clear source, only the pixels
        // inside the clip it is composited through, and with a mask only those the mask draws,
        // can show: the pass and everything drawn into it stop there (a gradient layer padded
        // 10,000 points a side under a small shape mask, as lottie-ios builds gradient fills, is
        // drawn over the mask's pixels, not the frame's). The limit is whole pixels, so the
        // pixels inside it are drawn as without it.
        var limit = (blend ?? .sourceOver).keepsTargetUnderClearSource ? PixelRect.bounding(visit.clip) : nil
        let deviceMaskOps = try mask.map { try drawMask($0, planeToDevice: planeToDevice, depth: visit.depth, state: &state) }
        if let deviceMaskOps, let within = limit {
            guard let reach = PixelRect.covering(deviceMaskOps), let both = within.intersection(reach) else { return }
            limit = both
        }
        if let limit {
            inner.clip = PolygonClipping.intersect(inner.clip, with: PolygonClipping.rectangle(
                minX: Double(limit.minX), minY: Double(limit.minY), maxX: Double(limit.maxX), maxY: Double(limit.maxY)))
        }
        let content = try collectOps(&state) { try walk(from: inner, state: &$0) }
        guard let covered = PixelRect.covering(content),
              let region = limit.map({ covered.intersection($0) }) ?? covered else { return }
        var ops = moved(content, into: region)
        if let deviceMaskOps {
            let maskOps = moved(deviceMaskOps, into: region)
            if let direct = RenderListBuilder.maskDrawnFromItsPath(maskOps, of: layer) {
                ops.append(.path(direct))
            } else {
                let maskPass = try addPass(maskOps, width: region.width, height: region.height, state: &state)
                ops += fullTargetOps([(.pass(maskPass), 1)], width: region.width, height: region.height, filter: .nearest,
                                     blend: .destinationIn, source: DrawSource(layer, part: "mask"))
            }
        }
        let id = try addPass(ops, width: region.width, height: region.height, state: &state)
        var rounded: RoundedShape?
        if appliesOutline {
            // A plane squashed past what a double resolves (a scale of 1e30 one way) has no
            // inverse to measure the outline through; composited without it the pass would spill
            // over the frame, where the clip leaves nothing but a line.
            guard let inverse = map.inverted(), let outline = roundedBounds(of: layer) else {
                state.diagnostics.append("\(layer): its rounded clip is squashed to a line on screen; nothing of it is drawn")
                return
            }
            rounded = RoundedShape(deviceToLocal: inverse, outer: outline)
        }
        composite(pass: id, at: region, shiftedBy: (0, 0), filter: .nearest, clip: visit.clip, part: "group", layer: layer,
                  opacity: opacity, tint: visit.tint, rounded: rounded, blend: blend ?? .sourceOver, state: &state)
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
        guard visit.isolation == .group, layer.masksToBounds, layer.cornerRadius > 0 else { return nil }
        let b = layer.bounds
        guard let reach = RenderListBuilder.localUnitsPerDevicePixel(at: Rect(x: b.minX, y: b.minY, width: b.width, height: b.height),
                                                                     map: map) else { return nil }
        return min(2 * reach, max(b.width, b.height))
    }

    /// How many of the plane's units one device pixel spans at most, over the rectangle's corners
    /// (where a projective map stretches a pixel farthest within it): the derivative of the
    /// inverse map, as RoundedShape takes it. Nil where no corner is in front of the eye.
    static func localUnitsPerDevicePixel(at rect: Rect, map: ProjectiveTransform2D) -> Double? {
        guard let inverse = map.inverted() else { return nil }
        var reach = 0.0
        for (x, y) in [(rect.x, rect.y), (rect.x + rect.width, rect.y), (rect.x + rect.width, rect.y + rect.height),
                       (rect.x, rect.y + rect.height)] {
            let p = map.applyHomogeneous(x: x, y: y)
            guard p.w > 0 else { continue }
            let dx = p.x / p.w, dy = p.y / p.w
            let h = inverse.applyHomogeneous(x: dx, y: dy)
            guard h.w != 0 else { continue }
            let w2 = h.w * h.w
            let dxdx = (inverse.m11 * h.w - h.x * inverse.m13) / w2, dxdy = (inverse.m21 * h.w - h.x * inverse.m23) / w2
            let dydx = (inverse.m12 * h.w - h.y * inverse.m13) / w2, dydy = (inverse.m22 * h.w - h.y * inverse.m23) / w2
            reach = max(reach, abs(dxdx) + abs(dxdy), abs(dydx) + abs(dydy))
        }
        guard reach.isFinite, reach > 0 else { return nil }
        return reach
    }
}
