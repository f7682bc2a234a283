import Foundation
import LayerModel
import OpenCoreGraphics

// Shadows in closed form: a shadow whose shape is one rounded rectangle, seen through a
// similarity, is a single quad filled by BlurredRoundedRect (exact erf along x, Gaussian
// samples along y): no pass. Anything else takes the offscreen blur (+Shadows).

extension RenderListBuilder {
    /// The outline and alpha of a layer's shadow shape when it is a rounded rectangle with one
    /// radius: a shadowPath recognized as a rectangle, rounded rectangle or circle (opaque), or
    /// without one, a layer that composites to its background alone (no contents, sublayers,
    /// mask, or a border that would show through a translucent background). Nil otherwise.
    func roundedShadowShape(of layer: CALayer) -> (outline: RoundedRectangle, alpha: Double)? {
        guard layer.mask == nil, !layer.shouldRasterize else { return nil }
        if let path = layer.shadowPath {
            guard let shape = RoundedRectPath(path) else { return nil }
            let r = shape.cornerRadius
            return (RoundedRectangle(rect: Rect(x: shape.rect.minX, y: shape.rect.minY, width: shape.rect.width, height: shape.rect.height),
                                     topLeft: r, topRight: r, bottomRight: r, bottomLeft: r), 1)
        }
        guard layer.contents == nil, (layer.sublayers ?? []).isEmpty, let background = layer.backgroundColor?.premultiplied,
              background.alpha >= 1 || layer.borderWidth <= 0 || layer.borderColor == nil,
              let outline = roundedBounds(of: layer) else { return nil }
        // The closed form integrates circular corners; continuous ones take the offscreen blur.
        if outline.continuous, [outline.topLeft, outline.topRight, outline.bottomRight, outline.bottomLeft].contains(where: { $0 > 0 }) {
            return nil
        }
        return (outline, background.alpha)
    }

    /// The shadow of a layer whose shadow shape is a rounded rectangle (see `roundedShadowShape`),
    /// seen through a similarity of `pixelsPerPoint` (rotation, uniform scale, translation: a
    /// Gaussian stays a Gaussian), in closed form: one quad, no offscreen pass. The shape, its
    /// offset and its sigma (`radius`) are all in the layer's plane. Returns false when the layer
    /// does not qualify.
    func drawClosedFormShadow(_ visit: Visit, map: ProjectiveTransform2D, offset: CGSize, radius: Double, pixelsPerPoint sx: Double,
                              tint: PremultipliedColor, opacity: Double, state: inout BuildState) -> Bool {
        let layer = visit.layer
        guard let (outline, alpha) = roundedShadowShape(of: layer) else { return false }
        let deviceSigma = radius * sx
        guard deviceSigma.isFinite, deviceSigma > 0.25, deviceSigma <= RenderListBuilder.maxShadowSigma,
              outline.rect.width > 0, outline.rect.height > 0 else { return false }
        // One radius for all four corners (the closed form's assumption).
        let radii = [outline.topLeft, outline.topRight, outline.bottomRight, outline.bottomLeft]
        guard radii.allSatisfy({ abs($0 - radii[0]) < 1e-9 }) else { return false }
        let sigma = radius // in the layer's plane
        // The shifted map: the shadow is the shape moved by the offset in the layer's plane.
        let shifted = ProjectiveTransform2D.translation(offset.width, offset.height).concatenating(map)
        guard let deviceToLocal = shifted.inverted() else { return false }
        let color = PremultipliedColor(red: tint.red * alpha, green: tint.green * alpha, blue: tint.blue * alpha, alpha: tint.alpha * alpha)
        // Past its negligible reach (3 sigma at full strength, less for a faint shadow) every
        // pixel's byte is 0 on both backends; a pixel more for the quad's own anti-aliased edge.
        let strongest = max(color.red, color.green, color.blue, color.alpha) * opacity
        let reach = BlurredRoundedRect.negligibleReach(strongest: strongest) * sigma + 1 / sx
        let r = outline.rect
        let area = Rect(x: r.x - reach, y: r.y - reach, width: r.width + 2 * reach, height: r.height + 2 * reach)
        // A corner small beside the blur hardly shows: the blurred rectangle's exact form (four
        // erf, no sampling along y) differs from the rounded one by at most the corners' missing
        // area, (4 - pi) r^2, times the Gaussian's peak, 1 / (2 pi sigma^2): under 1/255 while
        // r < 0.165 sigma. It keeps wide shadows, whose quads are large, about as cheap as narrow ones.
        let corner = radii[0] < RenderListBuilder.negligibleCornerPerSigma * sigma ? 0 : radii[0]
        let shape = BlurredRoundedRect(deviceToLocal: deviceToLocal, rect: r, cornerRadius: corner, sigma: sigma, color: color)
        // Out to whole pixels where the quad is an axis-aligned rectangle: the pixels it gains
        // lie past the reach too, and a quad of whole pixels needs no edges worked out (the GL
        // shadow batch's UNCLIPPED variant; the CPU measures the polygon only at each row's ends).
        emit(rect: area, map: shifted, clip: visit.clip, part: "shadow", layer: layer, fill: .blurredRoundedRect(shape),
             opacity: opacity, wholePixels: shadowQuadsInWholePixels, state: &state)
        return true
    }
}
