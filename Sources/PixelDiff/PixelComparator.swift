import Foundation
import OpenCoreGraphics

/// What a comparator decided about two images, with the figures behind it and its pictures.
///
/// The pictures are drawn when asked for, not during the comparison: a passing comparison of two
/// 4K frames costs a scan of the bytes and nothing more.
public struct ComparatorVerdict: Sendable, CustomStringConvertible {
    /// The decision and its figures (what a banded comparison gives without pictures).
    public let judgement: Judgement
    public var passed: Bool { judgement.passed }
    /// The comparator's name ("exact", "fuzzy", "ciede2000", "flip", ...).
    public var comparator: String { judgement.comparator }
    /// Pixels the comparator counts as different.
    public var differingPixels: Int { judgement.differingPixels }
    public var pixelCount: Int { judgement.pixelCount }
    /// The comparator's own account, one line.
    public var summary: String { judgement.summary }
    /// The comparator's main figure: the largest channel difference (exact, fuzzy), the share of
    /// matching pixels (ciede2000), the mean error (flip), the differing count (pixelmatch).
    public var score: Double { judgement.score }
    private let drawPicture: @Sendable () -> Bitmap
    private let drawMask: @Sendable () -> Bitmap

    public init(passed: Bool, comparator: String, differingPixels: Int, pixelCount: Int, summary: String, score: Double,
                picture: @escaping @Sendable () -> Bitmap, mask: @escaping @Sendable () -> Bitmap) {
        self.init(Judgement(passed: passed, comparator: comparator, differingPixels: differingPixels, pixelCount: pixelCount,
                            summary: summary, score: score), picture: picture, mask: mask)
    }

    public init(_ judgement: Judgement, picture: @escaping @Sendable () -> Bitmap, mask: @escaping @Sendable () -> Bitmap) {
        self.judgement = judgement
        drawPicture = picture
        drawMask = mask
    }

    /// Where the images differ, in the comparator's own picture: a heat map of the channel
    /// difference, of ΔE, FLIP's error map in magma, or pixelmatch's picture.
    public var diffImage: Bitmap { drawPicture() }
    /// The pixels the comparator counts as different in red over a faded gray copy of the
    /// expected image.
    public var diffMask: Bitmap { drawMask() }
    /// expected | `diffImage` | actual.
    public func triptych(expected: Bitmap, actual: Bitmap) -> Bitmap {
        Triptych.make(expected: expected, middle: diffImage, actual: actual)
    }

    public var description: String { "\(passed ? "pass" : "FAIL"): \(summary)" }
}

/// A way to decide whether an actual image matches the expected one, named as Chromium's
/// `cc/test/pixel_comparator.h` names them (exact, off by one, fuzzy), plus the perceptual ones:
/// CIEDE2000 with swift-snapshot-testing's precisions, pixelmatch, and NVIDIA's FLIP.
public protocol PixelComparator: Sendable {
    func compare(_ expected: Bitmap, _ actual: Bitmap) throws -> ComparatorVerdict
}

/// A comparator that is a fuzzy comparator with fixed settings under another name (exact, off by one).
protocol FuzzyBacked: RowComparator {
    var fuzzy: FuzzyComparator { get }
}

extension FuzzyBacked {
    public func compare(_ expected: Bitmap, _ actual: Bitmap) throws -> ComparatorVerdict { try fuzzy.compare(expected, actual) }
    public func contextRows(width: Int, height: Int) -> Int { 0 }
    public func tally(_ expected: Bitmap, _ actual: Bitmap, rows: Range<Int>, firstRow: Int, imageHeight: Int, into tally: inout DiffTally) throws {
        try fuzzy.tally(expected, actual, rows: rows, firstRow: firstRow, imageHeight: imageHeight, into: &tally)
    }
    public func judge(_ tally: DiffTally, width: Int, height: Int) -> Judgement { fuzzy.judge(tally, width: width, height: height) }
}

/// Every channel of every pixel equal (alpha too unless `discardAlpha`).
public struct ExactComparator: FuzzyBacked {
    public var discardAlpha: Bool
    public init(discardAlpha: Bool = false) { self.discardAlpha = discardAlpha }

    var fuzzy: FuzzyComparator {
        FuzzyComparator(maxDifferingFraction: 0, maxChannelDelta: 0, discardAlpha: discardAlpha, name: "exact")
    }
}

/// Every channel within 1/255 (Chromium's FuzzyPixelOffByOneComparator): rounding differences
/// between machines pass, anything else fails.
public struct OffByOneComparator: FuzzyBacked {
    public var discardAlpha: Bool
    public init(discardAlpha: Bool = false) { self.discardAlpha = discardAlpha }

