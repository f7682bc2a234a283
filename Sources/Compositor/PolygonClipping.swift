import Foundation
import LayerModel
import OpenCoreGraphics

/// Clipping of convex polygons, the geometry the render list builder does once so that backends
/// never have to: the homogeneous near-plane clip and intersection with convex clip regions.
enum PolygonClipping {
    /// Points with w at or below this are at or behind the eye. Clipping here, before the divide,
    /// is what keeps geometry behind the viewer from being mirrored in front of it.
    static let nearW = 1e-5

    /// The rectangle `r` of a plane mapped by `map`, clipped to w >= `nearW`, then divided.
    static func project(_ r: Rect, through map: ProjectiveTransform2D) -> [DevicePoint] {
        let x0 = r.x, y0 = r.y, x1 = r.x + r.width, y1 = r.y + r.height
        // Every layer's bounds are projected: in front of the eye (the usual case) nothing is
        // clipped and the corners divide straight through.
        let a = map.applyHomogeneous(x: x0, y: y0), b = map.applyHomogeneous(x: x1, y: y0)
        let c = map.applyHomogeneous(x: x1, y: y1), d = map.applyHomogeneous(x: x0, y: y1)
        guard a.w >= nearW && b.w >= nearW && c.w >= nearW && d.w >= nearW else {
            return project([CGPoint(x: x0, y: y0), CGPoint(x: x1, y: y0), CGPoint(x: x1, y: y1), CGPoint(x: x0, y: y1)][...],
                           through: map)
        }
        return [DevicePoint(x: a.x / a.w, y: a.y / a.w), DevicePoint(x: b.x / b.w, y: b.y / b.w),
                DevicePoint(x: c.x / c.w, y: c.y / c.w), DevicePoint(x: d.x / d.w, y: d.y / d.w)]
    }

    /// A polygon of a plane mapped by `map`, clipped to w >= `nearW`, then divided.
    static func project(_ points: ArraySlice<CGPoint>, through map: ProjectiveTransform2D) -> [DevicePoint] {
        // An affine map (every flat layer's) puts each finite point at w = 1 exactly: nothing to
        // clip, and dividing by 1 changes no bit, so the points map straight through. Every
        // shape's flattened outline comes through here each frame (a Lottie file's rings: a
        // tenth of its frame).
        if map.m13 == 0, map.m23 == 0, map.m33 == 1 {
            var out: [DevicePoint] = []
            out.reserveCapacity(points.count)
            for point in points {
                let p = (x: Double(point.x), y: Double(point.y))
                guard p.x.isFinite, p.y.isFinite else { return projectClipped(points, through: map) }
                out.append(DevicePoint(x: p.x * map.m11 + p.y * map.m21 + map.m31, y: p.x * map.m12 + p.y * map.m22 + map.m32))
            }
            return out
        }
        return projectClipped(points, through: map)
    }

    private static func projectClipped(_ points: ArraySlice<CGPoint>, through map: ProjectiveTransform2D) -> [DevicePoint] {
        let mapped = points.map { map.applyHomogeneous(x: Double($0.x), y: Double($0.y)) }
        var out: [DevicePoint] = []
        for i in mapped.indices {
            let p = mapped[i], q = mapped[(i + 1) % mapped.count]
            if p.w >= nearW { out.append(DevicePoint(x: p.x / p.w, y: p.y / p.w)) }
            if (p.w >= nearW) != (q.w >= nearW) {
                let t = (nearW - p.w) / (q.w - p.w)
                out.append(DevicePoint(x: (p.x + t * (q.x - p.x)) / nearW, y: (p.y + t * (q.y - p.y)) / nearW))
            }
        }
        return out
    }

    /// The rectangle `r` of a plane mapped into 3D homogeneous space by `m` (z kept), clipped to
    /// w >= `nearW`, then divided: the plane as it lies in a 3D scene.
    static func project3D(_ r: Rect, through m: CATransform3D) -> [SIMD3<Double>] {
        let corners = [(r.x, r.y), (r.x + r.width, r.y), (r.x + r.width, r.y + r.height), (r.x, r.y + r.height)].map { x, y in
            SIMD4<Double>(x * m.m11 + y * m.m21 + m.m41, x * m.m12 + y * m.m22 + m.m42,
                          x * m.m13 + y * m.m23 + m.m43, x * m.m14 + y * m.m24 + m.m44)
        }
        var out: [SIMD3<Double>] = []
        for i in corners.indices {
            let p = corners[i], q = corners[(i + 1) % corners.count]
            if p.w >= nearW { out.append(SIMD3(p.x, p.y, p.z) / p.w) }
            if (p.w >= nearW) != (q.w >= nearW) {
                let t = (nearW - p.w) / (q.w - p.w)
                let x = p + (q - p) * t
                out.append(SIMD3(x.x, x.y, x.z) / nearW)
            }
        }
        return out
    }

