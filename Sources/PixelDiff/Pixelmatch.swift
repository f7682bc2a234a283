import Foundation
import OpenCoreGraphics

/// What the pixelmatch comparison found.
public struct PixelmatchReport: Sendable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    /// The threshold compared at (0...1; pixelmatch's default is 0.1).
    public let threshold: Double
    /// Pixels whose perceived colour difference is over the threshold and that are not
    /// anti-aliasing: pixelmatch's count.
    public let differingPixels: Int
    /// Pixels over the threshold taken for anti-aliasing (not counted, unless included).
    public let antialiasedPixels: Int
    /// The picture: differing pixels red, anti-aliasing yellow, the rest the expected image
    /// faded to gray.
    public var diffImage: Bitmap { picture() }
    let picture: @Sendable () -> Bitmap

    public var description: String {
        "\(differingPixels) of \(width * height) pixels differ at threshold \(threshold) (\(antialiasedPixels) anti-aliased pixels ignored)"
    }
}

/// The perceptual comparison of mapbox's pixelmatch (used by Playwright, jest-image-snapshot and
/// many snapshot tools): the colour difference in YIQ space (Kotsarenko and Ramos) against a
/// threshold, and pixels whose difference comes from anti-aliasing (Vysniauskas' slope detector)
/// not counted, so an edge rasterized a little differently does not fail a test. Our own
/// implementation, checked pixel for pixel against the `pixelmatch` package (its Python port).
///
/// Works on straight-alpha colour as PNG files hold it: premultiplied bitmaps are converted the
/// way `CGImage.pngData()` writes them, so comparing bitmaps or their PNGs agrees.
public enum Pixelmatch {
    public static func compare(_ expected: Bitmap, _ actual: Bitmap, threshold: Double = 0.1,
                               includeAntialiasing: Bool = false) throws -> PixelmatchReport {
        try compare(expected, actual, threshold: threshold, includeAntialiasing: includeAntialiasing, rows: nil)
    }

    /// With `rows`, only those rows are counted and drawn (a band of a banded comparison: the rows
    /// around them are its context).
    static func compare(_ expected: Bitmap, _ actual: Bitmap, threshold: Double, includeAntialiasing: Bool,
                        rows: Range<Int>?) throws -> PixelmatchReport {
        try ComparisonError.requireSameSize(expected, actual)
        let width = expected.width, height = expected.height
        if Bitmap.samePixels(expected, actual) {
            // Nothing can differ: pixelmatch's own fast path. The picture is drawn if asked for.
            return PixelmatchReport(width: width, height: height, threshold: threshold, differingPixels: 0, antialiasedPixels: 0) {
                let a = straight(expected.pixels)
                var output = [UInt8](repeating: 0, count: a.count)
                for pos in stride(from: 0, to: a.count, by: 4) {
                    let gray = blend(luma(Double(a[pos]), Double(a[pos + 1]), Double(a[pos + 2])), 0.1 * Double(a[pos + 3]) / 255)
                    draw(&output, pos, gray, gray, gray)
                }
                return Bitmap(width: width, height: height, pixels: output)
            }
        }
        let a = straight(expected.pixels), b = straight(actual.pixels)
        let maxDelta = 35215 * threshold * threshold
        var output = [UInt8](repeating: 0, count: a.count)
        var differing = 0, antialiased = 0
        for y in rows ?? 0..<height {
            for x in 0..<width {
                let pos = (y * width + x) * 4
                let delta = colorDelta(a, b, pos, pos, yOnly: false)
                if delta > maxDelta {
                    if !includeAntialiasing && (isAntialiased(a, x, y, width, height, other: b) || isAntialiased(b, x, y, width, height, other: a)) {
                        antialiased += 1
                        draw(&output, pos, 255, 255, 0)
                    } else {
                        differing += 1
                        draw(&output, pos, 255, 0, 0)
                    }
                } else {
                    let gray = blend(luma(Double(a[pos]), Double(a[pos + 1]), Double(a[pos + 2])), 0.1 * Double(a[pos + 3]) / 255)
                    draw(&output, pos, gray, gray, gray)
                }
            }
        }
        let picture = Bitmap(width: width, height: height, pixels: output)
        return PixelmatchReport(width: width, height: height, threshold: threshold, differingPixels: differing,
                                antialiasedPixels: antialiased) { picture }
    }

