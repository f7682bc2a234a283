import Foundation

/// The complexity a workload sustains at the target frame rate, found as MotionMark's ramp
/// controller finds it, in bounded time:
///
/// 1. Ramp: from the start complexity, double while a frame takes less than the target frame
///    time (or halve while it takes more), until the target lies between two complexities: at
///    most log2(maxComplexity) samples, whatever the budget.
/// 2. Refine: measure evenly spaced complexities between them, round after round, until the time
///    budget is spent (at least one round).
/// 3. Fit: frame time against complexity, least squares, over the samples between the two; the
///    score is where the line reaches the target frame time. Its 95% confidence interval is the
///    2.5th and 97.5th percentiles of the same fit over 500 bootstrap resamples of those samples.
///
/// Each sample is the median frame time of a few frames after a warm-up frame (`measure`
/// excludes it): the first frame after the tree is built uploads and draws what later frames
/// reuse.
public struct RampController {
    /// Seconds a frame may take: 1 / the target frame rate.
    public var targetSeconds: Double
    /// Seconds the ramp and the refinement may take in all (the measuring, not the checks).
    public var budgetSeconds: Double
    public var startComplexity: Int
    /// The largest complexity tried; a workload that holds the rate there scores it, capped.
    public var maxComplexity: Int
    /// Complexities measured per refinement round.
    public var pointsPerRound = 5
    public var maxRounds = 6

    public init(targetSeconds: Double, budgetSeconds: Double, startComplexity: Int, maxComplexity: Int = 20_000) {
        self.targetSeconds = targetSeconds
        self.budgetSeconds = budgetSeconds
        self.startComplexity = max(1, startComplexity)
        self.maxComplexity = max(self.startComplexity, maxComplexity)
    }

    /// What the controller found.
    public struct Result: Codable, Sendable, Equatable {
        /// The complexity at the target frame time (fractional: the fitted line's), and its 95%
        /// confidence interval.
        public var score: Double
        public var low: Double
        public var high: Double
        /// The bracket the ramp found: the target lies between these complexities.
        public var bracket: [Int]
        /// Every complexity measured, in order, with its median frame time.
        public var samples: [Sample]
        /// The fitted line: frame seconds = intercept + slope x complexity.
        public var intercept: Double
        public var slope: Double
        /// True when the largest complexity tried still held the rate (the score is a floor).
        public var capped: Bool
        public var seconds: Double
    }

    public struct Sample: Codable, Sendable, Equatable {
        public var complexity: Int
        public var frameSeconds: Double
    }

    /// Runs the ramp; `measure(c)` renders frames at complexity `c` and returns their median time.
    public func run(measure: (Int) throws -> Double) rethrows -> Result {
        let clock = ContinuousClock(), started = clock.now
        func elapsed() -> Double {
            let d = started.duration(to: clock.now)
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        var samples: [Sample] = []
        func sample(_ c: Int) throws -> Double {
            let t = try measure(c)
            samples.append(Sample(complexity: c, frameSeconds: t))
            return t
        }
        // 1. Ramp to a bracket [lo, hi]: lo holds the rate (or is 0), hi does not (or is the cap).
        var lo = 0, hi = startComplexity
        if try sample(startComplexity) < targetSeconds {
            lo = startComplexity
            hi = startComplexity
            while hi < maxComplexity {
                let next = min(hi * 2, maxComplexity)
                if try sample(next) < targetSeconds { lo = next; hi = next } else { hi = next; break }
            }
        } else {
            while hi > 1 {
                let next = hi / 2
                if try sample(next) < targetSeconds { lo = next; break }
                hi = next
            }
        }
        let capped = lo == hi  // the largest complexity held the rate
        // 2. Refine between them.
        if !capped {
            var round = 0
            repeat {
                let span = Double(hi - lo)
                for k in 0..<pointsPerRound {
                    // Evenly spaced, shifted each round so rounds interleave.
                    let f = (Double(k) + 0.5 + Double(round % 2) * 0.25) / Double(pointsPerRound)
                    let c = max(1, lo + Int((span * f).rounded()))
                    _ = try sample(c)
                }
                round += 1
            } while round < maxRounds && elapsed() < budgetSeconds
        }
        // 3. Fit over the bracket; where even complexity 1 misses the rate, over every sample
        // (the line's fixed cost then tells how far below 1 the score lies, 0 when the fixed
        // cost alone passes the target).
        let inside = lo == 0 ? samples : samples.filter { $0.complexity >= lo && $0.complexity <= hi }
        let points = inside.map { (x: Double($0.complexity), y: $0.frameSeconds) }
        func score(_ line: (intercept: Double, slope: Double)?) -> Double? {
            guard let line, line.slope > 0 else { return nil }
            return min(max((targetSeconds - line.intercept) / line.slope, 0), Double(maxComplexity))
        }
        let fit = FrameStatistics.line(through: points)
        // Without a usable line (too few points, or time not rising with complexity), the middle
        // of the bracket.
        let fallback = capped ? Double(hi) : lo == 0 ? 0 : Double(lo + hi) / 2
        let best = capped ? Double(hi) : (score(fit) ?? fallback)
        var resampled: [Double] = []
        if !capped, points.count >= 3, fit != nil {
            var random = SplitMix64(state: 0x5EED)
            for _ in 0..<500 {
                let draw = (0..<points.count).map { _ in points[random.below(points.count)] }
                if let s = score(FrameStatistics.line(through: draw)) { resampled.append(s) }
            }
        }
        let low = FrameStatistics.percentile(resampled, 2.5) ?? best
        let high = FrameStatistics.percentile(resampled, 97.5) ?? best
        return Result(score: best, low: min(low, best), high: max(high, best), bracket: [lo, hi], samples: samples,
                      intercept: fit?.intercept ?? 0, slope: fit?.slope ?? 0, capped: capped, seconds: elapsed())
    }
}
