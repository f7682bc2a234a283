import CLibPNG
import Foundation

// PNG through libpng's simplified API (png_image_*): it reports errors through the image's message
// field instead of longjmp, which Swift cannot cross safely, and it handles every PNG colour type,
// bit depth, palette, tRNS and gamma conversion to 8-bit sRGB RGBA for us.

extension CGImage {
    /// Decodes PNG bytes. `source` names where they came from, for error messages.
    public static func decodePNG(_ data: Data, source: String = "<data>") throws -> CGImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let began = data.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
            return png_image_begin_read_from_memory(&image, base, bytes.count)
        }
        guard began != 0 else {
            throw ImageIOError.undecodable(source: source, reason: data.isEmpty ? "empty file" : message(of: &image))
        }
        let width = Int(image.width), height = Int(image.height)
        try ImageLimits.check(width: width, height: height, source: source)
        if let reason = implausibleSize(width: width, height: height, format: image.format, fileBytes: data.count) {
            throw ImageIOError.undecodable(source: source, reason: reason)
        }
        image.format = 3 // PNG_FORMAT_RGBA: 8-bit straight-alpha sRGB
        // PNG_IMAGE_FLAG_16BIT_sRGB: a 16-bit file without gAMA or sRGB chunks is sRGB-encoded, as
        // every other decoder (browsers, Pillow) reads it; libpng would otherwise take it as linear
        // and brighten it (16-bit gray 100 * 257 read as 167).
        image.flags |= 0x04
        var straight = [UInt8](repeating: 0, count: width * height * 4)
        let finished = data.withUnsafeBytes { _ in
            straight.withUnsafeMutableBytes { buffer in
                png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * 4), nil)
            }
        }
        guard finished != 0 else {
            throw ImageIOError.undecodable(source: source, reason: message(of: &image))
        }
        for i in stride(from: 0, to: straight.count, by: 4) {
            let alpha = UInt16(straight[i + 3])
            if alpha == 255 { continue }
            for c in 0..<3 { straight[i + c] = UInt8((UInt16(straight[i + c]) * alpha + 127) / 255) }
        }
        return CGImage(bitmap: Bitmap(width: width, height: height, pixels: straight))
    }

    /// Why a file of `fileBytes` cannot hold the `width` x `height` pixels its header claims, or nil.
    /// Deflate expands at most 1032 to 1, and a PNG's rows hold at least a filter byte and one bit
    /// a pixel (24 for colour without a palette), so a 74-byte file claiming 16384 x 16384 is
    /// refused before 1 GiB is allocated for its pixels.
    static func implausibleSize(width: Int, height: Int, format: UInt32, fileBytes: Int) -> String? {
        let colorFlag: UInt32 = 2, linearFlag: UInt32 = 4, colormapFlag: UInt32 = 8
        let trueColor = format & colorFlag != 0 && format & colormapFlag == 0
        return implausibleSize(width: width, height: height, bitsPerPixel: trueColor ? (format & linearFlag != 0 ? 48 : 24) : 1,
                               fileBytes: fileBytes)
    }

    /// The same check with the fewest bits a pixel the file's colour type can take.
    static func implausibleSize(width: Int, height: Int, bitsPerPixel: Int, fileBytes: Int) -> String? {
        let rawBytes = Double(height) * (1 + (Double(width) * Double(bitsPerPixel) / 8).rounded(.up))
        let mostExpanded = Double(fileBytes) * 1032 + 1024
        guard rawBytes > mostExpanded else { return nil }
        return "the file's \(fileBytes) bytes cannot hold the \(width)x\(height) pixels its header claims "
            + "(truncated, or a decompression bomb)"
    }

    /// Reads and decodes an image file (PNG, GIF or JPEG); errors name the file.
    public static func load(contentsOf url: URL) throws -> CGImage {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImageIOError.unreadable(source: url.path, reason: (error as NSError).localizedDescription)
        }
        // Whatever the file's format (PNG, GIF, JPEG, by its signature, not its name); an
        // animated GIF gives its first frame.
        return try ImageDecoder.decode(data, source: url.path)[0].image
    }

    /// How hard PNG writing compresses.
    public enum PNGCompression: String, CaseIterable, Sendable {
        /// libpng's defaults: adaptive row filters, zlib's default level. Single images, goldens.
        case small
        /// libpng's `PNG_IMAGE_FLAG_FAST` (no row filters, a low zlib level): about 3 to 5 times
        /// faster to write and 0 to 45% larger on this project's scenes (docs/performance.md);
        /// for frames of an animation that are read back or encoded again.
        case fast
    }

    /// PNG bytes of the image, straight alpha, 8 bits per channel. The same image and compression
    /// always give the same bytes; both decode to the same pixels.
    public func pngData(compression: PNGCompression = .small) throws -> Data {
        var straight = bitmap.pixels
        for i in stride(from: 0, to: straight.count, by: 4) {
            let alpha = UInt16(straight[i + 3])
            if alpha == 255 { continue }
            for c in 0..<3 {
                straight[i + c] = alpha == 0 ? 0 : UInt8(min(255, (UInt16(straight[i + c]) * 255 + alpha / 2) / alpha))
            }
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = 3 // PNG_FORMAT_RGBA
        if compression == .fast { image.flags = UInt32(PNG_IMAGE_FLAG_FAST) }
        defer { png_image_free(&image) }
        let rowStride = Int32(width * 4)
        // One compression pass into a buffer that holds any outcome (the raw rows, deflate's worst
        // case growth and the chunks around them); libpng says the size needed if it does not.
        var capacity = height * (width * 4 + 1) + height * (width * 4 + 1) / 1000 + 8192
        for _ in 0..<2 {
            var size = capacity
            var out = Data(count: size)
            let written = out.withUnsafeMutableBytes { target in
                straight.withUnsafeBytes { png_image_write_to_memory(&image, target.baseAddress, &size, 0, $0.baseAddress, rowStride, nil) }
            }
            if written != 0 { return out.prefix(size) }
            guard size > capacity else { break }
            capacity = size
            png_image_free(&image)
            image.opaque = nil
        }
        throw ImageIOError.unwritable(destination: "<memory>", reason: CGImage.message(of: &image))
    }

    /// Writes the image as PNG, atomically: a failed write leaves no partial file. `links`: whether
    /// the path is the user's own output (a link to a file is written through) or a file inside an
    /// output folder (a link there is refused; `OutputFile.write`).
    public func writePNG(to url: URL) throws { try writePNG(to: url, links: .followed) }

    public func writePNG(to url: URL, links: OutputFile.Links) throws {
        let data = try pngData()
        do { try OutputFile.write(data, to: url.path, links: links) } catch let error as OutputFileError {
            throw ImageIOError.unwritable(destination: url.path, reason: error.reason)
        }
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "unknown libpng error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}
