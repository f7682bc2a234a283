import Foundation
import OpenCoreGraphics

/// Which way a layer moving along a path faces.
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Turned to the path's tangent.
    public static let rotateAuto = CAAnimationRotationMode(rawValue: "auto")
    /// Turned to the tangent, backwards.
    public static let rotateAutoReverse = CAAnimationRotationMode(rawValue: "autoReverse")
}

/// A path prepared for animation: its drawing elements as cubic segments, each with an arc-length
/// table, so a point can be found by element (linear, cubic and discrete modes: each element's end
/// point is a keyframe) or by distance (paced modes).
struct PathTrack {
    struct Segment {
        let p0: CGPoint, p1: CGPoint, p2: CGPoint, p3: CGPoint
        /// Cumulative chord lengths at parameters i / samples.
        let lengths: [Double]
        var length: Double { lengths.last ?? 0 }

        init(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint) {
            self.p0 = p0; self.p1 = p1; self.p2 = p2; self.p3 = p3
            let samples = 64
            var total = 0.0, previous = p0
            var table = [0.0]
            for i in 1...samples {
                let p = Segment.point(p0, p1, p2, p3, Double(i) / Double(samples))
                total += hypot(p.x - previous.x, p.y - previous.y)
                table.append(total)
                previous = p
            }
            lengths = table
        }

        static func point(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, _ t: Double) -> CGPoint {
            let u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            return CGPoint(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
        }

        func point(at t: Double) -> CGPoint { Segment.point(p0, p1, p2, p3, t) }

        /// The direction of travel at t (the chord where the derivative vanishes).
        func tangent(at t: Double) -> CGPoint {
            let u = 1 - t
            let d = CGPoint(x: 3 * u * u * (p1.x - p0.x) + 6 * u * t * (p2.x - p1.x) + 3 * t * t * (p3.x - p2.x),
                            y: 3 * u * u * (p1.y - p0.y) + 6 * u * t * (p2.y - p1.y) + 3 * t * t * (p3.y - p2.y))
            return hypot(d.x, d.y) > 1e-12 ? d : CGPoint(x: p3.x - p0.x, y: p3.y - p0.y)
        }

        /// The parameter at which `distance` along the segment is reached.
        func parameter(atDistance distance: Double) -> Double {
            guard length > 0 else { return 0 }
            let target = min(max(distance, 0), length)
            var i = 1
            while i < lengths.count - 1 && lengths[i] < target { i += 1 }
            let span = lengths[i] - lengths[i - 1]
            let within = span > 0 ? (target - lengths[i - 1]) / span : 0
            return (Double(i - 1) + within) / Double(lengths.count - 1)
        }
    }

    let segments: [Segment]
    let start: CGPoint

    init?(_ path: CGPath) {
        var segments: [Segment] = []
        var current = CGPoint.zero, subpathStart = CGPoint.zero
        var first: CGPoint?
        func third(_ a: CGPoint, _ b: CGPoint, _ f: Double) -> CGPoint { CGPoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f) }
        for element in path.elements {
            switch element {
            case .move(let p):
                current = p
                subpathStart = p
                if first == nil { first = p }
            case .line(let p):
                segments.append(Segment(current, third(current, p, 1.0 / 3), third(current, p, 2.0 / 3), p))
                current = p
            case let .quad(c, e):
                segments.append(Segment(current, third(current, c, 2.0 / 3), third(e, c, 2.0 / 3), e))
                current = e
            case let .cubic(c1, c2, e):
                segments.append(Segment(current, c1, c2, e))
                current = e
            case .close:
                if current != subpathStart {
                    segments.append(Segment(current, third(current, subpathStart, 1.0 / 3),
                                            third(current, subpathStart, 2.0 / 3), subpathStart))
                }
                current = subpathStart
            }
            if first == nil { first = current }
        }
        guard let start = first else { return nil }
        self.segments = segments
        self.start = start
    }

    var length: Double { segments.reduce(0) { $0 + $1.length } }

    /// Point and tangent at distance `d` along the whole path.
    func sample(atDistance d: Double) -> (CGPoint, CGPoint) {
        var remaining = d
        for (i, segment) in segments.enumerated() {
            if remaining <= segment.length || i == segments.count - 1 {
                let t = segment.parameter(atDistance: remaining)
                return (segment.point(at: t), segment.tangent(at: t))
            }
            remaining -= segment.length
        }
        return (start, CGPoint(x: 1, y: 0))
    }
}

extension CAKeyframeAnimation {
    /// Moves a point-valued property along `path`: the element at paced fraction `f`.
    func applyPath(_ track: PathTrack, fraction f: Double, iteration: Int, to layer: CALayer, keyPath: String) {
        let point: CGPoint, tangent: CGPoint
        let count = track.segments.count
        if count == 0 {
            point = track.start
            tangent = CGPoint(x: 1, y: 0)
        } else if calculationMode == .paced || calculationMode == .cubicPaced {
            (point, tangent) = track.sample(atDistance: f * track.length)
        } else {
            let times = keyTimeBounds(segments: count)
            let i = times.segment(of: f, last: count - 1)
            let span = times[i + 1] - times[i]
            var s = span > 0 ? min(max((f - times[i]) / span, 0), 1) : 1
            if calculationMode == .discrete {
                s = f >= times[i + 1] ? 1 : 0
                point = s == 0 ? track.segments[i].p0 : track.segments[i].p3
            } else {
                if let functions = timingFunctions, i < functions.count { s = functions[i].evaluate(s) }
                point = track.segments[i].point(at: s)
            }
            tangent = track.segments[i].tangent(at: s)
        }
        var value = point
        if isCumulative, iteration > 0, count > 0 {
            // Each repetition goes on from where the path ended: the path moved by end - start.
            let end = track.segments[count - 1].p3, n = CGFloat(iteration)
            value = CGPoint(x: value.x + n * (end.x - track.start.x), y: value.y + n * (end.y - track.start.y))
        }
        if isAdditive, let base = BoxedGeometry.point(layer.value(forKeyPath: keyPath)) {
            value = CGPoint(x: base.x + point.x, y: base.y + point.y)
        }
        layer.setValue(value, forKeyPath: keyPath)
        guard let mode = rotationMode else { return }
        var angle = atan2(tangent.y, tangent.x)
        if mode == .rotateAutoReverse { angle += .pi }
        layer.transform = CATransform3DConcat(CATransform3DMakeRotation(angle, 0, 0, 1), layer.transform)
    }
}
