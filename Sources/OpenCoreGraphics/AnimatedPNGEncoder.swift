import Foundation

/// Animated PNG (APNG): the frames' PNG encodings re-chunked into one file that loops forever.
/// Browsers show it; viewers without APNG show the first frame. Each frame is encoded by
/// libpng as a still and its image data moved into fdAT chunks, so the bytes are deterministic.
public struct AnimatedPNGEncoder {
    public let width: Int
    public let height: Int
    /// Frame duration as a fraction of a second: numerator / denominator.
    let delay: (UInt16, UInt16)
    private var frames: [[Data]] = [] // each frame's IDAT payloads
    private var header: Data?

    /// Frames shown `1 / fps` seconds each (fps rounded to a fraction of whole numbers).
    public init(width: Int, height: Int, fps: Double) {
        self.width = width
        self.height = height
        // Any fps converts (1e300, NaN, a denormal): the delay is 100 / round(fps x 100) seconds,
        // the denominator clamped to 1 ... 65,535 as the format holds it.
        delay = (100, UInt16(Int(clampingPixels: fps * 100, to: 1...Int(UInt16.max))))
    }

    public var frameCount: Int { frames.count }

    /// Adds a frame (the PNG of an image of the encoder's size).
    public mutating func add(png: Data) throws {
        let chunks = try AnimatedPNGEncoder.chunks(of: png)
        guard let ihdr = chunks.first(where: { $0.type == "IHDR" })?.data, ihdr.count == 13 else {
            throw ImageIOError.undecodable(source: "frame \(frames.count)", reason: "a PNG without a header")
        }
        let w = ihdr.prefix(4).reduce(0) { $0 << 8 | Int($1) }, h = ihdr.dropFirst(4).prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard w == width, h == height else {
            throw ImageIOError.undecodable(source: "frame \(frames.count)", reason: "\(w)x\(h), not \(width)x\(height) like the animation")
        }
        if header == nil { header = ihdr }
        frames.append(chunks.filter { $0.type == "IDAT" }.map(\.data))
    }

    /// The whole file.
    public func encoded() -> Data {
        var out = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        AnimatedPNGEncoder.append("IHDR", header ?? Data(count: 13), to: &out)
        AnimatedPNGEncoder.append("acTL", AnimatedPNGEncoder.be32(UInt32(frames.count)) + AnimatedPNGEncoder.be32(0), to: &out)
        var sequence: UInt32 = 0
        for (index, payloads) in frames.enumerated() {
            var control = AnimatedPNGEncoder.be32(sequence)
            control += AnimatedPNGEncoder.be32(UInt32(width)) + AnimatedPNGEncoder.be32(UInt32(height))
            control += AnimatedPNGEncoder.be32(0) + AnimatedPNGEncoder.be32(0)
            control += AnimatedPNGEncoder.be16(delay.0) + AnimatedPNGEncoder.be16(delay.1)
            control += Data([0, 0]) // dispose none, blend source: each frame replaces the last
            AnimatedPNGEncoder.append("fcTL", control, to: &out)
            sequence += 1
            for payload in payloads {
                if index == 0 {
                    AnimatedPNGEncoder.append("IDAT", payload, to: &out)
                } else {
                    AnimatedPNGEncoder.append("fdAT", AnimatedPNGEncoder.be32(sequence) + payload, to: &out)
                    sequence += 1
                }
            }
        }
        AnimatedPNGEncoder.append("IEND", Data(), to: &out)
        return out
    }

    static func chunks(of png: Data) throws -> [(type: String, data: Data)] {
        let bytes = [UInt8](png)
        guard bytes.count >= 8, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw ImageIOError.undecodable(source: "frame", reason: "not a PNG")
        }
        var chunks: [(String, Data)] = []
        var i = 8
        while i + 12 <= bytes.count {
            let length = Int(bytes[i..<i + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let type = String(decoding: bytes[i + 4..<i + 8], as: UTF8.self)
            guard length <= bytes.count - i - 12 else { throw ImageIOError.undecodable(source: "frame", reason: "a truncated PNG chunk") }
            chunks.append((type, Data(bytes[i + 8..<i + 8 + length])))
            i += 12 + length
        }
        return chunks
    }

    static func append(_ type: String, _ data: Data, to out: inout Data) {
        out += be32(UInt32(data.count))
        let typed = Data(type.utf8) + data
        out += typed
        out += be32(crc32(typed))
    }

    static func be32(_ v: UInt32) -> Data { Data([UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]) }
    static func be16(_ v: UInt16) -> Data { Data([UInt8(v >> 8), UInt8(v & 0xFF)]) }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ data: Data) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
