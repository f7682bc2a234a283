import Foundation
import OpenCoreGraphics

// Offset path ("op", and a mask's expansion): each outline moved `a` along its normal, outward
// for a clockwise outline (After Effects' rectangles and ellipses run clockwise), as lottie-web
// (5.12) offsets one: each segment cut at its inflections and each piece offset by moving its
// control polygon's three sides out and meeting them again (Tiller and Hanson's method); where
// neighbouring pieces cross (an inward offset past a corner) both are cut at the crossing; the
// gaps between pieces joined by a miter (within the miter limit, as a multiple of the offset),
// a circular arc or a bevel. An open outline is walked out and back, giving the outline around
// it; a piece moved inward past its curvature, which would turn back on itself, is left out.
// lottie-ios's Core Animation engine draws no offset paths, so Apple's frames show none.

struct LottieOffsetPath {
    var amount: LottieAnimatable<Double>
    /// After Effects' line join: 1 miter, 2 round, 3 bevel.
    var join: Int
    var miterLimit: LottieAnimatable<Double>

    init(_ node: LottieNode) throws {
        amount = try node.numberProperty("a", default: 0)
        join = Int(try node["lj"]?.number() ?? 1)
        miterLimit = try node.numberProperty("ml", default: 4)
    }

    var keyTimes: LottieKeyTimes { amount.keyTimes + miterLimit.keyTimes }

    func apply(_ outline: LottieBezier, at frame: Double) -> LottieBezier {
        let mix: (Double, Double, Double) -> Double = { $0 + ($1 - $0) * $2 }
        let distance = amount.value(at: frame, interpolate: mix)
        guard distance != 0, outline.vertices.count > 1 else { return outline }
        return Self.offset(outline, by: distance, join: join, miterLimit: miterLimit.value(at: frame, interpolate: mix))
    }

    static func offset(_ outline: LottieBezier, by distance: Double, join: Int, miterLimit: Double) -> LottieBezier {
        var pieces = outline.segments.map { offsetPieces($0, by: distance) }
        if !outline.closed {
            // Back along the other side.
            pieces += outline.segments.reversed().map { offsetPieces(LottieCubic($0.p3, $0.p2, $0.p1, $0.p0), by: distance) }
        }
        pieces = pruned(pieces)
        var output = Output()
        var last: LottieCubic?, lastPoint: CGPoint?
        for run in pieces {
            if let last, let first = run.first { lastPoint = output.join(last, first, kind: join, miterLimit: miterLimit, distance: distance) }
            last = run.last
            for piece in run {
                if let lastPoint, near(piece.p0, lastPoint) {
                    output.setOut(piece.p1)
                } else {
                    output.add(piece.p0, in: piece.p0, out: piece.p1)
                }
                output.add(piece.p3, in: piece.p2, out: piece.p3)
                lastPoint = piece.p3
            }
        }
        if let last, let first = pieces.first?.first { _ = output.join(last, first, kind: join, miterLimit: miterLimit, distance: distance) }
        return output.outline(closed: outline.closed)
    }

    /// The offset of `segment` in pieces, cut at its inflections.
    static func offsetPieces(_ segment: LottieCubic, by distance: Double) -> [LottieCubic] {
        var parts: [LottieCubic] = []
        var rest = segment, consumed = 0.0
        for t in segment.inflections {
            let (left, right) = rest.split((t - consumed) / (1 - consumed))
            parts.append(left)
            rest = right
            consumed = t
        }
        parts.append(rest)
        // A piece offset inward past its curvature turns back on itself (a rounded corner's arc
        // moved in further than its radius): it is left out, and the pieces around it cross and
        // are cut at the crossing.
        return parts.compactMap { part in
            let piece = offsetPiece(part, by: distance)
            let before = CGPoint(x: part.p3.x - part.p0.x, y: part.p3.y - part.p0.y), after = CGPoint(x: piece.p3.x - piece.p0.x, y: piece.p3.y - piece.p0.y)
            return before.x * after.x + before.y * after.y < 0 ? nil : piece
        }
    }

