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

/// A still 1280 x 720 page (a header, three shadowed cards with gradients and text, four rows)
/// with a 120 x 120 spinner turning over it: what damage tracking is for.
func spinnerOnPage() -> CALayer {
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    defer { CATransaction.commit() }
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
    root.backgroundColor = CGColor(gray: 0.98, alpha: 1)
    let header = CALayer()
    header.frame = CGRect(x: 0, y: 0, width: 1280, height: 64)
    header.backgroundColor = CGColor(red: 0.12, green: 0.16, blue: 0.22, alpha: 1)
    root.addSublayer(header)
    func text(_ string: String, _ frame: CGRect, size: CGFloat) -> CATextLayer {
        let layer = CATextLayer()
        layer.frame = frame
        layer.string = string
        layer.fontSize = size
        layer.foregroundColor = CGColor(gray: 0.2, alpha: 1)
        return layer
    }
    for i in 0..<3 {
        let card = CALayer()
        card.frame = CGRect(x: 40 + Double(i) * 410, y: 100, width: 380, height: 260)
        card.backgroundColor = CGColor(gray: 1, alpha: 1)
        card.cornerRadius = 12
        card.shadowOpacity = 0.25
        card.shadowRadius = 10
        card.borderWidth = 1
        card.borderColor = CGColor(gray: 0.9, alpha: 1)
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 16, y: 16, width: 348, height: 120)
        gradient.colors = [CGColor(red: 0.15, green: 0.39, blue: 0.92, alpha: 1), CGColor(gray: 0.98, alpha: 1)]
        card.addSublayer(gradient)
        card.addSublayer(text("Card \(i + 1): throughput", CGRect(x: 16, y: 150, width: 348, height: 24), size: 18))
        root.addSublayer(card)
    }
    for row in 0..<4 {
        let line = CALayer()
        line.frame = CGRect(x: 40, y: 400 + Double(row) * 70, width: 800, height: 56)
        line.backgroundColor = CGColor(gray: 0.95, alpha: 1)
        line.cornerRadius = 8
        line.addSublayer(text("Row \(row + 1): a still line of the page", CGRect(x: 16, y: 16, width: 600, height: 24), size: 16))
        root.addSublayer(line)
    }
    let spinner = CAShapeLayer()
    spinner.bounds = CGRect(x: 0, y: 0, width: 120, height: 120)
    spinner.position = CGPoint(x: 1040, y: 540)
    spinner.path = CGPath(ellipseIn: CGRect(x: 10, y: 10, width: 100, height: 100), transform: nil)
    spinner.fillColor = nil
    spinner.strokeColor = CGColor(red: 0.15, green: 0.39, blue: 0.92, alpha: 1)
    spinner.lineWidth = 10
    spinner.lineCap = .round
    spinner.strokeEnd = 0.7
    let spin = CABasicAnimation(keyPath: "transform.rotation.z")
    spin.fromValue = 0.0
    spin.toValue = 2 * Double.pi
    spin.duration = 1
    spin.repeatCount = .infinity
    spinner.add(spin, forKey: "spin")
    root.addSublayer(spinner)
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

    // A frame of a spinner over a still page, drawn over the frame before (damage tracking) and
    // whole: the ratio is what `updateBounds()` saves. Each iteration is the next frame, 1/60 s on.
    for backend in RenderBackend.allCases {
        for whole in [false, true] {
            Benchmark("spinner on page \(backend) 1280x720, \(whole ? "whole frames" : "damage only")") { benchmark in
                let renderer = CARenderer(backend: backend)
                renderer.layer = spinnerOnPage()
                renderer.bounds = CGRect(x: 0, y: 0, width: 1280, height: 720)
                renderer.redrawsWholeFrames = whole
                var t = 0.0
                func frame() throws {
                    t += 1.0 / 60
                    renderer.beginFrame(atTime: t)
                    renderer.render()
                    renderer.endFrame()
                    blackHole(try renderer.makeImage())
                }
                try frame()
                try measureRates(benchmark, pixels: 1280 * 720) { try frame() }
            }
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
