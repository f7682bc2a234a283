// One work budget a frame (`FrameWork`, `RenderLimits`): documents within every per-document
// limit whose work multiplies past a frame's (16 emitters at their caps, a replicator of 10,000
// emitters, 10^6 stacked copies in one tile, thousands of full-frame translucent layers) are
// refused before drawing, naming what was counted and the limit; the time to refuse stays small.
// Repeated groups nest as deep as docs/cli.md says, and no deeper.
import Compositor
import Foundation
import OpenQuartzCore
import SceneFormat
import Testing

@Suite("The frame's work budget")
struct FrameBudgetTests {
    /// `body` rendered on `backend` at the document's time: the error's text, or "drawn".
    static func render(_ text: String, folder: URL? = nil, backend: RenderBackend = .cpu) throws -> (String, Double) {
        let document = try SceneDocument(data: Data(text.utf8), baseDirectory: folder)
        let player = document.makePlayer()
        player.advance(to: document.time)
        let start = Date()
        let outcome: String
        do {
            _ = try CARenderer.image(of: player.root, bounds: CGRect(origin: .zero, size: document.size), scale: 1, backend: backend,
                                     atTime: document.time)
            outcome = "drawn"
        } catch { outcome = "\(error)" }
        return (outcome, Date().timeIntervalSince(start))
    }

    /// The render list of `text`'s presentation at its time, built with `limits`: the error's
    /// text, or "built". (The limits of one builder, not the process's: tests run at once.)
    static func build(_ text: String, limits: RenderLimits) throws -> String {
        let document = try SceneDocument(data: Data(text.utf8))
        let player = document.makePlayer()
        player.advance(to: document.time)
        var builder = RenderListBuilder(viewport: CGRect(origin: .zero, size: document.size), scale: 1)
        builder.limits = limits
        do { _ = try builder.build(root: player.presentation()) } catch { return "\(error)" }
        return "built"
    }

    static func document(_ sublayers: [String], size: (Int, Int) = (320, 240), time: Double = 0) -> String {
        #"{"format": "openquartz-scene", "version": 1, "size": [\#(size.0), \#(size.1)], "time": \#(time), "duration": 100, "#
            + #""root": {"frame": [0, 0, \#(size.0), \#(size.1)], "sublayers": ["# + sublayers.joined(separator: ",") + "]}}"
    }

    /// A folder with a 4 x 4 white spark.png, for emitter cells.
    static func sparkFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("budget-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let context = try #require(CGContext(width: 4, height: 4))
        context.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        try #require(context.makeImage()).writePNG(to: folder.appendingPathComponent("spark.png"))
        return folder
    }

    static func emitter(birthRate: Double, lifetime: Double, contents: Bool) -> String {
        #"{"class": "CAEmitterLayer", "frame": [0, 0, 320, 240], "emitterPosition": [160, 120], "emitterCells": [{"birthRate": \#(birthRate), "#
            + #""lifetime": \#(lifetime), "velocity": 10\#(contents ? #", "contents": "spark.png""# : "")}]}"#
    }

    @Test("16 emitters at their own caps: refused once the frame's particle simulation steps pass 2,000,000")
    func manyEmittersAtTheirCaps() throws {
        let text = Self.document(Array(repeating: Self.emitter(birthRate: 1e6, lifetime: 100, contents: false), count: 16), time: 50)
        let (outcome, seconds) = try Self.render(text)
        #expect(outcome.contains("particle simulation steps, more than the limit of 2000000 a frame (RenderLimits.maxParticleSteps)"), "\(outcome)")
        #expect(seconds < 60, "refused in \(seconds) s")
    }

    @Test("a replicator of 10,000 copies of one emitter: refused once the frame's particles pass 200,000")
    func replicatedEmitter() throws {
        let folder = try Self.sparkFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let replicator = #"{"class": "CAReplicatorLayer", "frame": [0, 0, 320, 240], "instanceCount": 10000, "sublayers": ["#
            + Self.emitter(birthRate: 500, lifetime: 4, contents: true) + "]}"
        let (outcome, seconds) = try Self.render(Self.document([replicator], time: 5), folder: folder)
        #expect(outcome.contains("particles, more than the limit of 200000 a frame (RenderLimits.maxParticles)"), "\(outcome)")
        #expect(seconds < 60, "refused in \(seconds) s")
        // One copy is well within it and drawn.
        let one = #"{"class": "CAReplicatorLayer", "frame": [0, 0, 320, 240], "instanceCount": 2, "sublayers": ["#
            + Self.emitter(birthRate: 500, lifetime: 4, contents: true) + "]}"
        #expect(try Self.render(Self.document([one], time: 5), folder: folder).0 == "drawn")
    }

