// The ramp controller against cost models whose answer is known: frame time a + b x complexity,
// with noise, where the target frame time is met at (target - a) / b.

import Foundation
import QuartzBench
import Testing

@Suite("Ramp controller")
struct RampControllerTests {
    /// Frame seconds at complexity c: 2 ms fixed, 0.1 ms a unit, and +-4% noise from a hash of
    /// the complexity and the measurement's number (a measurement repeated differs, as on a machine).
    static func model(_ c: Int, call: Int = 0, noise: Double = 0.04) -> Double {
        var z = UInt64(c) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(call) &* 0xD1B5_4A32_D192_ED03
        z = (z ^ (z >> 29)) &* 0xBF58_476D_1CE4_E5B9
        let jitter = (Double(z >> 11) / Double(1 << 53) - 0.5) * 2 * noise
        return (0.002 + 0.0001 * Double(c)) * (1 + jitter)
    }

    @Test("from below, it brackets the target by doubling and finds the complexity at 60 fps, inside its interval",
          arguments: [1, 8, 32, 120])
    func convergesFromBelow(start: Int) throws {
        let truth = (1.0 / 60 - 0.002) / 0.0001  // 146.7
        var calls = 0
        let result = RampController(targetSeconds: 1.0 / 60, budgetSeconds: 60, startComplexity: start).run { c in
            calls += 1
            return Self.model(c, call: calls)
        }
        #expect(abs(result.score - truth) / truth < 0.06, "score \(result.score), truth \(truth)")
        #expect(result.low <= truth && truth <= result.high, "interval \(result.low)...\(result.high) misses \(truth)")
        #expect(result.high - result.low < truth * 0.3, "interval \(result.low)...\(result.high) too wide")
        #expect(result.bracket[0] < Int(truth.rounded(.up)) && Int(truth) <= result.bracket[1], "bracket \(result.bracket)")
        #expect(!result.capped)
        // Bounded: the ramp's doublings plus six rounds of five, whatever the budget.
        #expect(calls <= 12 + 6 * 5, "\(calls) measurements")
        #expect(result.samples.count == calls)
    }

    @Test("from above, it halves until a complexity holds the rate")
    func convergesFromAbove() {
        let truth = (1.0 / 60 - 0.002) / 0.0001
        let result = RampController(targetSeconds: 1.0 / 60, budgetSeconds: 60, startComplexity: 5000).run { Self.model($0) }
        #expect(abs(result.score - truth) / truth < 0.06, "score \(result.score)")
        #expect(result.samples.first?.complexity == 5000 && result.samples[1].complexity == 2500)
    }

    @Test("a workload that holds the rate at the largest complexity scores that, marked capped")
    func capped() {
        let result = RampController(targetSeconds: 1.0 / 60, budgetSeconds: 60, startComplexity: 8, maxComplexity: 1000)
            .run { _ in 0.001 }
        #expect(result.capped && result.score == 1000 && result.low == 1000 && result.high == 1000)
    }

    @Test("a workload too slow at complexity 1 scores below 1, not a negative number")
    func tooSlow() {
        let result = RampController(targetSeconds: 1.0 / 60, budgetSeconds: 60, startComplexity: 8).run { c in 0.05 + 0.001 * Double(c) }
        #expect(result.score >= 0 && result.score < 1, "\(result.score)")
        #expect(result.bracket == [0, 1])
    }

    @Test("the time budget bounds the refinement: with none left, one round after the bracket")
    func budget() {
        var calls = 0
        let result = RampController(targetSeconds: 1.0 / 60, budgetSeconds: 0, startComplexity: 8).run { c in
            calls += 1
            return Self.model(c)
        }
        // 8, 16, 32, 64, 128 hold 60 fps, 256 does not: six to bracket, then one round of five.
        #expect(result.bracket == [128, 256] && !result.capped)
        #expect(calls == 6 + 5, "\(calls) measurements")
    }

    @Test("percentiles interpolate between ranks as numpy does; the geometric mean; the least-squares line")
    func statistics() throws {
        #expect(FrameStatistics.percentile([1, 2, 3, 4], 90) == 3.7)
        #expect(FrameStatistics.median([5, 1, 3]) == 3)
        #expect(FrameStatistics.percentile([], 50) == nil)
        #expect(abs(try #require(FrameStatistics.geometricMean([2, 8])) - 4) < 1e-12)
        #expect(FrameStatistics.geometricMean([2, 0]) == nil)
        let line = try #require(FrameStatistics.line(through: [(1, 3), (2, 5), (3, 7)]))
        #expect(abs(line.intercept - 1) < 1e-12 && abs(line.slope - 2) < 1e-12)
        #expect(FrameStatistics.line(through: [(1, 3), (1, 5)]) == nil)
    }
}
