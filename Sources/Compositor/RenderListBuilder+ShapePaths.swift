import Foundation
import LayerModel
import OpenCoreGraphics

// A CAShapeLayer's fill and stroke as filled paths (PathOp), composited between the layer's
// contents and its first sublayer, as Core Animation documents: the path and its stroke are
// flattened in the layer's plane finely enough for the pixels they land on (and kept for the
// next frame, ShapeOutlineCache), projected and clipped here, and each backend fills them from
// their contours; nothing is rasterized into a texture.

extension RenderListBuilder {
    /// How finely curves are flattened, in device pixels (CoverageRasterizer's: chords cut inside
    /// curves, so a coarser tolerance visibly loses area). A shape's tolerance in its own units is
    /// this over the map's largest magnification, rounded down to a power of two.
    static let pathTolerance = 0.02

    func emitShapePaths(of shape: CAShapeLayer, map: ProjectiveTransform2D, clip: [DevicePoint], opacity: Double,
                        tint: PremultipliedColor, state: inout BuildState) {
        guard let path = shape.path, !path.isEmpty, clip.count >= 3 else { return }
        func premultiplied(_ color: CGColor?) -> PremultipliedColor? {
            guard let c = color?.premultiplied, c.alpha > 0 else { return nil }
            return PremultipliedColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
        }
        let fillColor = premultiplied(shape.fillColor), strokeColor = premultiplied(shape.strokeColor)
        guard fillColor != nil || strokeColor != nil else { return }
        // The control points' box holds the path: where they are finite, so is everything made
        // of them; the map magnifies most at its corners.
        let box = path.boundingBox
        guard box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else {
            state.diagnostics.append("\(shape): the path's bounds are not finite; it is not drawn")
            return
        }
        let elements = path.elements, digest = ShapeOutlineCache.digest(of: elements)
        // Fill and stroke are one op: the stroke over the fill, blended once (one picture, as
        // Core Animation makes of a shape layer; two translucent draws would round twice).
        let fill = fillColor.flatMap { color -> (PremultipliedColor, [[DevicePoint]])? in
            let tolerance = ShapeOutlineCache.quantized(RenderListBuilder.flatteningTolerance(over: box, map: map))
            let key = ShapeOutlineCache.Key(elements: elements, digest: digest, stroke: nil, tolerance: tolerance)
            let polylines = outline(key) { PathFlattener.polylines(path, tolerance: CGFloat(tolerance)) }
            return (color, contours(of: polylines, map: map, clip: clip))
        }
        let stroke = strokeColor.flatMap { color -> PathStroke? in
            // Each property read once: a shape layer's are stored values found by key.
            let lineWidth = shape.lineWidth, lineJoin = shape.lineJoin, miterLimit = shape.miterLimit
            guard lineWidth > 0, lineWidth.isFinite else { return nil }
            let half = lineWidth / 2
            // Joins reach past the path by up to the miter limit's half widths.
            let reach = half * max(1, lineJoin == .miter ? miterLimit : 1)
            let tolerance = ShapeOutlineCache.quantized(RenderListBuilder.flatteningTolerance(over: box.insetBy(dx: -reach, dy: -reach),
                                                                                               map: map))
            let style = ShapeOutlineCache.Stroke(width: lineWidth, cap: shape.lineCap.cgLineCap, join: lineJoin.cgLineJoin,
                                                 miterLimit: miterLimit, dashPhase: shape.lineDashPhase,
                                                 dashLengths: (shape.lineDashPattern ?? []).map { CGFloat($0.doubleValue) },
                                                 start: shape.strokeStart, end: shape.strokeEnd)
            let key = ShapeOutlineCache.Key(elements: elements, digest: digest, stroke: style, tolerance: tolerance)
            let polylines = outline(key) {
                shape.strokeOutlinePolylines(coarsestTolerance: CGFloat(tolerance), flattening: CGFloat(tolerance)) ?? []
            }
            return PathStroke(contours: contours(of: polylines, map: map, clip: clip), color: color)
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

    /// The outline's polylines in the layer's plane: kept from an earlier frame when the
    /// builder has an `outlineCache` and the path, stroke and tolerance are the same, else made.
    private func outline(_ key: ShapeOutlineCache.Key, make: () -> ShapeOutlineCache.Polylines) -> ShapeOutlineCache.Polylines {
        outlineCache?.polylines(for: key, make: make) ?? make()
    }

    /// Polylines of the layer's plane projected into device pixels and clipped.
    private func contours(of polylines: ShapeOutlineCache.Polylines, map: ProjectiveTransform2D,
                          clip: [DevicePoint]) -> [[DevicePoint]] {
        var contours: [[DevicePoint]] = []
        contours.reserveCapacity(polylines.count)
        for polyline in polylines where polyline.count >= 3 {
            // A closed polyline ends on its start again; without that point the clipped contour
            // is the same once PathOp drops repeated points, and needs no copy there.
            let closing = polyline[0] == polyline[polyline.count - 1]
            let device = PolygonClipping.project(polyline[..<(polyline.count - (closing ? 1 : 0))], through: map)
            guard device.count >= 3 else { continue }
            let clipped = PolygonClipping.intersect(device, with: clip)
            if clipped.count >= 3 { contours.append(clipped) }
        }
        return contours
    }

    /// `pathTolerance` device pixels in the plane's units, where the map magnifies most over
    /// `box` (at its corners, for a projective map): the largest stretch of its local derivative
    /// (its greatest singular value), which a turn leaves as it is, so a turning shape keeps its
    /// tolerance (and its kept outline).
    static func flatteningTolerance(over box: CGRect, map: ProjectiveTransform2D) -> Double {
        var magnification = 0.0
        for (x, y) in [(box.minX, box.minY), (box.maxX, box.minY), (box.maxX, box.maxY), (box.minX, box.maxY)] {
            let h = map.applyHomogeneous(x: Double(x), y: Double(y))
            guard h.w > 0 else { continue }
            let w2 = h.w * h.w
            let a = (map.m11 * h.w - h.x * map.m13) / w2, b = (map.m21 * h.w - h.x * map.m23) / w2
            let c = (map.m12 * h.w - h.y * map.m13) / w2, d = (map.m22 * h.w - h.y * map.m23) / w2
            // Worked out on the entries over the largest, which cannot overflow when squared.
            let largest = max(abs(a), abs(b), abs(c), abs(d))
            guard largest > 0, largest.isFinite else { magnification = max(magnification, largest); continue }
            let (p, q, r, t) = (a / largest, b / largest, c / largest, d / largest)
            let sum = p * p + q * q + r * r + t * t, det = p * t - q * r
            magnification = max(magnification, largest * ((sum + max(0, sum * sum - 4 * det * det).squareRoot()) / 2).squareRoot())
        }
        let size = max(Double(box.width), Double(box.height), 1e-9)
        guard magnification.isFinite, magnification > 0 else { return pathTolerance }
        // Far past the eye plane a point's magnification is unbounded; a thousandth of the path's
        // size is fine enough for anything that shows.
        return max(pathTolerance / magnification, size * 1e-6)
    }
}
