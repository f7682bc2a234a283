import Foundation

/// Order statistics of frame times, and the suite's geometric mean.
public enum FrameStatistics {
    /// The `p`-th percentile (0...100) of `values`, interpolated between the nearest ranks (as
    /// numpy's default); nil for no values.
    public static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = min(max(p, 0), 100) / 100 * Double(sorted.count - 1)
        let below = Int(rank.rounded(.down)), above = min(below + 1, sorted.count - 1)
        return sorted[below] + (sorted[above] - sorted[below]) * (rank - Double(below))
    }

    public static func median(_ values: [Double]) -> Double? { percentile(values, 50) }

    /// The geometric mean of positive values (MotionMark's total score); nil if any is not positive.
    public static func geometricMean(_ values: [Double]) -> Double? {
        guard !values.isEmpty, values.allSatisfy({ $0 > 0 && $0.isFinite }) else { return nil }
        return exp(values.map { log($0) }.reduce(0, +) / Double(values.count))
    }

    /// The least-squares line y = intercept + slope x through the points; nil when the x's do not
    /// spread (fewer than two distinct).
    public static func line(through points: [(x: Double, y: Double)]) -> (intercept: Double, slope: Double)? {
        let n = Double(points.count)
        guard points.count >= 2 else { return nil }
        let mx = points.map(\.x).reduce(0, +) / n, my = points.map(\.y).reduce(0, +) / n
        let sxx = points.map { ($0.x - mx) * ($0.x - mx) }.reduce(0, +)
        guard sxx > 0 else { return nil }
        let sxy = points.map { ($0.x - mx) * ($0.y - my) }.reduce(0, +)
        let slope = sxy / sxx
        return (my - slope * mx, slope)
    }
}

/// A small deterministic generator (SplitMix64) for the bootstrap: the same samples give the
/// same interval on every run.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
