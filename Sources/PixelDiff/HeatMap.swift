import Foundation
import OpenCoreGraphics

/// A picture of where two images differ: unchanged pixels as a dim gray copy of the expected image
/// (so a person can tell where they are), differing pixels on a ramp from blue (1/255) through
/// red to yellow (255/255), on a logarithmic scale so one-step noise and real changes both show.
public enum HeatMap {
    public static func make(expected: Bitmap, actual: Bitmap) throws -> Bitmap {
        try ComparisonError.requireSameSize(expected, actual)
        return make(expected, actual, discardAlpha: false)
    }

    static func make(_ expected: Bitmap, _ actual: Bitmap, discardAlpha: Bool) -> Bitmap {
        Bitmap(width: expected.width, height: expected.height) { x, y in
            let delta = ChannelScan.delta(expected, actual, (y * expected.width + x) * 4, discardAlpha: discardAlpha)
            return delta == 0 ? dimmed(expected[x, y]) : ramp(Double(delta))
        }
    }

    /// Luma of the premultiplied colour over black, dimmed.
    static func dimmed(_ p: (UInt8, UInt8, UInt8, UInt8)) -> (UInt8, UInt8, UInt8, UInt8) {
        let luma = (Int(p.0) * 54 + Int(p.1) * 183 + Int(p.2) * 19) >> 8
        let gray = UInt8(24 + luma / 4)
        return (gray, gray, gray, 255)
    }

    /// Blue -> red -> yellow for 1...255 (any positive value; above 255 stays yellow).
    static func ramp(_ delta: Double) -> (UInt8, UInt8, UInt8, UInt8) {
        let t = max(0, log2(max(delta, 1)) / 8) // 1 -> 0, 255 -> ~1
        if t < 0.5 {
            let s = t * 2
            return (UInt8(60 + 195 * s), 40, UInt8(255 * (1 - s)), 255)
        }
        let s = min((t - 0.5) * 2, 1)
        return (255, UInt8(40 + 215 * s), 0, 255)
    }
}
