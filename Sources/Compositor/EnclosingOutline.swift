import Foundation
import OpenCoreGraphics

/// The rounded outline that the composite of an enclosing group pass applies (a layer with
/// masksToBounds and cornerRadius), in the device space of that pass's content. Whatever is
/// drawn inside the pass up to the outline's bounds is clipped there by the composite, which
/// anti-aliases the outline; a draw that anti-aliased its own edge along the same line as well
/// would be covered a^2 there (a sublayer filling a rounded card, an image view in a rounded
/// cell, a rounded clip inside one of the same shape). So such an edge is pushed past the bounds
/// and the outline is anti-aliased once: the pushed part lies outside the bounds, where the
/// outline covers nothing, so what the composite shows is exactly the draw's area inside it.
struct EnclosingOutline {
    /// The outline in its layer's plane.
    let outline: RoundedRectangle
    /// Its bounds' corners in device pixels, in the order (minX, minY), (maxX, minY), (maxX, maxY),
    /// (minX, maxY).
    let corners: [DevicePoint]
    private let centre: DevicePoint

    /// How far from a bounds edge, in device pixels, a draw's edge still counts as lying on it:
    /// the same edge reached through two chains of transforms differs by rounding only.
    static let tolerance = 1.0 / 1024

    init?(outline: RoundedRectangle, map: ProjectiveTransform2D) {
        guard let corners = EnclosingOutline.deviceCorners(of: outline.rect, map: map) else { return nil }
        self.outline = outline
        self.corners = corners
        centre = DevicePoint(x: corners.reduce(0) { $0 + $1.x } / 4, y: corners.reduce(0) { $0 + $1.y } / 4)
    }

    /// `rect` (in the plane `map` takes to device pixels) with each side that lies along one of
    /// the outline's bounds edges, the rectangle on its inside, moved out by two device pixels;
    /// nil where no side does.
    func reaching(_ rect: Rect, map: ProjectiveTransform2D) -> Rect? {
        guard rect.width > 0, rect.height > 0, let device = EnclosingOutline.deviceCorners(of: rect, map: map) else { return nil }
        let middle = DevicePoint(x: device.reduce(0) { $0 + $1.x } / 4, y: device.reduce(0) { $0 + $1.y } / 4)
        // Sides in corner order: min y, max x, max y, min x.
        var along = [false, false, false, false]
        for side in 0..<4 {
            along[side] = liesOnBoundsEdge(device[side], device[(side + 1) % 4], inside: middle)
        }
        guard along.contains(true), let unit = RenderListBuilder.localUnitsPerDevicePixel(at: rect, map: map) else { return nil }
        let m = min(2 * unit, 2 * max(rect.width, rect.height))
        let minX = rect.x - (along[3] ? m : 0), maxX = rect.x + rect.width + (along[1] ? m : 0)
        let minY = rect.y - (along[0] ? m : 0), maxY = rect.y + rect.height + (along[2] ? m : 0)
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Whether `shape` (in the plane `map` takes to device pixels) is this outline: the same
    /// device corners and the same radii in proportion to the sides (two projective maps that
    /// take rectangles onto one quad, corner to corner, differ by a scale along each axis), so a
    /// rounded draw or clip of that shape inside the pass is left to the composite.
    func coincides(with shape: RoundedRectangle, map: ProjectiveTransform2D) -> Bool {
        guard shape.continuous == outline.continuous, shape.rect.width > 0, shape.rect.height > 0,
              outline.rect.width > 0, outline.rect.height > 0,
              let device = EnclosingOutline.deviceCorners(of: shape.rect, map: map) else { return false }
        for (p, q) in zip(device, corners) where abs(p.x - q.x) > Self.tolerance || abs(p.y - q.y) > Self.tolerance {
            return false
        }
        let sx = shape.rect.width / outline.rect.width, sy = shape.rect.height / outline.rect.height
        let radii = [(shape.topLeft, outline.topLeft), (shape.topRight, outline.topRight),
                     (shape.bottomRight, outline.bottomRight), (shape.bottomLeft, outline.bottomLeft)]
        return radii.allSatisfy { mine, theirs in
            abs(mine - theirs * sx) <= 1e-9 * shape.rect.width && abs(mine - theirs * sy) <= 1e-9 * shape.rect.height
        }
    }

    /// Whether the segment p-q lies along a bounds edge with `inside` on the bounds' side of it.
    private func liesOnBoundsEdge(_ p: DevicePoint, _ q: DevicePoint, inside: DevicePoint) -> Bool {
        for k in 0..<4 {
            let a = corners[k], b = corners[(k + 1) % 4]
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 0 else { continue }
            // Signed distance from the edge's line, positive on the side of the bounds' centre.
            let side: Double = ((centre.x - a.x) * dy - (centre.y - a.y) * dx) >= 0 ? 1 : -1
            func distance(_ r: DevicePoint) -> Double { side * ((r.x - a.x) * dy - (r.y - a.y) * dx) / length }
            if abs(distance(p)) <= Self.tolerance, abs(distance(q)) <= Self.tolerance, distance(inside) > 0 { return true }
        }
        return false
    }

    /// The rectangle's corners in device pixels, or nil where one lies behind the eye.
    static func deviceCorners(of rect: Rect, map: ProjectiveTransform2D) -> [DevicePoint]? {
        var points: [DevicePoint] = []
        for (x, y) in [(rect.x, rect.y), (rect.x + rect.width, rect.y), (rect.x + rect.width, rect.y + rect.height),
                       (rect.x, rect.y + rect.height)] {
            let h = map.applyHomogeneous(x: x, y: y)
            guard h.w > 0 else { return nil }
            points.append(DevicePoint(x: h.x / h.w, y: h.y / h.w))
        }
        return points
    }
}
