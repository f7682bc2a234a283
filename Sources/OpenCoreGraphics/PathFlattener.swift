import Foundation

/// Paths as polylines, and distances along them: what fill tests, bounding boxes, arc-length
/// measurement (keyframe paths, strokeStart/End) and tangents need.
public enum PathFlattener {
    /// One polyline per subpath, curves subdivided until each chord is within `tolerance` of the
    /// curve (estimated from the control polygon). A closed subpath ends with its start point
    /// again, so the closing segment counts in lengths.
    ///
    /// With `visible`, a curve whose control points all lie outside it becomes its chord: the
    /// curve and the chord both lie in the control points' convex hull, so they wind the same way
    /// around every point outside it, and fills and coverage inside `visible` are unchanged. A
    /// path far larger than what is drawn (1e30 across, or scaled up 1e6) costs its element count.
    /// A path of very many curves shares `maxPoints` among them.
    public static func polylines(_ path: CGPath, tolerance: CGFloat = 0.1, visible: CGRect? = nil) -> [[CGPoint]] {
        polylines(path.elements, tolerance: tolerance, visible: visible, perCurve: segmentsPerCurve(curves: curveCount(path.elements)))
    }

    /// How many of `elements` are curves.
    static func curveCount(_ elements: [PathElement]) -> Int {
        elements.reduce(0) { count, element in
            switch element {
            case .quad, .cubic: count + 1
            default: count
            }
        }
    }

    /// Most chords each curve of a path of `curves` curves becomes: `maxPoints` shared among them.
    static func segmentsPerCurve(curves: Int) -> Int {
        curves == 0 ? maxSegmentsPerCurve : min(maxSegmentsPerCurve, max(maxPoints / curves, 8))
    }

    /// `polylines(_:tolerance:visible:)` of a path's elements, each curve at most `perCurve` chords.
    static func polylines(_ elements: [PathElement], tolerance: CGFloat, visible: CGRect?, perCurve: Int) -> [[CGPoint]] {
        // Whether any of a curve's control points' box meets `visible` (no array per curve: every
        // shape's outline comes through here each frame it changes).
        func seen(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint, _ d: CGPoint) -> Bool {
            guard let visible else { return true }
            return max(a.x, b.x, c.x, d.x) >= visible.minX && min(a.x, b.x, c.x, d.x) <= visible.maxX
                && max(a.y, b.y, c.y, d.y) >= visible.minY && min(a.y, b.y, c.y, d.y) <= visible.maxY
        }
        var result: [[CGPoint]] = []
        var current: [CGPoint] = []
        var last = CGPoint.zero
        func flush() {
            if !current.isEmpty { result.append(current) }
            current = []
        }
        for element in elements {
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
                if seen(last, c, e, e) {
                    appendCubicPoints(last, c1, c2, e, tolerance: tolerance, maxSegments: perCurve, to: &current)
                } else {
                    current.append(e)
                }
                last = e
            case let .cubic(c1, c2, e):
                if current.isEmpty { current = [last] }
                if seen(last, c1, c2, e) {
                    appendCubicPoints(last, c1, c2, e, tolerance: tolerance, maxSegments: perCurve, to: &current)
                } else {
                    current.append(e)
                }
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

    /// Most chords one curve becomes. Default: 4,096.
    public static let maxSegmentsPerCurve = 4_096
    /// Most points a path's curves become together (64 MiB of points). Default: 4,194,304.
    public static let maxPoints = 1 << 22

    /// Whether the cubic stays within `tolerance` of the segment from its start to its end.
    static func isChord(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, within tolerance: CGFloat) -> Bool {
        let dx = p3.x - p0.x, dy = p3.y - p0.y
        let length2 = dx * dx + dy * dy
        guard length2 > 0, length2.isFinite else { return false }
        for c in [p1, p2] {
            let cx = c.x - p0.x, cy = c.y - p0.y
            let along = cx * dx + cy * dy, across = cx * dy - cy * dx
            // Between the ends, and off the line by at most the tolerance (across / length).
            guard along >= 0, along <= length2, across * across <= tolerance * tolerance * length2 else { return false }
        }
        return true
    }

    /// Points along a cubic after its start, enough for the tolerance (at most `maxSegments`).
    static func cubicPoints(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, tolerance: CGFloat,
                            maxSegments: Int = maxSegmentsPerCurve) -> [CGPoint] {
        var points: [CGPoint] = []
        appendCubicPoints(p0, p1, p2, p3, tolerance: tolerance, maxSegments: maxSegments, to: &points)
        return points
    }

    /// `cubicPoints`, appended to `points` in place (no array of their own per curve).
    static func appendCubicPoints(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, tolerance: CGFloat,
                                  maxSegments: Int = maxSegmentsPerCurve, to points: inout [CGPoint]) {
        // A straight curve is its chord: the curve lies in its control points' hull, which lies
        // within the tolerance of the chord where both controls do and fall between the ends.
        // (Wang's bound below counts uneven control spacing along a line as bending: a
        // rectangle's side stored as a cubic, as Lottie files and lottie-ios make them, became
        // dozens of chords.)
        if isChord(p0, p1, p2, p3, within: tolerance) { points.append(p3); return }
        // The second difference bounds the deviation of a chord from the curve (Wang's formula).
        let ddx = max(abs(p0.x - 2 * p1.x + p2.x), abs(p1.x - 2 * p2.x + p3.x))
        let ddy = max(abs(p0.y - 2 * p1.y + p2.y), abs(p1.y - 2 * p2.y + p3.y))
        let d = hypot(ddx, ddy)
        let safeTolerance = max(tolerance, 1e-6)
        let raw = (3 * d / (4 * safeTolerance)).squareRoot()
        // Clamped before the conversion: a curve 1e30 points across would not fit in an Int.
        let count = raw.isFinite ? Int(min(max(raw.rounded(.up), 1), CGFloat(maxSegments))) : 1
        for i in 1...count {
            let t = CGFloat(i) / CGFloat(count), u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, e = t * t * t
            points.append(CGPoint(x: a * p0.x + b * p1.x + c * p2.x + e * p3.x, y: a * p0.y + b * p1.y + c * p2.y + e * p3.y))
        }
    }
}
