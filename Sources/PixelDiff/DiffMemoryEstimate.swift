import Foundation

// What comparing two images costs in memory, known from their headers before either is decoded,
// so `quartz diff` can refuse a pair that would not fit rather than be killed half way (two
// allowed 16384 x 16384 PNGs took 3.2 GB with the bar, 4.2 GB with CIEDE2000, over 5 GB with FLIP).
//
// Measured with `/usr/bin/time -v quartz diff` on a pair of 4096 x 4096 PNGs (release build),
// peak resident bytes per pixel of the larger image: the two decoded images are 8; the bar,
// exact, off-by-one and fuzzy comparators add 1.6; CIEDE2000 and pixelmatch 5.6; FLIP 94 (its
// filtered opponent planes, 4-byte floats each); a picture (heat map, diff image, mask) 4 more
// while it is drawn and encoded, a triptych (three images wide) 16. Pictures are drawn one after
// another, after the comparison's own memory is gone, so the largest of them counts, not their
// sum. The file's bytes are held while it decodes.

/// The memory a comparison of two images of `pixels` (the larger's) will take at its peak.
public enum DiffMemoryEstimate {
    /// Bytes per pixel of the two decoded images.
    public static let imagesBytesPerPixel = 8.0
    /// Per picture asked for (heat map, diff image, mask) and for a triptych.
    public static let pictureBytesPerPixel = 4.0
    public static let triptychBytesPerPixel = 16.0

    /// Peak bytes: the images, then the larger of the comparator's working memory and the
    /// largest picture asked for, plus the files while they are read.
    public static func bytes(pixels: Int, comparator: PixelComparator, pictures: Bool, triptych: Bool, fileBytes: Int) -> Double {
        let picture = triptych ? triptychBytesPerPixel : pictures ? pictureBytesPerPixel : 0
        return Double(pixels) * (imagesBytesPerPixel + max(comparator.workingBytesPerPixel, picture)) + Double(fileBytes)
    }
}

extension PixelComparator {
    /// Bytes per pixel the comparison holds beyond the two images (see DiffMemoryEstimate).
    public var workingBytesPerPixel: Double {
        switch self {
        case is FLIPComparator: 94
        case is CIEDE2000Comparator, is PixelmatchComparator: 5.6
        default: 1.6
        }
    }
}
