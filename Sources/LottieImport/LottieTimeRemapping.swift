import Foundation
import LayerModel
import OpenCoreGraphics

// Time remapping (`tm`) of a precomposition layer: at the layer's frame f its layers show the
// precomposition at tm(f) seconds, which may stand still, run backwards or jump, so no retiming
// of Core Animation's clock (a begin time, a speed) can follow it. As lottie-ios's Core Animation
// engine does, every animation inside is then worked out a frame apart on the clock outside the
// remap: each value at each outer frame is the Lottie value at the remapped frame, and the
// animation runs linearly between those samples (visibility discretely).

/// How a remapped builder's frames follow the clock outside every remap (a class: a builder
/// holds one, and it holds the builder outside).
final class LottieTimeMap {
    /// The builder outside the outermost remap, whose clock the samples are placed on.
    let outer: LottieAnimationBuilder
    /// The frames of `outer` sampled: where the remapped layer is shown, a frame apart.
    let frames: [Double]
    /// The remapped builder's frame at each of `frames`, worked out once for every property
    /// sampled inside (each was an eased remap value per property and frame: a fifth of
    /// importing issue_2330).
    let localFrames: [Double]

    /// What every animation sampled at `frames` shares: its key times and linear timing
    /// functions, made once rather than once a property (a number object a sample).
    let keys: LottieSampleKeys

    init(outer: LottieAnimationBuilder, frames: [Double], localFrames: [Double], keys: LottieSampleKeys? = nil) {
        precondition(frames.count == localFrames.count)
        (self.outer, self.frames, self.localFrames) = (outer, frames, localFrames)
        self.keys = keys ?? LottieSampleKeys(frames: frames)
    }

    /// The same outer frames, each local frame passed through `map` (a retime or a further remap).
    func mapped(_ map: (Double) -> Double) -> LottieTimeMap {
        LottieTimeMap(outer: outer, frames: frames, localFrames: localFrames.map(map), keys: keys)
    }

    /// A value at each of `localFrames`, each distinct moment worked out once: where every part
    /// of the value holds (at or before the first of `keyTimes`, at or after the last, always
    /// when there are none) one value serves every frame on that side, and a remap standing
    /// still repeats the value before. `constant` when every frame shows one value (then there
    /// is nothing to animate). Most of a remapped precomposition's samples are such repeats: in
    /// issue_2330, 25,064 of 30,264 line widths, and every trim that does not move.
    func values(keyTimes: [Double], _ value: (Double) -> Any) -> (values: [Any], constant: Bool) {
        let low = keyTimes.min(), high = keyTimes.max()
        var values: [Any] = []
        values.reserveCapacity(localFrames.count)
        var before: Any?, after: Any?, previous: (frame: Double, value: Any)?
        var computed = 0
        func compute(_ frame: Double) -> Any {
            computed += 1
            return value(frame)
        }
        for frame in localFrames {
            if let low, let high, frame > low, frame < high {
                if let previous, previous.frame == frame {
                    values.append(previous.value)
                    continue
                }
                let v = compute(frame)
                previous = (frame, v)
                values.append(v)
            } else if let high, frame >= high, frame > low ?? high {
                if after == nil { after = compute(frame) }
                values.append(after!)
            } else {
                if before == nil { before = compute(frame) }
                values.append(before!)
            }
        }
        // One value, or the two ends alone and equal (a still value's key times all at one
        // frame; NSNumber, CGPath, colours and points are Hashable): nothing moves.
        var constant = computed <= 1
        if computed == 2, let before = before as? AnyHashable, let after = after as? AnyHashable { constant = before == after }
        return (values, constant)
    }

    /// `frames` of `range`, a frame apart (coarser past `LottieAnimationBuilder.maxSamples`).
    static func samples(_ range: ClosedRange<Double>) -> [Double] {
        let step = max(LottieAnimationBuilder.sampleStep, (range.upperBound - range.lowerBound) / Double(LottieAnimationBuilder.maxSamples))
        return Array(stride(from: range.lowerBound, to: range.upperBound, by: step)) + [range.upperBound]
    }
}

/// The key times (0...1 over the span) and linear timing functions of animations sampled at
/// `frames`, made when first asked.
final class LottieSampleKeys {
    let frames: [Double]
    init(frames: [Double]) { self.frames = frames }

    private(set) lazy var keyTimes = CAKeyframeAnimation.KeyTimeList({
        let start = frames[0], span = frames[frames.count - 1] - start
        return frames.map { NSNumber(value: span > 0 ? ($0 - start) / span : 0) }
    }())

    private(set) lazy var linearFunctions = Array(repeating: CAMediaTimingFunction(name: .linear), count: max(frames.count - 1, 0))
}

/// Values that Lottie keyframes interpolate between.
protocol LottieInterpolatable {
    static func mix(_ a: Self, _ b: Self, _ t: Double) -> Self
}

extension Double: LottieInterpolatable {
    static func mix(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
}

extension Array: LottieInterpolatable where Element == Double {
    static func mix(_ a: [Double], _ b: [Double], _ t: Double) -> [Double] { LottieEasing.mix(a, b, t) }
}

extension LottieBezier: LottieInterpolatable {}
