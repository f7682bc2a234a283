// The kinds of work a layer UI is made of, each on both backends: evaluation + flattening from
// 100 to 100,000 layers; 1,000 layers of one kind (solid, textured, rounded + bordered, masked,
// shadowed) at 1280x720 and 3840x2160; nested clips and masks; a 3D scene of intersecting planes
// (BSP splitting); text layers; and frames of the showcase documents in Examples/. Every case
// is the whole frame: layer tree in, pixels out (GPU: read back). Rates: layers/s and pixels/s.
import Benchmark
import BenchmarkSupport
import Compositor
import Foundation
import GLBackend
import OpenQuartzCore
import RasterBackend
import SceneFormat

/// The GL device's name for benchmark names ("no GL" without one).
let glName = (try? GLDevice.shared().caps.renderer) ?? "no GL"

enum Kind: String, CaseIterable {
    case solid, textured, rounded = "rounded + bordered", masked, shadowed
}

/// A 64x64 image with a gradient, for textured layers.
let sampleImage = CGImage(bitmap: Bitmap(width: 64, height: 64) { x, y in
    (UInt8(x * 4), UInt8(y * 4), 180, 255)
})

/// `count` 64x48 layers of one kind over width x height, spread evenly, slightly rotated.
func kindTree(_ kind: Kind, count: Int, width: Double, height: Double) -> CALayer {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: width, height: height)
    root.backgroundColor = CGColor(gray: 0.95, alpha: 1)
    for i in 0..<count {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 64, height: 48)
        layer.position = CGPoint(x: (Double(i) * 0.7548776662 + 0.5).truncatingRemainder(dividingBy: 1) * width,
                                 y: (Double(i) * 0.5698402910 + 0.5).truncatingRemainder(dividingBy: 1) * height)
        layer.transform = CATransform3DMakeRotation(Double(i % 23) * 0.07, 0, 0, 1)
        layer.backgroundColor = CGColor(red: Double(i % 7) / 7, green: 0.45, blue: 0.75, alpha: 0.85)
        switch kind {
        case .solid: break
        case .textured: layer.contents = sampleImage
        case .rounded:
            layer.cornerRadius = 10
            layer.borderWidth = 2
            layer.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.9)
        case .masked:
            let circle = CAShapeLayer()
            circle.frame = layer.bounds
            circle.path = CGPath(ellipseIn: layer.bounds.insetBy(dx: 4, dy: 4), transform: nil)
            layer.mask = circle
        case .shadowed:
            layer.cornerRadius = 8
            layer.shadowOpacity = 0.4
            layer.shadowRadius = 6
            layer.shadowOffset = CGSize(width: 0, height: 3)
        }
        root.addSublayer(layer)
    }
    return root
}

/// Eight levels of nested containers, each clipping to rounded bounds, every other one masked by
/// an ellipse, with 20 cards in each.
func nestedClips() -> CALayer {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
    var parent = root
    for level in 0..<8 {
        let box = CALayer()
        let inset = Double(level) * 30
        box.frame = CGRect(x: 30, y: 20, width: 1220 - inset * 2, height: 680 - inset * 2)
        box.masksToBounds = true
        box.cornerRadius = 24
        box.backgroundColor = CGColor(red: 0.2, green: Double(level) / 8, blue: 0.8, alpha: 0.3)
        if level % 2 == 1 {
            let mask = CAShapeLayer()
            mask.frame = box.bounds
            mask.path = CGPath(ellipseIn: box.bounds, transform: nil)
            box.mask = mask
        }
        for i in 0..<20 {
            let card = CALayer()
            card.frame = CGRect(x: Double(i * 53 % 1100), y: Double(i * 31 % 600), width: 80, height: 50)
            card.backgroundColor = CGColor(red: 0.9, green: 0.4, blue: Double(i) / 20, alpha: 0.7)
            box.addSublayer(card)
        }
        parent.addSublayer(box)
        parent = box
    }
    return root
}

