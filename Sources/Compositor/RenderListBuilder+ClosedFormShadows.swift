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
    /// seen through a similarity (rotation, uniform scale, translation: a Gaussian stays a
    /// Gaussian), in closed form: one quad, no offscreen pass. Returns false when the layer does
    /// not qualify.
    func drawClosedFormShadow(_ visit: Visit, map: ProjectiveTransform2D, offset: (Double, Double),
                              tint: PremultipliedColor, opacity: Double, state: inout BuildState) -> Bool {
        let layer = visit.layer
        guard let (outline, alpha) = roundedShadowShape(of: layer) else { return false }
        // A similarity: no perspective, orthogonal axes of equal length.
        let ax = (map.m11, map.m12), ay = (map.m21, map.m22)
        let sx = (ax.0 * ax.0 + ax.1 * ax.1).squareRoot(), sy = (ay.0 * ay.0 + ay.1 * ay.1).squareRoot()
        guard abs(map.m13) < 1e-12, abs(map.m23) < 1e-12, abs(map.m33 - 1) < 1e-12, sx > 1e-9,
              abs(sx - sy) <= 1e-9 * sx, abs(ax.0 * ay.0 + ax.1 * ay.1) <= 1e-9 * sx * sx else { return false }
        var sigma = max(Double(layer.shadowRadius) * Double(scale), 0)
        guard sigma.isFinite, sigma > 0.25, sigma <= RenderListBuilder.maxShadowSigma,
              outline.rect.width > 0, outline.rect.height > 0 else { return false }
        // One radius for all four corners (the closed form's assumption).
        let radii = [outline.topLeft, outline.topRight, outline.bottomRight, outline.bottomLeft]
        guard radii.allSatisfy({ abs($0 - radii[0]) < 1e-9 }) else { return false }
        sigma /= sx // in the layer's plane
        // The shifted map: the shadow is the shape moved by the offset in device space.
        let shifted = map.concatenating(ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0,
                                                              m31: offset.0, m32: offset.1, m33: 1))
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
