// Two image files compared band by band against the same images compared whole: every
// comparator's verdict and every picture, on images several bands tall with differences at the
// bands' seams; and the rows of every kind of PNG against the whole-image decoder.
import Foundation
import OpenCoreGraphics
import PixelDiff
import Testing

/// A 61 x 300 image (several bands of every comparator) with gradients, hard edges and alpha; the
/// actual one changes pixels at and around the seams of 32- and 72-row bands, a shifted edge and
/// noise.
private func pair() -> (Bitmap, Bitmap) {
    let expected = Bitmap(width: 61, height: 300) { x, y in
        let alpha: UInt8 = x < 8 ? UInt8(x * 32) : 255
        let edge = (x + y / 3) % 23 < 11
        let r = UInt8((x * 4 + y) % 256), g = UInt8(edge ? 200 : (y * 5) % 256), b = UInt8((x * y) % 256)
        return (UInt8(Int(r) * Int(alpha) / 255), UInt8(Int(g) * Int(alpha) / 255), UInt8(Int(b) * Int(alpha) / 255), alpha)
    }
    var actual = expected
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int(seed >> 33) }
    let seams = [31, 32, 33, 63, 64, 71, 72, 73, 143, 144, 145, 215, 216, 288, 299, 0]
    for y in seams + (0..<40).map({ _ in next() % 300 }) {
        for _ in 0..<4 {
            let x = next() % 61, i = (y * 61 + x) * 4
            let delta = [1, 2, 3, 40, 180][next() % 5]
            for c in 0..<3 { actual.pixels[i + c] = UInt8(clamping: Int(actual.pixels[i + c]) + delta) }
            actual.pixels[i + 3] = max(actual.pixels[i + 3], actual.pixels[i], actual.pixels[i + 1], actual.pixels[i + 2])
        }
    }
    // An edge moved by a pixel over rows 100...180 (anti-aliasing for pixelmatch, features for FLIP).
    for y in 100...180 {
        for x in 30...40 { for c in 0..<4 { actual.pixels[(y * 61 + x) * 4 + c] = expected.pixels[(y * 61 + x + 1) * 4 + c] } }
    }
    return (expected, actual)
}

private let comparators: [RowComparator] = [
    AgreementBarComparator(), AgreementBarComparator(AgreementBar(tolerance: 0, minFractionWithin: 0.99, minPSNR: 30)),
    ExactComparator(), OffByOneComparator(discardAlpha: true),
    FuzzyComparator(maxDifferingFraction: 0.01, maxChannelDelta: 200, tolerance: 3, border: 5),
    FuzzyComparator(maxDifferingFraction: 0.05, border: 12),
    PixelmatchComparator(), PixelmatchComparator(threshold: 0.05, includeAntialiasing: true, maxDifferingPixels: 100),
    CIEDE2000Comparator(precision: 0.99, perceptualPrecision: 0.98), CIEDE2000Comparator(),
    FLIPComparator(), FLIPComparator(pixelsPerDegree: 20),
]

/// The bitmap a PNG of `bitmap` decodes to (what a picture written to a file holds).
private func throughPNG(_ bitmap: Bitmap) throws -> Bitmap {
    try CGImage.decodePNG(CGImage(bitmap: bitmap).pngData()).bitmap
}

