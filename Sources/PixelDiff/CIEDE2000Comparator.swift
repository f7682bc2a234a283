import Foundation
import OpenCoreGraphics

/// swift-snapshot-testing's `precision` and `perceptualPrecision`, with the CIEDE2000 colour
/// difference: a pixel matches when its ΔE00 is at most `(1 - perceptualPrecision) * 100` (0.98
/// lets through ΔE 2, about the smallest difference a person notices), and the images match when
/// the share of matching pixels is at least `precision`. With `perceptualPrecision` 1 it counts
/// differing bytes against `precision`, as swift-snapshot-testing does.
///
/// Colours are compared as seen over white (premultiplied colour plus the uncovered white), so a
/// transparent pixel and a white one look alike, as on a page. `formula: .coreImage` measures
/// as swift-snapshot-testing does on Apple's platforms instead: Core Image's `CILabDeltaE`, ΔE94
/// of the premultiplied colours (what a Core Image filter sees of a pixel).
public struct CIEDE2000Comparator: RowComparator {
    public var precision: Double
    public var perceptualPrecision: Double
    public var formula: Formula

    /// How a pixel's colour difference is measured.
    public enum Formula: Sendable {
        /// ΔE00 of the colours over white.
        case ciede2000
        /// ΔE94 of the premultiplied colours, the expected image's as the reference (Core Image's
        /// `CILabDeltaE`).
        case coreImage
    }

    public init(precision: Double = 1, perceptualPrecision: Double = 1, formula: Formula = .ciede2000) {
        self.precision = precision
        self.perceptualPrecision = perceptualPrecision
        self.formula = formula
    }

    private var name: String { formula == .ciede2000 ? "ciede2000" : "cie94" }

    /// The largest ΔE00 a pixel may have and still match.
    public var deltaEThreshold: Double { (1 - perceptualPrecision) * 100 }

    public func compare(_ expected: Bitmap, _ actual: Bitmap) throws -> ComparatorVerdict {
        let judgement = judge(try tallyWhole(expected, actual), width: expected.width, height: expected.height)
        if perceptualPrecision >= 1 {
            return ComparatorVerdict(
                judgement,
                picture: { HeatMap.make(expected, actual, discardAlpha: false) },
                mask: { DiffMask.make(expected: expected) { x, y in expected[x, y] != actual[x, y] } })
        }
        let width = expected.width, threshold = Float(deltaEThreshold)
        return ComparatorVerdict(
            judgement,
            picture: {
                // ΔE on the heat ramp: ΔE 1 blue, ΔE 2.3 (just noticeable) purple, 10 red, 100 yellow.
                let deltas = Self.deltaE(expected, actual, formula: formula)
                return Bitmap(width: width, height: expected.height) { x, y in
                    let d = deltas[y * width + x]
                    return d == 0 ? HeatMap.dimmed(expected[x, y]) : HeatMap.ramp(Double(d) * 2.55)
                }
            },
            mask: {
                let deltas = Self.deltaE(expected, actual, formula: formula)
                return DiffMask.make(expected: expected) { x, y in deltas[y * width + x] > threshold }
            })
    }

    public func contextRows(width: Int, height: Int) -> Int { 0 }

    public func tally(_ expected: Bitmap, _ actual: Bitmap, rows: Range<Int>, firstRow: Int, imageHeight: Int, into tally: inout DiffTally) throws {
        try ComparisonError.requireSameSize(expected, actual)
        let width = expected.width
        tally.compared += width * rows.count
        if perceptualPrecision >= 1 {
            var differingBytes = 0, differingPixels = 0
            for i in stride(from: rows.lowerBound * width * 4, to: rows.upperBound * width * 4, by: 4) {
                var pixelDiffers = false
                for c in 0..<4 where expected.pixels[i + c] != actual.pixels[i + c] {
                    differingBytes += 1
                    pixelDiffers = true
                }
                if pixelDiffers { differingPixels += 1 }
            }
            tally.differingBytes += differingBytes
            tally.differing += differingPixels
            return
        }
        let threshold = Float(deltaEThreshold)
        var failing = 0
        var largest = Float(tally.largest)
        for d in Self.deltaE(expected, actual, rows: rows, formula: formula) {
            if d > threshold { failing += 1 }
            largest = max(largest, d)
        }
        tally.differing += failing
        tally.largest = Double(largest)
    }

