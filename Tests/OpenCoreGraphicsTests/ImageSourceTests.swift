// ImageIO: PNG, JPEG and animated GIF through CGImageSource, with GIF disposal and transparency,
// and hostile files. The GIFs are written here, byte by byte, so the tests need no fixtures.
import Foundation
import OpenCoreGraphics
import Testing

/// A GIF frame: a rectangle of palette indices placed on the screen.
private struct Frame {
    var left = 0, top = 0, width: Int, height: Int
    var indices: [UInt8]
    var disposal: UInt8 = 1
    var delay: UInt16 = 10
    var transparent: UInt8?
}

/// A GIF with a 4-colour global table (black, red, green, blue) and the given frames. Pixels
/// are written as LZW literals with a clear code every two, so no compression is needed.
private func gif(width: Int, height: Int, frames: [Frame], truncateLastFrame: Bool = false) -> Data {
    var out = [UInt8]("GIF89a".utf8)
    func u16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    u16(width); u16(height)
    out += [0xF1, 0, 0] // global table, 4 entries
    out += [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]
    for (n, frame) in frames.enumerated() {
        let flags = (frame.disposal << 2) | (frame.transparent == nil ? 0 : 1)
        out += [0x21, 0xF9, 4, flags, UInt8(frame.delay & 0xFF), UInt8(frame.delay >> 8), frame.transparent ?? 0, 0]
        out += [0x2C]; u16(frame.left); u16(frame.top); u16(frame.width); u16(frame.height); out += [0]
        // LZW, minimum code size 2: codes are 3 bits; clear = 4, end = 5.
        var codes: [Int] = []
        for (i, index) in frame.indices.enumerated() {
            if i % 2 == 0 { codes.append(4) }
            codes.append(Int(index))
        }
        codes.append(5)
        var bits: [UInt8] = [], acc = 0, count = 0
        for code in codes {
            acc |= code << count
            count += 3
            while count >= 8 { bits.append(UInt8(acc & 0xFF)); acc >>= 8; count -= 8 }
        }
        if count > 0 { bits.append(UInt8(acc)) }
        if truncateLastFrame && n == frames.count - 1 { bits = Array(bits.prefix(2)) }
        out.append(2)
        var offset = 0
        while offset < bits.count {
            let chunk = bits[offset..<min(offset + 255, bits.count)]
            out.append(UInt8(chunk.count)); out += chunk
            offset += chunk.count
        }
        out.append(0)
        if truncateLastFrame && n == frames.count - 1 { return Data(out) }
    }
    out.append(0x3B)
    return Data(out)
}

private func pixel(_ source: CGImageSource, _ frame: Int, _ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8)? {
    CGImageSourceCreateImageAtIndex(source, frame, nil)?.bitmap[x, y]
}

@Suite("Image sources")
struct ImageSourceTests {
    /// Frame 0: all red. Frame 1: green 2x2 at (1,1), disposed to background. Frame 2: blue 1x1 at
    /// (0,0) with index 0 transparent in a 2x1 rect: its second pixel leaves what is below.
    private var animation: Data {
        gif(width: 4, height: 4, frames: [
            Frame(width: 4, height: 4, indices: Array(repeating: 1, count: 16), delay: 10),
            Frame(left: 1, top: 1, width: 2, height: 2, indices: [2, 2, 2, 2], disposal: 2, delay: 20),
            Frame(width: 2, height: 1, indices: [3, 0], delay: 30, transparent: 0),
        ])
    }

    @Test("an animated GIF gives every frame, composited, with its delay")
    func animatedGIF() throws {
        let source = try #require(CGImageSourceCreateWithData(animation, nil))
        #expect(CGImageSourceGetCount(source) == 3)
        #expect(pixel(source, 0, 3, 3)! == (255, 0, 0, 255))
        #expect(pixel(source, 1, 1, 1)! == (0, 255, 0, 255) && pixel(source, 1, 0, 0)! == (255, 0, 0, 255))
        // Frame 1 was disposed to background: its square is transparent in frame 2.
        #expect(pixel(source, 2, 1, 1)!.3 == 0 && pixel(source, 2, 3, 3)! == (255, 0, 0, 255))
        #expect(pixel(source, 2, 0, 0)! == (0, 0, 255, 255))
        #expect(pixel(source, 2, 1, 0)! == (255, 0, 0, 255)) // transparent index: red shows through
        let delays = (0..<3).map { ((CGImageSourceCopyPropertiesAtIndex(source, $0, nil)?[kCGImagePropertyGIFDictionary]
            as? [String: Any])?[kCGImagePropertyGIFDelayTime] as? Double) ?? -1 }
        #expect(delays == [0.1, 0.2, 0.3])
        #expect(CGImageSourceCreateImageAtIndex(source, 3, nil) == nil)
    }