    static func tiled(_ drawing: String) -> String {
        #"{"class": "CATiledLayer", "frame": [0, 0, 320, 240], "tileSize": [256, 256], "drawing": "# + drawing + "}"
    }

    @Test("one tile holding 10^6 stacked copies of a drawing is refused before it is drawn; a map that spreads its items is drawn")
    func stackedCopiesInOneTile() throws {
        let stacked = ##"[{"repeat": [1000, 1000], "step": [0, 0], "drawing": [{"fill": "M 0 0 L 200 0 L 200 200 Z", "color": "#ff000001"}]}]"##
        let (outcome, seconds) = try Self.render(Self.document([Self.tiled(stacked)]))
        #expect(outcome.contains("drawing items in tiles, more than the limit of 1000000 a frame (RenderLimits.maxDrawingItems)"), "\(outcome)")
        #expect(seconds < 30, "refused in \(seconds) s")
        // Fewer copies, each the whole tile: the pixels they cover are counted too.
        var limits = RenderLimits.current
        limits.maxDrawingPixels = 1_000_000
        let covering = ##"[{"repeat": [10, 10], "step": [0, 0], "drawing": [{"fill": "M 0 0 L 320 0 L 320 240 L 0 240 Z", "color": "#ff000001"}]}]"##
        let pixels = try Self.build(Self.document([Self.tiled(covering)]), limits: limits)
        #expect(pixels.contains("pixels of drawing items in tiles, more than the limit of 1000000"), "\(pixels)")
        let spread = ##"[{"repeat": [100, 100], "step": [40, 40], "drawing": [{"fill": "M 0 0 L 10 0 L 10 10 Z", "color": "#336699"}]}]"##
        #expect(try Self.render(Self.document([Self.tiled(spread)])).0 == "drawn")
    }

    @Test("thousands of full-frame translucent layers are refused by the pixels they draw, before drawing")
    func fullFrameLayers() throws {
        let layer = ##"{"frame": [0, 0, 1280, 720], "backgroundColor": "#33669901"}"##
        let text = Self.document(Array(repeating: layer, count: 3_000), size: (1280, 720))
        let (outcome, seconds) = try Self.render(text)
        #expect(outcome.contains("drawn pixels (a textured or path pixel counts 8), more than the limit of 2147483648 a frame (RenderLimits.maxDrawnPixels)"),
                "\(outcome)")
        #expect(seconds < 30, "refused in \(seconds) s: nothing was drawn")
        // On the GPU alike: the budget is the render list's, before either backend.
        #expect(try Self.render(text, backend: .gpu).0.contains("RenderLimits.maxDrawnPixels"))
        // Textured pixels cost the CPU 110 times a solid one's: 300 full-frame images are refused too.
        let folder = try Self.sparkFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = #"{"frame": [0, 0, 1280, 720], "contents": "spark.png", "opacity": 0.05}"#
        let images = try Self.render(Self.document(Array(repeating: image, count: 300), size: (1280, 720)), folder: folder).0
        #expect(images.contains("RenderLimits.maxDrawnPixels"), "\(images)")
    }

    @Test("draws that blend with the backdrop count against their own budget")
    func blendPixels() throws {
        var limits = RenderLimits.current
        limits.maxBlendPixels = 100_000
        let layer = ##"{"frame": [0, 0, 320, 240], "backgroundColor": "#3366cc", "compositingFilter": "multiplyBlendMode"}"##
        let outcome = try Self.build(Self.document([layer, layer]), limits: limits)
        #expect(outcome.contains("pixels blended with the backdrop (compositingFilter), more than the limit of 100000"), "\(outcome)")
        #expect(try Self.build(Self.document([layer, layer]), limits: .standard) == "built")
        #expect(try Self.render(Self.document([layer, layer])).0 == "drawn")
    }

    @Test("repeated groups nest four deep, as docs/cli.md says; five is refused with its path")
    func repeatNesting() throws {
        func nested(_ depth: Int) -> String {
            var drawing = #"[{"fill": "M 0 0 L 1 0 L 1 1 Z"}]"#
            for _ in 0..<depth { drawing = #"[{"repeat": [2, 2], "step": [2, 2], "drawing": \#(drawing)}]"# }
            return Self.document([Self.tiled(drawing)])
        }
        #expect(throws: Never.self) { _ = try SceneDocument(data: Data(nested(4).utf8)) }
        do {
            _ = try SceneDocument(data: Data(nested(5).utf8))
            Issue.record("five nested repeats were read")
        } catch {
            #expect("\(error)".contains("repeated drawings nest at most 4 deep"), "\(error)")
        }
    }
}
