/// The 8-bit steps of a render target, as both backends round a draw's colour to them.
///
/// Half a step and 1/1024 of one: a value half a step between two, as colours made from bytes or
/// from round fractions often are (0.9 is 229.5 / 255, 0.2882 is 73.5 / 255), goes up on both
/// backends, whatever the GPU's float and the CPU's double make of the half. Every fragment
/// shader writes its colour so (their TIE_BREAK), the CPU reference rounds each draw's colour so
/// (RasterRenderer.rounded), and the GPU hands the driver colours it would convert itself (a
/// clear colour) already rounded so: drivers part at a half step (NVIDIA's turned 0.9 into 229
/// where llvmpipe and the CPU give 230).
public enum TargetSteps {
    /// Added to v * 255 before the fraction is dropped. Shaders/*.frag hold the same constant.
    @inlinable public static var tieBreak: Double { 0.5009765625 }

    /// `v` (0...1, clamped) as the byte a draw writes.
    @inlinable @inline(__always)
    public static func byte(_ v: Double) -> UInt8 {
        UInt8(min(max(v * 255 + tieBreak, 0), 255))
    }

    /// `v` on the target's steps, as a value in 0...1 (byte / 255).
    @inlinable @inline(__always)
    public static func snapped(_ v: Double) -> Double { Double(byte(v)) / 255 }
}
