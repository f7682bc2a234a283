// The hostile-input corpus (Hostile/, checked in) and the cases too large to check in (made here):
// every one answers with a clear error naming where and what, never a crash, a hang or memory
// spent on what is refused.
import Compositor
import Foundation
import OpenQuartzCore
import SceneFormat
import Testing

private let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Hostile")

/// The error `body` throws, as text; a failed expectation when it throws nothing.
private func errorText(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    do {
        try body()
        Issue.record("expected an error", sourceLocation: sourceLocation)
        return ""
    } catch {
        return "\(error)"
    }
}

@Suite("Hostile input")
struct HostileInputTests {
    /// Image files: decoding answers an error with the file's name and the reason.
    static let images: [(file: String, error: String)] = [
        ("png-huge-header.png", "100000x100000 exceeds the 32768-pixel side limit"),
        ("png-decompression-bomb.png", "20000x20000 exceeds the 268435456-pixel limit"),
        ("png-truncated-data.png", "Not enough image data"),
        ("png-bad-crc.png", "IHDR: CRC error"),
        ("png-zero-width.png", "Invalid IHDR data"),
        ("empty.png", "empty file"),
        ("text-named-png.png", "not a PNG, GIF or JPEG file"),
        ("gif-huge-screen.gif", "65535x65535 exceeds the 32768-pixel side limit"),
        ("gif-truncated.gif", "the file ends before the image does"),
        ("jpeg-huge.jpg", "60000x60000 exceeds the 32768-pixel side limit"),
        ("jpeg-truncated.jpg", "cannot decode image jpeg-truncated.jpg: size 0x0 is empty"),
    ]

    @Test("hostile image files: each refused with its name and reason, nothing allocated for what is refused",
          arguments: images.map(\.file))
    func hostileImage(file: String) throws {
        let expected = HostileInputTests.images.first { $0.file == file }!.error
        let data = try Data(contentsOf: corpus.appendingPathComponent(file))
        let message = errorText { _ = try ImageDecoder.decode(data, source: file) }
        #expect(message.contains(file), "\(message)")
        #expect(message.contains(expected), "\(message)")
        // Apple's entry points answer nil and keep the same reason.
        let source = CGImageSourceCreateWithData(data, nil)
        #expect(source.map { CGImageSourceCreateImageAtIndex($0, 0, nil) == nil } ?? true)
    }

    /// Scene documents: loading answers a `SceneError` naming the JSON path (or line and column).
    static let scenes: [(file: String, error: String)] = [
        ("scene-not-json.json", "line 1, column 79: expected ',' or '}', found the end of the file"),
        ("scene-nan.json", "line 1, column 86: expected a value, found 'N'"),
        ("scene-1e30.json", "line 1, column 114: the number 1e400 is out of range"),
        ("scene-invalid-utf8.json", "a string holds bytes that are not UTF-8"),
        ("scene-huge-size.json", "expected a width and height from 1 to 16384"),
        ("scene-unknown-key.json", "root.opacitty: unknown property of a CALayer; did you mean \"opacity\"?"),
        ("scene-missing-image.json", "root.contents: the image \"no-such-image.png\" is not a readable file"),
        ("scene-image-is-bomb.json", "20000x20000 exceeds the 268435456-pixel limit"),
    ]

    @Test("hostile scene documents: each refused with the place and the mistake", arguments: scenes.map(\.file))
    func hostileScene(file: String) {
        let expected = HostileInputTests.scenes.first { $0.file == file }!.error
        let message = errorText { _ = try SceneDocument.load(contentsOf: corpus.appendingPathComponent(file)) }
        #expect(message.contains(expected), "\(message)")
    }

    @Test("a font that is not installed: the text is drawn in a substitute, which the font says it is")
    func missingFont() throws {
        let document = try SceneDocument.load(contentsOf: corpus.appendingPathComponent("scene-missing-font.json"))
        let text = try #require(document.makePlayer().presentation() as? CATextLayer)
        #expect(text.resolvedFont.isSubstitute)
        #expect(text.resolvedFont.description.contains("for NoSuchFont-Bold"))
        let image = try text.renderedImage(backend: .cpu)
        // Glyphs were drawn: some pixels are covered.
        #expect(image.bitmap.pixels.contains { $0 != 0 })
    }

