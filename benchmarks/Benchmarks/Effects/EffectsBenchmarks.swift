// Compositing effects: what a shadow costs against its radius, in closed form and through the
// offscreen blur (which must stay nearly flat on the GL path: large radii blur a halved copy),
// frames with many shadows and masks, and the texture cache across the frames of an animation.
import Benchmark
import BenchmarkSupport
import Compositor
import Foundation
import GLBackend
import OpenQuartzCore
import RasterBackend

/// A 1280x720 frame with one 400x300 rounded card casting a shadow of `radius` points, its shape
/// taken from the card's alpha.
/// With `offscreen`, the card holds an empty sublayer, which sends its shadow through the
/// offscreen blur (halved copies for large radii) instead of the closed form.
func shadowFrame(radius: Double, offscreen: Bool = false) -> RenderList {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 1280, height: 720)
    root.position = CGPoint(x: 640, y: 360)
    root.backgroundColor = CGColor(gray: 0.9, alpha: 1)
    let card = CALayer()
    card.frame = CGRect(x: 440, y: 210, width: 400, height: 300)
    card.backgroundColor = .white
    card.cornerRadius = 16
    card.shadowOpacity = 0.6
    card.shadowRadius = radius
    card.shadowOffset = CGSize(width: 0, height: 8)
    if offscreen { card.addSublayer(CALayer()) }
    root.addSublayer(card)
    return try! RenderListBuilder(viewport: root.bounds).build(root: root)
}

/// `count` 64x64 layers over 1280x720; every tenth casts a shadow (radius 6) and every tenth
/// (others) is masked by a circle.
func effectsTree(_ count: Int) -> CALayer {
    let root = flatTree(count, width: 1280, height: 720)
    for (i, layer) in (root.sublayers ?? []).enumerated() {
        switch i % 10 {
        case 0:
            layer.shadowOpacity = 0.5
            layer.shadowRadius = 6
        case 5:
            let circle = CAShapeLayer()
            circle.frame = layer.bounds
            circle.path = CGPath(ellipseIn: layer.bounds, transform: nil)
            layer.mask = circle
        default: break
        }
    }
    return root
}

/// `count` overlapping 64x64 layers spread over a width x height frame.
func flatTree(_ count: Int, width: Double, height: Double) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    root.position = CGPoint(x: width / 2, y: height / 2)
    for i in 0..<count {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
        layer.position = CGPoint(x: Double((i * 37) % Int(width)), y: Double((i * 91) % Int(height)))
        layer.backgroundColor = CGColor(red: Double(i % 7) / 7, green: 0.5, blue: 0.7, alpha: 0.8)
        layer.transform = CATransform3DMakeRotation(Double(i) * 0.01, 0, 0, 1)
        root.addSublayer(layer)
    }
    return root
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = metricsWithRates([.wallClock, .peakMemoryResident])
    Benchmark.defaultConfiguration = .init(metrics: metrics,
                                           scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 50,
                                           thresholds: regressionTolerances(for: metrics))
    let renderer = (try? GLDevice.shared().caps.renderer) ?? "no GL"

    for radius in [4.0, 20, 100] {
        let list = shadowFrame(radius: radius)
        Benchmark("shadow radius \(Int(radius)) gpu 1280x720 (\(renderer))") { benchmark in
            guard let device = try? GLDevice.shared() else { return }
            try measureRates(benchmark, pixels: 1280 * 720) { blackHole(try device.render(list)) }
        }
        Benchmark("shadow radius \(Int(radius)) cpu 1280x720") { benchmark in
            measureRates(benchmark, pixels: 1280 * 720) { blackHole(RasterRenderer().render(list)) }
        }
        let blurred = shadowFrame(radius: radius, offscreen: true)
        Benchmark("shadow radius \(Int(radius)) offscreen blur gpu 1280x720 (\(renderer))") { benchmark in
            guard let device = try? GLDevice.shared() else { return }
            try measureRates(benchmark, pixels: 1280 * 720) { blackHole(try device.render(blurred)) }
        }
    }

    for count in [1_000, 10_000] {
        let root = effectsTree(count)
        let builder = RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 1280, height: 720))
        Benchmark("frame \(count) layers, 10% shadows, 10% masks: build + gpu (\(renderer))") { benchmark in
            guard let device = try? GLDevice.shared() else { return }
            try measureRates(benchmark, layers: count + 1, pixels: 1280 * 720) {
                blackHole(try device.render(try builder.build(root: root)))
            }
        }
        Benchmark("frame \(count) layers, 10% shadows, 10% masks: build + cpu") { benchmark in
            try measureRates(benchmark, layers: count + 1, pixels: 1280 * 720) {
                blackHole(RasterRenderer().render(try builder.build(root: root)))
            }
        }
    }

    // 60 frames of 200 image layers sliding: the cache should upload the 200 images once.
    let sliding = CALayer()
    sliding.bounds = CGRect(x: 0, y: 0, width: 1280, height: 720)
    sliding.position = CGPoint(x: 640, y: 360)
    for i in 0..<200 {
        let layer = CALayer()
        layer.frame = CGRect(x: Double((i * 61) % 1200), y: Double((i * 29) % 660), width: 48, height: 48)
        var bitmap = Bitmap(width: 48, height: 48)
        for p in stride(from: 0, to: bitmap.pixels.count, by: 4) { bitmap.pixels[p] = UInt8(i); bitmap.pixels[p + 3] = 255 }
        layer.contents = CGImage(bitmap: bitmap)
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.byValue = 80
        slide.duration = 1
        MediaClock.$scoped.withValue(0) { layer.add(slide, forKey: "slide") }
        sliding.addSublayer(layer)
    }
    let frames = (0..<60).map { try! RenderListBuilder(viewport: sliding.bounds).build(root: sliding.presentationTree(atMediaTime: Double($0) / 60)) }
    Benchmark("animation 60 frames x 200 image layers gpu, texture uploads (\(renderer))",
              configuration: .init(metrics: [.wallClock, .custom("uploads"), .custom("hit rate %", polarity: .prefersLarger)],
                                   maxIterations: 5)) { benchmark in
        guard let device = try? GLDevice() else { return }
        for _ in benchmark.scaledIterations { for list in frames { blackHole(try device.render(list)) } }
        let stats = device.textureCacheStatistics
        benchmark.measurement(.custom("uploads"), stats.uploads)
        benchmark.measurement(.custom("hit rate %", polarity: .prefersLarger), Int(stats.hitRate * 100))
    }
}
