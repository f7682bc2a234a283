import Foundation
import LayerModel
import OpenCoreGraphics

// A Lottie transform (a layer's "ks" or a group's "tr"): anchor, position (or x and y apart,
// with spatial tangents), scale in percent, rotation in degrees, skew along an axis, opacity in
// percent. As a matrix: move the anchor to the origin, scale, skew, rotate, move to the position.

struct LottieTransform {
    var anchor: LottieAnimatable<[Double]>
    var position: LottieAnimatable<[Double]>
    var positionX: LottieAnimatable<Double>?
    var positionY: LottieAnimatable<Double>?
    var scale: LottieAnimatable<[Double]>
    var rotation: LottieAnimatable<Double>
    var opacity: LottieAnimatable<Double>
    var skew: LottieAnimatable<Double>
    var skewAxis: LottieAnimatable<Double>
    /// Rotation about x and y (3D layers), degrees; drawn without perspective, as Core
    /// Animation draws a layer turned in 3D with no sublayerTransform.
    var rotationX: LottieAnimatable<Double>
    var rotationY: LottieAnimatable<Double>

    init(_ node: LottieNode?) throws {
        anchor = try node?.numbersProperty("a", default: [0, 0]) ?? LottieAnimatable(constant: [0, 0])
        if let p = node?["p"], p["s"]?.bool() == true || (p["x"]?.isObject ?? false) {
            positionX = try p.numberProperty("x", default: 0)
            positionY = try p.numberProperty("y", default: 0)
            position = LottieAnimatable(constant: [0, 0])
        } else {
            position = try node?.numbersProperty("p", default: [0, 0]) ?? LottieAnimatable(constant: [0, 0])
        }
        scale = try node?.numbersProperty("s", default: [100, 100]) ?? LottieAnimatable(constant: [100, 100])
        rotation = try node.flatMap { n in try (n["r"] ?? n["rz"]).map { try $0.animatable { try $0.numbers().first ?? 0 } } }
            ?? LottieAnimatable(constant: 0)
        opacity = try node?.numberProperty("o", default: 100) ?? LottieAnimatable(constant: 100)
        skew = try node?.numberProperty("sk", default: 0) ?? LottieAnimatable(constant: 0)
        skewAxis = try node?.numberProperty("sa", default: 0) ?? LottieAnimatable(constant: 0)
        rotationX = try node?.numberProperty("rx", default: 0) ?? LottieAnimatable(constant: 0)
        rotationY = try node?.numberProperty("ry", default: 0) ?? LottieAnimatable(constant: 0)
        position = LottieHeldTransform.shownPosition(position, of: self)
    }

    private var turnsIn3D: Bool {
        (rotationX.keyframes + rotationY.keyframes).contains { $0.value != 0 }
    }

    /// Frames where some part of the matrix has a keyframe or jumps from a held value.
    var keyTimes: LottieKeyTimes {
        let parts = [anchor.keyTimes, scale.keyTimes, rotation.keyTimes, skew.keyTimes, skewAxis.keyTimes,
                     rotationX.keyTimes, rotationY.keyTimes]
        if let x = positionX, let y = positionY { return LottieKeyTimes(parts + [x.keyTimes, y.keyTimes]) }
        return LottieKeyTimes(parts + [position.keyTimes])
    }

    var isAnimated: Bool {
        anchor.isAnimated || position.isAnimated || (positionX?.isAnimated ?? false) || (positionY?.isAnimated ?? false)
            || scale.isAnimated || rotation.isAnimated || skew.isAnimated || skewAxis.isAnimated
            || rotationX.isAnimated || rotationY.isAnimated
    }

