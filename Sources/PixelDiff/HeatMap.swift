import Foundation
import OpenCoreGraphics

/// A picture of where two images differ: unchanged pixels as a dim gray copy of the expected image
/// (so a person can tell where they are), differing pixels on a ramp from blue (1/255) through
/// red to yellow (255/255), on a logarithmic scale so one-step noise and real changes both show.
public enum HeatMap {
    public static func make(expected: Bitmap, actual: Bitmap) throws -> Bitmap {
        guard expected.width == actual.width, expected.height == actual.height else {
            throw ComparisonError.sizeMismatch(expected: "\(expected.width)x\(expected.height)",
                                               actual: "\(actual.width)x\(actual.height)")
        }
        return Bitmap(width: expected.width, height: expected.height) { x, y in
            let a = expected[x, y], b = actual[x, y]
            let delta = max(abs(Int(a.0) - Int(b.0)), abs(Int(a.1) - Int(b.1)),
                            abs(Int(a.2) - Int(b.2)), abs(Int(a.3) - Int(b.3)))
            if delta == 0 {
                // Luma of the premultiplied colour over black, dimmed.
                let luma = (Int(a.0) * 54 + Int(a.1) * 183 + Int(a.2) * 19) >> 8
                let gray = UInt8(24 + luma / 4)
                return (gray, gray, gray, 255)
            }
            return ramp(delta)
        }
    }

    /// Blue -> red -> yellow for 1...255.
    static func ramp(_ delta: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let t = log2(Double(delta)) / 8 // 1 -> 0, 255 -> ~1
        if t < 0.5 {
            let s = t * 2
            return (UInt8(60 + 195 * s), 40, UInt8(255 * (1 - s)), 255)
        }
        let s = min((t - 0.5) * 2, 1)
        return (255, UInt8(40 + 215 * s), 0, 255)
    }
}