    /// Straight RGBA from premultiplied, rounded as the PNG writer rounds.
    static func straight(_ pixels: [UInt8]) -> [UInt8] {
        var out = pixels
        for i in stride(from: 0, to: out.count, by: 4) {
            let alpha = UInt16(out[i + 3])
            if alpha == 255 { continue }
            for c in 0..<3 {
                out[i + c] = alpha == 0 ? 0 : UInt8(min(255, (UInt16(out[i + c]) * 255 + alpha / 2) / alpha))
            }
        }
        return out
    }

    private static func draw(_ output: inout [UInt8], _ pos: Int, _ r: Double, _ g: Double, _ b: Double) {
        output[pos] = UInt8(clamping: Int(r))
        output[pos + 1] = UInt8(clamping: Int(g))
        output[pos + 2] = UInt8(clamping: Int(b))
        output[pos + 3] = 255
    }

    static func luma(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.29889531 + g * 0.58662247 + b * 0.11448223 }
    static func inPhase(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.59597799 - g * 0.27417610 - b * 0.32180189 }
    static func quadrature(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.21147017 - g * 0.52261711 + b * 0.31114694 }
    /// A channel over white by alpha `a` (0...1).
    static func blend(_ c: Double, _ a: Double) -> Double { 255 + (c - 255) * a }

    /// The squared YIQ difference of two pixels (or, `yOnly`, the signed brightness difference),
    /// each first blended over white by its alpha.
    static func colorDelta(_ img1: [UInt8], _ img2: [UInt8], _ k: Int, _ m: Int, yOnly: Bool) -> Double {
        var r1 = Double(img1[k]), g1 = Double(img1[k + 1]), b1 = Double(img1[k + 2])
        let a1 = img1[k + 3]
        var r2 = Double(img2[m]), g2 = Double(img2[m + 1]), b2 = Double(img2[m + 2])
        let a2 = img2[m + 3]
        if a1 == a2 && r1 == r2 && g1 == g2 && b1 == b2 { return 0 }
        if a1 < 255 {
            let a = Double(a1) / 255
            (r1, g1, b1) = (blend(r1, a), blend(g1, a), blend(b1, a))
        }
        if a2 < 255 {
            let a = Double(a2) / 255
            (r2, g2, b2) = (blend(r2, a), blend(g2, a), blend(b2, a))
        }
        let y = luma(r1, g1, b1) - luma(r2, g2, b2)
        if yOnly { return y }
        let i = inPhase(r1, g1, b1) - inPhase(r2, g2, b2)
        let q = quadrature(r1, g1, b1) - quadrature(r2, g2, b2)
        return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    }

    /// Whether the pixel is likely anti-aliasing: among its neighbours there are both darker and
    /// brighter ones, at most two equal ones, and the darkest or brightest sits in a flat area in
    /// both images.
    static func isAntialiased(_ img: [UInt8], _ x1: Int, _ y1: Int, _ width: Int, _ height: Int, other: [UInt8]) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let pos = (y1 * width + x1) * 4
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                let delta = colorDelta(img, img, pos, (y * width + x) * 4, yOnly: true)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta
                    minX = x; minY = y
                } else if delta > maxDelta {
                    maxDelta = delta
                    maxX = x; maxY = y
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(img, minX, minY, width, height) && hasManySiblings(other, minX, minY, width, height))
            || (hasManySiblings(img, maxX, maxY, width, height) && hasManySiblings(other, maxX, maxY, width, height))
    }

    /// Whether three or more neighbours of the pixel have exactly its colour.
    static func hasManySiblings(_ img: [UInt8], _ x1: Int, _ y1: Int, _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let pos = (y1 * width + x1) * 4
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                let other = (y * width + x) * 4
                if img[pos] == img[other] && img[pos + 1] == img[other + 1] && img[pos + 2] == img[other + 2] && img[pos + 3] == img[other + 3] {
                    zeroes += 1
                }
                if zeroes > 2 { return true }
            }
        }
        return false
    }
}
