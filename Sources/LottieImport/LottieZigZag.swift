import Foundation
import OpenCoreGraphics

// Zig-zag ("zz"): each outline becomes a zig-zag about itself. Every vertex and `r` ridges on
// each segment (at even steps of the segment's parameter) are pushed `s` off the outline along
// its normal, alternately to one side and the other, starting with the first vertex to the
// right of the way the outline runs; with `pt` 2 (smooth) each point gets handles along the
// outline reaching half the way to the next point, making waves. That is lottie-web's zig-zag
// (5.12), but for an open outline's ends, which take their segment's normal where lottie-web's
// wraps round to the other end. lottie-ios's Core Animation engine draws no zig-zags, so
// Apple's frames show none.

struct LottieZigZag {
    var size: LottieAnimatable<Double>
    var ridges: LottieAnimatable<Double>
    var pointType: LottieAnimatable<Double>

    /// Ridges an outline has at most, over all its segments: the file's count is bounded before
    /// it costs anything (a hostile outline of many segments with many ridges each).
    static let maxRidges = 20_000.0

    init(_ node: LottieNode) throws {
        size = try node.numberProperty("s", default: 0)
        ridges = try node.numberProperty("r", default: 0)
        pointType = try node.numberProperty("pt", default: 1)
    }

    var keyTimes: LottieKeyTimes { LottieKeyTimes([size, ridges, pointType].map(\.keyTimes)) }

    func apply(_ outline: LottieBezier, at frame: Double) -> LottieBezier {
        func number(_ property: LottieAnimatable<Double>) -> Double { property.value(at: frame) { $0 + ($1 - $0) * $2 } }
        let segments = outline.segments
        guard !segments.isEmpty else { return outline }
        let amplitude = number(size), count = min(max(number(ridges).rounded(.down), 0), (Self.maxRidges / Double(segments.count)).rounded(.down))
        let smooth = number(pointType).rounded() == 2
        var vertices: [CGPoint] = [], ins: [CGPoint] = [], outs: [CGPoint] = []
        /// A point pushed off `point` along the normal at `angle` (lottie-web's angle: its cosine
        /// along x, its sine up), with handles across it reaching `outReach` and `inReach`.
        func add(_ point: CGPoint, angle: Double, side: Double, outReach: Double, inReach: Double) {
            vertices.append(CGPoint(x: point.x + cos(angle) * side * amplitude, y: point.y - sin(angle) * side * amplitude))
            let outAngle = angle - .pi / 2, inAngle = angle + .pi / 2
            outs.append(CGPoint(x: cos(outAngle) * outReach, y: -sin(outAngle) * outReach))
            ins.append(CGPoint(x: cos(inAngle) * inReach, y: -sin(inAngle) * inReach))
        }
        let n = outline.vertices.count, steps = (count + 1) * 2
        func corner(_ index: Int, side: Double) {
            let point = outline.vertices[index % n], previous = outline.vertices[index == 0 ? n - 1 : index - 1]
            let next = outline.vertices[(index + 1) % n]
            // The normal of the line from the vertex before to the one after; at an open
            // outline's ends, of its end segment (lottie-web wraps round to the other end there).
            var angle = -atan2(-(next.x - previous.x), next.y - previous.y)
            if !outline.closed, index == 0 || index == segments.count {
                let d = index == 0 ? segments[0].direction(0) : segments[segments.count - 1].direction(1)
                angle = atan2(d.x, d.y)
            }
            let toPrevious = smooth ? hypot(point.x - previous.x, point.y - previous.y) : 0
            let toNext = smooth ? hypot(point.x - next.x, point.y - next.y) : 0
            add(point, angle: angle, side: side, outReach: toNext / steps, inReach: toPrevious / steps)
        }
        func addRidges(on segment: LottieCubic, side start: Double) -> Double {
            var side = start
            let reach = smooth ? hypot(segment.p3.x - segment.p0.x, segment.p3.y - segment.p0.y) / steps : 0
            var i = 0.0
            while i < count {
                let t = (i + 1) / (count + 1), d = segment.direction(t)
                add(segment.point(t), angle: atan2(d.x, d.y), side: side, outReach: reach, inReach: reach)
                side = -side
                i += 1
            }
            return side
        }
        var side = -1.0
        corner(0, side: side)
        for (i, segment) in segments.enumerated() {
            side = addRidges(on: segment, side: -side)
            corner(i + 1, side: side)
        }
        return LottieBezier(vertices: vertices, inTangents: ins, outTangents: outs, closed: outline.closed)
    }
}