    var fuzzy: FuzzyComparator {
        FuzzyComparator(maxDifferingFraction: 0, maxChannelDelta: 1, discardAlpha: discardAlpha, name: "off by one")
    }
}

/// Chromium's FuzzyPixelComparator: a pixel differs when a channel is off by more than
/// `tolerance`; the images match while the differing pixels are at most `maxDifferingFraction` of
/// the compared ones and no channel is off by more than `maxChannelDelta`. A `border` of pixels
/// around the edges is left out (edges of a frame are where rendering differs most).
public struct FuzzyComparator: RowComparator {
    public var maxDifferingFraction: Double
    public var maxChannelDelta: Int
    public var tolerance: Int
    public var border: Int
    public var discardAlpha: Bool
    /// "fuzzy", or the comparator this one stands for ("exact", "off by one").
    let name: String

    public init(maxDifferingFraction: Double, maxChannelDelta: Int = 255, tolerance: Int? = nil, border: Int = 0,
                discardAlpha: Bool = false) {
        self.init(maxDifferingFraction: maxDifferingFraction, maxChannelDelta: maxChannelDelta, tolerance: tolerance, border: border,
                  discardAlpha: discardAlpha, name: "fuzzy")
    }

    init(maxDifferingFraction: Double, maxChannelDelta: Int, tolerance: Int? = nil, border: Int = 0, discardAlpha: Bool, name: String) {
        self.maxDifferingFraction = maxDifferingFraction
        self.maxChannelDelta = maxChannelDelta
        self.tolerance = tolerance ?? (maxDifferingFraction == 0 ? maxChannelDelta : 0)
        self.border = border
        self.discardAlpha = discardAlpha
        self.name = name
    }

    public func compare(_ expected: Bitmap, _ actual: Bitmap) throws -> ComparatorVerdict {
        let judgement = judge(try tallyWhole(expected, actual), width: expected.width, height: expected.height)
        let width = expected.width
        let columns = border..<max(border, width - border), rows = border..<max(border, expected.height - border)
        let (tolerance, discardAlpha) = (tolerance, discardAlpha)
        return ComparatorVerdict(
            judgement,
            picture: { HeatMap.make(expected, actual, discardAlpha: discardAlpha) },
            mask: {
                DiffMask.make(expected: expected) { x, y in
                    columns.contains(x) && rows.contains(y)
                        && ChannelScan.delta(expected, actual, (y * width + x) * 4, discardAlpha: discardAlpha) > tolerance
                }
            })
    }

    /// The border's rows are left out at the image's top and bottom: a band's context is at
    /// least the border, so a band's own border rows are context (or the image's).
    public func contextRows(width: Int, height: Int) -> Int { border }

    public func tally(_ expected: Bitmap, _ actual: Bitmap, rows: Range<Int>, firstRow: Int, imageHeight: Int, into tally: inout DiffTally) throws {
        try ComparisonError.requireSameSize(expected, actual)
        let columns = border..<max(border, expected.width - border)
        let first = max(rows.lowerBound, border - firstRow), end = min(rows.upperBound, imageHeight - border - firstRow)
        guard first < end else { return }
        let scan = ChannelScan.run(expected, actual, columns: columns, rows: first..<end, tolerance: tolerance, discardAlpha: discardAlpha)
        tally.compared += columns.count * (end - first)
        tally.differing += scan.differing
        tally.largest = max(tally.largest, Double(scan.largest))
    }

    public func judge(_ tally: DiffTally, width: Int, height: Int) -> Judgement {
        let compared = tally.compared, largest = Int(tally.largest)
        let fraction = Double(tally.differing) / Double(max(compared, 1))
        let passed = fraction <= maxDifferingFraction && largest <= maxChannelDelta
        let summary = String(format: "%@: %d of %d pixels differ by more than %d (%.4f%%, limit %.4f%%), largest channel difference %d (limit %d)%@",
                             name, tally.differing, compared, tolerance, fraction * 100, maxDifferingFraction * 100, largest,
                             maxChannelDelta, border > 0 ? ", \(border)-pixel border left out" : "")
        return Judgement(passed: passed, comparator: name, differingPixels: tally.differing, pixelCount: compared, summary: summary,
                         score: Double(largest))
    }
}

