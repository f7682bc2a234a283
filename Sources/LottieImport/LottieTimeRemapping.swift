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
    /// The remapped builder's frame at a frame of `outer`.
    let local: (Double) -> Double

    init(outer: LottieAnimationBuilder, frames: [Double], local: @escaping (Double) -> Double) {
        (self.outer, self.frames, self.local) = (outer, frames, local)
    }

    /// `frames` of `range`, a frame apart (coarser past `LottieAnimationBuilder.maxSamples`).
    static func samples(_ range: ClosedRange<Double>) -> [Double] {
        let step = max(LottieAnimationBuilder.sampleStep, (range.upperBound - range.lowerBound) / Double(LottieAnimationBuilder.maxSamples))
        return Array(stride(from: range.lowerBound, to: range.upperBound, by: step)) + [range.upperBound]
    }
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
