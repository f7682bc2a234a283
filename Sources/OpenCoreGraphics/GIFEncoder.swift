import CImageCodecs
import Foundation

/// An animated GIF that loops forever, written with giflib: each frame quantized to its own 255
/// colours (giflib's median cut) plus one transparent index for pixels under half alpha, shown
/// for a whole number of hundredths of a second (GIF's unit).
/// Serializes giflib's quantizer (see `GIFEncoder.quantize`).
private let quantizerLock = NSLock()

public struct GIFEncoder {
    public let width: Int
    public let height: Int
    /// Hundredths of a second per frame.
    let delay: Int
    private var frames: [Frame] = []

    /// One frame quantized: palette indices, 256 RGB palette entries, the transparent index.
    public struct Frame: Sendable {
        let width: Int
        let height: Int
        let indices: [UInt8]
        let palette: [UInt8]
        let transparent: Int?
    }

    public init(width: Int, height: Int, fps: Double) {
        self.width = width
        self.height = height
        // Any fps converts (a denormal makes 100 / fps infinite; NaN): the delay in hundredths of
        // a second, clamped to 1 ... 65,535 as the format holds it.
        delay = Int(clampingPixels: 100 / fps, to: 1...Int(UInt16.max))
    }

    public var frameCount: Int { frames.count }

    /// Adds a frame of the encoder's size.
    public mutating func add(_ bitmap: Bitmap) throws { try add(GIFEncoder.quantize(bitmap)) }

    /// Adds a frame quantized already (`quantize` may run on other threads).
    public mutating func add(_ frame: Frame) throws {
        guard frame.width == width, frame.height == height else {
            throw ImageIOError.unwritable(destination: "GIF frame \(frames.count)",
                                          reason: "\(frame.width)x\(frame.height), not \(width)x\(height) like the animation")
        }
        frames.append(frame)
    }

    /// The bitmap in 255 colours of its own (giflib's median cut) plus a transparent index for
    /// pixels under half alpha.
    public static func quantize(_ bitmap: Bitmap) throws -> Frame {
        let width = bitmap.width, height = bitmap.height, count = width * height
        var red = [UInt8](repeating: 0, count: count), green = red, blue = red
        var anyTransparent = false
        for i in 0..<count {
            let a = Int(bitmap.pixels[i * 4 + 3])
            if a < 128 { anyTransparent = true }
            // Straight colour from premultiplied.
            func channel(_ c: Int) -> UInt8 { a == 0 ? 0 : UInt8(min(255, (Int(bitmap.pixels[i * 4 + c]) * 255 + a / 2) / a)) }
            red[i] = channel(0); green[i] = channel(1); blue[i] = channel(2)
        }
        var colors: Int32 = 255
        var indices = [UInt8](repeating: 0, count: count)
        var map = [GifColorType](repeating: GifColorType(), count: 256)
        // giflib's median cut sorts through a file-level static (the axis its qsort comparator
        // reads), so two quantizations at once corrupt each other's palettes: one at a time.
        let status = quantizerLock.withLock {
            GifQuantizeBuffer(UInt32(width), UInt32(height), &colors, &red, &green, &blue, &indices, &map)
        }
        guard status == GIF_OK else {
            throw ImageIOError.unwritable(destination: "GIF frame", reason: "colour quantization failed")
        }
        var transparent: Int?
        if anyTransparent {
            transparent = 255
            for i in 0..<count where bitmap.pixels[i * 4 + 3] < 128 { indices[i] = 255 }
        }
        let palette = map.prefix(256).flatMap { [$0.Red, $0.Green, $0.Blue] }
        return Frame(width: width, height: height, indices: indices, palette: palette, transparent: transparent)
    }

    /// The whole file.
    public func encoded() throws -> Data {
        final class Sink { var data = Data() }
        let sink = Sink()
        var error: Int32 = 0
        let unmanaged = Unmanaged.passUnretained(sink)
        guard let gif = EGifOpen(unmanaged.toOpaque(), { file, bytes, length in
            guard let file, let bytes, let user = file.pointee.UserData else { return 0 }
            Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue().data.append(bytes, count: Int(length))
            return length
        }, &error) else {
            throw ImageIOError.unwritable(destination: "GIF", reason: "giflib could not start (error \(error))")
        }
        var closed = false
        defer { if !closed { EGifCloseFile(gif, &error) } }
        EGifSetGifVersion(gif, true)
        func check(_ status: Int32, _ step: String) throws {
            guard status == GIF_OK else { throw ImageIOError.unwritable(destination: "GIF", reason: "\(step) failed (giflib error \(gif.pointee.Error))") }
        }
        try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, nil), "the screen descriptor")
        // NETSCAPE2.0: loop forever.
        try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "the loop extension")
        var application = Array("NETSCAPE2.0".utf8)
        try check(EGifPutExtensionBlock(gif, 11, &application), "the loop extension")
        var loop: [UInt8] = [1, 0, 0]
        try check(EGifPutExtensionBlock(gif, 3, &loop), "the loop extension")
        try check(EGifPutExtensionTrailer(gif), "the loop extension")
        for frame in frames {
            var control = GraphicsControlBlock(DisposalMode: 1, UserInputFlag: false, DelayTime: Int32(delay),
                                               TransparentColor: Int32(frame.transparent ?? -1))
            var extensionBytes = [UInt8](repeating: 0, count: 4)
            let length = EGifGCBToExtension(&control, &extensionBytes)
            try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), &extensionBytes), "a frame's timing")
            var colors = stride(from: 0, to: 768, by: 3).map {
                GifColorType(Red: frame.palette[$0], Green: frame.palette[$0 + 1], Blue: frame.palette[$0 + 2])
            }
            guard let map = GifMakeMapObject(256, &colors) else { throw ImageIOError.unwritable(destination: "GIF", reason: "out of memory") }
            defer { GifFreeMapObject(map) }
            try check(EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, map), "a frame's descriptor")
            var indices = frame.indices
            try indices.withUnsafeMutableBufferPointer { buffer in
                for row in 0..<height {
                    try check(EGifPutLine(gif, buffer.baseAddress! + row * width, Int32(width)), "a frame's pixels")
                }
            }
        }
        closed = true
        guard EGifCloseFile(gif, &error) == GIF_OK else {
            throw ImageIOError.unwritable(destination: "GIF", reason: "finishing the file failed (giflib error \(error))")
        }
        return sink.data
    }
}
