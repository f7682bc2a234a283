import Foundation
import OpenCoreGraphics

// One segment of a Lottie outline as a cubic: what the path modifiers (zig-zag, offset path)
// measure and cut. An end without a handle has its control a third of the way along the chord,
// so that the parameter runs evenly along a straight segment and the segment has a direction at
// both ends, as lottie-web measures one.

struct LottieCubic {
    var p0, p1, p2, p3: CGPoint

    /// Segment `index` of `outline`: from its vertex `index` to the next (the first, past the last).
    init(_ outline: LottieBezier, segment index: Int) {
        let j = (index + 1) % outline.vertices.count
        let a = outline.vertices[index], b = outline.vertices[j]
        let out = outline.outTangents[index], into = outline.inTangents[j]
        self.init(a, out == .zero ? CGPoint(x: a.x + (b.x - a.x) / 3, y: a.y + (b.y - a.y) / 3) : CGPoint(x: a.x + out.x, y: a.y + out.y),
                  into == .zero ? CGPoint(x: a.x + (b.x - a.x) * 2 / 3, y: a.y + (b.y - a.y) * 2 / 3) : CGPoint(x: b.x + into.x, y: b.y + into.y), b)
    }

    init(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint) {
        (self.p0, self.p1, self.p2, self.p3) = (p0, p1, p2, p3)
    }

    func point(_ t: Double) -> CGPoint {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return CGPoint(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    func derivative(_ t: Double) -> CGPoint {
        let u = 1 - t
        let a = 3 * u * u, b = 6 * u * t, c = 3 * t * t
        return CGPoint(x: a * (p1.x - p0.x) + b * (p2.x - p1.x) + c * (p3.x - p2.x),
                       y: a * (p1.y - p0.y) + b * (p2.y - p1.y) + c * (p3.y - p2.y))
    }

    /// The direction the segment runs at `t`, falling back to its chord where it stands still.
    func direction(_ t: Double) -> CGPoint {
        let d = derivative(t)
        if hypot(d.x, d.y) > 1e-12 { return d }
        return CGPoint(x: p3.x - p0.x, y: p3.y - p0.y)
    }

    /// The two halves at `t` (de Casteljau).
    func split(_ t: Double) -> (LottieCubic, LottieCubic) {
        func mix(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t) }
        let a = mix(p0, p1), b = mix(p1, p2), c = mix(p2, p3), d = mix(a, b), e = mix(b, c), f = mix(d, e)
        return (LottieCubic(p0, a, d, f), LottieCubic(f, e, c, p3))
    }

    /// Where the curve's bend changes side, strictly inside (0, 1), in order.
    var inflections: [Double] {
        // The cross product of the first and second derivatives is a quadratic in t.
        let a = CGPoint(x: p1.x - p0.x, y: p1.y - p0.y), b = CGPoint(x: p2.x - 2 * p1.x + p0.x, y: p2.y - 2 * p1.y + p0.y)
        let c = CGPoint(x: p3.x - 3 * p2.x + 3 * p1.x - p0.x, y: p3.y - 3 * p2.y + 3 * p1.y - p0.y)
        let qa = b.x * c.y - b.y * c.x, qb = a.x * c.y - a.y * c.x, qc = a.x * b.y - a.y * b.x
        var roots: [Double] = []
        if abs(qa) < 1e-12 {
            if abs(qb) > 1e-12 { roots = [-qc / qb] }
        } else {
            let disc = qb * qb - 4 * qa * qc
            if disc >= 0 {
                let s = disc.squareRoot()
                roots = [(-qb - s) / (2 * qa), (-qb + s) / (2 * qa)]
            }
        }
        return roots.filter { $0 > 1e-6 && $0 < 1 - 1e-6 }.sorted()
    }

    /// The segment as an outline's vertex pair: its end's in handle and its start's out handle.
    var outHandle: CGPoint { CGPoint(x: p1.x - p0.x, y: p1.y - p0.y) }
    var inHandle: CGPoint { CGPoint(x: p2.x - p3.x, y: p2.y - p3.y) }
}

extension LottieBezier {
    /// The segments in order (the closing one too when closed).
    var segments: [LottieCubic] {
        guard vertices.count > 1 else { return [] }
        return (0..<(closed ? vertices.count : vertices.count - 1)).map { LottieCubic(self, segment: $0) }
    }

    /// The outline through `transform` (handles by its linear part).
    func applying(_ t: CGAffineTransform) -> LottieBezier {
        guard t != .identity else { return self }
        let linear = CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: 0, ty: 0)
        return LottieBezier(vertices: vertices.map { $0.applying(t) }, inTangents: inTangents.map { $0.applying(linear) },
                            outTangents: outTangents.map { $0.applying(linear) }, closed: closed)
    }
}