    /// One piece offset by its control polygon's sides, each moved `distance` along its normal
    /// and met again.
    static func offsetPiece(_ c: LottieCubic, by distance: Double) -> LottieCubic {
        let (a0, a1) = shifted(c.p0, c.p1, by: distance), (b0, b1) = shifted(c.p1, c.p2, by: distance), (e0, e1) = shifted(c.p2, c.p3, by: distance)
        let control1 = intersection(a0, a1, b0, b1) ?? a1, control2 = intersection(e0, e1, b0, b1) ?? e0
        return LottieCubic(a0, control1, control2, e1)
    }

    /// The line from `p` to `q` moved `distance` to its right on screen (lottie-web's normal).
    static func shifted(_ p: CGPoint, _ q: CGPoint, by distance: Double) -> (CGPoint, CGPoint) {
        let angle = atan2(q.x - p.x, q.y - p.y), dx = cos(angle) * distance, dy = -sin(angle) * distance
        return (CGPoint(x: p.x + dx, y: p.y + dy), CGPoint(x: q.x + dx, y: q.y + dy))
    }

    /// Where the line through a1, a2 meets the line through b1, b2 (nil when parallel).
    static func intersection(_ a1: CGPoint, _ a2: CGPoint, _ b1: CGPoint, _ b2: CGPoint) -> CGPoint? {
        let d = (a1.x - a2.x) * (b1.y - b2.y) - (a1.y - a2.y) * (b1.x - b2.x)
        let scale = max(abs(a1.x - a2.x), abs(a1.y - a2.y), 1) * max(abs(b1.x - b2.x), abs(b1.y - b2.y), 1)
        guard abs(d) > 1e-10 * scale else { return nil }
        let a = a1.x * a2.y - a1.y * a2.x, b = b1.x * b2.y - b1.y * b2.x
        return CGPoint(x: (a * (b1.x - b2.x) - (a1.x - a2.x) * b) / d, y: (a * (b1.y - b2.y) - (a1.y - a2.y) * b) / d)
    }

    static func near(_ a: CGPoint, _ b: CGPoint) -> Bool { abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6 }

    /// Neighbouring runs cut where they cross (the last piece of one with the first of the next,
    /// the closing pair too).
    static func pruned(_ runs: [[LottieCubic]]) -> [[LottieCubic]] {
        var runs = runs.filter { !$0.isEmpty }
        guard runs.count > 1 else { return runs }
        func prune(_ i: Int, _ j: Int) {
            guard let a = runs[i].last, let b = runs[j].first, let (s, t) = crossing(a, b) else { return }
            let kept = a.split(s).0
            var rest = b.split(t).1
            // Both end at the one crossing, so no join is drawn between them.
            rest.p0 = kept.p3
            runs[i][runs[i].count - 1] = kept
            runs[j][0] = rest
        }
        for i in 1..<runs.count { prune(i - 1, i) }
        prune(runs.count - 1, 0)
        return runs
    }

