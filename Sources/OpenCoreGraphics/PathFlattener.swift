import Foundation

/// Paths as polylines, and distances along them: what fill tests, bounding boxes, arc-length
/// measurement (keyframe paths, strokeStart/End) and tangents need.
public enum PathFlattener {
    /// One polyline per subpath, curves subdivided until each chord is within `tolerance` of the
    /// curve (estimated from the control polygon). A closed subpath ends with its start point
    /// again, so the closing segment counts in lengths.
    public static func polylines(_ path: CGPath, tolerance: CGFloat = 0.1) -> [[CGPoint]] {
        var result: [[CGPoint]] = []
        var current: [CGPoint] = []
        var last = CGPoint.zero
        func flush() {
            if !current.isEmpty { result.append(current) }
            current = []
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                flush()
                current = [p]
                last = p
            case .line(let p):
                if current.isEmpty { current = [last] }
                current.append(p)
                last = p
            case let .quad(c, e):
                if current.isEmpty { current = [last] }
                let c1 = CGPoint(x: last.x + 2 / 3 * (c.x - last.x), y: last.y + 2 / 3 * (c.y - last.y))
                let c2 = CGPoint(x: e.x + 2 / 3 * (c.x - e.x), y: e.y + 2 / 3 * (c.y - e.y))
                current.append(contentsOf: cubicPoints(last, c1, c2, e, tolerance: tolerance))
                last = e
            case let .cubic(c1, c2, e):
                if current.isEmpty { current = [last] }
                current.append(contentsOf: cubicPoints(last, c1, c2, e, tolerance: tolerance))
                last = e
            case .close:
                if let first = current.first {
                    last = first
                    current.append(first)
                }
                flush()
            }
        }
        flush()
        return result
    }

    /// Points along a cubic after its start, enough for the tolerance.
    static func cubicPoints(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, tolerance: CGFloat) -> [CGPoint] {
        // The second difference bounds the deviation of a chord from the curve (Wang's formula).
        let ddx = max(abs(p0.x - 2 * p1.x + p2.x), abs(p1.x - 2 * p2.x + p3.x))
        let ddy = max(abs(p0.y - 2 * p1.y + p2.y), abs(p1.y - 2 * p2.y + p3.y))
        let d = hypot(ddx, ddy)
        let safeTolerance = max(tolerance, 1e-6)
        let raw = (3 * d / (4 * safeTolerance)).squareRoot()
        let count = raw.isFinite ? min(max(Int(raw.rounded(.up)), 1), 4096) : 1
        return (1...count).map { i in
            let t = CGFloat(i) / CGFloat(count), u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, e = t * t * t
            return CGPoint(x: a * p0.x + b * p1.x + c * p2.x + e * p3.x, y: a * p0.y + b * p1.y + c * p2.y + e * p3.y)
        }
    }
}
