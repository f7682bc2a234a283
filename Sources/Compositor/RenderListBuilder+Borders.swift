import Foundation
import LayerModel
import OpenCoreGraphics

// Borders: a ring inside the bounds, drawn after everything the sublayers draw (as Core
// Animation does), its outer and inner outlines rounded by cornerRadius less the width;
// roundedBounds is the one reading of cornerRadius, maskedCorners and cornerCurve.

extension RenderListBuilder {
    /// A border to draw once a layer's sublayers are drawn: on top of them, as Core Animation does.
    struct BorderDraw {
        let map: ProjectiveTransform2D
        let clip: [DevicePoint]
        let opacity: Double
        /// How far past the bounds the ring's outer outline is moved, in the layer's units: a
        /// pixel or two where the layer's group composite applies the outline itself
        /// (`outlineMargin`), 0 elsewhere.
        var outerMargin = 0.0
    }

    /// The layer's rounded bounds, or nil when its corners are square.
    func roundedBounds(of layer: CALayer, inset: Double = 0) -> RoundedRectangle? {
        let b = layer.bounds
        let limit = min(b.width, b.height) / 2
        let r = layer.cornerRadius.isFinite ? min(max(layer.cornerRadius, 0), limit) : 0
        let corners = layer.maskedCorners
        func radius(_ corner: CACornerMask) -> Double { corners.contains(corner) ? max(r - inset, 0) : 0 }
        return RoundedRectangle(rect: Rect(x: b.minX + inset, y: b.minY + inset,
                                           width: max(b.width - 2 * inset, 0), height: max(b.height - 2 * inset, 0)),
                                topLeft: radius(.layerMinXMinYCorner), topRight: radius(.layerMaxXMinYCorner),
                                bottomRight: radius(.layerMaxXMaxYCorner), bottomLeft: radius(.layerMinXMaxYCorner),
                                continuous: layer.cornerCurve == .continuous)
    }

    /// The border ring of a visited layer (after its sublayers).
    func emitBorder(of layer: CALayer, _ border: BorderDraw, tint: PremultipliedColor, state: inout BuildState) {
        let b = layer.bounds
        let width = layer.borderWidth.isFinite ? min(max(layer.borderWidth, 0), min(b.width, b.height) / 2) : 0
        guard width > 0, let color = layer.borderColor?.premultiplied, color.alpha > 0,
              let deviceToLocal = border.map.inverted(), let outer = roundedBounds(of: layer, inset: -border.outerMargin) else { return }
        let shape = RoundedShape(deviceToLocal: deviceToLocal, outer: outer, inner: roundedBounds(of: layer, inset: width))
        let m = border.outerMargin
        emit(rect: Rect(x: b.minX - m, y: b.minY - m, width: b.width + 2 * m, height: b.height + 2 * m), map: border.map, clip: border.clip,
             part: "border", layer: layer,
             fill: .solid(PremultipliedColor(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)),
             opacity: border.opacity, tint: tint, rounded: shape, state: &state)
    }
}
