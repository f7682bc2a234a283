import Foundation

/// The names of the predefined timing functions.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// (0, 0), (1, 1): constant speed.
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    /// (0.42, 0), (1, 1): starts slowly.
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    /// (0, 0), (0.58, 1): ends slowly.
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    /// (0.42, 0), (0.58, 1): starts and ends slowly.
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// (0.25, 0.1), (0.25, 1): the curve of implicit animations.
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

/// A cubic Bézier from (0, 0) to (1, 1) that maps an animation's linear progress to its paced
/// progress, with Apple's control points for the named functions. Evaluation solves x(s) = t for
/// the curve parameter to 1e-6 or better.
public final class CAMediaTimingFunction: Equatable, Sendable, CustomStringConvertible {
    /// The inner control points (c1x, c1y, c2x, c2y).
    public let controlPoints: (Float, Float, Float, Float)

    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        // x must stay within 0...1 for the curve to be a function of time, as Core Animation requires.
        controlPoints = (min(max(c1x, 0), 1), c1y, min(max(c2x, 0), 1), c2y)
    }

    public convenience init(name: CAMediaTimingFunctionName) {
        switch name {
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        case .default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        default: self.init(controlPoints: 0, 0, 1, 1)
        }
    }

    /// Control point `index` (0...3: the end points and the two inner points) into `values[0...1]`.
    public func getControlPoint(at index: Int, values: UnsafeMutablePointer<Float>) {
        let points: [(Float, Float)] = [(0, 0), (controlPoints.0, controlPoints.1), (controlPoints.2, controlPoints.3), (1, 1)]
        guard points.indices.contains(index) else { return }
        values[0] = points[index].0
        values[1] = points[index].1
    }

    /// The paced progress for linear progress `x` in 0...1.
    public func evaluate(_ x: Double) -> Double {
        let x = min(max(x, 0), 1)
        let (x1, y1, x2, y2) = (Double(controlPoints.0), Double(controlPoints.1), Double(controlPoints.2), Double(controlPoints.3))
        // Bernstein form: b(s) = 3(1-s)^2 s p1 + 3(1-s) s^2 p2 + s^3.
        func curve(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        func slope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
        }
        // Newton's method from s = x, falling back to bisection, which always converges since
        // x(s) is monotonic for control x in 0...1.
        var s = x
        for _ in 0..<12 {
            let error = curve(s, x1, x2) - x
            if abs(error) < 1e-14 { return curve(s, y1, y2) }
            let d = slope(s, x1, x2)
            if abs(d) < 1e-9 { break }
            s -= error / d
            if s < 0 || s > 1 { break }
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<60 {
            let value = curve(s, x1, x2)
            if abs(value - x) < 1e-14 { break }
            if value < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return curve(s, y1, y2)
    }

    public static func == (lhs: CAMediaTimingFunction, rhs: CAMediaTimingFunction) -> Bool {
        lhs.controlPoints == rhs.controlPoints
    }

    public var description: String {
        "CAMediaTimingFunction(\(controlPoints.0), \(controlPoints.1), \(controlPoints.2), \(controlPoints.3))"
    }
}
