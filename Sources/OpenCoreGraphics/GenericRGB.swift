import Foundation

/// Apple's Generic RGB (`kCGColorSpaceGenericRGB`: gamma 1.8, primaries (0.630, 0.340),
/// (0.295, 0.605), (0.155, 0.077), D65 white) converted to sRGB: its components to linear light,
/// Generic RGB's primaries to sRGB's, and sRGB's curve.
///
/// Core Animation draws a CAGradientLayer's colours in Generic RGB: each stop converted into it
/// (`fromSRGB`, clamped to its gamut), the stops mixed there, and the mix converted to sRGB
/// (`toSRGB`). Two of Apple's frames show it: swift-snapshot-testing's reference of a red-to-yellow
/// CAGradientLayer (an iPhone simulator's `render(in:)`) runs from (255, 38, 0) to (255, 251, 0),
/// bowed, where the stops are (255, 0, 0) and (255, 255, 0), every one of its 300 rows within a
/// step of this; lottie-ios's `gradient_pill` shows its device RGB stop (0.8, 0, 1) with green
/// lifted to 59/255 and its other frames bowed between stops, each pixel sampled within 2 steps
/// of this, where the stops mixed in sRGB are 58 steps off (docs/lottie.md).
///
/// The two curves are tables with linear interpolation between entries, so that a conversion
/// costs a few lookups where pow would cost six calls: within 3e-5 of the curves
/// (`GenericRGBTests` measures it). Core Graphics' drawing of a Generic RGB CGGradient converts
/// each pixel through them; the CPU renderer's CAGradientLayer colours go through them each pixel
/// for a small quad, else once for each entry of a table (Compositor's `GradientColorTable`); the
/// CPU's gradient kernel (CPixelKernels' oq_generic_rgb.h) converts line for line as `toSRGB`
/// does, so both give the same bits.
public enum GenericRGB {
    /// Entries of each curve's table less one: the curve at i / steps.
    public static let steps = 4096

    /// x^1.8 (a component to linear light), then sRGB's encoding, each at i / steps; then the 3 x 3
    /// matrix from Generic RGB's linear components to sRGB's, row by row: one buffer.
    public static let tables: [Double] = {
        var tables = (0...steps).map { pow(Double($0) / Double(steps), 1.8) }
        tables += (0...steps).map { encodeSRGB(Double($0) / Double(steps)) }
        return tables + matrix
    }()

    /// Generic RGB's linear components to sRGB's, row by row.
    public static let matrix: [Double] = {
        let white = (0.3127, 0.3290)
        let from = toXYZ([(0.630, 0.340), (0.295, 0.605), (0.155, 0.077)], white: white)
        let back = inverse(toXYZ([(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)], white: white))
        return (0..<9).map { i in
            let row = i / 3, column = i % 3
            return back[3 * row] * from[column] + back[3 * row + 1] * from[3 + column] + back[3 * row + 2] * from[6 + column]
        }
    }()

    /// sRGB's linear components to Generic RGB's, row by row: the inverse of `matrix`.
    public static let inverseMatrix: [Double] = inverse(matrix)

    /// Straight sRGB components to straight Generic RGB ones, each clamped to 0...1 first (NaN to
    /// 0) and again in Generic RGB's linear light: a colour outside Generic RGB's gamut (sRGB's
    /// saturated blues and violets, its pure red) comes to the nearest edge of it, as Apple's
    /// frames show such colours drawn by a CAGradientLayer (`(0.8, 0, 1)` with green lifted to
    /// 0.23). Exact curves: this runs once a stop, not once a pixel.
    public static func fromSRGB(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        func unit(_ v: Double) -> Double { v > 0 ? (v < 1 ? v : 1) : 0 }
        func decode(_ v: Double) -> Double { let v = unit(v); return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        let lr = decode(r), lg = decode(g), lb = decode(b), m = inverseMatrix
        func encode(_ v: Double) -> Double { pow(unit(v), 1 / 1.8) }
        return (encode(m[0] * lr + m[1] * lg + m[2] * lb), encode(m[3] * lr + m[4] * lg + m[5] * lb),
                encode(m[6] * lr + m[7] * lg + m[8] * lb))
    }

    /// sRGB's curve from linear light (IEC 61966-2-1).
    public static func encodeSRGB(_ v: Double) -> Double { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    /// Straight Generic RGB components to straight sRGB ones, each clamped to 0...1 (NaN to 0).
    public static func toSRGB(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        tables.withUnsafeBufferPointer { t in
            let decode = t.baseAddress!, encode = decode + steps + 1, m = encode + steps + 1
            let lr = curve(decode, r), lg = curve(decode, g), lb = curve(decode, b)
            return (curve(encode, m[0] * lr + m[1] * lg + m[2] * lb), curve(encode, m[3] * lr + m[4] * lg + m[5] * lb),
                    curve(encode, m[6] * lr + m[7] * lg + m[8] * lb))
        }
    }

    /// `x` clamped to 0...1 (NaN to 0), then the table's curve there: the entry at or below and the
    /// next, mixed, the last step's pair at 1.
    private static func curve(_ table: UnsafePointer<Double>, _ x: Double) -> Double {
        let x = x > 0 ? (x < 1 ? x : 1) : 0
        let s = x * Double(steps)
        let i = min(Int(s), steps - 1)
        return table[i] + (table[i + 1] - table[i]) * (s - Double(i))
    }

    /// The matrix from a space's linear components to CIE XYZ, row by row, from its primaries'
    /// and white's chromaticities: the primaries' XYZ at Y = 1, scaled so that (1, 1, 1) is white.
    private static func toXYZ(_ primaries: [(Double, Double)], white: (Double, Double)) -> [Double] {
        var p = [Double](repeating: 0, count: 9)
        for (i, (x, y)) in primaries.enumerated() {
            p[i] = x / y
            p[3 + i] = 1
            p[6 + i] = (1 - x - y) / y
        }
        let w = [white.0 / white.1, 1, (1 - white.0 - white.1) / white.1]
        let inv = inverse(p)
        for i in 0..<3 {
            let s = inv[3 * i] * w[0] + inv[3 * i + 1] * w[1] + inv[3 * i + 2] * w[2]
            for row in 0..<3 { p[3 * row + i] *= s }
        }
        return p
    }

    /// The inverse of a 3 x 3 matrix (row by row), by its cofactors.
    private static func inverse(_ m: [Double]) -> [Double] {
        let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
        let det = m[0] * c00 + m[1] * c01 + m[2] * c02
        return [c00 / det, (m[2] * m[7] - m[1] * m[8]) / det, (m[1] * m[5] - m[2] * m[4]) / det,
                c01 / det, (m[0] * m[8] - m[2] * m[6]) / det, (m[2] * m[3] - m[0] * m[5]) / det,
                c02 / det, (m[1] * m[6] - m[0] * m[7]) / det, (m[0] * m[4] - m[1] * m[3]) / det]
    }
}
