// What lottie-ios's Core Animation engine, the largest Core Animation client, relies on and Apple
// does (issue 50): transform sub-key paths taking a point where a size is documented, arrays of
// colours as animatable values, a mask's superlayer being the layer it masks (so layout sizes
// masks from it), and layers and animations hashable by identity as NSObjects are. Animations get
// explicit begin times, paused as the client pauses them (speed 0, timeOffset), so no test
// depends on the media clock.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

private func translation(_ layer: CALayer) -> (Double, Double) {
    (Double(layer.transform.m41), Double(layer.transform.m42))
}

@Suite("Apple parity for ported clients")
struct ApplePortingParityTests {
    // MARK: transform sub-key paths

    @Test("transform.translation is set from a size or a point, bare or boxed in an NSValue")
    func translationSetFromEitherPair() {
        let values: [Any] = [CGSize(width: 12, height: -7), CGPoint(x: 12, y: -7),
                             NSValue(size: CGSize(width: 12, height: -7)), NSValue(point: CGPoint(x: 12, y: -7))]
        for value in values {
            let layer = CALayer()
            layer.setValue(value, forKeyPath: "transform.translation")
            #expect(translation(layer) == (12, -7), "\(type(of: value)) \(value)")
            layer.setValue(value, forKeyPath: "sublayerTransform.translation")
            #expect(layer.sublayerTransform.m41 == 12 && layer.sublayerTransform.m42 == -7)
        }
    }

