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
        outline(strokingWithWidth: lineWidth, lineCap: lineCap, lineJoin: lineJoin, miterLimit: miterLimit,
                tolerance: CGPath.strokingTolerance(lineWidth: lineWidth)).copy(applying: transform)
    }

    /// How finely a stroke `lineWidth` wide flattens its path's curves, in the path's units: a
    /// twentieth of its half width, at most 0.05 and at least 0.001.
    package static func strokingTolerance(lineWidth: CGFloat) -> CGFloat {
        max(min(abs(lineWidth) / 40, 0.05), 0.001)
    }

    /// `copy(strokingWithWidth:...)` with the path's curves flattened to `tolerance` (in the
    /// path's units), for a caller that knows how large the stroke lands on screen.
    package func outline(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin,
                         miterLimit: CGFloat, tolerance: CGFloat) -> CGMutablePath {
        var outline = CGMutablePath()
        stroke(width: lineWidth, cap: lineCap, join: lineJoin, miterLimit: miterLimit, tolerance: tolerance, into: &outline)
        return outline
    }

    /// `PathFlattener.polylines(outline(strokingWithWidth:...), tolerance: flattening)`, made
    /// without the outline path in between: each straight piece goes into its polyline as it is
    /// made, and a round join's or cap's disk is flattened as that outline's curves would be. A
    /// renderer strokes a changing shape every frame; building the outline's elements only to
    /// flatten them again was a fifth of a stroked Lottie glyph's render list.
    package func outlinePolylines(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin,
                                  miterLimit: CGFloat, tolerance: CGFloat, flattening: CGFloat) -> [[CGPoint]] {
        var pieces = PathStroker.Polylines()
        stroke(width: lineWidth, cap: lineCap, join: lineJoin, miterLimit: miterLimit, tolerance: tolerance, into: &pieces)
        return pieces.flattened(tolerance: flattening)
    }

    /// Every subpath stroked into `output`; nothing for a width of 0 or not finite.
    private func stroke<Output: StrokeOutput>(width lineWidth: CGFloat, cap: CGLineCap, join: CGLineJoin, miterLimit: CGFloat,
                                              tolerance: CGFloat, into output: inout Output) {
        let half = abs(lineWidth) / 2
        guard half > 0, half.isFinite else { return }
        for polyline in PathStroker.subpaths(self, tolerance: tolerance) {
            PathStroker.stroke(polyline, half: half, cap: cap, join: join, miterLimit: miterLimit, into: &output)
        }
    }
}

/// Where a stroke's pieces go: an outline path, or its polylines straight away.
protocol StrokeOutput {
    /// A closed polygon, its points taken in reverse order where `reversed` (so it winds positively).
    mutating func addPolygon(_ points: [CGPoint], reversed: Bool)
    /// A disk, as `CGMutablePath.addEllipse` makes it.
    mutating func addDisk(_ center: CGPoint, _ radius: CGFloat)
}

extension CGMutablePath: StrokeOutput {
    func addPolygon(_ points: [CGPoint], reversed: Bool) {
        if reversed {
            move(to: points[points.count - 1])
            for i in stride(from: points.count - 2, through: 0, by: -1) { addLine(to: points[i]) }
        } else {
            move(to: points[0])
            for i in 1..<points.count { addLine(to: points[i]) }
        }
        closeSubpath()
    }

    func addDisk(_ center: CGPoint, _ radius: CGFloat) {
        addEllipse(in: PathStroker.diskBounds(center, radius))
    }
}

enum PathStroker {
    /// A subpath flattened for stroking: its points, whether it was closed, and at each point the
    /// true direction of the path arriving (`arriving`) and leaving (`leaving`) where a curve
    /// begins or ends there. Caps and joins stand square to those directions, not to the
    /// flattened chords next to them (a butt cap at the end of an arc would otherwise lean by
    /// half a chord's turn, and the two ends of an open full circle would leave a wedge).
    struct Polyline {
        var points: [CGPoint] = []
        var arriving: [CGPoint?] = []
        var leaving: [CGPoint?] = []
        /// Whether the point lies inside a flattened curve rather than where elements meet.
        var insideCurve: [Bool] = []
        var closed = false
    }