    func positionValue(at frame: Double) -> CGPoint {
        if let x = positionX, let y = positionY {
            return CGPoint(x: x.value(at: frame, interpolate: mix), y: y.value(at: frame, interpolate: mix))
        }
        // Between keyframes with spatial tangents the position follows their cubic.
        let frames = position.keyframes
        if frames.count > 1, frame > frames[0].time, frame < frames[frames.count - 1].time {
            var i = 0
            while i + 1 < frames.count, frames[i + 1].time <= frame { i += 1 }
            let a = frames[i], b = frames[i + 1]
            if !a.hold, let to = a.spatialOut, let ti = b.spatialIn, to != .zero || ti != .zero, a.value.count >= 2, b.value.count >= 2 {
                let o = a.outTangent ?? .zero, h = b.inTangent ?? CGPoint(x: 1, y: 1)
                let t = LottieEasing.solve((frame - a.time) / (b.time - a.time), o.x, o.y, h.x, h.y)
                let p0 = CGPoint(x: a.value[0], y: a.value[1]), p3 = CGPoint(x: b.value[0], y: b.value[1])
                let p1 = CGPoint(x: p0.x + to.x, y: p0.y + to.y), p2 = CGPoint(x: p3.x + ti.x, y: p3.y + ti.y)
                let u = 1 - t
                func c(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat) -> CGFloat {
                    u * u * u * a + 3 * u * u * t * b + 3 * u * t * t * c + t * t * t * d
                }
                return CGPoint(x: c(p0.x, p1.x, p2.x, p3.x), y: c(p0.y, p1.y, p2.y, p3.y))
            }
        }
        let v = position.value(at: frame, interpolate: LottieEasing.mix)
        return CGPoint(x: v.count > 0 ? v[0] : 0, y: v.count > 1 ? v[1] : 0)
    }

    /// The part of the matrix before the turn and the move at `frame`: the anchor to the origin,
    /// the scale, the skew.
    private func planar(at frame: Double) -> CGAffineTransform {
        let a = anchor.value(at: frame, interpolate: LottieEasing.mix)
        let s = scale.value(at: frame, interpolate: LottieEasing.mix)
        let k = -skew.value(at: frame, interpolate: mix) * .pi / 180, axis = skewAxis.value(at: frame, interpolate: mix) * .pi / 180
        var m = CGAffineTransform(translationX: -(a.count > 0 ? a[0] : 0), y: -(a.count > 1 ? a[1] : 0))
        m = m.concatenating(CGAffineTransform(scaleX: (s.count > 0 ? s[0] : 100) / 100, y: (s.count > 1 ? s[1] : 100) / 100))
        if k != 0 {
            let turn = CGAffineTransform(rotationAngle: axis)
            m = m.concatenating(turn.inverted()).concatenating(CGAffineTransform(a: 1, b: 0, c: tan(k), d: 1, tx: 0, ty: 0)).concatenating(turn)
        }
        return m
    }

    /// The matrix at `frame`, in CGAffineTransform's row-vector order (anchor first).
    func matrix(at frame: Double) -> CGAffineTransform {
        let r = rotation.value(at: frame, interpolate: mix) * .pi / 180
        let p = positionValue(at: frame)
        return planar(at: frame).concatenating(CGAffineTransform(rotationAngle: r)).concatenating(CGAffineTransform(translationX: p.x, y: p.y))
    }

    /// The whole placement at `frame`: the plane's matrix, with the turns about x and y between
    /// the skew and the turn about z when the layer has them.
    func transform(at frame: Double) -> CATransform3D {
        guard turnsIn3D else { return CATransform3DMakeAffineTransform(matrix(at: frame)) }
        let p = positionValue(at: frame)
        var t = CATransform3DMakeAffineTransform(planar(at: frame))
        t = CATransform3DConcat(t, CATransform3DMakeRotation(rotationX.value(at: frame, interpolate: mix) * .pi / 180, 1, 0, 0))
        t = CATransform3DConcat(t, CATransform3DMakeRotation(rotationY.value(at: frame, interpolate: mix) * .pi / 180, 0, 1, 0))
        t = CATransform3DConcat(t, CATransform3DMakeRotation(rotation.value(at: frame, interpolate: mix) * .pi / 180, 0, 0, 1))
        return CATransform3DConcat(t, CATransform3DMakeTranslation(p.x, p.y, 0))
    }

    /// Puts the matrix on `layer` (anchorPoint and position at the origin, so the transform is the
    /// whole placement), sampled frame by frame where it moves.
    func apply(to layer: CALayer, with builder: LottieAnimationBuilder) {
        layer.anchorPoint = .zero
        layer.position = .zero
        if isAnimated {
            let plain = LottieHeldTransform.untransformedStretches(of: self, remapped: builder.remap != nil)
            // A sample a hair before each such stretch keeps the matrix whole up to it.
            let times = plain.isEmpty ? keyTimes : keyTimes + LottieKeyTimes(jumps: plain.map(\.lowerBound).filter(\.isFinite))
            builder.sampled(layer, "transform", times: times) { frame in
                plain.contains { $0.contains(frame) } ? CATransform3DIdentity : transform(at: frame)
            }
        } else {
            layer.transform = transform(at: 0)
        }
    }
}

private func mix(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
