import Foundation

/// How open subpaths end when stroked.
public enum CGLineCap: Int32, Sendable {
    case butt = 0, round, square
}

/// How stroked segments meet.
public enum CGLineJoin: Int32, Sendable {
    case miter = 0, round, bevel
}

extension CGPath {
    /// The outline of the path stroked with a pen `lineWidth` wide, as a path to fill with the
    /// non-zero rule: one positively wound piece per segment, join and cap, whose union is the
    /// stroke. Curves are flattened finely enough for the pen size first.
    public func copy(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin,
                     miterLimit: CGFloat, transform: CGAffineTransform = .identity) -> CGPath {
        let outline = CGMutablePath()
        let half = abs(lineWidth) / 2
        guard half > 0, half.isFinite else { return outline }
        let tolerance = max(min(half / 20, 0.05), 0.001)
        for (polyline, closed) in PathStroker.subpaths(self, tolerance: tolerance) {
            PathStroker.stroke(polyline, closed: closed, half: half, cap: lineCap, join: lineJoin,
                               miterLimit: miterLimit, into: outline)
        }
        return outline.copy(applying: transform)
    }
}

enum PathStroker {
    /// Subpaths as polylines, each with whether it was closed; repeated points removed.
    static func subpaths(_ path: CGPath, tolerance: CGFloat) -> [([CGPoint], Bool)] {
        var result: [([CGPoint], Bool)] = []
        var current: [CGPoint] = []
        var last = CGPoint.zero
        func append(_ p: CGPoint) {
            if let previous = current.last, hypot(previous.x - p.x, previous.y - p.y) < 1e-9 { return }
            current.append(p)
        }
        func flush(closed: Bool) {
            if !current.isEmpty { result.append((current, closed)) }
            current = []
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                flush(closed: false)
                current = [p]
                last = p
            case .line(let p):
                if current.isEmpty { current = [last] }
                append(p)
                last = p
            case let .quad(c, e):
                if current.isEmpty { current = [last] }
                let c1 = CGPoint(x: last.x + 2 / 3 * (c.x - last.x), y: last.y + 2 / 3 * (c.y - last.y))
                let c2 = CGPoint(x: e.x + 2 / 3 * (c.x - e.x), y: e.y + 2 / 3 * (c.y - e.y))
                PathFlattener.cubicPoints(last, c1, c2, e, tolerance: tolerance).forEach(append)
                last = e
            case let .cubic(c1, c2, e):
                if current.isEmpty { current = [last] }
                PathFlattener.cubicPoints(last, c1, c2, e, tolerance: tolerance).forEach(append)
                last = e
            case .close:
                if let first = current.first {
                    if current.count > 1, let end = current.last, hypot(end.x - first.x, end.y - first.y) < 1e-9 {
                        current.removeLast()
                    }
                    last = first
                }
                flush(closed: true)
            }
        }
        flush(closed: false)
        return result
    }

    /// Adds `points` as a closed piece wound positively (clockwise on a y-down screen).
    static func addPiece(_ points: [CGPoint], to path: CGMutablePath) {
        guard points.count >= 3 else { return }
        var area: CGFloat = 0
        for i in points.indices {
            let q = points[(i + 1) % points.count]
            area += points[i].x * q.y - q.x * points[i].y
        }
        guard abs(area) > 1e-12 else { return }
        path.addLines(between: area < 0 ? points.reversed() : points)
        path.closeSubpath()
    }

    static func disk(_ center: CGPoint, _ radius: CGFloat, into path: CGMutablePath) {
        path.addEllipse(in: CGRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }

    static func stroke(_ points: [CGPoint], closed: Bool, half: CGFloat, cap: CGLineCap, join: CGLineJoin,
                       miterLimit: CGFloat, into path: CGMutablePath) {
        if points.count == 1 {
            // A zero-length subpath shows only its caps: a dot or a square.
            let p = points[0]
            switch cap {
            case .round: disk(p, half, into: path)
            case .square: addPiece([CGPoint(x: p.x - half, y: p.y - half), CGPoint(x: p.x + half, y: p.y - half),
                                    CGPoint(x: p.x + half, y: p.y + half), CGPoint(x: p.x - half, y: p.y + half)], to: path)
            case .butt: break
            }
            return
        }
        let count = points.count
        let segments = closed ? count : count - 1
        func normal(_ a: CGPoint, _ b: CGPoint) -> CGPoint {
            let dx = b.x - a.x, dy = b.y - a.y, l = hypot(dx, dy)
            return CGPoint(x: -dy / l * half, y: dx / l * half)
        }
        for i in 0..<segments {
            let a = points[i], b = points[(i + 1) % count], n = normal(a, b)
            addPiece([CGPoint(x: a.x + n.x, y: a.y + n.y), CGPoint(x: b.x + n.x, y: b.y + n.y),
                      CGPoint(x: b.x - n.x, y: b.y - n.y), CGPoint(x: a.x - n.x, y: a.y - n.y)], to: path)
        }
        // Joins where two segments meet.
        let joints = closed ? Array(0..<count) : Array(1..<(count - 1))
        for j in joints {
            let p = points[j], before = points[(j - 1 + count) % count], after = points[(j + 1) % count]
            let n0 = normal(before, p), n1 = normal(p, after)
            switch join {
            case .round:
                disk(p, half, into: path)
            case .bevel, .miter:
                // Both sides; the inner one is covered by the segments anyway.
                for side: CGFloat in [1, -1] {
                    let a = CGPoint(x: p.x + side * n0.x, y: p.y + side * n0.y)
                    let b = CGPoint(x: p.x + side * n1.x, y: p.y + side * n1.y)
                    var piece = [p, a, b]
                    if join == .miter, let tip = miterTip(p, a, n0, b, n1, half: half, limit: miterLimit) {
                        piece = [p, a, tip, b]
                    }
                    addPiece(piece, to: path)
                }
            }
        }
        guard !closed else { return }
        for (end, neighbour) in [(points[0], points[1]), (points[count - 1], points[count - 2])] {
            switch cap {
            case .butt: break
            case .round: disk(end, half, into: path)
            case .square:
                let dx = end.x - neighbour.x, dy = end.y - neighbour.y, l = hypot(dx, dy)
                let out = CGPoint(x: dx / l * half, y: dy / l * half), n = CGPoint(x: -out.y, y: out.x)
                addPiece([CGPoint(x: end.x + n.x, y: end.y + n.y), CGPoint(x: end.x + n.x + out.x, y: end.y + n.y + out.y),
                          CGPoint(x: end.x - n.x + out.x, y: end.y - n.y + out.y), CGPoint(x: end.x - n.x, y: end.y - n.y)],
                         to: path)
            }
        }
    }

    /// The miter point of the outer edges through a and b, or nil beyond the limit (a bevel then).
    static func miterTip(_ p: CGPoint, _ a: CGPoint, _ n0: CGPoint, _ b: CGPoint, _ n1: CGPoint,
                         half: CGFloat, limit: CGFloat) -> CGPoint? {
        // Directions along the edges are the normals turned back a quarter.
        let d0 = CGPoint(x: n0.y, y: -n0.x), d1 = CGPoint(x: n1.y, y: -n1.x)
        let cross = d0.x * d1.y - d0.y * d1.x
        guard abs(cross) > 1e-12 else { return nil }
        let t = ((b.x - a.x) * d1.y - (b.y - a.y) * d1.x) / cross
        let tip = CGPoint(x: a.x + d0.x * t, y: a.y + d0.y * t)
        // The miter length over the line width must stay within the limit.
        let length = hypot(tip.x - p.x, tip.y - p.y)
        return length / half <= max(limit, 1) ? tip : nil
    }
}