    @Test("a document nested 10,000 levels deep is refused by the reader, not by the stack")
    func deepDocument() {
        let depth = 10_000
        let text = #"{"format": "openquartz-scene", "version": 1, "root": "# + String(repeating: #"{"sublayers": ["#, count: depth)
            + String(repeating: "]}", count: depth) + "}"
        let message = errorText { _ = try SceneDocument(data: Data(text.utf8)) }
        #expect(message.contains("nesting deeper than"), "\(message)")
    }

    @Test("a document of a million layers is refused at the layer limit (SceneLimits.maxLayers)")
    func millionLayerDocument() {
        let text = #"{"format": "openquartz-scene", "version": 1, "root": {"sublayers": ["#
            + Array(repeating: "{}", count: 1_000_000).joined(separator: ",") + "]}}"
        let message = errorText { _ = try SceneDocument(data: Data(text.utf8)) }
        #expect(message.contains("more than 100000 layers") || message.contains("limit of 100000"), "\(message)")
    }

    @Test("a layer tree 10,000 levels deep: rendering throws treeTooDeep, on both backends, without exhausting the stack")
    func deepTree() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        var parent = root
        for _ in 0..<10_000 {
            let child = CALayer()
            child.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
            parent.addSublayer(child)
            parent = child
        }
        for backend in RenderBackend.allCases {
            let message = errorText { _ = try root.renderedImage(backend: backend) }
            #expect(message.contains("deeper than 4096 levels"), "\(backend): \(message)")
        }
    }

    @Test("more layers than RenderLimits.maxLayers: a thrown error naming the limit; the default limit is a million")
    func tooManyLayers() throws {
        #expect(RenderLimits.current.maxLayers == 1_000_000)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        for _ in 0..<300 {
            let child = CALayer()
            child.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
            child.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            root.addSublayer(child)
        }
        let list = try RenderListBuilder(viewport: root.frame).build(root: root)
        #expect(list.passes.last!.ops.count >= 300)
        var builder = RenderListBuilder(viewport: root.frame)
        builder.limits.maxLayers = 200
        let message = errorText { _ = try builder.build(root: root) }
        #expect(message.contains("more than 200 layers"), "\(message)")
    }

    @Test("masks in a cycle (A.mask = B, B.mask = A): each drawn once, the cycle diagnosed")
    func maskCycle() throws {
        let a = CALayer(), b = CALayer()
        a.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        b.frame = a.frame
        a.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        b.backgroundColor = a.backgroundColor
        a.mask = b
        b.mask = a
        let root = CALayer()
        root.frame = a.frame
        root.addSublayer(a)
        let list = try RenderListBuilder(viewport: root.frame).build(root: root)
        #expect(list.diagnostics.contains { $0.contains("mask") }, "\(list.diagnostics)")
        for backend in RenderBackend.allCases { _ = try root.renderedImage(backend: backend) }
    }

    @Test("a replicator asked for 10^9 instances draws 10,000 and says so")
    func hugeReplicator() throws {
        let replicator = CAReplicatorLayer()
        replicator.instanceCount = 1_000_000_000
        replicator.instanceTransform = CATransform3DMakeTranslation(0.001, 0, 0)
        let dot = CALayer()
        dot.frame = CGRect(x: 0, y: 0, width: 2, height: 2)
        dot.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        replicator.addSublayer(dot)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        root.addSublayer(replicator)
        let list = try RenderListBuilder(viewport: root.frame).build(root: root)
        #expect(list.diagnostics.contains { $0.contains("10000") || $0.contains("10,000") }, "\(list.diagnostics)")
        #expect(list.passes.last!.ops.count == 10_000)
    }
}
