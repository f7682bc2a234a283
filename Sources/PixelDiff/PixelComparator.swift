import Foundation
import OpenCoreGraphics

/// What a comparator decided about two images, with the figures behind it and a picture.
public struct ComparatorVerdict: Sendable, CustomStringConvertible {
    public let passed: Bool
    /// Pixels the comparator counts as different.
    public let differingPixels: Int
    public let pixelCount: Int
    /// The comparator's own account, one line.
    public let summary: String
    /// Where the images differ (the comparator's own picture: a heat map, or pixelmatch's).
    public let diffImage: Bitmap

    public var description: String { "\(passed ? "pass" : "FAIL"): \(summary)" }
}

/// A way to decide whether an actual image matches the expected one, named as Chromium's
/// `cc/test/pixel_comparator.h` names them (exact, off by one, fuzzy) plus pixelmatch's
/// perceptual comparison.
public protocol PixelComparator: Sendable {
    func compare(_ expected: Bitmap, _ actual: Bitmap) throws -> ComparatorVerdict
}

/// Every channel of every pixel equal (alpha too unless `discardAlpha`).
public struct ExactComparator: PixelComparator {
    public var discardAlpha: Bool
    public init(discardAlpha: Bool = false) { self.discardAlpha = discardAlpha }

    public func compare(_ expected: Bitmap, _ actual: Bitmap) throws -> ComparatorVerdict {
        try FuzzyComparator(maxDifferingFraction: 0, maxChannelDelta: 0, discardAlpha: discardAlpha)
            .verdict(expected, actual, name: "exact")
    }
}

/// Every channel within 1/255 (Chromium's FuzzyPixelOffByOneComparator): rounding differences
/// between machines pass, anything else fails.
public struct OffByOneComparator: PixelComparator {
    public var discardAlpha: Bool
    public init(discardAlpha: Bool = false) { self.discardAlpha = discardAlpha }

    public func compare(_ expected: Bitmap, _ actual: Bitmap) throws -> ComparatorVerdict {
        try FuzzyComparator(maxDifferingFraction: 0, maxChannelDelta: 1, discardAlpha: discardAlpha)
            .verdict(expected, actual, name: "off by one")
    }
}

/// Chromium's FuzzyPixelComparator: a pixel differs when a channel is off by more than
/// `tolerance`; the images match while the differing pixels are at most `maxDifferingFraction` of
/// the compared ones and no channel is off by more than `maxChannelDelta`. A `border` of pixels
/// around the edges is left out (edges of a frame are where rendering differs most).
public struct FuzzyComparator: PixelComparator {
    public var maxDifferingFraction: Double
    public var maxChannelDelta: Int
    public var tolerance: Int
    public var border: Int
    public var discardAlpha: Bool

    public init(maxDifferingFraction: Double, maxChannelDelta: Int = 255, tolerance: Int? = nil, border: Int = 0,
                discardAlpha: Bool = false) {
        self.maxDifferingFraction = maxDifferingFraction
        self.maxChannelDelta = maxChannelDelta
        self.tolerance = tolerance ?? (maxDifferingFraction == 0 ? maxChannelDelta : 0)
        self.border = border
        self.discardAlpha = discardAlpha
    }

    public func compare(_ expected: Bitmap, _ actual: Bitmap) throws -> ComparatorVerdict {
        try verdict(expected, actual, name: "fuzzy")
    }

    func verdict(_ expected: Bitmap, _ actual: Bitmap, name: String) throws -> ComparatorVerdict {
        guard expected.width == actual.width, expected.height == actual.height else {
            throw ComparisonError.sizeMismatch(expected: "\(expected.width)x\(expected.height)",
                                               actual: "\(actual.width)x\(actual.height)")
        }
        let width = expected.width, height = expected.height
        let channels = discardAlpha ? 3 : 4
        var differing = 0, largest = 0, compared = 0
        var picture = [UInt8](repeating: 0, count: width * height * 4)
        for y in border..<max(border, height - border) {
            for x in border..<max(border, width - border) {
                compared += 1
                let i = (y * width + x) * 4
                var delta = 0
                for c in 0..<channels { delta = max(delta, abs(Int(expected.pixels[i + c]) - Int(actual.pixels[i + c]))) }
                largest = max(largest, delta)
                if delta > tolerance { differing += 1 }
                // Heat: gray for equal, yellow to red as the difference grows.
                let heat = UInt8(min(255, delta * 8))
                picture[i] = delta == 0 ? 60 : 255
                picture[i + 1] = delta == 0 ? 60 : 255 - heat
                picture[i + 2] = delta == 0 ? 60 : 0
                picture[i + 3] = 255
            }
        }
        let fraction = Double(differing) / Double(max(compared, 1))
        let passed = fraction <= maxDifferingFraction && largest <= maxChannelDelta
        let summary = String(format: "%@: %d of %d pixels differ by more than %d (%.4f%%, limit %.4f%%), largest channel difference %d (limit %d)%@",
                             name, differing, compared, tolerance, fraction * 100, maxDifferingFraction * 100, largest, maxChannelDelta,
                             border > 0 ? ", \(border)-pixel border left out" : "")
        return ComparatorVerdict(passed: passed, differingPixels: differing, pixelCount: compared, summary: summary,
                                 diffImage: Bitmap(width: width, height: height, pixels: picture))
    }
}

/// pixelmatch's perceptual comparison as a comparator: passes while at most `maxDifferingPixels`
/// pixels differ at `threshold` (anti-aliasing not counted unless `includeAntialiasing`).
public struct PixelmatchComparator: PixelComparator {
    public var threshold: Double
    public var includeAntialiasing: Bool
    public var maxDifferingPixels: Int

    public init(threshold: Double = 0.1, includeAntialiasing: Bool = false, maxDifferingPixels: Int = 0) {
        self.threshold = threshold
        self.includeAntialiasing = includeAntialiasing
        self.maxDifferingPixels = maxDifferingPixels
    }

    public func compare(_ expected: Bitmap, _ actual: Bitmap) throws -> ComparatorVerdict {
        let report = try Pixelmatch.compare(expected, actual, threshold: threshold, includeAntialiasing: includeAntialiasing)
        return ComparatorVerdict(passed: report.differingPixels <= maxDifferingPixels, differingPixels: report.differingPixels,
                                 pixelCount: report.width * report.height,
                                 summary: "pixelmatch: \(report) (limit \(maxDifferingPixels))", diffImage: report.diffImage)
    }
}
