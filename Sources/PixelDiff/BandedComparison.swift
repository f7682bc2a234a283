import Foundation
import OpenCoreGraphics

// Two image files compared a band of rows at a time: the comparison holds the band's rows of both
// images (and the comparator's working memory for them), never the images whole, so `quartz diff`
// of two 16384 x 16384 PNGs takes megabytes where decoding them took gigabytes.
//
// Each band is `bandRows` rows with the comparator's `contextRows` above and below it where the
// image has them; the comparator's figures are tallied over the band's own rows only, and its
// pictures are cropped to them. Every comparator's rows depend on no more than that context, so
// the figures, the summary and every picture's pixels are those of comparing the images whole
// (`BandedComparisonTests` holds them equal, band by band against whole, for every comparator).

/// A pair of image files compared band by band.
public enum BandedComparison {
    /// The fewest rows a band holds besides its context: a band of a 16384-wide image is 2 MiB
    /// an image.
    public static let bandRows = 32

    /// The pictures a comparison can write.
    public enum Picture: Sendable {
        /// The channel heat map (whatever the comparator).
        case heatMap
        /// The comparator's own picture (`ComparatorVerdict.diffImage`).
        case diffImage
        /// The differing pixels in red over gray (`ComparatorVerdict.diffMask`).
        case diffMask
        /// expected | the comparator's picture | actual.
        case triptych
        /// The expected or the actual image itself (a report's copies).
        case expected, actual
    }

    /// Rows per band for a comparator's context: eight times the context, so the rows drawn twice
    /// (as one band's context and the next one's rows) are a quarter of the work at most. FLIP at
    /// its default 67 pixels per degree has a context of 9 rows: bands of 72 rows with 90 held,
    /// about 8.5 KB of its working memory per pixel of width (4 bytes a pixel of an image 2,100
    /// rows tall; a fraction of one for taller images).
    static func rowsPerBand(context: Int) -> Int { max(bandRows, 8 * context) }

    /// A comparator's context for an image `height` rows tall: never more than the image (a fuzzy
    /// border may be any number).
    static func clampedContext(of comparator: RowComparator, width: Int, height: Int) -> Int {
        min(max(comparator.contextRows(width: width, height: height), 0), height)
    }

    /// Peak bytes of comparing a `width`-wide pair band by band besides any image decoded whole:
    /// both images' band rows, the comparator's working memory over them, and a picture's band.
    public static func bandBytes(width: Int, height: Int, comparator: RowComparator, picture: Picture?) -> Double {
        let context = clampedContext(of: comparator, width: width, height: height)
        let rows = min(height, rowsPerBand(context: context) + 2 * context)
        let pictureBytes: Double = switch picture {
        case nil: 0
        case .triptych?: DiffMemoryEstimate.triptychBytesPerPixel
        case .heatMap?, .diffImage?, .diffMask?, .expected?, .actual?: DiffMemoryEstimate.pictureBytesPerPixel
        }
        return Double(width * rows) * (DiffMemoryEstimate.imagesBytesPerPixel + comparator.workingBytesPerPixel + pictureBytes)
    }

    /// The comparator's figures over two image files, read a band at a time.
    public static func compare(expected: String, actual: String, with comparator: RowComparator) throws -> Outcome {
        let (a, b) = try open(expected, actual)
        var tally = DiffTally()
        try forEachBand(a, b, context: clampedContext(of: comparator, width: a.width, height: a.height)) { bandA, bandB, rows, firstRow in
            try comparator.tally(bandA, bandB, rows: rows, firstRow: firstRow, imageHeight: a.height, into: &tally)
        }
        return Outcome(judgement: comparator.judge(tally, width: a.width, height: a.height), tally: tally, width: a.width, height: a.height)
    }

    /// A banded comparison's verdict, its figures and the images' size.
    public struct Outcome: Sendable {
        public let judgement: Judgement
        public let tally: DiffTally
        public let width: Int, height: Int
    }

    /// The width and height of a picture of a pair of images of this size (a triptych is three
    /// images wide, with gaps).
    public static func size(of picture: Picture, imageWidth: Int, imageHeight: Int) -> (width: Int, height: Int) {
        (picture == .triptych ? imageWidth * 3 + Triptych.gap * 2 : imageWidth, imageHeight)
    }