private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("banded-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite("Comparisons band by band")
struct BandedComparisonTests {
    @Test("every comparator's verdict band by band is the whole comparison's: passed, counts, summary, score",
          arguments: comparators.indices)
    func verdicts(index: Int) throws {
        let comparator = comparators[index]
        let (expected, actual) = pair()
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (a, b) = (dir.appendingPathComponent("a.png"), dir.appendingPathComponent("b.png"))
        try CGImage(bitmap: expected).writePNG(to: a)
        try CGImage(bitmap: actual).writePNG(to: b)
        // The files decode to what is compared whole.
        let (decodedA, decodedB) = (try CGImage.load(contentsOf: a).bitmap, try CGImage.load(contentsOf: b).bitmap)
        let whole = try comparator.compare(decodedA, decodedB)
        let banded = try BandedComparison.compare(expected: a.path, actual: b.path, with: comparator).judgement
        #expect(banded.summary == whole.summary)
        #expect(banded.passed == whole.passed && banded.differingPixels == whole.differingPixels)
        #expect(banded.pixelCount == whole.pixelCount && banded.score == whole.score)
        #expect(whole.differingPixels > 0, "the pair must differ for the comparison to mean anything: \(whole.summary)")
        // Every picture, drawn a band at a time, has the whole comparison's pixels.
        let pictures: [(BandedComparison.Picture, Bitmap)] = [
            (.heatMap, try HeatMap.make(expected: decodedA, actual: decodedB)), (.diffImage, whole.diffImage), (.diffMask, whole.diffMask),
            (.triptych, whole.triptych(expected: decodedA, actual: decodedB)), (.expected, decodedA), (.actual, decodedB),
        ]
        for (picture, drawn) in pictures {
            let file = dir.appendingPathComponent("picture.png")
            try BandedComparison.write(picture, expected: a.path, actual: b.path, comparator: comparator, to: file, links: .followed)
            let written = try CGImage.load(contentsOf: file).bitmap
            #expect(written == (try throughPNG(drawn)), "\(picture) of \(whole.comparator) differs drawn by bands")
        }
    }

    @Test("the rows of every kind of PNG are the whole-image decoder's bytes; what cannot stream is decoded whole")
    func rowsOfEveryKind() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("RowFixtures")
        let notStreamed: Set = ["gray-16bit.png", "rgb-gamma-1.png"]
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".png") }.sorted()
        #expect(names.count == 13)
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let ours = (FileManager.default.enumerator(atPath: repository.appendingPathComponent("Tests").path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".png") && !$0.contains("RowFixtures") }.prefix(40)
            .map { repository.appendingPathComponent("Tests").appendingPathComponent($0) }
        #expect(ours.count == 40)
        for file in names.map({ fixtures.appendingPathComponent($0) }) + ours {
            let rows = try ImageRows(path: file.path)
            #expect(rows.isStreamed == !notStreamed.contains(file.lastPathComponent), "\(file.lastPathComponent)")
            var pixels = [UInt8](repeating: 0, count: rows.width * rows.height * 4)
            try pixels.withUnsafeMutableBufferPointer { buffer in
                for y in 0..<rows.height { try rows.read(into: buffer.baseAddress! + y * rows.width * 4) }
            }
            let whole = try CGImage.load(contentsOf: file).bitmap
            #expect(rows.width == whole.width && rows.height == whole.height && pixels == whole.pixels, "\(file.lastPathComponent)")
        }
    }

    @Test("a file cut short, one that is not an image, a size its bytes cannot hold and two sizes are errors naming the file")
    func badFiles() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (expected, _) = pair()
        let good = dir.appendingPathComponent("good.png"), cut = dir.appendingPathComponent("cut.png")
        let data = try CGImage(bitmap: expected).pngData()
        try data.write(to: good)
        try data.prefix(data.count / 2).write(to: cut)
        #expect { try BandedComparison.compare(expected: good.path, actual: cut.path, with: AgreementBarComparator()) } throws: { error in
            "\(error)".contains(cut.path) && "\(error)".contains("row ")
        }
        let text = dir.appendingPathComponent("text.png")
        try Data("not an image".utf8).write(to: text)
        #expect { try BandedComparison.compare(expected: text.path, actual: good.path, with: ExactComparator()) } throws: { "\($0)".contains(text.path) }
        // A header claiming 16384 x 16384 in a file of a few hundred bytes: refused before a row is read.
        var bomb = [UInt8](data.prefix(33))
        bomb.replaceSubrange(16..<24, with: [0, 0, 0x40, 0, 0, 0, 0x40, 0])
        let crc = bomb[12..<29].reduce(into: UInt32(0xFFFF_FFFF)) { crc, byte in
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        } ^ 0xFFFF_FFFF
        bomb.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        let bombFile = dir.appendingPathComponent("bomb.png")
        try Data(bomb + [UInt8](data.dropFirst(33))).write(to: bombFile)
        #expect { try ImageRows(path: bombFile.path) } throws: { "\($0)".contains("cannot hold") && "\($0)".contains(bombFile.path) }
        let small = dir.appendingPathComponent("small.png")
        try CGImage(bitmap: Bitmap(width: 5, height: 5)).writePNG(to: small)
        #expect(throws: ComparisonError.sizeMismatch(expected: "61x300", actual: "5x5")) {
            try BandedComparison.compare(expected: good.path, actual: small.path, with: AgreementBarComparator())
        }
    }
}
