// CATiledLayer in scene documents: its "drawing" draws what the same Core Graphics calls in a
// subclass's draw(in:) draw, images and text stand upright, repeated groups draw only the copies
// a tile meets, mistakes are named by path, the drawing writes back unchanged, and a tiled layer
// drawn by code is refused by the encoder rather than written without its content.
import Foundation
import OpenQuartzCore
import PixelDiff
import SceneCatalog
import SceneFormat
import Testing

/// A 2 x 2 image: red top left, green top right, blue bottom left, white bottom right.
private func quadrants() -> CGImage {
    let context = CGContext(width: 2, height: 2)!
    // Core Graphics' bitmap contexts are y up: the top row is at y 1.
    for (x, y, color) in [(0, 1, (1.0, 0.0, 0.0)), (1, 1, (0.0, 1.0, 0.0)), (0, 0, (0.0, 0.0, 1.0)), (1, 0, (1.0, 1.0, 1.0))] {
        context.setFillColor(red: color.0, green: color.1, blue: color.2, alpha: 1)
        context.fill(CGRect(x: x, y: y, width: 1, height: 1))
    }
    return context.makeImage()!
}

private func render(_ root: CALayer, _ size: CGSize, backend: RenderBackend = .cpu) throws -> Bitmap {
    try CARenderer.image(of: root, bounds: CGRect(origin: .zero, size: size), scale: 1, backend: backend, atTime: 0).bitmap
}

/// A folder holding quadrants.png, removed after `body`.
private func withImageFolder<T>(_ body: (URL) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-tiled-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try quadrants().writePNG(to: folder.appendingPathComponent("quadrants.png"))
    return try body(folder)
}

/// The drawing the tests' documents hold, as code would draw it in draw(in:).
private final class CodeDrawnTiles: CATiledLayer, @unchecked Sendable {
    var image: CGImage?
    override func draw(in ctx: CGContext) {
        ctx.setFillColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
        ctx.addPath(CGPath(roundedRect: CGRect(x: 10, y: 10, width: 100, height: 60), cornerWidth: 12, cornerHeight: 12, transform: nil))
        ctx.fillPath()
        ctx.setStrokeColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        ctx.setLineWidth(6)
        ctx.setLineCap(.round)
        ctx.move(to: CGPoint(x: 20, y: 150))
        ctx.addLine(to: CGPoint(x: 380, y: 190))
        ctx.strokePath()
        for row in 0..<3 {
            for column in 0..<20 {
                ctx.setFillColor(red: 0, green: 0, blue: 0, alpha: 1)
                ctx.fillEllipse(in: CGRect(x: 130 + CGFloat(column) * 12, y: 20 + CGFloat(row) * 12, width: 8, height: 8))
            }
        }
        if let image {
            // Upright in the layer's y-down space: turned over about the rectangle's middle.
            ctx.saveGState()
            ctx.translateBy(x: 0, y: 90 + 130)
            ctx.scaleBy(x: 1, y: -1)
            ctx.draw(image, in: CGRect(x: 20, y: 90, width: 40, height: 40))
            ctx.restoreGState()
        }
    }
}

private let drawingJSON = #"""
[{"fill": {"roundedRect": [10, 10, 100, 60], "radius": 12}, "color": [0.2, 0.4, 0.8, 1]},
 {"stroke": "M 20 150 L 380 190", "color": [1, 0.5, 0, 1], "lineWidth": 6, "lineCap": "round"},
 {"repeat": [20, 3], "step": [12, 12], "drawing": [{"fill": {"ellipse": [130, 20, 8, 8]}}]},
 {"image": "quadrants.png", "rect": [20, 90, 40, 40]}]
