import Foundation
import OpenQuartzCore
import OpenQuartzCore

/// Where the row reader reads the input from (it takes a path): one file per fuzzing process.
private let rowsFile = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-image-rows-\(getpid()).png")

/// PNG, JPEG and GIF decoding (libpng, libjpeg-turbo and giflib behind our checks): any bytes
/// are frames whose pixel buffers match their sizes, or an error naming the source. The same bytes
/// read a row at a time (`ImageRows`, what `quartz diff` compares with) give the whole decoder's
/// pixels wherever both read them, or an error naming the file.
func fuzzImageDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    var whole: Bitmap?
    do {
        for frame in try ImageDecoder.decode(bytes, source: "fuzz") {
            let bitmap = frame.image.bitmap
            precondition(bitmap.width > 0 && bitmap.height > 0 && bitmap.pixels.count == bitmap.width * bitmap.height * 4)
            precondition(bitmap.width * bitmap.height <= ImageLimits.maxPixelCount)
            whole = whole ?? bitmap
        }
    } catch {
        precondition(!"\(error)".isEmpty)
    }
    if (try? bytes.write(to: rowsFile)) != nil {
        do {
            let rows = try ImageRows(path: rowsFile.path)
            var pixels = [UInt8](repeating: 0, count: rows.width * rows.height * 4)
            try pixels.withUnsafeMutableBufferPointer { buffer in
                for y in 0..<rows.height { try rows.read(into: buffer.baseAddress! + y * rows.width * 4) }
            }
            if let whole { precondition(rows.width == whole.width && rows.height == whole.height && pixels == whole.pixels) }
        } catch {
            precondition("\(error)".contains(rowsFile.path))
        }
    }
    // Apple's entry points answer nil and keep the reason.
    if let source = CGImageSourceCreateWithData(bytes, nil) {
        for index in 0..<CGImageSourceGetCount(source) { _ = CGImageSourceCreateImageAtIndex(source, index, nil) }
    }
    return 0
}
