// Presentation-tree evaluation: what every animated frame pays before compositing. The issue's
// target is under 1 microsecond per layer per frame with 10,000 layers, 2 animations each.
import Benchmark
import BenchmarkSupport
import Foundation
import OpenQuartzCore

/// A root with `count` sublayers, each moving and fading.
func animatedTree(_ count: Int, animationsPerLayer: Int) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 1000, height: 1000)
    for i in 0..<count {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.position = CGPoint(x: Double(i % 100) * 10, y: Double(i / 100) * 10)
        layer.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
        if animationsPerLayer > 0 {
            let move = CABasicAnimation(keyPath: "position.x")
            move.fromValue = 0.0
            move.toValue = 500.0
            move.beginTime = 1
            move.duration = 10
            layer.add(move, forKey: "move")
        }
        if animationsPerLayer > 1 {
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 1.0
            fade.toValue = 0.0
            fade.beginTime = 1
            fade.duration = 10
            layer.add(fade, forKey: "fade")
        }
        root.addSublayer(layer)
    }
    return root
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .layersPerSecond]
    Benchmark.defaultConfiguration = .init(metrics: metrics,
                                           scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 200,
                                           thresholds: regressionTolerances(for: metrics))

    for (count, animations) in [(10_000, 2), (10_000, 0), (1_000, 2)] {
        // What a renderer does each frame: refresh the copies it kept from the last frame.
        Benchmark("presentationTree \(count) layers x \(animations) animations") { benchmark in
            let root = animatedTree(count, animationsPerLayer: animations)
            let cache = PresentationCache()
            var t = 2.0
            measureRates(benchmark, layers: count + 1) {
                blackHole(root.presentationTree(atMediaTime: t, reusing: cache))
                t += 1.0 / 60
            }
        }
    }
    // The public presentation() path: fresh copies every time.
    Benchmark("presentationTree 10000 layers x 2 animations, fresh copies") { benchmark in
        let root = animatedTree(10_000, animationsPerLayer: 2)
        var t = 2.0
        measureRates(benchmark, layers: 10_001) {
            blackHole(root.presentationTree(atMediaTime: t))
            t += 1.0 / 60
        }
    }
}
