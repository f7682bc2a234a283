#if os(Linux)
import Foundation
import OpenQuartzCore
import PixelDiff

extension Snapshotting where Value == CGImage, Format == CGImage {
    /// A snapshot strategy for comparing images based on pixel equality.
    public static var image: Snapshotting { .image() }

    /// A snapshot strategy for comparing images: `precision` is the share of pixels that must
    /// match, `perceptualPrecision` how alike a pixel must look (see `Diffing<CGImage>.image`);
    /// `comparator`, OpenQuartz's extra, compares with one of PixelDiff's comparators instead.
    public static func image(precision: Float = 1, perceptualPrecision: Float = 1,
                             comparator: (any PixelComparator)? = nil) -> Snapshotting {
        .init(pathExtension: "png",
              diffing: .image(precision: precision, perceptualPrecision: perceptualPrecision, comparator: comparator))
    }
}
#endif