"""#

private func tiledDocument(_ drawing: String, tileSize: Int = 64, transactions: String? = nil) -> String {
    #"{"format": "openquartz-scene", "version": 1, "size": [400, 220], "root": {"frame": [0, 0, 400, 220], "backgroundColor": "white", "sublayers": ["#
        + #"{"class": "CATiledLayer", "name": "tiles", "frame": [0, 0, 400, 220], "tileSize": [\#(tileSize), \#(tileSize)], "#
        + #""drawing": \#(drawing)}]}"# + (transactions.map { #", "transactions": "# + $0 } ?? "") + "}"
}

@Suite("Tiled layers in scene documents")
struct TiledDocumentTests {
    @Test("a document's drawing draws the tiles the same Core Graphics calls draw, on both backends")
    func drawsAsCodeDoes() throws {
        try withImageFolder { folder in
            let document = try SceneDocument(data: Data(tiledDocument(drawingJSON).utf8), baseDirectory: folder)
            let root = document.makePlayer().root
            let tiled = try #require(root.sublayers?.first as? CATiledLayer)
            #expect(tiled.tileSize == CGSize(width: 64, height: 64))
            let fromDocument = try render(root, document.size)

            let code = CALayer()
            code.frame = CGRect(x: 0, y: 0, width: 400, height: 220)
            code.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            let tiles = CodeDrawnTiles()
            tiles.frame = code.frame
            tiles.tileSize = CGSize(width: 64, height: 64)
            tiles.image = try CGImage.load(contentsOf: folder.appendingPathComponent("quadrants.png"))
            code.addSublayer(tiles)
            let fromCode = try render(code, document.size)
            let differing = zip(fromDocument.pixels, fromCode.pixels).filter { $0 != $1 }.count
            if differing > 0 {
                try? CGImage(bitmap: fromDocument).writePNG(to: URL(fileURLWithPath: "/tmp/td/doc.png"))
                try? CGImage(bitmap: fromCode).writePNG(to: URL(fileURLWithPath: "/tmp/td/code.png"))
            }
            #expect(differing == 0, "the document's tiles differ from the same drawing in code in \(differing) bytes")
            #expect(tiled.tilesDrawn > 1, "drawn as one tile: \(tiled.tilesDrawn)")

            let gpu = try render(document.makePlayer().root, document.size, backend: .gpu)
            let report = try ImageComparison.compare(fromDocument, gpu, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
            #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "GPU vs CPU: \(report)")
        }
    }

    @Test("images stand upright and text stands on its baseline, as the layer shows them")
    func upright() throws {
        try withImageFolder { folder in
            let text = tiledDocument(#"[{"image": "quadrants.png", "rect": [20, 20, 40, 40]}, {"text": "HHHH", "at": [100, 100], "fontSize": 40}]"#)
            let document = try SceneDocument(data: Data(text.utf8), baseDirectory: folder)
            let frame = try render(document.makePlayer().root, document.size)
            // The image's red corner (its top left) at the rectangle's top left on screen.
            let topLeft = frame[25, 25], bottomLeft = frame[25, 55]
            #expect(topLeft.0 > 200 && topLeft.2 < 60, "top left of the image: \(topLeft)")
            #expect(bottomLeft.2 > 200 && bottomLeft.0 < 60, "bottom left of the image: \(bottomLeft)")
            // Capital letters' ink lies above the baseline (y 100), none below it.
            var above = 0, below = 0
            for y in 60..<140 {
                for x in 100..<260 where frame[x, y].0 < 128 { if y < 100 { above += 1 } else { below += 1 } }
            }
            #expect(above > 500 && below < 20, "ink above the baseline \(above), below \(below)")
        }
    }

    @Test("a repeated group's copies that meet a span are found by arithmetic, as a brute-force search finds them")
    func copiesMeetingASpan() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: 1...40, using: &generator)
            let step = [0, 3, -3, 7.5, -0.25, 40][Int.random(in: 0...5, using: &generator)]
            let from = Double.random(in: -100...100, using: &generator), to = from + Double.random(in: 0...30, using: &generator)
            let low = Double.random(in: -200...200, using: &generator), high = low + Double.random(in: 0...80, using: &generator)
            let meeting = (0..<count).filter { k in from + Double(k) * step <= high && to + Double(k) * step >= low }
            let found = SceneDrawing.copies(count: count, step: step, from: from, to: to, meeting: low, high)
            if meeting.isEmpty { continue }
            guard let range = found else {
                Issue.record("none found for count \(count) step \(step) [\(from), \(to)] in [\(low), \(high)]")
                continue
            }
            #expect(meeting.allSatisfy(range.contains), "\(range) misses \(meeting)")
            // At most a copy more at either end, which the items' own boxes then skip.
            #expect(range.count <= meeting.count + 2, "\(range) for \(meeting)")
        }
        #expect(SceneDrawing.copies(count: 5, step: 10, from: 0, to: 5, meeting: 100, 200) == nil)
        #expect(SceneDrawing.copies(count: 1_000_000, step: 20, from: 0, to: 10, meeting: 1_000, 1_100) == 49...55)
    }

    @Test("each mistake in a drawing is named by its path")
    func mistakes() {
        func check(_ drawing: String, _ path: String, _ words: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let found = issues(tiledDocument(drawing))
            #expect(found.contains { $0.path == path && $0.message.contains(words) }, "\(found)", sourceLocation: sourceLocation)
        }
        let at = "root.sublayers[0].drawing"
        check(#"{"fill": "M 0 0"}"#, at, "expected a drawing")
        check(#"[{"fil": "M 0 0 L 1 1"}]"#, "\(at)[0]", "did you mean \"fill\"")
        check(#"[{"fill": "M 0 0 L 1 1", "stroke": "M 0 0 L 1 1"}]"#, "\(at)[0]", "not both")
        check(#"[{"fill": "M 0 0 L 1 1", "lineWidth": 3}]"#, "\(at)[0].lineWidth", "belongs to a \"stroke\" item")
        check(#"[{"fill": null}]"#, "\(at)[0].fill", "got null")
        check(#"[{"stroke": "M 0 0 L 1 1", "lineDashPattern": [0, 0]}]"#, "\(at)[0].lineDashPattern", "not all 0")
        check(#"[{"image": "none.png", "rect": [0, 0, 1, 1]}]"#, "\(at)[0].image", "none.png")
        check(#"[{"text": "a"}]"#, "\(at)[0]", "needs its \"at\"")
        check(#"[{"repeat": [2], "step": [1, 1], "drawing": []}]"#, "\(at)[0].repeat", "[columns, rows]")
        check(#"[{"repeat": [2, 2.5], "step": [1, 1], "drawing": []}]"#, "\(at)[0].repeat[1]", "whole number")
        check(#"[{"repeat": [2, 2], "step": [1, 1], "drawing": [{"stroke": 5}]}]"#, "\(at)[0].drawing[0].stroke", "expected a path")
        let nested = (0..<5).reduce(#"[{"fill": "M 0 0 L 1 1"}]"#) { inner, _ in #"[{"repeat": [1, 1], "step": [0, 0], "drawing": \#(inner)}]"# }
        // Five repeats inside one another: the fifth's drawing is one level too deep (four nest, as docs/cli.md says).
        check(nested, "\(at)[0].drawing[0].drawing[0].drawing[0].drawing[0].drawing", "nest at most 4 deep")
        let many = #"[{"repeat": [1000, 1000], "step": [1, 1], "drawing": [{"fill": "M 0 0 L 1 1"}, {"fill": "M 0 0 L 1 1"}]}]"#
        check(many, at, "2000000 items")
        // A drawing is content, not a value an animation interpolates.
        let animated = sceneText(root: #"{"class": "CATiledLayer", "animations": [{"keyPath": "drawing", "toValue": []}]}"#)
        #expect(issues(animated).contains { $0.path == "root.animations[0].keyPath" && $0.message.contains("not an animatable key path") },
                "\(issues(animated))")
        // Two mistakes in two items: both reported.
        #expect(issues(tiledDocument(#"[{"fill": 1}, {"stroke": "M 0 0 L 1 1", "lineJoin": "sharp"}]"#)).count == 2)
    }

    @Test("a drawing writes back as it was read, and renders the same after the round trip")
    func roundTrip() throws {
        try withImageFolder { folder in
            let document = try SceneDocument(data: Data(tiledDocument(drawingJSON, tileSize: 100).utf8), baseDirectory: folder)
            let encoder = SceneEncoder { _ in "quadrants.png" }
            let first = try encoder.text(root: document.makePlayer().root, size: document.size)
            #expect(first.contains(#""class": "CATiledLayer""#) && first.contains(#""drawing""#) && first.contains(#""repeat""#))
            let again = try SceneDocument(data: Data(first.utf8), baseDirectory: folder)
            #expect(try encoder.text(root: again.makePlayer().root, size: again.size) == first)
            let before = try render(document.makePlayer().root, document.size), after = try render(again.makePlayer().root, again.size)
            #expect(before.pixels == after.pixels, "the round trip renders differently")
        }
    }

    @Test("a transaction's new drawing drops the tiles drawn before it")
    func transactionRedraws() throws {
        let text = tiledDocument(#"[{"fill": {"rect": [0, 0, 400, 220]}, "color": "red"}]"#,
                                 transactions: #"[{"time": 1, "changes": [{"layer": "tiles", "set": {"drawing": [{"fill": {"rect": [0, 0, 400, 220]}, "color": "blue"}]}}]}]"#)
        let player = try SceneDocument(data: Data(text.utf8)).makePlayer()
        player.advance(to: 0.5)
        let before = try CARenderer.image(of: player.root, bounds: CGRect(x: 0, y: 0, width: 400, height: 220), scale: 1, backend: .cpu, atTime: 0.5).bitmap
        player.advance(to: 2)
        let after = try CARenderer.image(of: player.root, bounds: CGRect(x: 0, y: 0, width: 400, height: 220), scale: 1, backend: .cpu, atTime: 2).bitmap
        #expect(before[200, 100].0 == 255 && before[200, 100].2 == 0, "\(before[200, 100])")
        #expect(after[200, 100].2 == 255 && after[200, 100].0 == 0, "\(after[200, 100])")
    }

    @Test("a tiled layer drawn by code is refused by the encoder, naming the layer, not written without its content")
    func codeDrawnTiledLayerRefused() throws {
        let scene = try #require(DemoScene.named("tiled-map"))
        let encoder = SceneEncoder { _ in "image.png" }
        #expect {
            try encoder.text(root: scene.build(), size: scene.size)
        } throws: { error in
            guard case .unrepresentable(let issue) = error as? SceneError else { return false }
            return issue.path == "root.sublayers[0].sublayers[0]" && issue.message.contains("MapTiles") && issue.message.contains("\"drawing\"")
        }
        final class Painter: NSObject, CALayerDelegate {
            func draw(_ layer: CALayer, in ctx: CGContext) { ctx.fill(CGRect(x: 0, y: 0, width: 5, height: 5)) }
        }
        let painter = Painter()
        let root = CALayer(), tiled = CATiledLayer()
        tiled.delegate = painter
        root.addSublayer(tiled)
        #expect {
            try encoder.text(root: root, size: CGSize(width: 10, height: 10))
        } throws: { error in
            guard case .unrepresentable(let issue) = error as? SceneError else { return false }
            return issue.path == "root.sublayers[0]" && issue.message.contains("its delegate")
        }
        // A tiled layer drawing nothing writes as one.
        tiled.delegate = nil
        #expect(try encoder.text(root: root, size: CGSize(width: 10, height: 10)).contains(#""class": "CATiledLayer""#))
        withExtendedLifetime(painter) {}
    }
}
