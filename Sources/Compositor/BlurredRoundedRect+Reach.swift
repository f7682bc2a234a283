import Foundation

extension BlurredRoundedRect {
    /// How many sigmas past the shape's edges its closed form, times `strongest` (the largest
    /// channel of the shadow's premultiplied colour times its opacity), rounds to a byte of 0 on
    /// both backends' targets: at most 3, where every shadow's quad reached before (2.95 at full
    /// strength, 2.70 at opacity 0.5, 2.36 at 0.2), whose pixels out there were drawn to change
    /// nothing. A shadow's quad is its rectangle grown by this and a pixel.
    ///
    /// The bound, at t sigma or more past the edges along one axis: along x each row's erf pair
    /// is at most the Gaussian's tail, Q(t), plus half the erf approximation's error (5e-4), and
    /// the eight samples' weights sum to at most 1.01 (0.998 over the whole ±3 sigma); along y
    /// the samples lie in the tail past t sigma, where the midpoint rule falls short of the
    /// convex tail's integral, Q(t), and each row integral is at most 1. A byte is 0 while
    /// value x 255 stays under 0.49902 (`TargetSteps`: half a step less the tie-break), taken as
    /// 0.49. `BlurredRoundedRectReachTests` checks the closed form out there on many shapes.
    public static func negligibleReach(strongest: Double) -> Double {
        let limit = 0.49 / (255 * 1.01 * max(strongest, 1e-9)) - 2.5e-4
        func tail(_ t: Double) -> Double { 0.5 * erfc(t / 2.0.squareRoot()) }
        // At least one sigma, where the tail is convex; bisected to a hundredth, from above.
        guard tail(3) <= limit else { return 3 }
        guard tail(1) > limit else { return 1 }
        var low = 1.0, high = 3.0
        while high - low > 0.01 {
            let middle = (low + high) / 2
            if tail(middle) <= limit { high = middle } else { low = middle }
        }
        return high
    }
}
