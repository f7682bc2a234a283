import Foundation
import Synchronization

/// How an image stores alpha, with Core Graphics' raw values.
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none = 0, premultipliedLast, premultipliedFirst, last, first, noneSkipLast, noneSkipFirst, alphaOnly
}

/// An immutable bitmap image. OpenQuartz stores every image as premultiplied 8-bit sRGB RGBA
/// (`alphaInfo == .premultipliedLast`), whatever the file it came from.
public final class CGImage: Sendable, CustomStringConvertible {
    /// The pixels.
    public let bitmap: Bitmap
    /// A process-unique number, so renderers can cache the image's texture by identity.
    public let identifier: UInt64

    private static let nextIdentifier = Atomic<UInt64>(1)

    public init(bitmap: Bitmap) {
        self.bitmap = bitmap
        identifier = CGImage.nextIdentifier.add(1, ordering: .relaxed).oldValue
    }

    public var width: Int { bitmap.width }
    public var height: Int { bitmap.height }
    /// Always 8.
    public var bitsPerComponent: Int { 8 }
    /// Always 32.
    public var bitsPerPixel: Int { 32 }
    public var bytesPerRow: Int { bitmap.bytesPerRow }
    /// Always `.premultipliedLast`.
    public var alphaInfo: CGImageAlphaInfo { .premultipliedLast }

    /// The part of the image inside `rect` (in pixels, origin top left), or nil when they do not
    /// intersect. The rectangle is rounded outwards to whole pixels, as Core Graphics does.
    public func cropping(to rect: CGRect) -> CGImage? {
        guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return nil }
        let clipped = rect.standardized.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !clipped.isNull, !clipped.isEmpty else { return nil }
        let x0 = Int(clipped.minX.rounded(.down)), y0 = Int(clipped.minY.rounded(.down))
        let x1 = Int(clipped.maxX.rounded(.up)), y1 = Int(clipped.maxY.rounded(.up))
        var out = Bitmap(width: x1 - x0, height: y1 - y0)
        for row in 0..<(y1 - y0) {
            let src = ((y0 + row) * width + x0) * 4
            let dst = row * out.width * 4
            out.pixels.replaceSubrange(dst..<(dst + out.width * 4), with: bitmap.pixels[src..<(src + out.width * 4)])
        }
        return CGImage(bitmap: out)
    }

    public var description: String { "CGImage(\(width)x\(height), id \(identifier))" }
}
