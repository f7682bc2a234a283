import Foundation
import LayerModel
import OpenCoreGraphics

// A repeater ("rp"): everything above it in its group drawn `c` times, each copy one more step
// of its transform on (the anchor `a` fixed, moved by `p`, scaled by `s`, turned by `r`), starting
// `o` steps in, its opacity running from `so` on the first copy to `eo` on the last. That is
// Core Animation's CAReplicatorLayer: instance i is one more instanceTransform on, tinted by
// instanceColor plus i alpha offsets. Composite `m` 2 stacks each copy under the one before.

struct LottieRepeater {
    var copies: LottieAnimatable<Double>
    var offset: LottieAnimatable<Double>
    var transform: LottieTransform
    var startOpacity: LottieAnimatable<Double>
    var endOpacity: LottieAnimatable<Double>
    var below: Bool

    /// At most this many copies (a hostile file's millions would be millions of draws).
    static let maxCopies = 1000

    init(_ node: LottieNode) throws {
        copies = try node.numberProperty("c", default: 1)
        offset = try node.numberProperty("o", default: 0)
        let tr = node["tr"]
        transform = try LottieTransform(tr)
        startOpacity = try tr?.numberProperty("so", default: 100) ?? LottieAnimatable(constant: 100)
        endOpacity = try tr?.numberProperty("eo", default: 100) ?? LottieAnimatable(constant: 100)
        below = try node["m"]?.number() == 2
    }

    /// One step at `frame`: the anchor to the origin, scaled, skewed, turned, and back to the
    /// anchor moved by the position.
    func step(at frame: Double) -> CGAffineTransform {
        let a = transform.anchor.value(at: frame, interpolate: LottieEasing.mix)
        return transform.matrix(at: frame).concatenating(CGAffineTransform(translationX: a.count > 0 ? a[0] : 0, y: a.count > 1 ? a[1] : 0))
    }

    /// `count` steps on (any real count: position and turn times it, scale to its power; a
    /// skew is left out).
    func steps(_ count: Double, at frame: Double) -> CGAffineTransform {
        if count == 0 { return .identity }
        let a = transform.anchor.value(at: frame, interpolate: LottieEasing.mix)
        let s = transform.scale.value(at: frame, interpolate: LottieEasing.mix)
        let p = transform.positionValue(at: frame)
        let r = transform.rotation.value(at: frame, interpolate: Double.mix) * .pi / 180
        let ax = a.count > 0 ? a[0] : 0, ay = a.count > 1 ? a[1] : 0
        let sx = pow((s.count > 0 ? s[0] : 100) / 100, count), sy = pow((s.count > 1 ? s[1] : 100) / 100, count)
        return CGAffineTransform(translationX: -ax, y: -ay).concatenating(CGAffineTransform(scaleX: sx, y: sy))
            .concatenating(CGAffineTransform(rotationAngle: r * count))
            .concatenating(CGAffineTransform(translationX: ax + p.x * count, y: ay + p.y * count))
    }

    /// The copies of `content` (drawn in the group's space) as a replicator laid over that space.
    func replicate(_ content: CALayer, in bounds: CGRect, builder: LottieAnimationBuilder, document: LottieDocument, path: String) -> CALayer {
        if copies.isAnimated || offset.isAnimated || startOpacity.isAnimated || endOpacity.isAnimated {
            document.warn("\(path).shapes: a repeater's copies, offset and opacities are drawn at their first values")
        }
        // Clamped as a number first: a hostile count of 1e300 has no Int.
        let count = Int(min(max(copies.first.rounded(), 0), Double(Self.maxCopies)))
        let replicator = CAReplicatorLayer()
        // Centred on the group's origin, about which Core Animation turns each instance.
        replicator.bounds = CGRect(x: -bounds.width, y: -bounds.height, width: 2 * bounds.width, height: 2 * bounds.height)
        replicator.position = .zero
        // The content in the group's space, its transform (the offset's steps) about the origin.
        content.anchorPoint = .zero
        content.position = .zero
        replicator.addSublayer(content)
        replicator.instanceCount = count
        let first = startOpacity.first / 100, last = endOpacity.first / 100
        let offsetSteps = offset.first + (below ? Double(max(count - 1, 0)) : 0)
        let start = below ? last : first, end = below ? first : last
        replicator.instanceColor = deviceColor(1, 1, 1, min(max(start, 0), 1))
        replicator.instanceAlphaOffset = count > 1 ? Float((end - start) / Double(count - 1)) : 0
        let placement = { (frame: Double) -> (CATransform3D, CATransform3D) in
            let step = self.step(at: frame)
            return (CATransform3DMakeAffineTransform(self.steps(offsetSteps, at: frame)),
                    CATransform3DMakeAffineTransform(below ? step.inverted() : step))
        }
        if transform.isAnimated {
            let times = transform.keyTimes
            builder.sampled(content, "transform", times: times) { placement($0).0 }
            builder.sampled(replicator, "instanceTransform", times: times) { placement($0).1 }
        } else {
            let (shift, step) = placement(0)
            content.transform = shift
            replicator.instanceTransform = step
        }
        return replicator
    }
}