    /// The part of `subject` inside every edge of the convex polygon `clip` (positive orientation).
    static func intersect(_ subject: [DevicePoint], with clip: [DevicePoint]) -> [DevicePoint] {
        // A clip with no area (zero-sized bounds, or a plane squashed to a line or a point) keeps
        // nothing: with every side test 0 it would otherwise keep everything.
        guard clip.count >= 3, signedArea(clip) > 0 else { return [] }
        // Most layers lie wholly inside their clip (the viewport's guard band at least): then the
        // subject comes back as it is, without a new polygon per clip edge.
        if isInside(subject, clip) { return subject }
        var result = subject
        for i in clip.indices where !result.isEmpty {
            let a = clip[i], b = clip[(i + 1) % clip.count]
            // Inside is to the left of a -> b in y-down coordinates with positive area: the
            // cross product (b - a) x (p - a) is positive.
            func side(_ p: DevicePoint) -> Double { (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) }
            let input = result
            result = []
            // Each crossing adds a point; most edges cross a clip edge twice or not at all.
            result.reserveCapacity(input.count + 8)
            for j in input.indices {
                let p = input[j], q = input[(j + 1) % input.count]
                let sp = side(p), sq = side(q)
                if sp >= 0 { result.append(p) }
                if (sp >= 0) != (sq >= 0) { result.append(crossing(p, q, a, b, sp, sq)) }
            }
        }
        return result
    }

    /// Where the subject's edge p -> q (its sides `sp`, `sq` of the clip edge, of opposite signs)
    /// crosses the clip edge's line a -> b. Interpolating from p is exact to the last bits of the
    /// edge's length; an edge 1e21 pixels long (a layer scaled 1e20) would land up to 1e5 pixels
    /// off, and a frame-filling quad would collapse. Past 2^30 pixels the point is taken along
    /// the clip edge's line instead, whose length is at most a frame's: exact for axis-aligned
    /// edges, and within the edge's own rounding otherwise.
    private static func crossing(_ p: DevicePoint, _ q: DevicePoint, _ a: DevicePoint, _ b: DevicePoint,
                                 _ sp: Double, _ sq: Double) -> DevicePoint {
        let dx = q.x - p.x, dy = q.y - p.y
        guard abs(dx) + abs(dy) > hugeEdge else {
            let t = sp / (sp - sq)
            return DevicePoint(x: p.x + t * dx, y: p.y + t * dy)
        }
        // On the line a + s (b - a): cross(p + t (q - p) - a, b - a) = 0 solved for s.
        let s = ((p.x - a.x) * dy - (p.y - a.y) * dx) / ((b.x - a.x) * dy - (b.y - a.y) * dx)
        return s.isFinite ? DevicePoint(x: a.x + s * (b.x - a.x), y: a.y + s * (b.y - a.y))
            : DevicePoint(x: p.x + sp / (sp - sq) * dx, y: p.y + sp / (sp - sq) * dy)
    }

    /// Subject edges longer than this (in pixels) are crossed on the clip edge's line.
    private static let hugeEdge = Double(1 << 30)

    /// Whether every point of `subject` is on the inner side of (or on) every edge of `clip`, by
    /// the same test `intersect` applies.
    private static func isInside(_ subject: [DevicePoint], _ clip: [DevicePoint]) -> Bool {
        for i in clip.indices {
            let a = clip[i], b = clip[i + 1 == clip.count ? 0 : i + 1]
            for p in subject where !((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) >= 0) { return false }
        }
        return true
    }

    /// A rectangle as a positively oriented polygon.
    static func rectangle(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [DevicePoint] {
        [DevicePoint(x: minX, y: minY), DevicePoint(x: maxX, y: minY),
         DevicePoint(x: maxX, y: maxY), DevicePoint(x: minX, y: maxY)]
    }

    static func signedArea(_ p: [DevicePoint]) -> Double { CoveragePolygon.signedArea(p) }
}
