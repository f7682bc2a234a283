import Foundation
import OpenQuartzCore
import OpenQuartzCore

/// PNG, JPEG and GIF decoding (libpng, libjpeg-turbo and giflib behind our checks): any bytes
/// are frames whose pixel buffers match their sizes, or an error naming the source.
func fuzzImageDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    do {
        for frame in try ImageDecoder.decode(bytes, source: "fuzz") {
            let bitmap = frame.image.bitmap
            precondition(bitmap.width > 0 && bitmap.height > 0 && bitmap.pixels.count == bitmap.width * bitmap.height * 4)
            precondition(bitmap.width * bitmap.height <= ImageLimits.maxPixelCount)
        }
    } catch {
        precondition(!"\(error)".isEmpty)
    }
    // Apple's entry points answer nil and keep the reason.
    if let source = CGImageSourceCreateWithData(bytes, nil) {
        for index in 0..<CGImageSourceGetCount(source) { _ = CGImageSourceCreateImageAtIndex(source, index, nil) }
    }
    return 0
}
