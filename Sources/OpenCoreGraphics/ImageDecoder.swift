import CImageCodecs
import Foundation

/// One decoded frame: the whole canvas as it shows, and how long it shows (animated GIFs).
public struct DecodedFrame: Sendable {
    public let image: CGImage
    /// Seconds; 0 for still images.
    public let delay: Double
}

/// Decoding of PNG, GIF (every frame, composited with its disposal method and transparency) and
/// JPEG, by sniffing the bytes. Errors name the source and say why; sizes and frame counts are
/// checked against `ImageLimits` before memory is allocated for them.
public enum ImageDecoder {
    /// Frames of an animation beyond this are refused. Default: 10,000.
    public static let maxFrames = 10_000
    /// Pixels of all frames together (the canvas times the frame count). Default: 2^28.
    public static let maxTotalPixels = 1 << 28

    public enum Format: String, Sendable { case png, gif, jpeg }

    public static func format(of data: Data) -> Format? {
        let bytes = [UInt8](data.prefix(8))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if bytes.starts(with: Array("GIF8".utf8)) { return .gif }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }

    /// The pixel size an image's header states, read without decoding it (PNG's IHDR, GIF's
    /// logical screen, JPEG's frame header); nil when the bytes are none of the three or too short.
    /// What a caller sizes memory by before it decodes (`quartz diff`'s estimate).
    public static func dimensions(of data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        switch format(of: data) {
        case .png:
            guard bytes.count >= 24 else { return nil }
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            return (width, height)
        case .gif:
            guard bytes.count >= 10 else { return nil }
            return (Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8)
        case .jpeg:
            guard let handle = tjInitDecompress() else { return nil }
            defer { tjDestroy(handle) }
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            let status = data.withUnsafeBytes { raw in
                tjDecompressHeader3(handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), &width, &height, &subsampling, &colorspace)
            }
            return status == 0 ? (Int(width), Int(height)) : nil
        case nil:
            return nil
        }
    }

    public static func decode(_ data: Data, source: String = "<data>") throws -> [DecodedFrame] {
        switch format(of: data) {
        case .png: return [DecodedFrame(image: try CGImage.decodePNG(data, source: source), delay: 0)]
        case .gif: return try GIFDecoder.decode(data, source: source)
        case .jpeg: return [DecodedFrame(image: try decodeJPEG(data, source: source), delay: 0)]
        case nil:
            throw ImageIOError.undecodable(source: source, reason: data.isEmpty ? "empty file"
                                           : "not a PNG, GIF or JPEG file (unknown signature)")
        }
    }

    static func decodeJPEG(_ data: Data, source: String) throws -> CGImage {
        guard let handle = tjInitDecompress() else {
            throw ImageIOError.undecodable(source: source, reason: "TurboJPEG could not start")
        }
        defer { tjDestroy(handle) }
        return try data.withUnsafeBytes { raw -> CGImage in
            let bytes = raw.bindMemory(to: UInt8.self)
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            guard tjDecompressHeader3(handle, bytes.baseAddress, UInt(bytes.count), &width, &height,
                                      &subsampling, &colorspace) == 0 else {
                throw ImageIOError.undecodable(source: source, reason: String(cString: tjGetErrorStr2(handle)))
            }
            try ImageLimits.check(width: Int(width), height: Int(height), source: source)
            var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
            let status = pixels.withUnsafeMutableBufferPointer { out in
                tjDecompress2(handle, bytes.baseAddress, UInt(bytes.count), out.baseAddress, width, 0, height,
                              Int32(TJPF_RGBA.rawValue), 0)
            }
            // Warnings (a slightly damaged file) still give an image; errors do not.
            if status != 0 && tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) {
                throw ImageIOError.undecodable(source: source, reason: String(cString: tjGetErrorStr2(handle)))
            }
            return CGImage(bitmap: Bitmap(width: Int(width), height: Int(height), pixels: pixels))
        }
    }
}

extension CGImage {
    /// JPEG bytes (TurboJPEG, 4:2:0), `quality` 1...100. JPEG has no alpha: the image is drawn
    /// over black first, as premultiplied pixels are.
    public func jpegData(quality: Int = 90) throws -> Data {
        guard let handle = tjInitCompress() else {
            throw ImageIOError.unwritable(destination: "<memory>", reason: "TurboJPEG could not start")
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = bitmap.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_RGBA.rawValue),
                        &output, &size, Int32(TJSAMP_420.rawValue), Int32(min(max(quality, 1), 100)), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            throw ImageIOError.unwritable(destination: "<memory>", reason: String(cString: tjGetErrorStr2(handle)))
        }
        return Data(bytes: output, count: Int(size))
    }
}