/// A CATransformLayer scene of `planes` textured planes rotated about the centre so that they
/// intersect (each pair split by the BSP tree), under perspective.
func intersectingPlanes(_ planes: Int) -> CALayer {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1 / 900
    root.sublayerTransform = perspective
    let scene = CATransformLayer()
    scene.frame = root.bounds
    scene.transform = CATransform3DMakeRotation(0.4, 1, 0, 0)
    for i in 0..<planes {
        let plane = CALayer()
        plane.bounds = CGRect(x: 0, y: 0, width: 420, height: 300)
        plane.position = CGPoint(x: 640, y: 360)
        plane.contents = sampleImage
        plane.opacity = 0.8
        plane.transform = CATransform3DMakeRotation(Double(i) * .pi / Double(planes), 0, 1, 0)
        scene.addSublayer(plane)
    }
    root.addSublayer(scene)
    return root
}

/// `count` text layers of a dozen words each.
func textTree(_ count: Int) -> CALayer {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
    root.backgroundColor = .white
    for i in 0..<count {
        let text = CATextLayer()
        text.frame = CGRect(x: Double(i % 5) * 250 + 10, y: Double(i / 5 % 36) * 20, width: 240, height: 20)
        text.string = "Layer \(i): the quick brown fox jumps over the lazy dog"
        text.fontSize = 13
        text.foregroundColor = CGColor(gray: 0.1, alpha: 1)
        root.addSublayer(text)
    }
    return root
}

/// The whole frame: draw content, build the render list, draw it (and read it back).
func frame(_ root: CALayer, _ backend: RenderBackend) throws -> Bitmap {
    try root.renderedImage(bounds: root.frame, backend: backend).bitmap
}

let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = metricsWithRates([.wallClock, .mallocCountTotal, .peakMemoryResident])
    Benchmark.defaultConfiguration = .init(metrics: metrics, scalingFactor: .one, maxDuration: .seconds(2), maxIterations: 30,
                                           thresholds: regressionTolerances(for: metrics))

    for count in [100, 1_000, 10_000, 100_000] {
        Benchmark("evaluate + flatten \(count) layers") { benchmark in
            let root = kindTree(.solid, count: count, width: 1280, height: 720)
            let builder = RenderListBuilder(viewport: root.frame, scale: 1)
            try measureRates(benchmark, layers: count + 1) { blackHole(try builder.build(root: root.presentation() ?? root)) }
        }
    }

    for (width, height) in [(1280.0, 720.0), (3840.0, 2160.0)] {
        for kind in Kind.allCases {
            for backend in RenderBackend.allCases {
                let device = backend == .gpu ? " (\(glName))" : ""
                Benchmark("1000 \(kind.rawValue) layers \(Int(width))x\(Int(height)) \(backend.rawValue)\(device)") { benchmark in
                    let root = kindTree(kind, count: 1_000, width: width, height: height)
                    try measureRates(benchmark, layers: 1_001, pixels: Int(width * height)) { blackHole(try frame(root, backend)) }
                }
            }
        }
    }

    for backend in RenderBackend.allCases {
        let device = backend == .gpu ? " (\(glName))" : ""
        Benchmark("nested clips and masks, 8 levels \(backend.rawValue)\(device)") { benchmark in
            let root = nestedClips()
            try measureRates(benchmark, layers: 1 + 8 * 21 + 4, pixels: 1280 * 720) { blackHole(try frame(root, backend)) }
        }
        Benchmark("3D sorting, 12 intersecting planes \(backend.rawValue)\(device)") { benchmark in
            let root = intersectingPlanes(12)
            try measureRates(benchmark, layers: 14, pixels: 1280 * 720) { blackHole(try frame(root, backend)) }
        }
        Benchmark("200 text layers \(backend.rawValue)\(device)") { benchmark in
            try measureRates(benchmark, layers: 201, pixels: 1280 * 720) { blackHole(try frame(textTree(200), backend)) }
        }
        for name in ["star-wars-crawl", "page-fold", "layer-gallery"] {
            Benchmark("showcase \(name), 10 frames \(backend.rawValue)\(device)") { benchmark in
                let document = try SceneDocument.load(contentsOf: examples.appendingPathComponent("\(name).json"))
                try measureRates(benchmark, pixels: 10 * Int(document.size.width * document.size.height)) {
                    let player = document.makePlayer()
                    for f in 0..<10 {
                        let t = document.duration * Double(f) / 10
                        player.advance(to: t)
                        let tree = MediaClock.$scoped.withValue(t) { player.presentation() }
                        blackHole(try tree.renderedImage(bounds: CGRect(origin: .zero, size: document.size), backend: backend))
                    }
                }
            }
        }
    }
}
