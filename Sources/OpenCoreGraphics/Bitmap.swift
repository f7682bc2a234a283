import Synchronization
import Foundation

/// Pixels as every part of OpenQuartz exchanges them: 8-bit sRGB RGBA, premultiplied alpha, rows top
/// to bottom with no padding (`bytesPerRow == width * 4`).
///
/// A value type: the backends write into one, `CGImage` wraps one, PixelDiff reads two.
public struct Bitmap: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes, premultiplied RGBA.
    public var pixels: [UInt8]

    public var bytesPerRow: Int { width * 4 }

    /// A transparent bitmap. Sizes must be positive; callers that take sizes from outside check
    /// them first against `ImageLimits`.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "Bitmap size must be positive, got \(width)x\(height)")
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4,
                     "Bitmap of \(width)x\(height) needs \(width * height * 4) bytes, got \(pixels.count)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A bitmap filled by a function of the pixel (x, y) returning premultiplied RGBA.
    public init(width: Int, height: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) {
        self.init(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b, a) = pixel(x, y)
                let i = (y * width + x) * 4
                pixels[i] = r; pixels[i + 1] = g; pixels[i + 2] = b; pixels[i + 3] = a
            }
        }
    }

    /// The premultiplied RGBA of pixel (x, y).
    public subscript(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

/// Limits on images taken from outside (decoded files, requested render sizes), so that a hostile
/// header cannot make us allocate gigabytes. 2^28 pixels is a 1 GiB RGBA bitmap.
public enum ImageLimits {
    /// Longest side, in pixels, of any decoded or rendered image. Default: 32768. Settable for the
    /// whole process (a server lowers it to bound the memory one request may take).
    public static var maxDimension: Int {
        get { current.withLock { $0.maxDimension } }
        set { current.withLock { $0.maxDimension = max(newValue, 1) } }
    }
    /// Largest pixel count of any decoded or rendered image. Default: 2^28 (268,435,456: 1 GiB
    /// of RGBA). Settable for the whole process.
    public static var maxPixelCount: Int {
        get { current.withLock { $0.maxPixelCount } }
        set { current.withLock { $0.maxPixelCount = max(newValue, 1) } }
    }

    public static let defaultMaxDimension = 32_768
    public static let defaultMaxPixelCount = 1 << 28

    private static let current = Mutex((maxDimension: defaultMaxDimension, maxPixelCount: defaultMaxPixelCount))

    /// nil when `width` x `height` is allowed, else the reason it is not.
    public static func violation(width: Int, height: Int) -> String? {
        let (maxDimension, maxPixelCount) = current.withLock { ($0.maxDimension, $0.maxPixelCount) }
        if width <= 0 || height <= 0 { return "size \(width)x\(height) is empty or negative" }
        if width > maxDimension || height > maxDimension {
            return "size \(width)x\(height) exceeds the \(maxDimension)-pixel side limit"
        }
        if width.multipliedReportingOverflow(by: height).overflow || width * height > maxPixelCount {
            return "size \(width)x\(height) exceeds the \(maxPixelCount)-pixel limit"
        }
        return nil
    }
}
