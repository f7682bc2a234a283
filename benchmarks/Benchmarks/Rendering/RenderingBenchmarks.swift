// The frame pipeline, stage by stage and backend against backend, on the same render lists:
// flattening (per layer), CPU and GPU compositing (per layer and per pixel), PNG codec, pixel diff.
import Benchmark
import BenchmarkSupport
import Compositor
import Foundation
import GLBackend
import OpenQuartzCore
import PixelDiff
import RasterBackend

/// `count` overlapping 64x64 layers spread over a width x height frame.
func flatTree(_ count: Int, width: Double, height: Double) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    root.position = CGPoint(x: width / 2, y: height / 2)
    for i in 0..<count {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
        let x = Double((i * 37) % Int(width)), y = Double((i * 91) % Int(height))
        layer.position = CGPoint(x: x, y: y)
        layer.backgroundColor = CGColor(red: Double(i % 7) / 7, green: 0.5, blue: 0.7, alpha: 0.8)
        layer.transform = CATransform3DMakeRotation(Double(i) * 0.01, 0, 0, 1)
        root.addSublayer(layer)
    }
    return root
}

func renderList(_ count: Int, width: Double = 1280, height: Double = 720) -> RenderList {
    try! RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: width, height: height), scale: 1)
        .build(root: flatTree(count, width: width, height: height))
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = metricsWithRates([.wallClock, .mallocCountTotal, .peakMemoryResident])
    Benchmark.defaultConfiguration = .init(metrics: metrics,
                                           scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 100,
                                           thresholds: regressionTolerances(for: metrics))

    for count in [100, 1_000, 10_000] {
        Benchmark("flatten \(count) layers") { benchmark in
            let root = flatTree(count, width: 1280, height: 720)
            let builder = RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 1280, height: 720), scale: 1)
            try measureRates(benchmark, layers: count + 1) { blackHole(try builder.build(root: root)) }
        }
    }

    for count in [10, 100, 1_000] {
        let list = renderList(count)
        Benchmark("composite cpu \(count) layers 1280x720") { benchmark in
            measureRates(benchmark, layers: count, pixels: 1280 * 720) { blackHole(RasterRenderer().render(list)) }
        }
        Benchmark("composite gpu \(count) layers 1280x720 (\((try? GLDevice.shared().caps.renderer) ?? "no GL"))") { benchmark in
            guard let device = try? GLDevice.shared() else { return }
            try measureRates(benchmark, layers: count, pixels: 1280 * 720) { blackHole(try device.render(list)) }
        }
    }

    let uhd = renderList(100, width: 3840, height: 2160)
    Benchmark("composite cpu 100 layers 3840x2160") { benchmark in
        measureRates(benchmark, layers: 100, pixels: 3840 * 2160) { blackHole(RasterRenderer().render(uhd)) }
    }
    Benchmark("composite gpu 100 layers 3840x2160") { benchmark in
        guard let device = try? GLDevice.shared() else { return }
        try measureRates(benchmark, layers: 100, pixels: 3840 * 2160) { blackHole(try device.render(uhd)) }
    }

    let frame = RasterRenderer().render(renderList(200))
    let image = CGImage(bitmap: frame)
    let png = try! image.pngData()
    Benchmark("png encode 1280x720") { benchmark in
        try measureRates(benchmark, pixels: 1280 * 720) { blackHole(try image.pngData()) }
    }
    Benchmark("png decode 1280x720") { benchmark in
        try measureRates(benchmark, pixels: 1280 * 720) { blackHole(try CGImage.decodePNG(png)) }
    }
    var other = frame
    other.pixels[1000] &+= 9
    Benchmark("pixel diff 1280x720") { benchmark in
        try measureRates(benchmark, pixels: 1280 * 720) { blackHole(try ImageComparison.compare(frame, other)) }
    }
}