    /// A stroke's pieces as the polylines PathFlattener makes of them in an outline path: a
    /// polygon [p0 ... pn, p0], each point as a path element stores it (`applying(.identity)`:
    /// a -0 that a path of raw elements brings becomes 0, as in the outline's elements); a
    /// disk's curves flattened once every piece is in, when the outline's count of curves,
    /// which shares out `PathFlattener.maxPoints`, is known.
    struct Polylines: StrokeOutput {
        private var pieces: [[CGPoint]] = []
        private var disks: [(index: Int, elements: [PathElement])] = []
        private var curves = 0

        mutating func addPolygon(_ points: [CGPoint], reversed: Bool) {
            var polyline: [CGPoint] = []
            polyline.reserveCapacity(points.count + 1)
            if reversed {
                for p in points.reversed() { polyline.append(p.applying(.identity)) }
            } else {
                for p in points { polyline.append(p.applying(.identity)) }
            }
            polyline.append(polyline[0])
            pieces.append(polyline)
        }

        mutating func addDisk(_ center: CGPoint, _ radius: CGFloat) {
            let disk = CGMutablePath()
            disk.addEllipse(in: PathStroker.diskBounds(center, radius))
            curves += PathFlattener.curveCount(disk.elements)
            disks.append((pieces.count, disk.elements))
            pieces.append([])
        }

        func flattened(tolerance: CGFloat) -> [[CGPoint]] {
            guard !disks.isEmpty else { return pieces }
            let perCurve = PathFlattener.segmentsPerCurve(curves: curves)
            var result: [[CGPoint]] = []
            result.reserveCapacity(pieces.count)
            var next = 0
            for (index, piece) in pieces.enumerated() {
                if next < disks.count, disks[next].index == index {
                    result += PathFlattener.polylines(disks[next].elements, tolerance: tolerance, visible: nil, perCurve: perCurve)
                    next += 1
                } else {
                    result.append(piece)
                }
            }
            return result
        }
    }

