import OpenCoreGraphics

/// The running figures a comparator's verdict is made from, summed over rows: what lets two images
/// be compared a band of rows at a time (`BandedComparison`) with the verdict comparing them whole
/// gives. Each comparator uses the fields it needs.
public struct DiffTally: Equatable, Sendable {
    /// Pixels compared (a fuzzy comparator's border left out).
    public var compared = 0
    /// Pixels the comparator counts as different.
    public var differing = 0
    /// Pixels over the threshold but taken for anti-aliasing (pixelmatch).
    public var antialiased = 0
    /// Bytes that differ (ciede2000 at perceptual precision 1).
    public var differingBytes = 0
    /// Sums of the channel differences and of their squares (the bar's MAE and PSNR).
    public var absoluteSum = 0, squaredSum = 0
    /// The largest per-pixel figure: channel difference, ΔE00 or FLIP error.
    public var largest = 0.0
    /// The sum of the per-pixel figure, in row order (FLIP's mean).
    public var sum = 0.0

    public init() {}
}

/// A comparator's decision and its figures, without its pictures (a banded comparison draws
/// those band by band); `ComparatorVerdict` adds the pictures.
public struct Judgement: Sendable {
    public let passed: Bool
    public let comparator: String
    public let differingPixels: Int
    public let pixelCount: Int
    public let summary: String
    public let score: Double
}

/// A comparator whose figures are sums over rows, each row's depending on at most `contextRows`
/// rows above and below it: every comparator here. `compare` is `tally` over all rows, then
/// `judge`; `BandedComparison` calls the two over bands of rows read from the files.
public protocol RowComparator: PixelComparator {
    /// Rows above and below a row that its figures and pictures depend on (0: each row alone;
    /// pixelmatch's anti-aliasing test looks 2 rows away, FLIP's filters their radius).
    func contextRows(width: Int, height: Int) -> Int
    /// Adds `rows` of the two bands to `tally`. The bands are rows `firstRow...` of images
    /// `imageHeight` rows tall, with `contextRows` rows around `rows` where the image has them.
    func tally(_ expected: Bitmap, _ actual: Bitmap, rows: Range<Int>, firstRow: Int, imageHeight: Int,
               into tally: inout DiffTally) throws
    /// The verdict's figures from the tally of every row of a `width` x `height` pair.
    func judge(_ tally: DiffTally, width: Int, height: Int) -> Judgement
}

extension RowComparator {
    /// `tally` over every row of the two images.
    func tallyWhole(_ expected: Bitmap, _ actual: Bitmap) throws -> DiffTally {
        try ComparisonError.requireSameSize(expected, actual)
        var tally = DiffTally()
        try self.tally(expected, actual, rows: 0..<expected.height, firstRow: 0, imageHeight: expected.height, into: &tally)
        return tally
    }
}
