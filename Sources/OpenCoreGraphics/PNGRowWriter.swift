import CPNGRows
import Foundation

/// A PNG written a row at a time to an open file descriptor (8-bit RGBA, sRGB): a picture as
/// large as the images compared, without holding it whole. Rows are given premultiplied, as
/// bitmaps hold them, and written straight, as `CGImage.pngData()` writes them: the same pixels.
public final class PNGRowWriter {
    public let width: Int
    public let height: Int
    /// Where the rows go, for error messages (the path the user named).
    public let destination: String
    public private(set) var rowsWritten = 0

    private var writer: OpaquePointer?
    private let straight: UnsafeMutablePointer<UInt8>

    /// Writes the PNG's header to `fd`; the size is checked against `ImageLimits`.
    public init(fd: Int32, width: Int, height: Int, destination: String) throws {
        try ImageLimits.check(width: width, height: height, source: destination)
        var message = [CChar](repeating: 0, count: 256)
        guard let opened = oq_png_row_writer_open(fd, UInt32(width), UInt32(height), &message, message.count) else {
            throw ImageIOError.unwritable(destination: destination, reason: ImageRows.text(message))
        }
        (self.width, self.height, self.destination, writer) = (width, height, destination, opened)
        straight = .allocate(capacity: width * 4)
    }

    deinit {
        oq_png_row_writer_abandon(writer)
        straight.deallocate()
    }

    /// Writes the next row (`width * 4` bytes, premultiplied RGBA).
    public func write(row: UnsafePointer<UInt8>) throws {
        guard let writer, rowsWritten < height else {
            throw ImageIOError.unwritable(destination: destination, reason: "more rows than its \(height)")
        }
        let bytes = width * 4
        straight.update(from: row, count: bytes)
        var i = 0
        while i < bytes {
            let alpha = UInt16(straight[i + 3])
            if alpha != 255 {
                for c in 0..<3 { straight[i + c] = alpha == 0 ? 0 : UInt8(min(255, (UInt16(straight[i + c]) * 255 + alpha / 2) / alpha)) }
            }
            i += 4
        }
        var message = [CChar](repeating: 0, count: 256)
        guard oq_png_row_writer_write(writer, straight, &message, message.count) == 0 else {
            throw ImageIOError.unwritable(destination: destination, reason: ImageRows.text(message))
        }
        rowsWritten += 1
    }

    /// Ends the file after its last row.
    public func finish() throws {
        guard let writer, rowsWritten == height else {
            throw ImageIOError.unwritable(destination: destination, reason: "\(rowsWritten) of its \(height) rows were written")
        }
        self.writer = nil // freed by the call, whatever it returns
        var message = [CChar](repeating: 0, count: 256)
        guard oq_png_row_writer_finish(writer, &message, message.count) == 0 else {
            throw ImageIOError.unwritable(destination: destination, reason: ImageRows.text(message))
        }
    }
}

extension CGImage {
    /// Writes a `width` x `height` PNG to `url` through `OutputFile`'s atomic writer, its rows
    /// drawn by `draw` into the writer it is given.
    public static func writePNG(width: Int, height: Int, to url: URL, links: OutputFile.Links,
                                rows draw: (PNGRowWriter) throws -> Void) throws {
        do {
            try OutputFile.write(to: url.path, links: links) { fd in
                let writer = try PNGRowWriter(fd: fd, width: width, height: height, destination: url.path)
                try draw(writer)
                try writer.finish()
            }
        } catch let error as OutputFileError {
            throw ImageIOError.unwritable(destination: url.path, reason: error.reason)
        }
    }
}
