import CPixelKernels

extension SourceOver {
    /// `blend` of `solid` times each of `count` alphas (a shadow's run: its closed form along a
    /// row), tinted where `tint` is given, times `opacity`, over the pixels from `pixels` on: the
    /// source bytes as `blend(red:green:blue:alpha:)` rounds `((solid * alpha) * tint) *
    /// opacity`, then `over` each channel.
    ///
    /// In C (`Sources/CPixelKernels`): a wide shadow's frame is its ring's pixels, each blended,
    /// and Swift's SIMD types left the conversions of each alpha to its byte scalar, with a trap
    /// check apiece (UInt8 of a Double), and the widening of bytes to 16-bit lanes as a call; C's
    /// compiler vectorizes the whole loop and makes AVX2 and AVX-512 copies, the processor's best
    /// taken (radius-100 shadow on the CPU: docs/performance.md). The same bytes: `SourceOverTests`
    /// holds every copy to blending pixel by pixel.
    package static func blend(_ solid: (Double, Double, Double, Double), times alphas: UnsafePointer<Float>, count: Int,
                              tint: (Double, Double, Double, Double)?, opacity: Double, into pixels: UnsafeMutablePointer<UInt8>) {
        guard count > 0 else { return }
        // No tint is a tint of ones: x * 1.0 is x, the bits of leaving the products out.
        let t = tint ?? (1, 1, 1, 1)
        oq_shadow_blend(alphas, count, solid.0, solid.1, solid.2, solid.3, t.0, t.1, t.2, t.3, opacity, pixels)
    }
}
