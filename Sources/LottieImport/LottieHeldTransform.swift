import Foundation
import OpenCoreGraphics

/// Held transform keyframes as Apple draws lottie-ios's animations of them: a position's last
/// held keyframe, and the held stretches of a transform animated as one `transform` animation.
///
/// A position (x and y together) lottie-ios animates along a CGPath through its keyframes'
/// values, with their key times as they are: unlike its other values, not padded with key times
/// 0 and 1 and not cut to one value fewer than key times where they hold (CAKeyframeAnimation's
/// discrete mode takes a value from each key time until the next, and the last key time ends the
/// value before it). So where a position's last keyframe holds (its run of held keyframes one
/// discrete animation), Apple shows the keyframe before it from then on: TypeFace Y's "Shape
/// Layer 40" and "38" (their last keyframes, frame 21, held) at frame 21.75 match Apple's frame
/// at their frame-20 places (`shownPosition`).
///
/// lottie-ios animates a transform's parts apart (`position`, `transform.scale.x`, ...), except
/// where it has a negative x scale or a skew: Core Animation draws those wrongly from separate
/// parts, so it combines the parts into one matrix a keyframe. Where the parts' animated
/// keyframes share their timing it keeps those keyframes, and where they mix held and eased ones
/// it splits them into one CAKeyframeAnimation a run (discrete for a held one, linear for an
/// eased one) inside a CAAnimationGroup; where they do not, it samples the matrix every tenth of
/// a frame, all held, as one discrete animation.
///
/// Apple's frames of `issue_2066`, the one sample of `../shared/lottie` with such a split, show
/// its "Face Control" null (scaled by -27%, its position held from frame 10 to 110 between eased
/// stretches) untransformed at 25% and 50% (frames 38 and 77, inside the held segment: 99.7% and
/// 98.3% of pixels match drawn so, 56-60% drawn with the matrix) and transformed at 0% and 75%
/// (inside eased segments, where the matrix matches). Samples whose scalar parts hold through one
/// value the same way (TypeFace H, O and Y) show the held values, and `issue_2066`'s body, whose
/// sampled matrix is one discrete animation, shows its matrix; so this is kept to what the face
/// shows: a held segment of one value, in a split `transform` animation.
enum LottieHeldTransform {
    /// `position` (of `t`) as Apple shows it: a held last keyframe takes the value of the one
    /// before. Not where the transform is animated as one matrix, whose values are padded as
    /// others are.
    static func shownPosition(_ position: LottieAnimatable<[Double]>, of t: LottieTransform) -> LottieAnimatable<[Double]> {
        let n = position.keyframes.count
        guard n >= 2, position.keyframes[n - 1].hold, !isOneMatrix(t) else { return position }
        var shown = position
        shown.keyframes[n - 1].value = position.keyframes[n - 2].value
        return shown
    }

    /// Whether lottie-ios animates `t` as one matrix: a negative x scale or a skew.
    static func isOneMatrix(_ t: LottieTransform) -> Bool {
        t.scale.keyframes.contains { ($0.value.first ?? 100) < 0 } || isSkewed(t)
    }

    private static func isSkewed(_ t: LottieTransform) -> Bool { t.skew.keyframes.contains { $0.value != 0 } }

    /// Frames (of the transform's clock) where the layer is drawn untransformed; empty for most.
    /// `remapped`: inside a precomposition with time remapping, where lottie-ios samples every
    /// value frame by frame instead.
    static func untransformedStretches(of t: LottieTransform, remapped: Bool) -> [Range<Double>] {
        guard !remapped, isOneMatrix(t) else { return [] }
        // An animated skew is sampled frame by frame.
        if isSkewed(t), t.skew.isAnimated || t.skewAxis.isAnimated { return [] }
        var parts = [timing(t.anchor), timing(t.scale), timing(t.rotation), timing(t.rotationX), timing(t.rotationY),
                     timing(t.skew), timing(t.skewAxis)]
        if let x = t.positionX, let y = t.positionY { parts += [timing(x), timing(y)] } else { parts.append(timing(t.position)) }
        let animated = parts.filter { $0.count > 1 }
        guard let base = animated.first, animated.allSatisfy({ $0 == base }) else { return [] }
        var stretches: [Range<Double>] = []
        for i in base.indices.dropLast() where base[i].hold && !base[i + 1].hold && (i == 0 || !base[i - 1].hold) {
            // The first segment reaches back to the start of the animation.
            stretches.append((i == 0 ? -Double.infinity : base[i].time)..<base[i + 1].time)
        }
        return stretches
    }

    /// What lottie-ios compares to tell whether keyframes share their timing.
    private struct Timing: Equatable {
        var time: Double
        var hold: Bool
        var inTangent: CGPoint?
        var outTangent: CGPoint?
    }

    private static func timing<V>(_ a: LottieAnimatable<V>) -> [Timing] {
        a.keyframes.map { Timing(time: $0.time, hold: $0.hold, inTangent: $0.inTangent, outTangent: $0.outTangent) }
    }
}
