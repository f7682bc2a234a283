import Foundation
import OpenCoreGraphics

// Round corners ("rd"): every sharp vertex of the paths in its group (and the groups inside it,
// unless they have their own) becomes two vertices a radius away along its edges (at most half
// of each edge), joined by a curve whose handles reach 0.5519 of the way back to the corner; a
// vertex with handles is left as it is, and so are an open path's ends. That is the rounding
// After Effects' Round Corners gives and lottie-ios, lottie-web and lottie-android draw;
// rectangles take the radius as their own roundness instead, as lottie-ios's Core Animation
// engine draws them.

extension LottieBezier {
    /// How far a rounded corner's handles reach back toward the corner.
    static let roundCornerHandle = 0.5519

    /// The outline with each sharp corner rounded by `radius`; unchanged when none is sharp.
    func roundingCorners(radius: Double) -> LottieBezier {
        let count = vertices.count
        guard radius > 0, count > 1 else { return self }
        // A closed outline whose first vertex has no handle out is rounded from its second
        // vertex on, as lottie-ios walks it (where a trim starts depends on it).
        let first = closed && outTangents[0] == .zero ? 1 : 0
        var points: [CGPoint] = [], ins: [CGPoint] = [], outs: [CGPoint] = []
        points.reserveCapacity(count * 2)
        ins.reserveCapacity(count * 2)
        outs.reserveCapacity(count * 2)
        var rounded = false
        for step in 0..<count {
            let i = (first + step) % count
            let corner = vertices[i]
            let isEnd = !closed && (i == 0 || i == count - 1)
            guard !isEnd, inTangents[i] == .zero, outTangents[i] == .zero else {
                points.append(corner)
                ins.append(inTangents[i])
                outs.append(outTangents[i])
                continue
            }
            rounded = true
            /// The point `radius` (at most half the edge) from the corner toward `neighbour`.
            func along(to neighbour: CGPoint) -> CGPoint {
                let length = hypot(neighbour.x - corner.x, neighbour.y - corner.y)
                let share = length > 0 ? min(length / 2, radius) / length : 0
                return CGPoint(x: corner.x + (neighbour.x - corner.x) * share, y: corner.y + (neighbour.y - corner.y) * share)
            }
            let k = Self.roundCornerHandle
            let arrive = along(to: vertices[(i + count - 1) % count]), leave = along(to: vertices[(i + 1) % count])
            points.append(arrive)
            ins.append(.zero)
            outs.append(CGPoint(x: (corner.x - arrive.x) * k, y: (corner.y - arrive.y) * k))
            points.append(leave)
            ins.append(CGPoint(x: (corner.x - leave.x) * k, y: (corner.y - leave.y) * k))
            outs.append(.zero)
        }
        return rounded ? LottieBezier(vertices: points, inTangents: ins, outTangents: outs, closed: closed) : self
    }
}

extension LottieShapeItem {
    /// The radius of the first round corners among `items`, else `inherited`.
    static func roundCorners(in items: [LottieShapeItem], inherited: LottieAnimatable<Double>?) -> LottieAnimatable<Double>? {
        for item in items {
            if case .roundCorners(let radius) = item { return radius }
        }
        return inherited
    }

    /// The item with its corners rounded by `radius` (nil: as it is): paths and stars rounded
    /// vertex by vertex, rectangles given the radius as their roundness, groups through their
    /// own round corners or this one.
    func rounded(by radius: LottieAnimatable<Double>?) -> LottieShapeItem {
        switch self {
        case .group(let items, let transform):
            let own = Self.roundCorners(in: items, inherited: radius)
            guard own != nil else { return self }
            return .group(items: items.map { $0.rounded(by: own) }, transform: transform)
        case .path, .star:
            guard let radius, radius.keyframes.contains(where: { $0.value > 0 }) else { return self }
            return .rounded(self, radius: radius)
        case .rectangle(let size, let position, _, let reversed):
            guard let radius else { return self }
            return .rectangle(size: size, position: position, roundness: radius, reversed: reversed)
        default:
            return self
        }
    }
}
