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
        // 59 bytes whose header claims 16384 x 16384: refused before 1 GiB is allocated.
        ("png-lying-header.png", "the file's 59 bytes cannot hold the 16384x16384 pixels its header claims"),
        ("gif-lying-frame.gif", "frame 0: the file's last 5 bytes cannot hold the 16384x16384 pixels it claims"),
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
        ("scene-image-absolute.json", "root.contents: the image \"/etc/passwd\" is not a readable file inside the document's assets folder"),
        ("scene-image-climbs.json", "is not a readable file inside the document's assets folder"),
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

    // MARK: Robustness II (issue 18)

    @Test("a path outside the assets folder answers exactly as a missing file does: absolute, climbing, through a link, or absent")
    func confinedImages() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-assets-\(UUID().uuidString)")
        let assets = root.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let secret = root.appendingPathComponent("secret.png")
        try CGImage(bitmap: Bitmap(width: 2, height: 2) { _, _ in (1, 2, 3, 255) }).writePNG(to: secret)
        try FileManager.default.createSymbolicLink(atPath: assets.appendingPathComponent("out.png").path, withDestinationPath: secret.path)
        try CGImage(bitmap: Bitmap(width: 2, height: 2) { _, _ in (9, 9, 9, 255) }).writePNG(to: assets.appendingPathComponent("sub/in.png"))
        func message(_ file: String) -> String {
            let text = ##"{"format": "openquartz-scene", "version": 1, "root": {"contents": "##
                + "\"\(file)\"}}"
            // The message with the name as given (quoted, perhaps shortened) taken out.
            return errorText { _ = try SceneDocument(data: Data(text.utf8), baseDirectory: assets) }
                .replacingOccurrences(of: #"the image ".*" is"#, with: "the image FILE is", options: .regularExpression)
        }
        let missing = message("no-such.png")
        #expect(missing.contains("is not a readable file inside the document's assets folder"), "\(missing)")
        for probe in [secret.path, "../secret.png", "sub/../../secret.png", "out.png", "/etc/shadow", "/etc/no-such-file", "sub", ""] {
            #expect(message(probe) == missing, "\(probe): \(message(probe))")
        }
        // Inside the folder, through a sub-folder and "..", an image is read.
        let inside = ##"{"format": "openquartz-scene", "version": 1, "root": {"contents": "sub/../sub/in.png"}}"##
        #expect(throws: Never.self) { _ = try SceneDocument(data: Data(inside.utf8), baseDirectory: assets) }
    }

    @Test("PNG, JPEG and GIF images in a document are read by their bytes, whatever their names")
    func everyImageFormat() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = CGImage(bitmap: Bitmap(width: 16, height: 16) { _, _ in (200, 40, 40, 255) })
        try image.jpegData(quality: 95).write(to: folder.appendingPathComponent("photo.jpg"))
        var gif = GIFEncoder(width: 16, height: 16, fps: 10)
        try gif.add(try GIFEncoder.quantize(image.bitmap))
        try gif.encoded().write(to: folder.appendingPathComponent("anim.gif"))
        try image.writePNG(to: folder.appendingPathComponent("really-a-png.jpg"))
        for file in ["photo.jpg", "anim.gif", "really-a-png.jpg"] {
            let text = ##"{"format": "openquartz-scene", "version": 1, "size": [16, 16], "root": {"frame": [0, 0, 16, 16], "contents": "##
                + "\"\(file)\"}}"
            let document = try SceneDocument(data: Data(text.utf8), baseDirectory: folder)
            let rendered = try document.makePlayer().presentation().renderedImage(backend: .cpu)
            let centre = (8 * 16 + 8) * 4
            let pixel = Array(rendered.bitmap.pixels[centre..<centre + 4])
            #expect(abs(Int(pixel[0]) - 200) <= 6 && abs(Int(pixel[1]) - 40) <= 6 && pixel[3] == 255, "\(file): \(pixel)")
        }
    }

    @Test("200,000 unknown keys: the first 100 listed and the rest counted; a 5,000,000-character key is named in 60")
    func manyMistakes() throws {
        let members = (0..<200_000).map { "\"k\($0)\": 1" }.joined(separator: ", ")
        let text = ##"{"format": "openquartz-scene", "version": 1, "root": {"## + members + "}}"
        let result = Result { try SceneDocument(data: Data(text.utf8)) }
        guard case .failure(let error) = result, case .invalid(let issues) = error as? SceneError else {
            Issue.record("expected the mistakes listed, got \(result)")
            return
        }
        #expect(issues.count == 101, "\(issues.count)")
        #expect(issues.last?.description == "document: 199900 more mistakes, not listed (the first 100 are)", "\(issues.last!)")
        let key = String(repeating: "a", count: 5_000_000)
        let long = errorText { _ = try SceneDocument(data: Data((##"{"format": "openquartz-scene", "version": 1, "root": {""## + key + ##"": 1}}"##).utf8)) }
        #expect(long.count < 300 && long.contains("(5000000 characters)"), "\(long.prefix(400))")
    }

    @Test("text over the limits is refused with its path: 2,000,000 characters, 20,000 lines, 20,000 runs")
    func hugeText() throws {
        func text(_ string: String) -> String {
            ##"{"format": "openquartz-scene", "version": 1, "root": {"sublayers": [{"class": "CATextLayer", "string": "##
                + string + "}]}}"
        }
        let long = errorText { _ = try SceneDocument(data: Data(text("\"" + String(repeating: "word ", count: 400_000) + "\"").utf8)) }
        #expect(long.contains("root.sublayers[0].string: the text has 2000000 characters, more than the limit of 100000"), "\(long)")
        let lines = errorText { _ = try SceneDocument(data: Data(text("\"" + String(repeating: "\\n", count: 20_000) + "\"").utf8)) }
        #expect(lines.contains("the text has 20001 lines, more than the limit of 10000"), "\(lines)")
        let runs = "[" + Array(repeating: ##"{"text": "a"}"##, count: 20_000).joined(separator: ",") + "]"
        #expect(errorText { _ = try SceneDocument(data: Data(text(runs).utf8)) }.contains("20000 text runs, more than the limit of 10000"))
    }

    @Test("a text layer given more than TextLimits lays out and draws that much, in time")
    func textLayerLimits() throws {
        let layer = CATextLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 200, height: 40)
        layer.fontSize = 12
        layer.isWrapped = true
        layer.string = String(repeating: "words ", count: 100_000)
        let laidOut = layer.layoutLines().reduce(0) { $0 + $1.count }
        #expect(laidOut > 50_000 && laidOut <= TextLimits.current.maxCharacters, "\(laidOut)")
        let image = try layer.renderedImage(backend: .cpu)
        #expect(image.bitmap.pixels.contains { $0 != 0 })
    }

    @Test("a timeline advanced to 1e19 or infinity stops at the timeline limit instead of trapping")
    func farTimes() throws {
        let text = ##"{"format": "openquartz-scene", "version": 1, "root": {"name": "a", "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1, "repeatCount": 1e9}]}}"##
        let player = try SceneDocument(data: Data(text.utf8)).makePlayer()
        player.advance(to: 1e19)
        #expect(player.time == SceneLimits.standard.maxDuration)
        player.advance(to: .infinity)
        player.advance(to: .nan)
        #expect(player.time == SceneLimits.standard.maxDuration)
    }

    /// A chain of `depth` shadowed layers, each also rasterized and masked unless told not to:
    /// drawn anew for each shadow and group around it, every level doubled the passes.
    private func nestedEffects(depth: Int, rasterizedAndMasked: Bool = true) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 150)
        var parent = root
        for level in 0..<depth {
            let layer = CALayer()
            layer.frame = CGRect(x: 2, y: 2, width: 200 - Double(level) * 3, height: 150 - Double(level) * 2)
            layer.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 0.5)
            layer.shadowOpacity = 0.5
            layer.shadowRadius = 3
            if rasterizedAndMasked {
                layer.shouldRasterize = true
                let mask = CALayer()
                mask.frame = layer.bounds.insetBy(dx: 4, dy: 4)
                mask.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
                mask.cornerRadius = 8
                layer.mask = mask
            }
            parent.addSublayer(layer)
            parent = layer
        }
        return root
    }

    /// The depth a chain of nested effects is rendered at: `depth` in the optimized suite
    /// (`make test-release`, CI), two thirds of it in a debug build (`make test`, the sanitizers).
    static func renderedDepth(_ depth: Int) -> Int {
        #if DEBUG
        depth * 2 / 3
        #else
        depth
        #endif
    }

    @Test("nested layers each rasterized, masked and shadowed: passes grow linearly with the depth, not as 2^depth")
    func nestedEffectsAreLinear() throws {
        func passes(_ depth: Int) throws -> Int {
            let root = nestedEffects(depth: depth)
            return try RenderListBuilder(viewport: root.frame, scale: 2).build(root: root).passes.count
        }
        let (ten, twenty, thirty) = (try passes(10), try passes(20), try passes(30))
        // Ten levels more add no more passes than the ten before did (deeper levels, under more
        // masks, can need fewer: a mask's pass holds only what the masks above it let show).
        #expect(thirty - twenty <= twenty - ten, "\(ten), \(twenty), \(thirty)")
        #expect(thirty < 30 * 20, "\(thirty)")
        // The whole chain renders, and both backends agree on it: 60 deep in the optimized suite,
        // 40 in a debug build (2^40 passes before; 60 deep took 11 s there).
        let root = nestedEffects(depth: Self.renderedDepth(60))
        let cpu = try root.renderedImage(backend: .cpu), gpu = try root.renderedImage(backend: .gpu)
        let worst = zip(cpu.bitmap.pixels, gpu.bitmap.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 4, "GPU and CPU differ by \(worst)")
    }

    @Test("nested shadowed layers (offscreen shadows, each the shape of the subtree): passes grow linearly with the depth")
    func nestedShadowsAreLinear() throws {
        func chain(_ depth: Int) -> CALayer { nestedEffects(depth: depth, rasterizedAndMasked: false) }
        func passes(_ depth: Int) throws -> Int {
            let root = chain(depth)
            return try RenderListBuilder(viewport: root.frame).build(root: root).passes.count
        }
        let (ten, twenty, thirty) = (try passes(10), try passes(20), try passes(30))
        #expect(twenty - ten == thirty - twenty, "\(ten), \(twenty), \(thirty)")
        #expect(thirty < 30 * 10, "\(thirty)")
        // 30 deep drew 2^30 shadow shapes before; now it draws, and the innermost layer shows (20
        // deep in a debug build, where 30 took 24 s: 2^20 shapes before).
        let image = try chain(Self.renderedDepth(30)).renderedImage(backend: .cpu)
        #expect(image.bitmap.pixels[((75 * 200) + 100) * 4 + 3] == 255)
    }

    @Test("the frame's pass budget (RenderLimits.maxPasses, maxPassPixels) is named as the list is built, before anything is drawn")
    func passBudget() throws {
        let root = nestedEffects(depth: 10)
        var builder = RenderListBuilder(viewport: root.frame, scale: 16)
        let list = try builder.build(root: root)
        let offscreen = list.passes.dropLast()
        builder.limits.maxPasses = offscreen.count - 1
        let count = errorText { _ = try builder.build(root: root) }
        #expect(count.contains("more than \(offscreen.count - 1) offscreen passes (RenderLimits.maxPasses)"), "\(count)")
        builder.limits.maxPasses = offscreen.count
        #expect(throws: Never.self) { _ = try builder.build(root: root) }
        let pixels = offscreen.reduce(0) { $0 + $1.width * $1.height }
        #expect(pixels > 3200 * 2400, "\(pixels)")
        builder.limits.maxPassPixels = pixels - 1
        let message = errorText { _ = try builder.build(root: root) }
        #expect(message.contains("more than \(pixels - 1) pixels (RenderLimits.maxPassPixels)"), "\(message)")
        builder.limits.maxPassPixels = pixels
        #expect(throws: Never.self) { _ = try builder.build(root: root) }
        // The default budget: 10,001 rasterized layers, each its own pass.
        let many = CALayer()
        many.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        for i in 0..<10_001 {
            let layer = CALayer()
            layer.frame = CGRect(x: Double(i % 100), y: Double(i / 100), width: 2, height: 2)
            layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            layer.shouldRasterize = true
            many.addSublayer(layer)
        }
        for backend in RenderBackend.allCases {
            let rendered = errorText { _ = try many.renderedImage(backend: backend) }
            #expect(rendered.contains("more than 10000 offscreen passes (RenderLimits.maxPasses)"), "\(backend): \(rendered)")
        }
    }

    @Test("control characters in keys and strings are shown escaped: a NUL or a terminal escape never reaches a message raw")
    func controlCharactersEscaped() {
        let text = #"{"format": "openquartz-scene", "version": 1, "root": {"a\u0000b\u001b[2J": 1, "compositingFilter": "x\u0007"}}"#
        let message = errorText { _ = try SceneDocument(data: Data(text.utf8)) }
        #expect(message.contains(#"a\u{0}b\u{1b}[2J"#), "\(message.debugDescription)")
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(message.debugDescription)")
    }

    @Test("every compositingFilter name the renderer honours is one a document may say, Core Image's CI names included")
    func compositingFilterNamesAgree() throws {
        for name in BlendMode.acceptedCompositingFilterNames {
            #expect(BlendMode(compositingFilter: name) != nil, "the renderer refuses \(name)")
            let text = #"{"format": "openquartz-scene", "version": 1, "root": {"compositingFilter": "\#(name)"}}"#
            #expect(throws: Never.self, "\(name)") { _ = try SceneDocument(data: Data(text.utf8)) }
        }
        #expect(BlendMode.acceptedCompositingFilterNames.contains("CIMultiplyBlendMode"))
        #expect(BlendMode.acceptedCompositingFilterNames.contains("xor"))
        #expect(!BlendMode.acceptedCompositingFilterNames.contains("CIXor"), "Core Animation's own names have no CI form")
        // Each Core Image name twice (bare and CI-prefixed), each of Core Animation's own once.
        let coreImage = BlendMode.compositingFilterNames.filter { $0.name.hasSuffix("BlendMode") || $0.name.hasSuffix("Compositing") }
        #expect(BlendMode.acceptedCompositingFilterNames.count == BlendMode.compositingFilterNames.count + coreImage.count)
    }
}
