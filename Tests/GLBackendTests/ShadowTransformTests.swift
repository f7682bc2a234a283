// Shadows under the layer's own transform (issue 50 item 10): Core Animation casts a layer's shadow
// in the layer's plane, so shadowOffset and shadowRadius scale, turn and tilt with the layer's
// transform (`ShadowGeometry`). Held to Apple's own frames of lottie-ios's shadow samples (a
// layer scaled from 1 to 1.5 with an animated drop shadow), and to the rule worked out without
// the renderers: a layer scaled by k casts the shadow of a layer k times its size with k times
// the offset and radius; a turned layer's offset turns with it; a layer stretched along x is
// blurred k times as far along x (the anisotropic Gaussian's closed form); perspective agrees
// on both backends.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Shadows under the layer's transform", .serialized)
struct ShadowTransformTests {
    static func render(_ root: CALayer, scale: Double = 1) throws -> [(String, Bitmap)] {
        let list = try RenderListBuilder(viewport: root.frame, scale: scale).build(root: root)
        return [("GPU", try GLDevice.shared().render(list)), ("CPU", RasterRenderer().render(list))]
    }

    static func root(_ width: Double, _ height: Double) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        return root
    }

    /// A square card centred at `center`, with a shadow; `child` gives it a sublayer (so its
    /// shadow is its composited alpha, drawn offscreen, not the closed form).
    static func card(side: Double, center: CGPoint, offset: CGSize, radius: Double, child: Bool) -> CALayer {
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: side, height: side)
        card.position = center
        card.backgroundColor = CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1)
        card.shadowOpacity = 0.8
        card.shadowOffset = offset
        card.shadowRadius = radius
        if child {
            let dot = CALayer()
            dot.frame = CGRect(x: side / 4, y: side / 4, width: side / 2, height: side / 2)
            dot.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            card.addSublayer(dot)
        }
        return card
    }

    static func largestDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        var largest = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                largest = max(largest, abs(Int(p.0) - Int(q.0)), abs(Int(p.1) - Int(q.1)), abs(Int(p.2) - Int(q.2)), abs(Int(p.3) - Int(q.3)))
            }
        }
        return largest
    }

    @Test("a layer scaled by 1.5 casts the shadow of a layer 1.5 times its size with 1.5 times the offset and radius",
          arguments: [false, true])
    func scaledLikeLarger(child: Bool) throws {
        let scaled = Self.root(160, 160), larger = Self.root(160, 160)
        let small = Self.card(side: 40, center: CGPoint(x: 70, y: 70), offset: CGSize(width: 4, height: 8), radius: 6, child: child)
        small.setAffineTransform(CGAffineTransform(scaleX: 1.5, y: 1.5))
        scaled.addSublayer(small)
        larger.addSublayer(Self.card(side: 60, center: CGPoint(x: 70, y: 70), offset: CGSize(width: 6, height: 12), radius: 9, child: child))
        if child { larger.sublayers?[0].sublayers?[0].frame = CGRect(x: 15, y: 15, width: 30, height: 30) }
        let a = try Self.render(scaled), b = try Self.render(larger)
        for i in 0..<2 {
            // The shadow's edge below the card is 12 points down, half strength there.
            #expect(abs(Int(a[i].1[70, 112].3) - 102) <= 6, "\(a[i].0): \(a[i].1[70, 112])")
            let largest = Self.largestDifference(a[i].1, b[i].1)
            #expect(largest <= 3, "\(a[i].0), sublayer \(child): \(largest)")
        }
    }

    @Test("a turned layer's offset turns with it: a square turned a quarter casts its offset (0, 10) as (-10, 0)")
    func turnedOffset() throws {
        let turned = Self.root(120, 120), plain = Self.root(120, 120)
        let card = Self.card(side: 40, center: CGPoint(x: 60, y: 60), offset: CGSize(width: 0, height: 10), radius: 4, child: false)
        card.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
        turned.addSublayer(card)
        plain.addSublayer(Self.card(side: 40, center: CGPoint(x: 60, y: 60), offset: CGSize(width: -10, height: 0), radius: 4, child: false))
        let a = try Self.render(turned), b = try Self.render(plain)
        for i in 0..<2 {
            #expect(a[i].1[33, 60].3 > 100 && a[i].1[60, 87].3 < 10, "\(a[i].0): left \(a[i].1[33, 60]), below \(a[i].1[60, 87])")
            #expect(Self.largestDifference(a[i].1, b[i].1) <= 2, "\(a[i].0)")
        }
    }

    @Test("a layer stretched 2 times along x casts a shadow blurred 2r along x and r along y (the anisotropic Gaussian's closed form)")
    func stretchedBlur() throws {
        let root = Self.root(200, 120)
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 30, height: 40)
        card.position = CGPoint(x: 100, y: 60)
        card.setAffineTransform(CGAffineTransform(scaleX: 2, y: 1))
        card.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        card.shadowOpacity = 1
        card.shadowRadius = 5
        card.shadowOffset = CGSize(width: 0, height: 0)
        root.addSublayer(card)
        func phi(_ z: Double) -> Double { 0.5 * erfc(-z / 2.squareRoot()) }
        // Device: the card covers x 70...130, y 40...80; sigma 10 along x, 5 along y.
        func expected(_ x: Double, _ y: Double) -> Double {
            (phi((x - 70) / 10) - phi((x - 130) / 10)) * (phi((y - 40) / 5) - phi((y - 80) / 5))
        }
        for (backend, image) in try Self.render(root) {
            var worst = 0.0
            for (x, y) in [(55, 60), (62, 60), (66, 50), (40, 60), (140, 60), (100, 35), (100, 30), (100, 85), (60, 35), (145, 88)] {
                let want = expected(Double(x) + 0.5, Double(y) + 0.5) * 255
                worst = max(worst, abs(Double(image[x, y].3) - want))
            }
            #expect(worst <= 4, "\(backend): worst alpha difference \(worst)")
        }
    }

    @Test("in perspective the shadow is drawn in the layer's plane, foreshortened with it, and the GPU agrees with the CPU",
          arguments: [false, true])
    func perspective(child: Bool) throws {
        let root = Self.root(200, 160)
        let card = Self.card(side: 80, center: CGPoint(x: 100, y: 80), offset: CGSize(width: 0, height: 10), radius: 8, child: child)
        var tilt = CATransform3DIdentity
        tilt.m34 = -1.0 / 300
        card.transform = CATransform3DConcat(CATransform3DMakeRotation(0.7, 0, 1, 0), tilt)
        root.addSublayer(card)
        let images = try Self.render(root, scale: 2)
        let report = try ImageComparison.compare(images[1].1, images[0].1, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
        // The side turned towards the eye is drawn larger and its shadow blurred wider: the
        // shadow's bands beyond the card's left and right edges differ (a blur in device space
        // would give them one width).
        let image = images[1].1
        func band(from x: Int, step: Int) -> Int {
            var x = x, width = 0
            while x > 0, x < image.width - 1, image[x, 160].3 < 250 { x += step }
            while x > 0, x < image.width - 1, image[x, 160].3 >= 250 { x += step } // the card
            while x > 0, x < image.width - 1, image[x, 160].3 > 8 { x += step; width += 1 }
            return width
        }
        let left = band(from: 200, step: -1), right = band(from: 200, step: 1)
        #expect(abs(left - right) >= 4 && min(left, right) > 0, "left \(left), right \(right)")
    }

    // MARK: Apple's frames

    /// lottie-ios's shadow samples as its Core Animation engine builds them: the shape layer's
    /// transform and its drop shadow on one layer, keyframed over the animation's duration and
    /// paused as lottie-ios pauses them (root speed 0; each animation begun just before the
    /// layer's current time, its timeOffset the frame's time). `animated`: scale 1 to 1.5,
    /// distance 5 to 10, softness 10 to 50 and opacity 255 to 204 over frames 0 to 60 of 80;
    /// otherwise distance 5 and softness 10 throughout. `fixedShadow` casts the shadow from an
    /// unscaled layer instead (the rule OpenQuartz had: offset and radius kept in the
    /// superlayer's space), which Apple's frames must tell apart.
    static func lottieShadowSample(animated: Bool, frame: Double, fixedShadow: Bool = false) -> CALayer {
        let root = Self.root(200, 200)
        root.speed = 0
        let duration = (animated ? 80.0 : 300.0) / 60
        let ease = CAMediaTimingFunction(controlPoints: 0.167, 0.167, 0.833, 0.833)
        let layer = CALayer(), caster = fixedShadow ? CALayer() : layer
        layer.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        layer.anchorPoint = .zero
        layer.position = CGPoint(x: 100, y: 100)
        let shape = CAShapeLayer()
        shape.frame = layer.bounds
        shape.path = CGPath(roundedRect: CGRect(x: -50, y: -50, width: 100, height: 100), cornerWidth: 12, cornerHeight: 12, transform: nil)
        shape.fillColor = CGColor(red: 0.288292320102, green: 0.576094563802, blue: 0.994332107843, alpha: 1)
        layer.addSublayer(shape)
        caster.shadowColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        if fixedShadow {
            caster.frame = root.bounds
            caster.addSublayer(layer)
            root.addSublayer(caster)
        } else {
            root.addSublayer(layer)
        }
        func add(_ path: String, _ from: Any, _ to: Any, to target: CALayer) {
            let animation = CAKeyframeAnimation(keyPath: path)
            animation.values = animated ? [from, to, to] : [from, from]
            animation.keyTimes = animated ? [0, NSNumber(value: 60.0 / 80), 1] : [0, 1]
            animation.timingFunctions = animated ? [ease, CAMediaTimingFunction(name: .linear)] : [CAMediaTimingFunction(name: .linear)]
            animation.duration = duration
            animation.fillMode = .both
            animation.isRemovedOnCompletion = false
            animation.beginTime = target.convertTime(CACurrentMediaTime(), from: nil) - .leastNonzeroMagnitude
            // A timeOffset of the whole duration wraps to its start (Core Animation's local time
            // loops within the active duration), so the last frame is paused just before it.
            animation.timeOffset = min(frame / 60, duration * (1 - 1e-9))
            target.add(animation, forKey: path)
        }
        add("transform.scale", 1.0, 1.5, to: layer)
        // Direction 180 (After Effects: straight down) is lottie-ios's angle 90: offset (0, distance);
        // softness over 5 is the radius; opacity over 255.
        add("shadowOpacity", 1.0, 0.8, to: caster)
        add("shadowOffset", CGSize(width: 0, height: 5), CGSize(width: 0, height: 10), to: caster)
        add("shadowRadius", 2.0, 10.0, to: caster)
        return root.presentationTree(atMediaTime: CACurrentMediaTime())
    }

    static var lottieFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/lottie")
    }

    /// lottie-ios's bar: 98.5% of pixels within a CIE delta E of 3 (perceptual precision 0.97).
    static let lottieBar = CIEDE2000Comparator(precision: 0.985, perceptualPrecision: 0.97)

    @Test("lottie-ios's drop-shadow samples match the frames Apple's Core Animation drew, on both backends",
          arguments: [("issue_1169_shadow_effect_animated", true), ("issue_1169_shadow_effect", false)])
    func applesFrames(sample: String, animated: Bool) throws {
        for progress in [0, 25, 50, 75, 100] {
            let url = Self.lottieFolder.appendingPathComponent("apple/Issues-\(sample)-\(progress).png")
            guard FileManager.default.fileExists(atPath: url.path) else {
                Issue.record("\(url.path) is missing: the tests read Apple's frames from ../shared/lottie"); return
            }
            let apple = try CGImage.load(contentsOf: url).bitmap
            let frame = Double(progress) / 100 * (animated ? 80 : 300)
            let root = Self.lottieShadowSample(animated: animated, frame: frame)
            let list = try RenderListBuilder(viewport: root.frame, scale: 2).build(root: root)
            let images = [("GPU", try GLDevice.shared().render(list)), ("CPU", RasterRenderer().render(list))]
            for (backend, image) in images {
                let verdict = try Self.lottieBar.compare(apple, image)
                #expect(verdict.passed, "\(sample) at \(progress)%, \(backend): \(verdict)")
                if !verdict.passed, let folder = ProcessInfo.processInfo.environment["SHADOW_DEBUG"] {
                    try CGImage(bitmap: image).pngData().write(to: URL(fileURLWithPath: "\(folder)/\(sample)-\(progress)-\(backend).png"))
                }
            }
            if animated, progress == 100 {
                // The old rule (offset and radius fixed while the layer scales) misses Apple's frame.
                let fixed = Self.lottieShadowSample(animated: true, frame: frame, fixedShadow: true)
                let image = RasterRenderer().render(try RenderListBuilder(viewport: fixed.frame, scale: 2).build(root: fixed))
                #expect(try !Self.lottieBar.compare(apple, image).passed, "the bar must tell the rules apart")
            }
        }
    }
}
