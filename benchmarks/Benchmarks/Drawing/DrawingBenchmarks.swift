// OpenCoreGraphics on the CPU: path fill (the same 1000x1000 curved shape benchmarks/peers/
// fill_skia.py draws with Skia), stroking many segments, text layout, gradient fill.
import Benchmark
import BenchmarkSupport
import Foundation
import OpenQuartzCore

/// A curved shape filling most of a 1000x1000 canvas: a ring of 24 cubic petals around the
/// centre, closed, filled non-zero. benchmarks/peers/fill_skia.py builds the same path.
func petalPath() -> CGPath {
    let path = CGMutablePath()
    let center = CGPoint(x: 500, y: 500)
    path.move(to: CGPoint(x: center.x + 450, y: center.y))
    for i in 0..<24 {
        let a0 = Double(i) * 2 * .pi / 24, a1 = Double(i + 1) * 2 * .pi / 24
        let mid = (a0 + a1) / 2
        path.addCurve(to: CGPoint(x: center.x + 450 * cos(a1), y: center.y + 450 * sin(a1)),
                      control1: CGPoint(x: center.x + 250 * cos(mid - 0.2), y: center.y + 250 * sin(mid - 0.2)),
                      control2: CGPoint(x: center.x + 250 * cos(mid + 0.2), y: center.y + 250 * sin(mid + 0.2)))
    }
    path.closeSubpath()
    return path
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .pixelsPerSecond]
    Benchmark.defaultConfiguration = .init(metrics: metrics,
                                           scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 100,
                                           thresholds: regressionTolerances(for: metrics))

    let petals = petalPath()
    Benchmark("fill curved path 1000x1000") { benchmark in
        measureRates(benchmark, pixels: 1000 * 1000) {
            let ctx = CGContext(width: 1000, height: 1000)!
            ctx.setFillColor(CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1))
            ctx.addPath(petals)
            ctx.fillPath()
            blackHole(ctx)
        }
    }

    let zigzag = CGMutablePath()
    zigzag.move(to: CGPoint(x: 0, y: 0))
    for i in 1...10_000 { zigzag.addLine(to: CGPoint(x: Double(i % 100) * 10, y: Double(i / 100) * 10 + Double(i % 2) * 5)) }
    Benchmark("stroke 10k segments 1000x1000") { benchmark in
        measureRates(benchmark, pixels: 1000 * 1000) {
            let ctx = CGContext(width: 1000, height: 1000)!
            ctx.setLineWidth(2)
            ctx.addPath(zigzag)
            ctx.strokePath()
            blackHole(ctx)
        }
    }

    let words = (0..<1000).map { ["layer", "render", "headless", "animation", "quartz", "frame"][$0 % 6] }.joined(separator: " ")
    Benchmark("text layout 1000 words (wrapped, 600 pt wide)") { benchmark in
        for _ in benchmark.scaledIterations {
            let layer = CATextLayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 600, height: 4000)
            layer.fontSize = 14
            layer.isWrapped = true
            layer.string = words
            blackHole(layer.layoutLines())
        }
    }

    let gradient = CGGradient(colorsSpace: nil, colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                                                         CGColor(red: 0, green: 0, blue: 1, alpha: 1)], locations: nil)!
    Benchmark("linear gradient fill 1000x1000") { benchmark in
        measureRates(benchmark, pixels: 1000 * 1000) {
            let ctx = CGContext(width: 1000, height: 1000)!
            ctx.drawLinearGradient(gradient, start: .zero, end: CGPoint(x: 1000, y: 1000), options: [])
            blackHole(ctx)
        }
    }
}