    /// Draws one of the comparison's pictures a band at a time into `writer` (of `size(of:)`).
    public static func draw(_ picture: Picture, expected: String, actual: String, comparator: RowComparator,
                            into writer: PNGRowWriter) throws {
        let (a, b) = try open(expected, actual)
        try draw(picture, a, b, comparator: comparator, into: writer)
    }

    static func draw(_ picture: Picture, _ a: ImageRows, _ b: ImageRows, comparator: RowComparator, into writer: PNGRowWriter) throws {
        let context = [.expected, .actual, .heatMap].contains(picture) ? 0 : clampedContext(of: comparator, width: a.width, height: a.height)
        try forEachBand(a, b, context: context) { bandA, bandB, rows, _ in
            let drawn: Bitmap = switch picture {
            case .expected: bandA
            case .actual: bandB
            case .heatMap: try HeatMap.make(expected: bandA, actual: bandB)
            case .diffImage: try comparator.compare(bandA, bandB).diffImage
            case .diffMask: try comparator.compare(bandA, bandB).diffMask
            case .triptych: try comparator.compare(bandA, bandB).triptych(expected: bandA, actual: bandB)
            }
            let rowBytes = drawn.width * 4
            try drawn.pixels.withUnsafeBufferPointer { pixels in
                for y in rows { try writer.write(row: pixels.baseAddress! + y * rowBytes) }
            }
        }
    }

    /// Writes one of the comparison's pictures to a file, atomically, drawn a band at a time from
    /// the files opened once.
    public static func write(_ picture: Picture, expected: String, actual: String, comparator: RowComparator,
                             to url: URL, links: OutputFile.Links) throws {
        let (a, b) = try open(expected, actual)
        let size = size(of: picture, imageWidth: a.width, imageHeight: a.height)
        try CGImage.writePNG(width: size.width, height: size.height, to: url, links: links) { writer in
            try draw(picture, a, b, comparator: comparator, into: writer)
        }
    }

    /// Both files opened, their sizes equal (or the error naming both sizes).
    static func open(_ expected: String, _ actual: String) throws -> (ImageRows, ImageRows) {
        let a = try ImageRows(path: expected), b = try ImageRows(path: actual)
        guard a.width == b.width, a.height == b.height else {
            throw ComparisonError.sizeMismatch(expected: "\(a.width)x\(a.height)", actual: "\(b.width)x\(b.height)")
        }
        return (a, b)
    }

    /// Calls `body` with each band of both images: bitmaps of the band with its context, the
    /// band's own rows within them, and the image row the bitmaps start at. Rows are read once;
    /// a band keeps the rows of the previous one that it needs as context.
    static func forEachBand(_ a: ImageRows, _ b: ImageRows, context: Int,
                            _ body: (Bitmap, Bitmap, Range<Int>, Int) throws -> Void) throws {
        let width = a.width, height = a.height, rowBytes = width * 4
        let band = rowsPerBand(context: context)
        var rowsA: [UInt8] = [], rowsB: [UInt8] = []
        let blankRow = [UInt8](repeating: 0, count: rowBytes)
        var windowStart = 0, loaded = 0
        var bandStart = 0
        while bandStart < height {
            let bandEnd = min(height, bandStart + band)
            let needed = max(0, bandStart - context)..<min(height, bandEnd + context)
            let dropped = needed.lowerBound - windowStart
            if dropped > 0 {
                rowsA.removeFirst(dropped * rowBytes)
                rowsB.removeFirst(dropped * rowBytes)
                windowStart += dropped
                loaded -= dropped
            }
            func readRow(of file: ImageRows, into rows: inout [UInt8]) throws {
                let offset = rows.count
                rows.append(contentsOf: blankRow) // an array: one copy, where a generic repetition is a loop
                try rows.withUnsafeMutableBufferPointer { try file.read(into: $0.baseAddress! + offset) }
            }
            while windowStart + loaded < needed.upperBound {
                try readRow(of: a, into: &rowsA)
                try readRow(of: b, into: &rowsB)
                loaded += 1
            }
            try body(Bitmap(width: width, height: loaded, pixels: rowsA), Bitmap(width: width, height: loaded, pixels: rowsB),
                     (bandStart - windowStart)..<(bandEnd - windowStart), windowStart)
            bandStart = bandEnd
        }
    }
}
