import Foundation
import LayerModel
import OpenCoreGraphics

// A CAShapeLayer's fill and stroke as filled paths (PathOp), composited between the layer's
// contents and its first sublayer, as Core Animation documents: the path is flattened in the
// layer's plane finely enough for the pixels it lands on, projected and clipped here, and each
// backend fills it from its contours; nothing is rasterized into a texture.

extension RenderListBuilder {
    /// How finely curves are flattened, in device pixels (CoverageRasterizer's: chords cut inside
    /// curves, so a coarser tolerance visibly loses area).
    static let pathTolerance = 0.02

    func emitShapePaths(of shape: CAShapeLayer, map: ProjectiveTransform2D, clip: [DevicePoint], opacity: Double,
                        tint: PremultipliedColor, state: inout BuildState) {
        guard let path = shape.path, !path.isEmpty, clip.count >= 3 else { return }
        func premultiplied(_ color: CGColor?) -> PremultipliedColor? {
            guard let c = color?.premultiplied, c.alpha > 0 else { return nil }
            return PremultipliedColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
        }
        // Fill and stroke are one op: the stroke over the fill, blended once (one picture, as
        // Core Animation makes of a shape layer; two translucent draws would round twice).
        let fill = premultiplied(shape.fillColor).flatMap { color in
            contours(of: path, map: map, clip: clip, layer: shape, part: "fill", state: &state).map { (color, $0) }
        }
        let stroke = premultiplied(shape.strokeColor).flatMap { color in
            shape.strokeOutline.flatMap { contours(of: $0, map: map, clip: clip, layer: shape, part: "stroke", state: &state) }
                .map { PathStroke(contours: $0, color: color) }
        }
        let op: PathOp?
        switch (fill, stroke) {
        case let ((color, contours)?, _):
            op = PathOp(source: DrawSource(shape, part: stroke == nil ? "fill" : "fill and stroke"), contours: contours,
                        evenOdd: shape.fillRule == .evenOdd, color: color, stroke: stroke, opacity: opacity, tint: tint,
                        targetWidth: state.width, targetHeight: state.height)
        case let (nil, stroke?):
            op = PathOp(source: DrawSource(shape, part: "stroke"), contours: stroke.contours, evenOdd: false, color: stroke.color,
                        opacity: opacity, tint: tint, targetWidth: state.width, targetHeight: state.height)
        case (nil, nil):
            op = nil
        }
        if let op { state.ops.append(.path(op)) }
    }

    /// The path flattened in the layer's plane (to `pathTolerance` device pixels), projected and
    /// clipped; nil where its bounds are not finite.
    private func contours(of path: CGPath, map: ProjectiveTransform2D, clip: [DevicePoint], layer: CALayer, part: String,
                          state: inout BuildState) -> [[DevicePoint]]? {
        let box = path.boundingBoxOfPath
        guard box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else {
            state.diagnostics.append("\(layer) \(part): the path's bounds are not finite; it is not drawn")
            return nil
        }
        let tolerance = RenderListBuilder.flatteningTolerance(over: box, map: map)
        var contours: [[DevicePoint]] = []
        for polyline in PathFlattener.polylines(path, tolerance: CGFloat(tolerance)) where polyline.count >= 3 {
            let device = PolygonClipping.project(polyline.map { (x: Double($0.x), y: Double($0.y)) }, through: map)
            guard device.count >= 3 else { continue }
            let clipped = PolygonClipping.intersect(device, with: clip)
            if clipped.count >= 3 { contours.append(clipped) }
        }
        return contours
    }

    /// `pathTolerance` device pixels in the plane's units, where the map magnifies most over
    /// `box` (at its corners, for a projective map): its local derivatives' largest row sum.
    static func flatteningTolerance(over box: CGRect, map: ProjectiveTransform2D) -> Double {
        var magnification = 0.0
        for (x, y) in [(box.minX, box.minY), (box.maxX, box.minY), (box.maxX, box.maxY), (box.minX, box.maxY)] {
            let h = map.applyHomogeneous(x: Double(x), y: Double(y))
            guard h.w > 0 else { continue }
            let w2 = h.w * h.w
            let dXdx = (map.m11 * h.w - h.x * map.m13) / w2, dXdy = (map.m21 * h.w - h.x * map.m23) / w2
            let dYdx = (map.m12 * h.w - h.y * map.m13) / w2, dYdy = (map.m22 * h.w - h.y * map.m23) / w2
            magnification = max(magnification, abs(dXdx) + abs(dXdy), abs(dYdx) + abs(dYdy))
        }
        let size = max(Double(box.width), Double(box.height), 1e-9)
        guard magnification.isFinite, magnification > 0 else { return pathTolerance }
        // Far past the eye plane a point's magnification is unbounded; a thousandth of the path's
        // size is fine enough for anything that shows.
        return max(pathTolerance / magnification, size * 1e-6)
    }
}
