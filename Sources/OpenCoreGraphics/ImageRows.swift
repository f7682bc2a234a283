import CPNGRows
import Foundation

// An image file's rows one at a time, so a comparison of two images holds a band of rows, not
// two whole images (`quartz diff` of two 16384 x 16384 PNGs took 3.2 GB decoded whole).
//
// Plain PNGs (8 bits a channel or fewer, not interlaced, sRGB or no stated gamma: what OpenQuartz
// and most tools write) stream through libpng's row reader and give exactly the bytes `decodePNG`
// gives (`ImageRowsTests` holds them equal). Anything else (an interlaced or 16-bit PNG, a gamma
// to convert, GIF, JPEG) is decoded whole by `ImageDecoder` and its rows are read from memory:
// 4 bytes a pixel for that image, which `isStreamed` reports so callers can account for it.

/// The rows of an image file, top to bottom, as premultiplied RGBA (`width * 4` bytes each).
public final class ImageRows {
    public let width: Int
    public let height: Int
    /// The file, for error messages.
    public let source: String
    /// Whether rows are read from the file one at a time (false: the image is decoded and held).
    public var isStreamed: Bool { reader != nil }
    /// The rows read so far.
    public private(set) var rowsRead = 0

    private var reader: OpaquePointer?
    /// A file that does not stream: its bytes until the first row is read, then its pixels.
    private var fileData: Data?
    private var whole: Bitmap?

    /// Opens `path` and reads its header; the size is checked against `ImageLimits` and against
    /// what the file's bytes can hold before any row is read. Errors name the file.
    public init(path: String) throws {
        source = path
        var signature = [UInt8](repeating: 0, count: 8)
        if let handle = FileHandle(forReadingAtPath: path) {
            signature = [UInt8]((try? handle.read(upToCount: 8)) ?? Data())
            try? handle.close()
        }
        if signature == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            var info = oq_png_rows_info()
            var message = [CChar](repeating: 0, count: 256)
            guard let opened = oq_png_rows_open(path, &info, &message, message.count) else {
                throw ImageIOError.undecodable(source: path, reason: Self.text(message))
            }
            let (width, height) = (Int(info.width), Int(info.height))
            do {
                try ImageLimits.check(width: width, height: height, source: path)
                var status = stat()
                let fileBytes = stat(path, &status) == 0 ? Int(status.st_size) : 0
                let trueColor = info.color_type & 2 != 0 && info.color_type != 3
                if let reason = CGImage.implausibleSize(width: width, height: height, bitsPerPixel: trueColor ? 3 * max(Int(info.bit_depth), 8) : 1,
                                                        fileBytes: fileBytes) {
                    throw ImageIOError.undecodable(source: path, reason: reason)
                }
            } catch {
                oq_png_rows_close(opened)
                throw error
            }
            (self.width, self.height) = (width, height)
            if info.streamable != 0 {
                reader = opened
            } else {
                oq_png_rows_close(opened)
            }
            return
        }
        // Not a PNG (GIF, JPEG, or not an image: the decoder says which): its size from the
        // header; decoded at the first row.
        // An empty file says so (Foundation's reader leaked its 4 KiB buffer on one: the fuzz target's
        // LeakSanitizer found it).
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size == 0 {
            throw ImageIOError.undecodable(source: path, reason: "empty file")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ImageIOError.unreadable(source: path, reason: OutputFile.reason(error))
        }
        guard let size = ImageDecoder.dimensions(of: data) else {
            _ = try ImageDecoder.decode(data, source: path) // the decoder's own error
            throw ImageIOError.undecodable(source: path, reason: "no image size in its header")
        }
        try ImageLimits.check(width: size.width, height: size.height, source: path)
        (width, height, fileData) = (size.width, size.height, data)
    }

    deinit { oq_png_rows_close(reader) }

    /// Reads the next row into `row` (at least `width * 4` bytes), premultiplied RGBA.
    public func read(into row: UnsafeMutablePointer<UInt8>) throws {
        precondition(rowsRead < height, "\(source): all \(height) rows are read")
        defer { rowsRead += 1 }
        let bytes = width * 4
        if reader == nil && whole == nil {
            let image = try fileData.map { try ImageDecoder.decode($0, source: source)[0].image } ?? CGImage.load(contentsOf: URL(fileURLWithPath: source))
            fileData = nil
            guard image.width == width, image.height == height else {
                throw ImageIOError.undecodable(source: source, reason: "its header says \(width)x\(height) but it decodes to \(image.width)x\(image.height)")
            }
            whole = image.bitmap
        }
        if let whole {
            whole.pixels.withUnsafeBufferPointer { row.update(from: $0.baseAddress! + rowsRead * bytes, count: bytes) }
            return
        }
        var message = [CChar](repeating: 0, count: 256)
        guard oq_png_rows_read(reader, row, &message, message.count) == 0 else {
            throw ImageIOError.undecodable(source: source, reason: "row \(rowsRead + 1) of \(height): " + Self.text(message))
        }
        // Straight alpha to premultiplied, as decodePNG does it.
        var i = 0
        while i < bytes {
            let alpha = UInt16(row[i + 3])
            if alpha != 255 {
                for c in 0..<3 { row[i + c] = UInt8((UInt16(row[i + c]) * alpha + 127) / 255) }
            }
            i += 4
        }
    }

    static func text(_ message: [CChar]) -> String {
        let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return bytes.isEmpty ? "unknown libpng error" : String(decoding: bytes, as: UTF8.self)
    }
}
