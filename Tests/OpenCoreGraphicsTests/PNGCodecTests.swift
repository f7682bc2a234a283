// PNG decoding and encoding through libpng, and its errors: every failure names the file.
import Foundation
import OpenCoreGraphics
import Testing

private func sample() -> CGImage {
    // Opaque, translucent and clear pixels, premultiplied.
    CGImage(bitmap: Bitmap(width: 3, height: 2) { x, y in
        switch (x, y) {
        case (0, 0): (255, 0, 0, 255)
        case (1, 0): (0, 64, 0, 128)   // green at half alpha: premultiplied 64 of 128
        case (2, 0): (0, 0, 0, 0)
        case (0, 1): (10, 20, 30, 255)
        case (1, 1): (1, 1, 1, 2)
        default: (100, 100, 100, 200)
        }
    })
}

private func temporaryURL(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-\(UUID().uuidString)-\(name)")
}

@Suite("PNG codec")
struct PNGCodecTests {
    @Test("an image survives PNG encoding and decoding, premultiplied pixels and all")
    func roundTrip() throws {
        let image = sample()
        let decoded = try CGImage.decodePNG(try image.pngData())
        #expect(decoded.width == 3 && decoded.height == 2)
        #expect(decoded.bitmap == image.bitmap)
        #expect(decoded.alphaInfo == .premultipliedLast && decoded.bitsPerComponent == 8 && decoded.bytesPerRow == 12)
    }

    @Test("a 16-bit file without gamma chunks reads as sRGB, the high byte, as browsers and Pillow read it")
    func sixteenBitGray() throws {
        // Pillow's 4x1 16-bit grayscale: 100 * 257, 200 * 257, 0, 65535 (no gAMA, no sRGB chunk).
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAABEAAAAACMx4xSAAAAEUlEQVR4nGNISTlxgoHh/38AEXoEV9c5QuAAAAAASUVORK5CYII="))
        let bitmap = try CGImage.decodePNG(png).bitmap
        #expect((0..<4).map { bitmap[$0, 0].0 } == [100, 200, 0, 255])
    }

    @Test("fast compression writes other bytes, faster to make, that decode to the same pixels")
    func fastCompression() throws {
        // A gradient with noise over a 96 x 64 image: row filters pay off, so the two differ.
        let image = CGImage(bitmap: Bitmap(width: 96, height: 64) { x, y in
            let n = UInt8((x * 7 + y * 13) % 5)
            return (UInt8(x * 2) &+ n, UInt8(y * 3), UInt8((x + y) % 256), 255)
        })
        let small = try image.pngData(), fast = try image.pngData(compression: .fast)
        #expect(small != fast, "the fast setting wrote what the default writes")
        #expect(try image.pngData(compression: .fast) == fast, "fast writing is deterministic too")
        #expect(try CGImage.decodePNG(fast).bitmap == image.bitmap)
        #expect(try CGImage.decodePNG(small).bitmap == image.bitmap)
    }

    @Test("the same image always encodes to the same bytes")
    func deterministic() throws {
        #expect(try sample().pngData() == sample().pngData())
    }

    @Test("writing is atomic and reading back names nothing but the pixels")
    func fileRoundTrip() throws {
        let url = temporaryURL("a.png")
        defer { try? FileManager.default.removeItem(at: url) }
        try sample().writePNG(to: url)
        #expect(try CGImage.load(contentsOf: url).bitmap == sample().bitmap)
    }

    @Test("a missing file is an unreadable error naming the path")
    func missingFile() {
        let url = temporaryURL("missing.png")
        #expect {
            try CGImage.load(contentsOf: url)
        } throws: { error in
            guard case .unreadable(let source, _) = error as? ImageIOError else { return false }
            return source == url.path && "\(error)".contains(url.path)
        }
    }

    @Test("empty, garbage and truncated bytes are undecodable errors naming the source",
          arguments: ["empty", "garbage", "truncated"])
    func badBytes(kind: String) throws {
        let good = try sample().pngData()
        let bytes: Data = switch kind {
        case "empty": Data()
        case "garbage": Data("this is not a PNG file at all".utf8)
        default: good.prefix(good.count / 2)
        }
        #expect {
            try CGImage.decodePNG(bytes, source: "case-\(kind).png")
        } throws: { error in
            guard case .undecodable(let source, let reason) = error as? ImageIOError else { return false }
            return source == "case-\(kind).png" && !reason.isEmpty
        }
    }

    @Test("a header claiming 100000 x 100000 pixels is refused before anything is allocated")
    func decompressionBomb() throws {
        var png = try sample().pngData()
        // IHDR data starts at byte 16: width and height, big-endian; then fix the chunk's CRC.
        let dimension = UInt32(100_000).bigEndian
        withUnsafeBytes(of: dimension) { png.replaceSubrange(16..<20, with: $0); png.replaceSubrange(20..<24, with: $0) }
        let crc = CRC32.checksum(png[12..<29])
        withUnsafeBytes(of: crc.bigEndian) { png.replaceSubrange(29..<33, with: $0) }
        #expect {
            try CGImage.decodePNG(png, source: "bomb.png")
        } throws: { error in
            guard case .tooLarge(let source, _) = error as? ImageIOError else { return false }
            return source == "bomb.png"
        }
    }
    @Test("writePNG replaces a regular file (through a link, its target) and refuses a folder or a FIFO, leaving it there")
    func writeOnlyOverFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-write-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir.png"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = CGImage(bitmap: Bitmap(width: 2, height: 2) { _, _ in (10, 20, 30, 255) })
        let fifo = folder.appendingPathComponent("fifo.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (name, words) in [("dir.png", "it is a folder"), ("fifo.png", "it is a FIFO")] {
            #expect { try image.writePNG(to: folder.appendingPathComponent(name)) } throws: { error in
                "\(error)".contains(words) && "\(error)".contains(name)
            }
        }
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        let target = folder.appendingPathComponent("target.png"), link = folder.appendingPathComponent("link.png")
        try Data("old".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        try image.writePNG(to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try CGImage.load(contentsOf: target).width == 2)
        #expect { try image.writePNG(to: folder.appendingPathComponent("no/such.png")) } throws: { error in
            "\(error)".contains("no/such.png") && ("\(error)".contains("No such file") || "\(error)".contains("doesn’t exist"))
        }
    }
}

/// PNG's CRC-32 (ISO 3309), for forging test headers.
enum CRC32 {
    static func checksum(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
