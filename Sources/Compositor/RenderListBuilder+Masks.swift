import Foundation
import LayerModel
import OpenCoreGraphics

// Masks: the mask layer's alpha multiplies everything the masked layer composites, its
// shadow included. A mask that is exactly one outline over a single quad becomes that quad's
// clip; a mask that is one filled path is applied as that path, destination-in; any other is
// drawn into a pass and applied destination-in.

extension RenderListBuilder {
    /// The layer's mask when it can be applied; a mask that is the layer, one of its ancestors,
    /// or a mask being drawn further up is left out, and the list says so.
    func usableMask(of layer: CALayer, state: inout BuildState) -> CALayer? {
        guard let mask = layer.mask else { return nil }
        if layer.isDescendant(of: mask) || state.masksInUse.contains(ObjectIdentifier(mask)) {
            state.diagnostics.append("\(layer): its mask \(mask) is the layer itself, one of its ancestors or a mask that "
                + "contains it; the layer is drawn unmasked")
            return nil
        }
        return mask
    }

    /// What a shape mask turned into a clip leaves to draw.
    enum MaskClip {
        /// The layer's visit with the mask applied as its clip.
        case clipped(Visit)
        /// The mask covers nothing on screen, so neither does the layer.
        case nothingVisible
    }

    /// The mask as a clip instead of an offscreen pass, where that is exact (see MaskOutline.swift):
    /// the layer must draw a single quad (a background or contents, no sublayers, border, shadow
    /// or rounded corners of its own), since clipping several quads separately would blend each
    /// one's partial coverage at the mask's edge where the mask multiplies their composite once.
    /// A rectangular outline then joins the quad's convex device clip; a rounded one becomes the
    /// quad's rounded coverage when the quad holds the whole outline (its own edges then cannot
    /// show). Nil when the mask needs its offscreen pass.
    func maskAsClip(_ mask: CALayer, of visit: Visit, map: ProjectiveTransform2D,
                    planeToDevice: CATransform3D) -> MaskClip? {
        let layer = visit.layer
        let drawsBackground = (layer.backgroundColor?.alpha ?? 0) > 0, image = layer.contents as? CGImage
        guard drawsBackground != (image != nil), (layer.sublayers ?? []).isEmpty, !(layer.cornerRadius > 0),
              !layer.shouldRasterize, layer.borderWidth <= 0 || (layer.borderColor?.alpha ?? 0) == 0,
              layer.shadowOpacity <= 0 || (layer.shadowColor?.alpha ?? 0) == 0,
              let outline = exactOutline(of: mask) else { return nil }
        let maskToLayer = CATransform3DConcat(mask.transformToSuperlayer, RenderListBuilder.flatten)
        let maskMap = CATransform3DConcat(maskToLayer, planeToDevice).planeTransform
        let projected = PolygonClipping.project(outline.rect, through: maskMap)
        if !mask.isDoubleSided && PolygonClipping.signedArea(projected) < 0 { return .nothingVisible }
        let inside = PolygonClipping.intersect(orient(projected), with: visit.clip)
        guard inside.count >= 3 else { return .nothingVisible }
        var clipped = visit
        clipped.maskApplied = true
        let radii = [outline.topLeft, outline.topRight, outline.bottomRight, outline.bottomLeft]
        if radii.allSatisfy({ $0 <= 0 }) {
            clipped.clip = inside
            return .clipped(clipped)
        }
        // Rounded: the outline gives all the coverage itself (its rectangle in the clip polygon
        // too would count its straight edges twice), so the quad must hold all of it.
        guard let deviceToMask = maskMap.inverted() else { return nil }
        let toLayer = maskToLayer.planeTransform
        let r = outline.rect
        let corners = [(r.x, r.y), (r.x + r.width, r.y), (r.x + r.width, r.y + r.height), (r.x, r.y + r.height)]
            .map { toLayer.apply(CGPoint(x: $0.0, y: $0.1)) }
        var quad = layer.bounds
        if let image {
            let scale = layer.contentsScale.isFinite && layer.contentsScale > 0 ? layer.contentsScale : 1
            quad = contentsFrame(of: layer, image: image, contentsScale: scale)
        }
        let slack = 1e-6 * max(1, quad.width, quad.height)
        guard corners.allSatisfy({ $0.x >= quad.minX - slack && $0.x <= quad.maxX + slack
                                    && $0.y >= quad.minY - slack && $0.y <= quad.maxY + slack }) else { return nil }
        clipped.maskRounding = RoundedShape(deviceToLocal: deviceToMask, outer: outline)
        return .clipped(clipped)
    }

    /// A mask that draws one filled path and nothing else (a `CAShapeLayer` with no sublayers,
    /// background, contents or border: the common star, ring or wave mask) applied as that path,
    /// destination-in, over the masked layer's pass: its alpha is the path's coverage (fill and
    /// stroke, times the mask's colour alpha and opacity), which both backends compute from the
    /// contours (stencil-then-cover with a fractional count on the GPU), so the mask needs no
    /// pass of its own. A destination-in path clears its target outside the contours too.
    /// Nil for any other mask: it is drawn into a pass.
    static func maskDrawnFromItsPath(_ maskOps: [DrawOp], of layer: CALayer) -> PathOp? {
        guard maskOps.count == 1, case .path(var path) = maskOps[0], path.blend == .sourceOver else { return nil }
        path.blend = .destinationIn
        path.source = DrawSource(layer, part: "mask: \(path.source)")
        return path
    }

    /// The mask layer's subtree drawn into the current target: placed in the masked layer's plane
    /// as a sublayer would be, but without its sublayerTransform (a mask has no superlayer).
    func drawMask(_ mask: CALayer, planeToDevice: CATransform3D, depth: Int, state: inout BuildState) throws -> [DrawOp] {
        let key = ObjectIdentifier(mask)
        state.masksInUse.insert(key)
        defer { state.masksInUse.remove(key) }
        let parent = CATransform3DConcat(RenderListBuilder.flatten, planeToDevice)
        let visit = Visit(layer: mask, parentPlaneToDevice: parent, opacity: 1,
                          clip: RenderListBuilder.guardBand(state.width, state.height), depth: depth + 1)
        return try collectOps(&state) { try walk(from: visit, state: &$0) }
    }
}
