#if os(Linux)
import Foundation
import OpenQuartzCore
import PixelDiff

extension Diffing where Value == CGImage {
    /// A pixel-diffing strategy for images which requires a 100% match.
    public static var image: Diffing { .image() }

    /// A pixel-diffing strategy for images, as the library's `Diffing<UIImage>.image` on Apple's
    /// platforms: `precision` is the share of pixels that must match and `perceptualPrecision`
    /// how alike a pixel must look (Core Image's Lab ΔE up to `(1 - perceptualPrecision) * 100`;
    /// 0.98 to 0.99 is about what an eye tells apart).
    ///
    /// OpenQuartz's extras: `comparator` replaces the library's comparison with one of PixelDiff's
    /// (FLIP, pixelmatch, CIEDE2000, fuzzy, ...); the precisions are then not read. On a failure,
    /// beside the library's `reference.png`, `failure.png` and `difference.png` attachments, the
    /// expected | difference | actual triptych and the differing pixels in red over gray are
    /// attached too, and all five are written to the artifacts folder (`SNAPSHOT_ARTIFACTS`), whose
    /// paths the failure message names, since on Linux the library attaches nothing.
    public static func image(precision: Float = 1, perceptualPrecision: Float = 1,
                             comparator: (any PixelComparator)? = nil) -> Diffing {
        .diff(
            toData: { image in (try? image.pngData()) ?? Data() },
            // An unreadable reference is reported as not loaded (the library's own wording) rather
            // than crashing the test run.
            fromData: { data in (try? CGImage.decodePNG(data, source: "the reference")) ?? MissingImage.unreadableReference }
        ) { reference, new in
            let failure: String
            let verdict: ComparatorVerdict?
            if let comparator {
                if reference === MissingImage.unreadableReference || new === MissingImage.emptySnapshot {
                    (failure, verdict) = (reference === MissingImage.unreadableReference
                                          ? "Reference image could not be loaded." : "Newly-taken snapshot is empty.", nil)
                } else {
                    do {
                        let result = try comparator.compare(reference.bitmap, new.bitmap)
                        if result.passed { return nil }
                        (failure, verdict) = (result.summary, result)
                    } catch {
                        (failure, verdict) = ("\(error)", nil)
                    }
                }
            } else {
                guard let message = LibraryImageComparison.failure(reference: reference, new: new, precision: precision,
                                                            perceptualPrecision: perceptualPrecision) else { return nil }
                let sameSize = reference.width == new.width && reference.height == new.height
                    && reference !== MissingImage.unreadableReference && new !== MissingImage.emptySnapshot
                let library = CIEDE2000Comparator(precision: Double(precision), perceptualPrecision: Double(min(perceptualPrecision, 1)),
                                                  formula: .coreImage)
                (failure, verdict) = (message, sameSize ? try? library.compare(reference.bitmap, new.bitmap) : nil)
            }
            let pictures = FailurePictures(reference: reference, new: new, verdict: verdict)
            return (failure + pictures.writtenNote(), pictures.attachments)
        }
    }
}
#endif