    @Test("transform.translation animates between points, as keyframes and as from/to, paused at a time offset")
    func translationAnimatedWithPoints() {
        let keyframes = CAKeyframeAnimation(keyPath: "transform.translation")
        keyframes.values = [NSValue(point: CGPoint(x: 0, y: 0)), NSValue(point: CGPoint(x: 40, y: 20)), NSValue(point: CGPoint(x: 40, y: 60))]
        keyframes.keyTimes = [0, 0.5, 1]
        let basic = CABasicAnimation(keyPath: "transform.translation")
        basic.fromValue = CGPoint(x: 0, y: 0)
        basic.toValue = CGPoint(x: 40, y: 20)
        for (animation, want) in [(keyframes as CAPropertyAnimation, (40.0, 40.0)), (basic, (30.0, 15.0))] {
            let layer = CALayer()
            animation.duration = 2
            // Not 0, which `add(_:forKey:)` takes for "now", in the layer's (paused) time.
            animation.beginTime = 0.5
            animation.fillMode = .both
            animation.isRemovedOnCompletion = false
            // Paused as lottie-ios pauses every animation: speed 0, the frame chosen by timeOffset.
            layer.speed = 0
            layer.timeOffset = 2
            layer.add(animation, forKey: "move")
            let shown = layer.presentationTree(atMediaTime: 50)
            #expect(abs(translation(shown).0 - want.0) < 1e-9 && abs(translation(shown).1 - want.1) < 1e-9,
                    "\(type(of: animation)): \(translation(shown))")
        }
    }

    @Test("every transform sub-key path round-trips its documented value: numbers for rotation and scale, a size for translation")
    func subKeyPathsRoundTrip() {
        let layer = CALayer()
        for (path, value) in [("transform.rotation.z", 0.5), ("transform.rotation.x", 0.25), ("transform.scale.x", 2.0),
                              ("transform.scale.y", 3.0), ("transform.translation.x", 5.0), ("transform.translation.z", -4.0)] {
            layer.setValue(value, forKeyPath: path)
            let read = (layer.value(forKeyPath: path) as? NumberConvertible)?.doubleValue ?? .nan
            #expect(abs(read - value) < 1e-9, "\(path): \(read)")
        }
        layer.setValue(NSValue(point: CGPoint(x: 3, y: 4)), forKeyPath: "transform.translation")
        #expect(layer.value(forKeyPath: "transform.translation") as? CGSize == CGSize(width: 3, height: 4))
    }

    @Test("a position animated with sizes moves like one animated with points")
    func positionFromSizes() {
        let animation = CABasicAnimation(keyPath: "position")
        animation.fromValue = NSValue(size: CGSize(width: 10, height: 10))
        animation.toValue = NSValue(size: CGSize(width: 30, height: 50))
        animation.beginTime = 100
        animation.duration = 2
        let layer = CALayer()
        layer.add(animation, forKey: "move")
        #expect(layer.presentationTree(atMediaTime: 101).position == CGPoint(x: 20, y: 30))
    }

    // MARK: arrays of colours

    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let clearGreen = CGColor(red: 0, green: 1, blue: 0, alpha: 0)

    static func components(_ value: Any?) -> [[Double]] {
        ((value as? [Any]) ?? []).map { ($0 as! CGColor).components!.map { Double($0) } }
    }

    @Test("a gradient's colours animate colour by colour, by a basic animation")
    func colorsBasic() {
        let gradient = CAGradientLayer()
        gradient.colors = [Self.red, Self.blue]
        let animation = CABasicAnimation(keyPath: "colors")
        animation.fromValue = [Self.red, Self.blue]
        animation.toValue = [Self.blue, Self.clearGreen]
        animation.beginTime = 100
        animation.duration = 2
        gradient.add(animation, forKey: "colors")
        let mid = Self.components(gradient.presentationTree(atMediaTime: 100.5).value(forKey: "colors"))
        #expect(mid.count == 2)
        #expect(mid.first.map { zip($0, [0.75, 0, 0.25, 1]).allSatisfy { abs($0 - $1) < 1e-9 } } == true, "\(mid)")
        #expect(mid.last.map { zip($0, [0, 0.25, 0.75, 0.75]).allSatisfy { abs($0 - $1) < 1e-9 } } == true, "\(mid)")
    }

    @Test("a gradient's colours and locations animate by keyframes, as lottie-ios animates gradient fills")
    func colorsAndLocationsKeyframes() {
        let gradient = CAGradientLayer()
        let colors = CAKeyframeAnimation(keyPath: "colors")
        colors.values = [[Self.red, Self.red], [Self.blue, Self.red], [Self.blue, Self.blue]]
        colors.keyTimes = [0, 0.5, 1]
        let locations = CAKeyframeAnimation(keyPath: "locations")
        locations.values = [[0, 1], [0.5, 1], [0.5, 0.5]] as [[NSNumber]]
        locations.keyTimes = [0, 0.5, 1]
        for animation in [colors, locations] {
            animation.beginTime = 100
            animation.duration = 4
            gradient.add(animation, forKey: animation.keyPath)
        }
        let shown = gradient.presentationTree(atMediaTime: 101) as! CAGradientLayer
        let c = Self.components(shown.colors)
        #expect(c.count == 2 && abs(c[0][0] - 0.5) < 1e-9 && abs(c[0][2] - 0.5) < 1e-9 && c[1] == [1, 0, 0, 1], "\(c)")
        #expect(shown.locations?.map(\.doubleValue) == [0.25, 1])
    }

    @Test("colour lists of different lengths do not blend: the layer shows its own colours")
    func colorListsOfDifferentLengths() {
        let gradient = CAGradientLayer()
        gradient.colors = [Self.red, Self.blue]
        let animation = CABasicAnimation(keyPath: "colors")
        animation.fromValue = [Self.red]
        animation.toValue = [Self.blue, Self.red, Self.blue]
        animation.beginTime = 100
        animation.duration = 2
        gradient.add(animation, forKey: "colors")
        let shown = Self.components(gradient.presentationTree(atMediaTime: 101).value(forKey: "colors"))
        #expect(shown == [[1, 0, 0, 1], [0, 0, 1, 1]], "\(shown)")
    }

    // MARK: masks and their superlayer

    /// lottie-ios's layout rule: every managed layer, masks included, fills its superlayer.
    final class FillingLayer: CALayer {
        override func layoutSublayers() {
            super.layoutSublayers()
            for layer in (sublayers ?? []) + [mask].compactMap({ $0 }) {
                guard let superlayer = layer.superlayer else { continue }
                layer.anchorPoint = .zero
                layer.bounds = superlayer.bounds
            }
        }
    }

    @Test("a mask's superlayer is the layer it masks, and layout sizes the mask and its sublayers from it")
    func maskLaidOutFromItsSuperlayer() {
        let host = FillingLayer()
        let mask = FillingLayer()
        let inner = CAShapeLayer()
        mask.addSublayer(inner)
        host.mask = mask
        #expect(mask.superlayer === host)
        #expect(host.sublayers == nil, "a mask is not a sublayer")
        host.bounds = CGRect(x: 0, y: 0, width: 120, height: 80)
        host.layoutIfNeeded()
        #expect(mask.bounds.size == CGSize(width: 120, height: 80))
        #expect(inner.bounds.size == CGSize(width: 120, height: 80), "layout reaches the mask's sublayers")
        // A point in the mask converts through its layer, without the layer's sublayer transform.
        host.position = CGPoint(x: 100, y: 100)
        host.sublayerTransform = CATransform3DMakeTranslation(7, 7, 0)
        #expect(mask.convert(CGPoint(x: 1, y: 2), to: host) == CGPoint(x: 1, y: 2))
    }

    @Test("replacing or removing a mask clears its superlayer; a mask that already has a superlayer keeps it")
    func maskSuperlayerLifecycle() {
        let host = CALayer(), first = CALayer(), second = CALayer()
        host.mask = first
        host.mask = second
        #expect(first.superlayer == nil && second.superlayer === host)
        second.removeFromSuperlayer()
        #expect(host.mask == nil && second.superlayer == nil)
        let parent = CALayer(), child = CALayer()
        parent.addSublayer(child)
        host.mask = child
        #expect(child.superlayer === parent, "Apple leaves this undefined; the sublayer stays where it is")
        // A layer masking its own ancestor gets no superlayer link (it would close a cycle).
        let root = CALayer(), leaf = CALayer()
        root.addSublayer(leaf)
        leaf.mask = root
        #expect(root.superlayer == nil)
    }

    @Test("a mask's presentation copy has its layer's copy as superlayer, and runs in that layer's time")
    func presentedMask() {
        let host = CALayer()
        let mask = CALayer()
        host.mask = mask
        host.speed = 0
        host.timeOffset = 1.5
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 0
        fade.toValue = 1
        fade.beginTime = 0.5
        fade.duration = 2
        fade.fillMode = .both
        mask.add(fade, forKey: "fade")
        let shown = host.presentationTree(atMediaTime: 10)
        #expect(shown.mask?.superlayer === shown)
        #expect(abs(Double(shown.mask?.opacity ?? -1) - 0.5) < 1e-6)
    }

    // MARK: identity

    @Test("layers and animations are Hashable by identity, as NSObjects: they key dictionaries and fill sets")
    func identityHashing() {
        let a = CALayer(), b = CALayer()
        b.frame = a.frame
        var names: [CALayer: String] = [a: "a", b: "b"]
        #expect(names[a] == "a" && names[b] == "b" && a != b && a == a)
        names[a] = nil
        #expect(names.count == 1)
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        let set: Set<CAAnimation> = [spin, spin, CABasicAnimation(keyPath: "transform.rotation.z")]
        #expect(set.count == 2)
        #expect([a, b].firstIndex(of: b) == 1)
    }

    /// A subclass with value equality, as an NSObject subclass may override isEqual and hash.
    final class NamedLayer: CALayer {
        override func isEqual(_ object: Any?) -> Bool { (object as? NamedLayer)?.name == name }
        override var hash: Int { name?.hashValue ?? 0 }
    }

    @Test("a subclass's isEqual and hash are what == and Hashable use")
    func overriddenEquality() {
        let a = NamedLayer(), b = NamedLayer()
        a.name = "x"
        b.name = "x"
        #expect(a == b)
        #expect(Set([a, b] as [CALayer]).count == 1)
    }
}
