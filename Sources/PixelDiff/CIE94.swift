import Foundation

/// The CIE 1994 colour difference (graphic-arts weights kL = kC = kH = 1, K1 = 0.045, K2 = 0.015):
/// what Core Image's `CILabDeltaE` gives ("ΔE 1994 values between 0.0 and 100.0"), and so what
/// swift-snapshot-testing's `perceptualPrecision` measures on Apple's platforms. Not symmetric:
/// the chroma weights are the reference's.
public enum CIE94 {
    public static func difference(reference c1: CIEDE2000.Lab, sample c2: CIEDE2000.Lab) -> Double {
        let dl = c1.l - c2.l
        let chroma1 = (c1.a * c1.a + c1.b * c1.b).squareRoot(), chroma2 = (c2.a * c2.a + c2.b * c2.b).squareRoot()
        let dc = chroma1 - chroma2
        let da = c1.a - c2.a, db = c1.b - c2.b
        // ΔH² from the a, b and chroma differences (never below 0 by rounding).
        let dh2 = max(0, da * da + db * db - dc * dc)
        let sc = 1 + 0.045 * chroma1, sh = 1 + 0.015 * chroma1
        return (dl * dl + (dc / sc) * (dc / sc) + dh2 / (sh * sh)).squareRoot()
    }
}
