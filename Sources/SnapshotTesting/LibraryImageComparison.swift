#if os(Linux)
import Foundation
import OpenQuartzCore
import PixelDiff

/// swift-snapshot-testing's image comparison, as it reads on Apple's platforms: identical bytes
/// match; otherwise, with both precisions 1, nothing else does; with `perceptualPrecision` below 1
/// a pixel matches when Core Image's Lab ΔE (ΔE94) is at most `(1 - perceptualPrecision) * 100`
/// and the image when at least `precision` of its pixels match; with only `precision` below 1,
/// when at most `1 - precision` of the RGBA bytes (premultiplied) differ. The messages are the
/// library's, word for word, so a failure reads as it does on a Mac.
enum LibraryImageComparison {
    /// The failure message, or nil when `new` matches `reference`.
    static func failure(reference: CGImage, new: CGImage, precision: Float, perceptualPrecision: Float) -> String? {
        if reference === MissingImage.unreadableReference { return "Reference image could not be loaded." }
        if new === MissingImage.emptySnapshot { return "Newly-taken snapshot is empty." }
        guard reference.width == new.width, reference.height == new.height else {
            return "Newly-taken snapshot@\(size(of: new)) does not match reference@\(size(of: reference))."
        }
        if reference.bitmap.pixels == new.bitmap.pixels { return nil }
        if precision >= 1, perceptualPrecision >= 1 { return "Newly-taken snapshot does not match reference." }
        // The counts are PixelDiff's comparator's (Core Image's ΔE94 over the threshold, or the
        // differing bytes at perceptual precision 1); the verdict and its words the library's.
        let counter = CIEDE2000Comparator(precision: Double(precision), perceptualPrecision: Double(perceptualPrecision), formula: .coreImage)
        var tally = DiffTally()
        try? counter.tally(reference.bitmap, new.bitmap, rows: 0..<new.height, firstRow: 0, imageHeight: new.height, into: &tally)
        if perceptualPrecision < 1 {
            let actualPixelPrecision = 1 - Float(tally.differing) / Float(tally.compared)
            guard actualPixelPrecision < precision else { return nil }
            let minimumPerceptualPrecision = 1 - min(Float(tally.largest) / 100, 1)
            return """
                The percentage of pixels that match \(actualPixelPrecision) is less than required \(precision)
                The lowest perceptual color precision \(minimumPerceptualPrecision) is less than required \(perceptualPrecision)
                """
        }
        let byteCount = reference.bitmap.pixels.count
        guard tally.differingBytes > Int((1 - precision) * Float(byteCount)) else { return nil }
        let actualPrecision = 1 - Float(tally.differingBytes) / Float(byteCount)
        return "Actual image precision \(actualPrecision) is less than required \(precision)"
    }

    /// The size as Apple's message prints an image's `size` (a CGSize: "(12.0, 10.0)"), in pixels.
    private static func size(of image: CGImage) -> String { "(\(Double(image.width)), \(Double(image.height)))" }
}
#endif
