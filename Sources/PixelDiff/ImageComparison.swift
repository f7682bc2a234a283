import Foundation
import OpenCoreGraphics

/// The numbers that say how far two images of the same size are apart, channel by channel on the
/// stored (premultiplied, 8-bit) values.
public struct ComparisonReport: Equatable, Sendable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    /// The per-channel difference a pixel may have and still count as matching.
    public let tolerance: Int
    /// The largest difference of any channel of any pixel, 0...255.
    public let maxChannelDelta: Int
    /// Pixels with some channel differing by more than `tolerance`.
    public let pixelsOverTolerance: Int
    /// Mean absolute difference over all channels, in 0...255 units.
    public let meanAbsoluteError: Double
    /// Peak signal-to-noise ratio in dB over all channels; infinity for identical images.
    public let psnr: Double

    public var pixelCount: Int { width * height }
    /// `pixelsOverTolerance / pixelCount`.
    public var fractionOverTolerance: Double { Double(pixelsOverTolerance) / Double(max(pixelCount, 1)) }
    /// The share of pixels within tolerance.
    public var fractionWithinTolerance: Double { 1 - fractionOverTolerance }
    public var isIdentical: Bool { maxChannelDelta == 0 }

    public var description: String {
        let psnrText = psnr.isInfinite ? "inf" : String(format: "%.2f", psnr)
        return String(format: "max delta %d, %d of %d pixels over %d (%.4f%% within), MAE %.4f, PSNR %@ dB",
                      maxChannelDelta, pixelsOverTolerance, pixelCount, tolerance,
                      fractionWithinTolerance * 100, meanAbsoluteError, psnrText)
    }
}

/// Why two images cannot be compared.
public enum ComparisonError: Error, Equatable, CustomStringConvertible {
    case sizeMismatch(expected: String, actual: String)
    /// A comparator setting outside the range it works in (its name, value and range).
    case invalidSetting(String)

    /// Both images the same size, or the error that says which sizes they have.
    static func requireSameSize(_ expected: Bitmap, _ actual: Bitmap) throws {
        guard expected.width == actual.width, expected.height == actual.height else {
            throw sizeMismatch(expected: "\(expected.width)x\(expected.height)", actual: "\(actual.width)x\(actual.height)")
        }
    }
    public var description: String {
        switch self {
        case let .sizeMismatch(expected, actual): "images differ in size: \(expected) against \(actual)"
        case let .invalidSetting(reason): reason
        }
    }
}

public enum ImageComparison {
    /// Compares `actual` with `expected`; `tolerance` is the per-channel difference that still
    /// counts as a match.
    public static func compare(_ expected: Bitmap, _ actual: Bitmap, tolerance: Int = 2) throws -> ComparisonReport {
        try ComparisonError.requireSameSize(expected, actual)
        var tally = DiffTally()
        try Self.tally(expected, actual, rows: 0..<expected.height, tolerance: tolerance, into: &tally)
        return report(tally, width: expected.width, height: expected.height, tolerance: tolerance)
    }

    /// Adds `rows` to the channel sums: rows equal byte for byte (one memcmp) add nothing.
    static func tally(_ expected: Bitmap, _ actual: Bitmap, rows: Range<Int>, tolerance: Int, into tally: inout DiffTally) throws {
        try ComparisonError.requireSameSize(expected, actual)
        let rowBytes = expected.width * 4
        tally.compared += expected.width * rows.count
        var maxDelta = Int(tally.largest), over = 0, sumAbs = 0, sumSquares = 0
        expected.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                for y in rows {
                    let start = y * rowBytes
                    if memcmp(a.baseAddress! + start, b.baseAddress! + start, rowBytes) == 0 { continue }
                    var i = start
                    while i < start + rowBytes {
                        var pixelMax = 0
                        for c in 0..<4 {
                            let d = abs(Int(a[i + c]) - Int(b[i + c]))
                            sumAbs += d
                            sumSquares += d * d
                            pixelMax = max(pixelMax, d)
                        }
                        maxDelta = max(maxDelta, pixelMax)
                        if pixelMax > tolerance { over += 1 }
                        i += 4
                    }
                }
            }
        }
        tally.largest = Double(maxDelta)
        tally.differing += over
        tally.absoluteSum += sumAbs
        tally.squaredSum += sumSquares
    }

    /// The report of a `width` x `height` pair from its channel sums.
    public static func report(_ tally: DiffTally, width: Int, height: Int, tolerance: Int) -> ComparisonReport {
        let channels = Double(width * height * 4)
        let mse = Double(tally.squaredSum) / channels
        let psnr = mse == 0 ? Double.infinity : 10 * log10(255 * 255 / mse)
        return ComparisonReport(width: width, height: height, tolerance: tolerance,
                                maxChannelDelta: Int(tally.largest), pixelsOverTolerance: tally.differing,
                                meanAbsoluteError: Double(tally.absoluteSum) / channels, psnr: psnr)
    }
}
