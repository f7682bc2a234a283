// What `make bench-check` (package-benchmark's thresholds check) calls a regression: these
// machines are shared, and repeated runs of the same frame spread by up to 30% ((max - min) /
// median in the peer benchmark's three rounds on sub-10 ms scenes, 2-6% above 50 ms), so wall
// time fails only when its p90 is 25% worse than the recorded one; allocation counts do not
// depend on the machine and fail at 5%.
import Benchmark

public func regressionTolerances(for metrics: [BenchmarkMetric]) -> [BenchmarkMetric: BenchmarkThresholds] {
    let all: [BenchmarkMetric: BenchmarkThresholds] = [
        .wallClock: BenchmarkThresholds(relative: [.p50: 25.0, .p90: 25.0]),
        .mallocCountTotal: BenchmarkThresholds(relative: [.p50: 5.0, .p90: 5.0]),
    ]
    return all.filter { metrics.contains($0.key) }
}
