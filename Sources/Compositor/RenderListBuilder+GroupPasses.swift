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
}
