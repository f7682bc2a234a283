import Foundation

/// CIE L*a*b* colour of an sRGB pixel (D65 white), and the CIEDE2000 colour difference between
/// two such colours: the perceptual distance colour science settled on, where 1 is about the
/// smallest difference a person notices side by side and 100 is black against white.
public enum CIEDE2000 {
    public struct Lab: Equatable, Sendable {
        public var l: Double, a: Double, b: Double
        public init(l: Double, a: Double, b: Double) { (self.l, self.a, self.b) = (l, a, b) }
    }

    /// Lab of an 8-bit sRGB colour.
    public static func lab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Lab {
        let table = linearTable
        let lr = table[Int(r)], lg = table[Int(g)], lb = table[Int(b)]
        // sRGB primaries to XYZ, relative to the D65 white (so white is 1, 1, 1).
        let x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047
        let y = 0.2126729 * lr + 0.7151522 * lg + 0.0721750 * lb
        let z = (0.0193339 * lr + 0.1191920 * lg + 0.9503041 * lb) / 1.08883
        let fx = f(x), fy = f(y), fz = f(z)
        return Lab(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    /// The sRGB decoding curve for each byte.
    static let linearTable: [Double] = (0..<256).map { v in
        let c = Double(v) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    private static func f(_ t: Double) -> Double {
        let delta = 6.0 / 29.0
        return t > delta * delta * delta ? cbrt(t) : t / (3 * delta * delta) + 4.0 / 29.0
    }

    /// ΔE00 (Sharma, Wu and Dalal's formulation, kL = kC = kH = 1).
    public static func difference(_ c1: Lab, _ c2: Lab) -> Double {
        let pow25to7 = 6103515625.0 // 25^7
        let c1ab = (c1.a * c1.a + c1.b * c1.b).squareRoot(), c2ab = (c2.a * c2.a + c2.b * c2.b).squareRoot()
        let meanC = (c1ab + c2ab) / 2
        let meanC7 = pow(meanC, 7)
        let g = 0.5 * (1 - (meanC7 / (meanC7 + pow25to7)).squareRoot())
        let a1 = (1 + g) * c1.a, a2 = (1 + g) * c2.a
        let cp1 = (a1 * a1 + c1.b * c1.b).squareRoot(), cp2 = (a2 * a2 + c2.b * c2.b).squareRoot()
        let hp1 = hueAngle(c1.b, a1), hp2 = hueAngle(c2.b, a2)

        let dL = c2.l - c1.l
        let dC = cp2 - cp1
        var dh = 0.0
        if cp1 * cp2 != 0 {
            dh = hp2 - hp1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (cp1 * cp2).squareRoot() * sin(radians(dh / 2))

        let meanL = (c1.l + c2.l) / 2
        let meanCp = (cp1 + cp2) / 2
        var meanH = hp1 + hp2
        if cp1 * cp2 != 0 {
            if abs(hp1 - hp2) <= 180 { meanH /= 2 } else if hp1 + hp2 < 360 { meanH = (meanH + 360) / 2 } else { meanH = (meanH - 360) / 2 }
        }
        let t = 1 - 0.17 * cos(radians(meanH - 30)) + 0.24 * cos(radians(2 * meanH))
            + 0.32 * cos(radians(3 * meanH + 6)) - 0.20 * cos(radians(4 * meanH - 63))
        let dTheta = 30 * exp(-pow((meanH - 275) / 25, 2))
        let meanCp7 = pow(meanCp, 7)
        let rc = 2 * (meanCp7 / (meanCp7 + pow25to7)).squareRoot()
        let lShift = (meanL - 50) * (meanL - 50)
        let sl = 1 + 0.015 * lShift / (20 + lShift).squareRoot()
        let sc = 1 + 0.045 * meanCp
        let sh = 1 + 0.015 * meanCp * t
        let rt = -sin(radians(2 * dTheta)) * rc
        let l = dL / sl, c = dC / sc, h = dH / sh
        return (l * l + c * c + h * h + rt * c * h).squareRoot()
    }

    private static func hueAngle(_ b: Double, _ a: Double) -> Double {
        if a == 0 && b == 0 { return 0 }
        let h = atan2(b, a) * 180 / .pi
        return h < 0 ? h + 360 : h
    }

    private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
}
