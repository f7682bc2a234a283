import Foundation

// What comparing two images costs in memory, known from their headers before a pixel is decoded,
// so `quartz diff` can refuse a pair that would not fit rather than be killed half way.
//
// `quartz diff` compares two files band by band (`BandedComparison`): a plain PNG (8 bits a
// channel or fewer, not interlaced, sRGB) is read a row at a time, so the pair's memory is a band
// of rows of each, the comparator's working memory over the band and a picture's band, whatever
// the images' height; any other file (an interlaced or 16-bit PNG, GIF, JPEG) is decoded whole,
// 4 bytes a pixel, plus its file's bytes while it decodes. `--repeats` times comparisons of
// decoded images and holds both whole.
//
// Measured with `/usr/bin/time -v quartz diff` on a pair of 4096 x 4096 PNGs decoded whole
// (release build), peak resident bytes per pixel of the larger image: the two decoded images are
// 8; the bar, exact, off-by-one and fuzzy comparators add 1.6; CIEDE2000 and pixelmatch 5.6; FLIP
// 94 (its filtered opponent planes, 4-byte floats each); a picture (heat map, diff image, mask) 4
// more while it is drawn and encoded, a triptych (three images wide) 16. The same figures apply
// to a band's pixels.

/// The memory a comparison of two images will take at its peak.
public enum DiffMemoryEstimate {
    /// Bytes per pixel of the two decoded images.
    public static let imagesBytesPerPixel = 8.0
    /// Per picture asked for (heat map, diff image, mask) and for a triptych.
    public static let pictureBytesPerPixel = 4.0
    public static let triptychBytesPerPixel = 16.0

    /// Peak bytes of comparing two decoded images of `pixels` (the larger's): the images, then the
    /// larger of the comparator's working memory and the largest picture asked for, plus the files
    /// while they are read.
    public static func bytes(pixels: Int, comparator: PixelComparator, pictures: Bool, triptych: Bool, fileBytes: Int) -> Double {
        let picture = triptych ? triptychBytesPerPixel : pictures ? pictureBytesPerPixel : 0
        return Double(pixels) * (imagesBytesPerPixel + max(comparator.workingBytesPerPixel, picture)) + Double(fileBytes)
    }

    /// Peak bytes of comparing two image files band by band: the files that cannot stream
    /// (`wholeImages` of the two, `wholeFileBytes` their bytes) decoded whole, and the largest band
    /// of the comparison and of the pictures asked for.
    public static func bandedBytes(width: Int, height: Int, comparator: RowComparator, pictures: [BandedComparison.Picture],
                                   wholeImages: Int, wholeFileBytes: Int) -> Double {
        let bands = ([nil] + pictures.map { Optional($0) }).map {
            BandedComparison.bandBytes(width: width, height: height, comparator: comparator, picture: $0)
        }
        return Double(wholeImages * width * height * 4 + wholeFileBytes) + bands.max()!
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