    public func judge(_ tally: DiffTally, width: Int, height: Int) -> Judgement {
        let count = tally.compared
        if perceptualPrecision >= 1 {
            let actualPrecision = 1 - Double(tally.differingBytes) / Double(max(count * 4, 1))
            let summary = String(format: "%@: byte precision %.6f (required %.6f), %d of %d pixels differ",
                                 name, actualPrecision, precision, tally.differing, count)
            return Judgement(passed: actualPrecision >= precision, comparator: name, differingPixels: tally.differing,
                             pixelCount: count, summary: summary, score: actualPrecision)
        }
        let largest = Float(tally.largest)
        let pixelPrecision = 1 - Double(tally.differing) / Double(max(count, 1))
        let lowestPerceptual = 1 - min(Double(largest) / 100, 1)
        let summary = String(format: "%@: %.6f of pixels match (required %.6f); largest ΔE%@ %.3f, lowest perceptual precision %.6f (required %.6f); %d pixels over ΔE %.3f",
                             name, pixelPrecision, precision, formula == .ciede2000 ? "00" : "94", largest, lowestPerceptual, perceptualPrecision, tally.differing, deltaEThreshold)
        return Judgement(passed: pixelPrecision >= precision, comparator: name, differingPixels: tally.differing, pixelCount: count,
                         summary: summary, score: pixelPrecision)
    }

    /// ΔE00 of every pixel, the colours taken over white. Equal pixels cost a comparison, and
    /// the Lab value of the last colour seen is kept (flat areas repeat it).
    public static func deltaE(_ expected: Bitmap, _ actual: Bitmap, formula: Formula = .ciede2000) -> [Float] {
        deltaE(expected, actual, rows: 0..<expected.height, formula: formula)
    }

    /// ΔE of the pixels of `rows`, row by row.
    static func deltaE(_ expected: Bitmap, _ actual: Bitmap, rows: Range<Int>, formula: Formula) -> [Float] {
        let first = rows.lowerBound * expected.width, count = rows.count * expected.width
        var result = [Float](repeating: 0, count: count)
        if Bitmap.samePixels(expected, actual) { return result }
        var lastKey: (UInt32, UInt32) = (.max, .max)
        var lastDelta: Float = 0
        expected.pixels.withUnsafeBytes { a in
            actual.pixels.withUnsafeBytes { b in
                let wa = a.bindMemory(to: UInt32.self), wb = b.bindMemory(to: UInt32.self)
                for i in first..<first + count where wa[i] != wb[i] {
                    if (wa[i], wb[i]) == lastKey { result[i - first] = lastDelta; continue }
                    let d: Float
                    switch formula {
                    case .ciede2000: d = Float(CIEDE2000.difference(overWhite(a, i * 4), overWhite(b, i * 4)))
                    case .coreImage: d = Float(CIE94.difference(reference: premultiplied(a, i * 4), sample: premultiplied(b, i * 4)))
                    }
                    lastKey = (wa[i], wb[i])
                    lastDelta = d
                    result[i - first] = d
                }
            }
        }
        return result
    }

    private static func premultiplied(_ p: UnsafeRawBufferPointer, _ i: Int) -> CIEDE2000.Lab {
        CIEDE2000.lab(p[i], p[i + 1], p[i + 2])
    }

    private static func overWhite(_ p: UnsafeRawBufferPointer, _ i: Int) -> CIEDE2000.Lab {
        let keep = 255 - Int(p[i + 3])
        return CIEDE2000.lab(UInt8(min(255, Int(p[i]) + keep)), UInt8(min(255, Int(p[i + 1]) + keep)),
                             UInt8(min(255, Int(p[i + 2]) + keep)))
    }
}
