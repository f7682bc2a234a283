import Foundation
import Compositor
import OpenCoreGraphics

/// Source-over (plus, destination-in) of a premultiplied colour onto an 8-bit premultiplied pixel, rounded to
/// nearest.
package enum SourceOver {
    @inline(__always)
    package static func add(red: Double, green: Double, blue: Double, alpha: Double,
                            into pixels: UnsafeMutableBufferPointer<UInt8>, at i: Int) {
        pixels[i] = quantize(unorm8(red) + ByteUnits.value(pixels[i]))
        pixels[i + 1] = quantize(unorm8(green) + ByteUnits.value(pixels[i + 1]))
        pixels[i + 2] = quantize(unorm8(blue) + ByteUnits.value(pixels[i + 2]))
        pixels[i + 3] = quantize(unorm8(alpha) + ByteUnits.value(pixels[i + 3]))
    }

    @inline(__always)
    package static func blend(red: Double, green: Double, blue: Double, alpha: Double,
                              into pixels: UnsafeMutableBufferPointer<UInt8>, at i: Int) {
        blend(r: rounded(red), g: rounded(green), b: rounded(blue), a: rounded(alpha), into: pixels, at: i)
    }

    /// `blend` of a source already rounded to the bytes a draw writes.
    @inline(__always)
    package static func blend(r: UInt8, g: UInt8, b: UInt8, a: UInt8, into pixels: UnsafeMutableBufferPointer<UInt8>, at i: Int) {
        // A source of no bytes adds nothing and takes nothing away: quantize(p / 255) is p
        // (ByteUnitsTests), so the pixel stays as it is (a faint shadow's tail, most of it).
        guard r | g | b | a != 0 else { return }
        let keep = 255 - Int(a)
        pixels[i] = over(r, keep, pixels[i])
        pixels[i + 1] = over(g, keep, pixels[i + 1])
        pixels[i + 2] = over(b, keep, pixels[i + 2])
        pixels[i + 3] = over(a, keep, pixels[i + 3])
    }

    /// One channel of `blend`: `quantize(value(s) + value(d) * (1 - value(a)))`, in integers,
    /// with `keep` = 255 - a. The same byte for every s, a and d (`SourceOverTests` tries all
    /// 16.7 million): the exact value times 255 plus a half is (2 (255 s + d keep) + 255) / 510,
    /// an odd number over an even one, never nearer a whole number than 1/510, where the
    /// doubles' rounding is some 1e-13, so dropping its fraction drops the same fraction. A
    /// division by a constant where the doubles made two conversions from a table, a multiply,
    /// an add and a clamp (a wide shadow's pixels, all blended, were half its frame).
    @inline(__always)
    package static func over(_ s: UInt8, _ keep: Int, _ d: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: min((2 * (255 * Int(s) + Int(d) * keep) + 255) / 510, 255))
    }

    /// `blend` of colour after colour along a row, remembering the last source and pixel it
    /// met and what it made of them: where both repeat (a shadow's slowly changing colour over
    /// a plain background) the result is stored again rather than worked out. The same bytes:
    /// `blend`'s result depends on the source's bytes and the pixel's alone.
    package struct RepeatingBlend {
        private var source: UInt32 = 0, pixel: UInt32 = 0, result: UInt32 = 0, known = false

        package init() {}

        /// Returns whether it worked the blend out (false: the remembered result was stored).
        @inline(__always) @discardableResult
        package mutating func blend(red: Double, green: Double, blue: Double, alpha: Double,
                                    into pixels: UnsafeMutableBufferPointer<UInt8>, at i: Int) -> Bool {
            let r = rounded(red), g = rounded(green), b = rounded(blue), a = rounded(alpha)
            let source = UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
            precondition(i >= 0 && i + 4 <= pixels.count)
            let address = UnsafeMutableRawPointer(pixels.baseAddress! + i)
            let pixel = address.loadUnaligned(as: UInt32.self)
            if known, source == self.source, pixel == self.pixel {
                address.storeBytes(of: result, as: UInt32.self)
                return false
            }
            SourceOver.blend(r: r, g: g, b: b, a: a, into: pixels, at: i)
            (self.source, self.pixel, result, known) = (source, pixel, address.loadUnaligned(as: UInt32.self), true)
            return true
        }
    }

    /// The source combined with the pixel by a blend mode that reads it (`BlendMode.combine`): the
    /// source rounded to 8 bits as the GPU's shader rounds its colour, the result rounded as the
    /// shader writes it.
    static func mix(_ mode: BlendMode, red: Double, green: Double, blue: Double, alpha: Double,
                    into pixels: UnsafeMutableBufferPointer<UInt8>, at i: Int) {
        let source = (unorm8(red), unorm8(green), unorm8(blue), unorm8(alpha))
        let backdrop = (ByteUnits.value(pixels[i]), ByteUnits.value(pixels[i + 1]), ByteUnits.value(pixels[i + 2]), ByteUnits.value(pixels[i + 3]))
        let out = mode.combine(source: source, backdrop: backdrop)
        pixels[i] = rounded(out.red)
        pixels[i + 1] = rounded(out.green)
        pixels[i + 2] = rounded(out.blue)
        pixels[i + 3] = rounded(out.alpha)
    }

    /// D x alpha: a mask applied to what is there.
    @inline(__always)
    package static func scale(by alpha: Double, _ pixels: UnsafeMutableBufferPointer<UInt8>, at i: Int) {
        let alpha = unorm8(alpha)
        for c in i..<(i + 4) { pixels[c] = quantize(ByteUnits.value(pixels[c]) * alpha) }
    }

    /// `scale(by:_:at:)` of every byte in `start..<end` (whole pixels): the same bytes, worked out
    /// once per byte value. By 1 each byte stays as it is (quantize(p / 255) is p, ByteUnitsTests).
    package static func scale(by alpha: Double, _ pixels: UnsafeMutableBufferPointer<UInt8>, from start: Int, to end: Int) {
        let alpha = unorm8(alpha)
        guard alpha != 1, end > start else { return }
        guard alpha != 0 else {
            UnsafeMutableBufferPointer(rebasing: pixels[start..<end]).update(repeating: 0)
            return
        }
        // A table is 256 entries to make: a short stretch is worked out byte by byte.
        guard end - start >= 256 else {
            for c in start..<end { pixels[c] = quantize(ByteUnits.value(pixels[c]) * alpha) }
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { table in
            for d in 0..<256 { table[d] = quantize(ByteUnits.value(UInt8(d)) * alpha) }
            for c in start..<end { pixels[c] = table[Int(pixels[c])] }
        }
    }

    /// The source as an 8-bit blender sees it: the fragment's colour converted to the target's
    /// precision before it is blended, as llvmpipe does (and a GPU blending at its target's
    /// precision). Blending the exact value drifted from the GPU by up to a step per draw where
    /// translucent draws pile up (stacked shadows, faint layers): `quartz fuzz-differential`
    /// found 58 of 1,000 random trees apart beyond the bar, 18 after.
    @inline(__always)
    static func unorm8(_ v: Double) -> Double { ByteUnits.value(rounded(v)) }

    @inline(__always)
    package static func quantize(_ v: Double) -> UInt8 {
        UInt8(min(max(v * 255 + 0.5, 0), 255))
    }

    /// A value rounded to 8 bits as every fragment shader writes it (TargetSteps: half a step and
    /// 1/1024 of one). Blends, which the GPU's fixed-function hardware rounds, keep `quantize`.
    @inline(__always)
    static func rounded(_ v: Double) -> UInt8 { TargetSteps.byte(v) }
}