    /// Subpaths as polylines; repeated points removed.
    static func subpaths(_ path: CGPath, tolerance: CGFloat) -> [Polyline] {
        var result: [Polyline] = []
        var current = Polyline()
        var last = CGPoint.zero
        // A curve's points, reused from curve to curve.
        var flattened: [CGPoint] = []
        func append(_ p: CGPoint) {
            if let previous = current.points.last, hypot(previous.x - p.x, previous.y - p.y) < 1e-9 { return }
            current.points.append(p)
            current.arriving.append(nil)
            current.leaving.append(nil)
            current.insideCurve.append(false)
        }
        func begin(at p: CGPoint) {
            current = Polyline()
            append(p)
        }
        func flush(closed: Bool) {
            current.closed = closed
            if !current.points.isEmpty { result.append(current) }
            current = Polyline()
        }
        func curve(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ e: CGPoint) {
            if current.points.isEmpty { begin(at: p0) }
            let startIndex = current.points.count - 1
            flattened.removeAll(keepingCapacity: true)
            PathFlattener.appendCubicPoints(p0, c1, c2, e, tolerance: tolerance, to: &flattened)
            for p in flattened { append(p) }
            guard current.points.count - 1 > startIndex else { return }
            for i in (startIndex + 1)..<(current.points.count - 1) { current.insideCurve[i] = true }
            current.leaving[startIndex] = direction(from: p0, toFirstOf: c1, c2, e)
            current.arriving[current.points.count - 1] = direction(from: e, toFirstOf: c2, c1, p0).map { CGPoint(x: -$0.x, y: -$0.y) }
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                flush(closed: false)
                begin(at: p)
                last = p
            case .line(let p):
                if current.points.isEmpty { begin(at: last) }
                append(p)
                last = p
            case let .quad(c, e):
                let c1 = CGPoint(x: last.x + 2 / 3 * (c.x - last.x), y: last.y + 2 / 3 * (c.y - last.y))
                let c2 = CGPoint(x: e.x + 2 / 3 * (c.x - e.x), y: e.y + 2 / 3 * (c.y - e.y))
                curve(last, c1, c2, e)
                last = e
            case let .cubic(c1, c2, e):
                curve(last, c1, c2, e)
                last = e
            case .close:
                if let first = current.points.first {
                    if current.points.count > 1, let end = current.points.last, hypot(end.x - first.x, end.y - first.y) < 1e-9 {
                        // The path came back to its start: what arrived at the dropped end point
                        // arrives at the start.
                        current.arriving[0] = current.arriving.removeLast()
                        current.points.removeLast()
                        current.leaving.removeLast()
                        current.insideCurve.removeLast()
                    }
                    last = first
                }
                flush(closed: true)
            }
        }
        flush(closed: false)
        return result
    }

    /// The unit direction from `p` to the first of `candidates` that is not at `p`.
    static func direction(from p: CGPoint, toFirstOf a: CGPoint, _ b: CGPoint, _ c: CGPoint) -> CGPoint? {
        func unit(_ q: CGPoint) -> CGPoint? {
            let dx = q.x - p.x, dy = q.y - p.y, l = hypot(dx, dy)
            return l > 1e-9 ? CGPoint(x: dx / l, y: dy / l) : nil
        }
        return unit(a) ?? unit(b) ?? unit(c)
    }

    /// Adds `points` as a closed piece wound positively (clockwise on a y-down screen).
    static func addPiece<Output: StrokeOutput>(_ points: [CGPoint], to path: inout Output) {
        guard points.count >= 3 else { return }
        var area: CGFloat = 0
        for i in points.indices {
            let q = points[(i + 1) % points.count]
            area += points[i].x * q.y - q.x * points[i].y
        }
        guard abs(area) > 1e-12 else { return }
        path.addPolygon(points, reversed: area < 0)
    }

    static func diskBounds(_ center: CGPoint, _ radius: CGFloat) -> CGRect {
        CGRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
    }

    static func stroke<Output: StrokeOutput>(_ line: Polyline, half: CGFloat, cap: CGLineCap, join: CGLineJoin,
                                             miterLimit: CGFloat, into path: inout Output) {
        let points = line.points, closed = line.closed
        if points.count == 1 {
            // A zero-length subpath shows only its caps: a dot or a square.
            let p = points[0]
            switch cap {
            case .round: path.addDisk(p, half)
            case .square: addPiece([CGPoint(x: p.x - half, y: p.y - half), CGPoint(x: p.x + half, y: p.y - half),
                                    CGPoint(x: p.x + half, y: p.y + half), CGPoint(x: p.x - half, y: p.y + half)], to: &path)
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
        func normal(along d: CGPoint) -> CGPoint { CGPoint(x: -d.y * half, y: d.x * half) }
        // The pen's normal leaving point i and arriving at point i: the true direction where a
        // curve starts or ends there; inside a flattened curve the bisector of the two chords
        // (the curve's normal there, so neighbouring pieces share an edge and the outline follows
        // the offset curve, neither overlapping on the inside nor notched on the outside); else
        // the chord's.
        func bisector(_ i: Int) -> CGPoint? {
            guard line.insideCurve[i] else { return nil }
            let n0 = normal(points[(i - 1 + count) % count], points[i]), n1 = normal(points[i], points[(i + 1) % count])
            let sx = n0.x + n1.x, sy = n0.y + n1.y, l = hypot(sx, sy)
            return l > 1e-9 * half ? CGPoint(x: sx / l * half, y: sy / l * half) : nil
        }
        func leavingNormal(_ i: Int) -> CGPoint {
            line.leaving[i].map(normal(along:)) ?? bisector(i) ?? normal(points[i], points[(i + 1) % count])
        }
        func arrivingNormal(_ i: Int) -> CGPoint {
            line.arriving[i].map(normal(along:)) ?? bisector(i) ?? normal(points[(i - 1 + count) % count], points[i])
        }
        for i in 0..<segments {
            let a = points[i], b = points[(i + 1) % count]
            let na = leavingNormal(i), nb = arrivingNormal((i + 1) % count), chord = normal(a, b)
            let dx = b.x - a.x, dy = b.y - a.y
            // Where the curve bends tighter than the pen is wide, an edge of the piece would run
            // backwards (the piece would cross itself): the chord's rectangle then, with wedges
            // out to the normals at its ends.
            let outer = (b.x + nb.x - a.x - na.x) * dx + (b.y + nb.y - a.y - na.y) * dy
            let inner = (b.x - nb.x - a.x + na.x) * dx + (b.y - nb.y - a.y + na.y) * dy
            if outer > 0 && inner > 0 {
                addPiece([CGPoint(x: a.x + na.x, y: a.y + na.y), CGPoint(x: b.x + nb.x, y: b.y + nb.y),
                          CGPoint(x: b.x - nb.x, y: b.y - nb.y), CGPoint(x: a.x - na.x, y: a.y - na.y)], to: &path)
                continue
            }
            addPiece([CGPoint(x: a.x + chord.x, y: a.y + chord.y), CGPoint(x: b.x + chord.x, y: b.y + chord.y),
                      CGPoint(x: b.x - chord.x, y: b.y - chord.y), CGPoint(x: a.x - chord.x, y: a.y - chord.y)], to: &path)
            for (p, n) in [(a, na), (b, nb)] {
                for side: CGFloat in [1, -1] {
                    addPiece([p, CGPoint(x: p.x + side * n.x, y: p.y + side * n.y),
                              CGPoint(x: p.x + side * chord.x, y: p.y + side * chord.y)], to: &path)
                }
            }
        }
        // Joins where two segments meet; inside a curve the pieces already meet edge to edge.
        let joints = closed ? Array(0..<count) : Array(1..<(count - 1))
        for j in joints where !line.insideCurve[j] {
            let p = points[j]
            let n0 = arrivingNormal(j), n1 = leavingNormal(j)
            switch join {
            case .round:
                path.addDisk(p, half)
            case .bevel, .miter:
                // Both sides; the inner one is covered by the segments anyway.
                for side: CGFloat in [1, -1] {
                    let a = CGPoint(x: p.x + side * n0.x, y: p.y + side * n0.y)
                    let b = CGPoint(x: p.x + side * n1.x, y: p.y + side * n1.y)
                    var piece = [p, a, b]
                    if join == .miter, let tip = miterTip(p, a, n0, b, n1, half: half, limit: miterLimit) {
                        piece = [p, a, tip, b]
                    }
                    addPiece(piece, to: &path)
                }
            }
        }
        guard !closed else { return }
        // Caps stand square to the path's true direction at its ends.
        let startOut = leavingNormal(0), endOut = arrivingNormal(count - 1)
        for (end, out) in [(points[0], CGPoint(x: -startOut.y, y: startOut.x)), (points[count - 1], CGPoint(x: endOut.y, y: -endOut.x))] {
            switch cap {
            case .butt: break
            case .round: path.addDisk(end, half)
            case .square:
                let n = CGPoint(x: -out.y, y: out.x)
                addPiece([CGPoint(x: end.x + n.x, y: end.y + n.y), CGPoint(x: end.x + n.x + out.x, y: end.y + n.y + out.y),
                          CGPoint(x: end.x - n.x + out.x, y: end.y - n.y + out.y), CGPoint(x: end.x - n.x, y: end.y - n.y)],
                         to: &path)
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
