// Image comparison speed, comparator against comparator, on one 1920x1080 frame pair (2.07
// megapixels): identical frames (the common case in a passing test suite) and frames where one
// layer of 300 changed colour and another moved by a third of a pixel. Divide 2.07 by the
// time per iteration for megapixels per second; `peers/compare_diff.sh` puts these beside the
// reference Python packages in one command.
import Benchmark
import BenchmarkSupport
import Compositor
import Foundation
import OpenQuartzCore
import PixelDiff
import RasterBackend

/// 300 rounded, rotated layers over 1920x1080; `changed` recolours layer 120 and moves layer 200
/// by a third of a pixel.
func frame(changed: Bool) -> Bitmap {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 1920, height: 1080)
    root.backgroundColor = CGColor(red: 0.95, green: 0.95, blue: 0.96, alpha: 1)
    for i in 0..<300 {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 90, height: 60)
        layer.position = CGPoint(x: Double((i * 97) % 1920) + (changed && i == 200 ? 0.33 : 0), y: Double((i * 53) % 1080))
        layer.cornerRadius = 12
        let red = changed && i == 120 ? 0.9 : Double(i % 7) / 7
        layer.backgroundColor = CGColor(red: red, green: 0.45, blue: 0.75, alpha: 0.85)
        layer.transform = CATransform3DMakeRotation(Double(i) * 0.013, 0, 0, 1)
        root.addSublayer(layer)
    }
    let list = try! RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    return RasterRenderer().render(list)
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .pixelsPerSecond, .peakMemoryResident]
    Benchmark.defaultConfiguration = .init(metrics: metrics,
                                           scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 50,
                                           thresholds: regressionTolerances(for: metrics))
    let expected = frame(changed: false), same = expected, changed = frame(changed: true)
    let comparators: [(String, any PixelComparator)] = [
        ("exact", ExactComparator()),
        ("off-by-one", OffByOneComparator()),
        ("fuzzy", FuzzyComparator(maxDifferingFraction: 0.01, tolerance: 8)),
        ("bar", AgreementBarComparator()),
        ("pixelmatch", PixelmatchComparator()),
        ("ciede2000", CIEDE2000Comparator(precision: 1, perceptualPrecision: 0.98)),
        ("flip", FLIPComparator()),
    ]
    for (name, comparator) in comparators {
        Benchmark("\(name) identical 1920x1080") { benchmark in
            try measureRates(benchmark, pixels: 1920 * 1080) { blackHole(try comparator.compare(expected, same)) }
        }
        Benchmark("\(name) changed 1920x1080") { benchmark in
            try measureRates(benchmark, pixels: 1920 * 1080) { blackHole(try comparator.compare(expected, changed)) }
        }
    }
}