extension Bitmap {
    /// Whether two bitmaps hold the same bytes (one memcmp).
    static func samePixels(_ a: Bitmap, _ b: Bitmap) -> Bool {
        a.width == b.width && a.height == b.height && a.pixels.withUnsafeBytes { pa in
            b.pixels.withUnsafeBytes { pb in memcmp(pa.baseAddress!, pb.baseAddress!, pa.count) == 0 }
        }
    }
}

/// The scan under the channel comparators: rows that are byte-for-byte equal are passed over with
/// `memcmp`, so identical images cost a memory read (several Gpx/s).
enum ChannelScan {
    struct Result { var differing = 0, largest = 0 }

    static func run(_ expected: Bitmap, _ actual: Bitmap, columns: Range<Int>, rows: Range<Int>, tolerance: Int,
                    discardAlpha: Bool) -> Result {
        var result = Result()
        guard !columns.isEmpty else { return result }
        let rowBytes = expected.width * 4
        expected.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                let pa = a.baseAddress!, pb = b.baseAddress!
                let first = columns.lowerBound * 4, length = columns.count * 4
                let block = 64 // 16 pixels: blocks that are equal are passed over whole
                for y in rows {
                    let start = y * rowBytes + first, end = start + length
                    if memcmp(pa + start, pb + start, length) == 0 { continue }
                    var blockStart = start
                    while blockStart < end {
                        let blockEnd = min(blockStart + block, end)
                        if memcmp(pa + blockStart, pb + blockStart, blockEnd - blockStart) != 0 {
                            var i = blockStart
                            while i < blockEnd {
                                if UnsafeRawPointer(pa + i).loadUnaligned(as: UInt32.self) != UnsafeRawPointer(pb + i).loadUnaligned(as: UInt32.self) {
                                    let d = delta(pa, pb, i, discardAlpha: discardAlpha)
                                    result.largest = max(result.largest, d)
                                    if d > tolerance { result.differing += 1 }
                                }
                                i += 4
                            }
                        }
                        blockStart = blockEnd
                    }
                }
            }
        }
        return result
    }

    static func delta(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ i: Int, discardAlpha: Bool) -> Int {
        var d = max(abs(Int(a[i]) - Int(b[i])), abs(Int(a[i + 1]) - Int(b[i + 1])), abs(Int(a[i + 2]) - Int(b[i + 2])))
        if !discardAlpha { d = max(d, abs(Int(a[i + 3]) - Int(b[i + 3]))) }
        return d
    }

    static func delta(_ a: Bitmap, _ b: Bitmap, _ i: Int, discardAlpha: Bool) -> Int {
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in delta(pa.baseAddress!, pb.baseAddress!, i, discardAlpha: discardAlpha) }
        }
    }
}

/// pixelmatch's perceptual comparison as a comparator: passes while at most `maxDifferingPixels`
/// pixels differ at `threshold` (anti-aliasing not counted unless `includeAntialiasing`).
public struct PixelmatchComparator: RowComparator {
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
        var tally = DiffTally()
        (tally.compared, tally.differing, tally.antialiased) = (report.width * report.height, report.differingPixels, report.antialiasedPixels)
        return ComparatorVerdict(
            judge(tally, width: report.width, height: report.height),
            picture: { report.diffImage },
            mask: {
                // pixelmatch's own picture marks the counted pixels pure red.
                let picture = report.diffImage
                return DiffMask.make(expected: expected) { x, y in picture[x, y] == (255, 0, 0, 255) }
            })
    }

    /// Its anti-aliasing test looks at a pixel's neighbours and theirs: 2 rows each way.
    public func contextRows(width: Int, height: Int) -> Int { 2 }

    public func tally(_ expected: Bitmap, _ actual: Bitmap, rows: Range<Int>, firstRow: Int, imageHeight: Int, into tally: inout DiffTally) throws {
        let report = try Pixelmatch.compare(expected, actual, threshold: threshold, includeAntialiasing: includeAntialiasing, rows: rows)
        tally.compared += report.width * rows.count
        tally.differing += report.differingPixels
        tally.antialiased += report.antialiasedPixels
    }

    public func judge(_ tally: DiffTally, width: Int, height: Int) -> Judgement {
        let counts = "\(tally.differing) of \(tally.compared) pixels differ at threshold \(threshold) (\(tally.antialiased) anti-aliased pixels ignored)"
        return Judgement(passed: tally.differing <= maxDifferingPixels, comparator: "pixelmatch", differingPixels: tally.differing,
                         pixelCount: tally.compared, summary: "pixelmatch: \(counts) (limit \(maxDifferingPixels))",
                         score: Double(tally.differing))
    }
}
