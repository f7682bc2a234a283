import Foundation
import OpenCoreGraphics

// Lottie's bezier shape: vertices with in and out handles relative to them, open or closed; the
// value of a path ("sh") and of masks.

struct LottieBezier {
    var vertices: [CGPoint]
    var inTangents: [CGPoint]
    var outTangents: [CGPoint]
    var closed: Bool

    init(_ node: LottieNode) throws {
        // Some exports wrap the shape in a one-element array.
        let shape = node.onlyElement ?? node
        func points(_ key: String) throws -> [CGPoint] {
            guard let list = shape[key] else { return [] }
            return try list.array().map { p in
                let v = try p.numbers()
                guard v.count >= 2 else { throw p.fail("a point needs two numbers") }
                return CGPoint(x: v[0], y: v[1])
            }
        }
        vertices = try points("v")
        inTangents = try points("i")
        outTangents = try points("o")
        closed = shape["c"]?.bool() ?? false
        while inTangents.count < vertices.count { inTangents.append(.zero) }
        while outTangents.count < vertices.count { outTangents.append(.zero) }
    }

    init(vertices: [CGPoint], inTangents: [CGPoint], outTangents: [CGPoint], closed: Bool) {
        (self.vertices, self.inTangents, self.outTangents, self.closed) = (vertices, inTangents, outTangents, closed)
    }

    static func mix(_ a: LottieBezier, _ b: LottieBezier, _ t: Double) -> LottieBezier {
        guard a.vertices.count == b.vertices.count else { return t < 1 ? a : b }
        func lerp(_ p: [CGPoint], _ q: [CGPoint]) -> [CGPoint] {
            zip(p, q).map { CGPoint(x: $0.x + ($1.x - $0.x) * t, y: $0.y + ($1.y - $0.y) * t) }
        }
        return LottieBezier(vertices: lerp(a.vertices, b.vertices), inTangents: lerp(a.inTangents, b.inTangents),
                            outTangents: lerp(a.outTangents, b.outTangents), closed: a.closed)
    }

    func add(to path: CGMutablePath, transform: CGAffineTransform = .identity) {
        guard let first = vertices.first else { return }
        let count = vertices.count
        // A path's first outline is most often its only one (a sampled shape): room for all of
        // it at once. (Reserving for each outline after would copy the path once per outline.)
        if path.isEmpty { path.reserveCapacity(count + 2) }
        path.move(to: first, transform: transform)
        for i in 0..<(closed ? count : count - 1) {
            let j = (i + 1) % count
            let c1 = CGPoint(x: vertices[i].x + outTangents[i].x, y: vertices[i].y + outTangents[i].y)
            let c2 = CGPoint(x: vertices[j].x + inTangents[j].x, y: vertices[j].y + inTangents[j].y)
            path.addCurve(to: vertices[j], control1: c1, control2: c2, transform: transform)
        }
        if closed { path.closeSubpath() }
    }
}
