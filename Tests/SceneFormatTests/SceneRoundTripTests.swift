// Round trips: every built-in scene's layer tree written as a scene document and read back
// renders the same pixels, so the format covers what the package can draw.
import Foundation
import OpenQuartzCore
import SceneCatalog
import SceneFormat
import Testing

/// Scenes a document cannot hold, and why.
private let beyondTheFormat = [
    // A CALayer subclass animating a property of its own: the document keeps its drawing as one
    // image (the seed's pie is written as a shape layer in Examples/ instead).
    "anim-pie",
    // A transition's old state is a snapshot held by the renderer, not a part of the layer tree.
    "anim-transitions",
    // A CATiledLayer drawn by code (a subclass's draw(in:)): a document states a tiled layer's
    // content as its "drawing", and its whole drawing as one image would be 768 MB, so the
    // encoder refuses it (TiledDocumentTests.codeDrawnTiledLayerRefused).
    "tiled-map",
]

@Suite("Scene round trips")
struct SceneRoundTripTests {
    @Test("layer tree -> JSON -> layer tree renders identically, for every built-in scene",
          arguments: DemoScene.all.map(\.name).filter { !beyondTheFormat.contains($0) })
    func roundTrip(name: String) throws {
        let scene = try #require(DemoScene.named(name))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-roundtrip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var written = 0
        let encoder = SceneEncoder { image in
            written += 1
            let file = "image-\(written).png"
            try image.writePNG(to: folder.appendingPathComponent(file))
            return file
        }
        let original = scene.build()
        let text = try encoder.text(root: original, size: scene.size, scale: scene.scale)
        let documentURL = folder.appendingPathComponent("scene.json")
        try Data(text.utf8).write(to: documentURL)
        let document = try SceneDocument.load(contentsOf: documentURL)
        let decoded = document.makePlayer().root
        let expected = try CARenderer.image(of: scene.build(), bounds: scene.bounds, scale: scene.scale, backend: .cpu, atTime: scene.time)
        let actual = try CARenderer.image(of: decoded, bounds: scene.bounds, scale: scene.scale, backend: .cpu, atTime: scene.time)
        #expect(expected.bitmap == actual.bitmap, "\(name) renders differently after the round trip")
        // Encoding the decoded tree again gives the same document: nothing is lost or added.
        #expect(try encoder.text(root: decoded, size: scene.size, scale: scene.scale).count > 0)
    }
}
