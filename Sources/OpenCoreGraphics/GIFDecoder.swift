import CImageCodecs
import Foundation

/// GIF through giflib's record-by-record API (not DGifSlurp), so every frame's size is checked
/// before its raster is allocated. Frames are composited on a canvas the size of the logical
/// screen, honouring transparency and the disposal methods: keep, restore to background
/// (transparent, as browsers and Apple do), restore to previous.
enum GIFDecoder {
    /// The bytes being read, handed to giflib's read callback through `UserData`.
    private final class Reader {
        let bytes: [UInt8]
        var offset = 0
        init(_ data: Data) { bytes = [UInt8](data) }
    }

    static func decode(_ data: Data, source: String) throws -> [DecodedFrame] {
        let reader = Reader(data)
        let context = Unmanaged.passRetained(reader)
        defer { context.release() }
        var error: Int32 = 0
        let read: InputFunc = { gif, buffer, count in
            guard let gif, let user = gif.pointee.UserData, let buffer else { return 0 }
            let reader = Unmanaged<Reader>.fromOpaque(user).takeUnretainedValue()
            let n = max(0, min(Int(count), reader.bytes.count - reader.offset))
            reader.bytes.withUnsafeBufferPointer { src in
                if n > 0 { buffer.update(from: src.baseAddress! + reader.offset, count: n) }
            }
            reader.offset += n
            return Int32(n)
        }
        guard let gif = DGifOpen(context.toOpaque(), read, &error) else {
            throw ImageIOError.undecodable(source: source, reason: message(error))
        }
        defer { var closeError: Int32 = 0; DGifCloseFile(gif, &closeError) }
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        try ImageLimits.check(width: width, height: height, source: source, what: "logical screen ")
        // Allocated when the first frame has decoded: a header alone allocates nothing.
        var canvas: [UInt8] = []
        var frames: [DecodedFrame] = []
        var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
        var recordType = UNDEFINED_RECORD_TYPE
        records: repeat {
            guard DGifGetRecordType(gif, &recordType) == GIF_OK else {
                if !frames.isEmpty { break records } // a truncated animation keeps the frames it had
                throw ImageIOError.undecodable(source: source, reason: message(gif.pointee.Error))
            }
            switch recordType {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else {
                    throw ImageIOError.undecodable(source: source, reason: message(gif.pointee.Error))
                }
                if code == GRAPHICS_EXT_FUNC_CODE, let block {
                    DGifExtensionToGCB(Int(block[0]), block + 1, &control)
                }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else {
                        throw ImageIOError.undecodable(source: source, reason: message(gif.pointee.Error))
                    }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard frames.count < ImageDecoder.maxFrames else {
                    throw ImageIOError.tooLarge(source: source, reason: "more than \(ImageDecoder.maxFrames) frames")
                }
                guard (frames.count + 1) * width * height <= ImageDecoder.maxTotalPixels else {
                    throw ImageIOError.tooLarge(source: source,
                                                reason: "\(frames.count + 1) frames of \(width)x\(height) exceed \(ImageDecoder.maxTotalPixels) pixels")
                }
                guard DGifGetImageDesc(gif) == GIF_OK else {
                    throw ImageIOError.undecodable(source: source, reason: message(gif.pointee.Error))
                }
                let desc = gif.pointee.Image
                let fw = Int(desc.Width), fh = Int(desc.Height)
                try ImageLimits.check(width: fw, height: fh, source: source, what: "frame \(frames.count): ")
                // LZW gives at most 4096 pixels for a code of at least 3 bits: what the bytes left
                // cannot hold is refused before its raster is allocated.
                let bytesLeft = max(reader.bytes.count - reader.offset, 0)
                guard Double(fw) * Double(fh) <= Double(bytesLeft) * 8 / 3 * 4096 + 4096 else {
                    throw ImageIOError.undecodable(source: source, reason: "frame \(frames.count): the file's last \(bytesLeft) bytes "
                        + "cannot hold the \(fw)x\(fh) pixels it claims (truncated, or a decompression bomb)")
                }
                var raster = [GifByteType](repeating: 0, count: fw * fh)
                let rows: [Int] = desc.Interlace
                    ? stride(from: 0, to: fh, by: 8).map { $0 } + stride(from: 4, to: fh, by: 8).map { $0 }
                        + stride(from: 2, to: fh, by: 4).map { $0 } + stride(from: 1, to: fh, by: 2).map { $0 }
                    : Array(0..<fh)
                var truncated = false
                for row in rows {
                    let ok = raster.withUnsafeMutableBufferPointer { DGifGetLine(gif, $0.baseAddress! + row * fw, Int32(fw)) }
                    if ok != GIF_OK { truncated = true; break }
                }
                if truncated {
                    // A cut-off first frame is an error; a cut-off later frame ends the animation
                    // with the frames that arrived whole.
                    if frames.isEmpty { throw ImageIOError.undecodable(source: source, reason: message(gif.pointee.Error)) }
                    break records
                }
                let map = desc.ColorMap ?? gif.pointee.SColorMap
                guard let colors = map?.pointee.Colors, let count = map?.pointee.ColorCount else {
                    throw ImageIOError.undecodable(source: source, reason: "frame \(frames.count) has no colour table")
                }
                if canvas.isEmpty { canvas = [UInt8](repeating: 0, count: width * height * 4) }
                let previous = control.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
                let left = Int(desc.Left), top = Int(desc.Top)
                for y in 0..<fh where top + y >= 0 && top + y < height {
                    for x in 0..<fw where left + x >= 0 && left + x < width {
                        let index = Int(raster[y * fw + x])
                        guard index != Int(control.TransparentColor), index < Int(count) else { continue }
                        let c = colors[index], p = ((top + y) * width + left + x) * 4
                        canvas[p] = c.Red; canvas[p + 1] = c.Green; canvas[p + 2] = c.Blue; canvas[p + 3] = 255
                    }
                }
                frames.append(DecodedFrame(image: CGImage(bitmap: Bitmap(width: width, height: height, pixels: canvas)),
                                           delay: Double(control.DelayTime) / 100))
                // A frame may lie partly or wholly off the screen: only its visible part is cleared.
                let rowsOnScreen = max(top, 0)..<max(min(top + fh, height), max(top, 0))
                let columnsOnScreen = max(left, 0)..<max(min(left + fw, width), max(left, 0))
                if control.DisposalMode == DISPOSE_BACKGROUND {
                    for y in rowsOnScreen {
                        for x in columnsOnScreen {
                            let p = (y * width + x) * 4
                            canvas[p] = 0; canvas[p + 1] = 0; canvas[p + 2] = 0; canvas[p + 3] = 0
                        }
                    }
                } else if let previous {
                    canvas = previous
                }
                control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
            default:
                break
            }
        } while recordType != TERMINATE_RECORD_TYPE
        guard !frames.isEmpty else { throw ImageIOError.undecodable(source: source, reason: "no image in the file") }
        return frames
    }

    private static func message(_ code: Int32) -> String {
        // giflib says "Failed to read from given file" when the bytes run out.
        if code == D_GIF_ERR_READ_FAILED { return "the file ends before the image does (truncated)" }
        return GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }
}
