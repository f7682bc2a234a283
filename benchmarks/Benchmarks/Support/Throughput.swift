// Work rates beside wall time, so that cases of different sizes read on one scale: layers per
// second for what grows with the tree, pixels per second for what grows with the frame. They are
// reported as custom metrics (package-benchmark shows them scaled: K, M) and are not checked for
// regressions: they are wall time seen the other way up.
import Benchmark

extension BenchmarkMetric {
    /// Layers evaluated, flattened or composited per second.
    public static let layersPerSecond = BenchmarkMetric.custom("layers/s", polarity: .prefersLarger, useScalingFactor: false)
    /// Output pixels produced (or compared, encoded, decoded) per second.
    public static let pixelsPerSecond = BenchmarkMetric.custom("pixels/s", polarity: .prefersLarger, useScalingFactor: false)
}

/// Runs `body` once per scaled iteration, timing the loop itself, and records the rates of
/// `layers` layers and `pixels` pixels per run of `body` (a zero leaves that rate out). Call it
/// after any set-up, where `startMeasurement()` would go; it starts the measurement itself.
public func measureRates(_ benchmark: Benchmark, layers: Int = 0, pixels: Int = 0, _ body: () throws -> Void) rethrows {
    benchmark.startMeasurement()
    let clock = ContinuousClock()
    let start = clock.now
    var runs = 0
    for _ in benchmark.scaledIterations {
        try body()
        runs += 1
    }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    guard runs > 0, seconds > 0 else { return }
    let perRun = seconds / Double(runs)
    if layers > 0 { benchmark.measurement(.layersPerSecond, Int((Double(layers) / perRun).rounded())) }
    if pixels > 0 { benchmark.measurement(.pixelsPerSecond, Int((Double(pixels) / perRun).rounded())) }
}

/// The metrics every rendering suite reports, with the rates added.
public func metricsWithRates(_ metrics: [BenchmarkMetric]) -> [BenchmarkMetric] {
    metrics + [.layersPerSecond, .pixelsPerSecond]
}