    /// Where `a` and `b` cross, as parameters on each, by halving both until the boxes that
    /// still meet are a millionth of a point across; the meeting of a's end with b's start
    /// (pieces that simply continue each other) is not a crossing.
    static func crossing(_ a: LottieCubic, _ b: LottieCubic) -> (Double, Double)? {
        func box(_ c: LottieCubic) -> CGRect {
            let xs = [c.p0.x, c.p1.x, c.p2.x, c.p3.x], ys = [c.p0.y, c.p1.y, c.p2.y, c.p3.y]
            return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        }
        // Pieces that run along each other keep many boxes meeting: the search stops after a
        // few hundred boxes (no crossing is cut, which leaves a join); a crossing takes about
        // two boxes a halving.
        var visits = 0
        func search(_ a: LottieCubic, _ a0: Double, _ a1: Double, _ b: LottieCubic, _ b0: Double, _ b1: Double, depth: Int) -> (Double, Double)? {
            visits += 1
            guard visits < 400 else { return nil }
            let ba = box(a).insetBy(dx: -1e-9, dy: -1e-9), bb = box(b).insetBy(dx: -1e-9, dy: -1e-9)
            guard ba.intersects(bb) else { return nil }
            if depth >= 40 || (max(ba.width, ba.height) < 1e-6 && max(bb.width, bb.height) < 1e-6) {
                let s = (a0 + a1) / 2, t = (b0 + b1) / 2
                return s > 0.999 && t < 0.001 ? nil : (s, t)
            }
            let (al, ar) = a.split(0.5), (bl, br) = b.split(0.5)
            let am = (a0 + a1) / 2, bm = (b0 + b1) / 2
            // Earliest along b first, then along a: the crossing nearest b's start.
            return search(ar, am, a1, bl, b0, bm, depth: depth + 1) ?? search(al, a0, am, bl, b0, bm, depth: depth + 1)
                ?? search(ar, am, a1, br, bm, b1, depth: depth + 1) ?? search(al, a0, am, br, bm, b1, depth: depth + 1)
        }
        guard var (s, t) = search(a, 0, 1, b, 0, 1, depth: 0) else { return nil }
        // Newton's method on a(s) = b(t) takes the boxes' millionth to the last bits.
        for _ in 0..<4 {
            let pa = a.point(s), pb = b.point(t), da = a.derivative(s), db = b.derivative(t)
            let det = -da.x * db.y + da.y * db.x
            guard abs(det) > 1e-12 else { break }
            let rx = pb.x - pa.x, ry = pb.y - pa.y
            let ds = (-rx * db.y + ry * db.x) / det, dt = (da.x * ry - da.y * rx) / det
            guard (0...1).contains(s + ds), (0...1).contains(t + dt) else { break }
            (s, t) = (s + ds, t + dt)
        }
        return (s, t)
    }

    /// The outline being built: vertices with absolute handles.
    struct Output {
        var vertices: [CGPoint] = [], ins: [CGPoint] = [], outs: [CGPoint] = []

        mutating func add(_ p: CGPoint, in i: CGPoint, out o: CGPoint) {
            vertices.append(p)
            ins.append(i)
            outs.append(o)
        }

        mutating func setOut(_ o: CGPoint) {
            if !outs.isEmpty { outs[outs.count - 1] = o }
        }

        /// Joins the end of `a` to the start of `b`; returns where the outline now ends.
        mutating func join(_ a: LottieCubic, _ b: LottieCubic, kind: Int, miterLimit: Double, distance: Double) -> CGPoint {
            let p0 = a.p3, p1 = b.p0
            if kind == 3 || LottieOffsetPath.near(p0, p1) { return p0 }
            let d0 = a.direction(1), d1 = b.direction(0)
            if kind == 2 {
                // A circular arc between the two ends, its handles 4/3 tan(turn / 4) of the radius.
                let turn = abs(atan2(d0.x * d1.y - d0.y * d1.x, d0.x * d1.x + d0.y * d1.y))
                let radius = abs(distance)
                let reach = 4.0 / 3.0 * tan(turn / 4) * radius
                let l0 = max(hypot(d0.x, d0.y), 1e-12), l1 = max(hypot(d1.x, d1.y), 1e-12)
                setOut(CGPoint(x: p0.x + d0.x / l0 * reach, y: p0.y + d0.y / l0 * reach))
                add(p1, in: CGPoint(x: p1.x - d1.x / l1 * reach, y: p1.y - d1.y / l1 * reach), out: p1)
                return p1
            }
            // Miter: the two ends' tangent lines met, within the limit (the tip's distance from
            // the original corner over the offset: 1 / cos(half the turn)).
            guard let tip = LottieOffsetPath.intersection(p0, CGPoint(x: p0.x + d0.x, y: p0.y + d0.y), p1, CGPoint(x: p1.x - d1.x, y: p1.y - d1.y)) else { return p0 }
            let along = hypot(tip.x - p0.x, tip.y - p0.y) / max(abs(distance), 1e-12)
            guard (1 + along * along).squareRoot() <= miterLimit else { return p0 }
            add(tip, in: tip, out: tip)
            return tip
        }

        func outline(closed: Bool) -> LottieBezier {
            LottieBezier(vertices: vertices, inTangents: zip(ins, vertices).map { CGPoint(x: $0.x - $1.x, y: $0.y - $1.y) },
                         outTangents: zip(outs, vertices).map { CGPoint(x: $0.x - $1.x, y: $0.y - $1.y) }, closed: closed)
        }
    }
}