    @Test("restore-to-previous brings back the canvas from before the frame")
    func disposePrevious() throws {
        let data = gif(width: 2, height: 1, frames: [
            Frame(width: 2, height: 1, indices: [1, 1]),
            Frame(width: 1, height: 1, indices: [3], disposal: 3),
            Frame(left: 1, width: 1, height: 1, indices: [2]),
        ])
        let source = try #require(CGImageSourceCreateWithData(data, nil))
        #expect(pixel(source, 1, 0, 0)! == (0, 0, 255, 255))
        #expect(pixel(source, 2, 0, 0)! == (255, 0, 0, 255) && pixel(source, 2, 1, 0)! == (0, 255, 0, 255))
    }

    @Test("a GIF cut off in its last frame keeps the frames before it; cut off in its first is an error")
    func truncatedGIF() throws {
        let frames = [Frame(width: 2, height: 2, indices: [1, 1, 1, 1]), Frame(width: 2, height: 2, indices: [2, 2, 2, 2])]
        let cut = try #require(CGImageSourceCreateWithData(gif(width: 2, height: 2, frames: frames, truncateLastFrame: true), nil))
        #expect(CGImageSourceGetCount(cut) == 1)
        let first = try #require(CGImageSourceCreateWithData(gif(width: 2, height: 2, frames: [frames[0]], truncateLastFrame: true), nil))
        #expect(CGImageSourceGetCount(first) == 0)
        #expect(first.error != nil)
    }

    @Test("a GIF claiming a huge screen is refused before allocating it")
    func gifBomb() {
        var data = [UInt8](gif(width: 2, height: 2, frames: [Frame(width: 2, height: 2, indices: [1, 1, 1, 1])]))
        data[6] = 0xFF; data[7] = 0xFF; data[8] = 0xFF; data[9] = 0xFF // 65535 x 65535
        #expect(throws: ImageIOError.self) { try ImageDecoder.decode(Data(data), source: "bomb.gif") }
        #expect {
            try ImageDecoder.decode(Data(data), source: "bomb.gif")
        } throws: { "\($0)".contains("bomb.gif") && "\($0)".contains("too large") }
    }

    @Test("JPEG round-trips within compression error, and a corrupt one names itself")
    func jpeg() throws {
        let image = CGImage(bitmap: Bitmap(width: 16, height: 16) { x, _ in x < 8 ? (200, 40, 40, 255) : (40, 40, 200, 255) })
        let data = try image.jpegData(quality: 95)
        #expect(ImageDecoder.format(of: data) == .jpeg)
        let source = try #require(CGImageSourceCreateWithData(data, nil))
        let decoded = try #require(CGImageSourceCreateImageAtIndex(source, 0, nil))
        #expect(decoded.width == 16 && decoded.height == 16)
        let p = decoded.bitmap[2, 8]
        #expect(abs(Int(p.0) - 200) < 12 && abs(Int(p.2) - 40) < 12 && p.3 == 255)
        #expect {
            try ImageDecoder.decode(data.prefix(20), source: "cut.jpg")
        } throws: { "\($0)".contains("cut.jpg") }
    }

    @Test("PNG goes through the same door; unknown bytes say what they are not")
    func sniffing() throws {
        let png = try CGImage(bitmap: Bitmap(width: 1, height: 1) { _, _ in (1, 2, 3, 255) }).pngData()
        #expect(CGImageSourceGetCount(CGImageSourceCreateWithData(png, nil)!) == 1)
        let unknown = CGImageSourceCreateWithData(Data("hello".utf8), nil)!
        #expect(CGImageSourceGetCount(unknown) == 0 && "\(unknown.error!)".contains("not a PNG, GIF or JPEG"))
    }

    @Test("a PNG destination writes the image")
    func destination() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-dest-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        let destination = try #require(CGImageDestinationCreateWithURL(url, "public.png", 1, nil))
        CGImageDestinationAddImage(destination, CGImage(bitmap: Bitmap(width: 2, height: 2)), nil)
        #expect(CGImageDestinationFinalize(destination))
        #expect(CGImageSourceCreateWithURL(url, nil).map(CGImageSourceGetCount) == 1)
        #expect(CGImageDestinationCreateWithURL(url, "public.tiff", 1, nil) == nil)
    }

    @Test("every truncation and 300 seeded byte flips of a GIF, a JPEG and a PNG decode or throw, never crash")
    func mutations() throws {
        let image = CGImage(bitmap: Bitmap(width: 9, height: 7) { x, y in (UInt8(x * 25), UInt8(y * 30), 90, UInt8(128 + x)) })
        let samples = [animation, try image.jpegData(quality: 80), try image.pngData()]
        var generator = SplitMix(seed: 42)
        var outcomes = 0
        for sample in samples {
            for length in 0..<sample.count {
                outcomes += (try? ImageDecoder.decode(sample.prefix(length))) == nil ? 1 : 2
            }
            for _ in 0..<300 {
                var bytes = [UInt8](sample)
                let at = Int(generator.next() % UInt64(bytes.count))
                bytes[at] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
                outcomes += (try? ImageDecoder.decode(Data(bytes))) == nil ? 1 : 2
            }
        }
        #expect(outcomes > 0)
    }
}

/// A small deterministic random number generator for reproducible mutations.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
