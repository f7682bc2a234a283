// Repeaters and gradients with opacity stops, drawn on the CPU reference and read back: what a
// shape item means is in the pixels, not in the layer tree that carries it.
import Compositor
import Foundation
import LayerModel
import LottieImport
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("Lottie shape items")
struct LottieShapeItemTests {
    /// A `width` x `height` document with one shape layer holding `shapes`, drawn at scale 1.
    static func draw(width: Int, height: Int, shapes: String) throws -> Bitmap {
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": \(width), "h": \(height), "layers": [
          {"ty": 4, "nm": "shapes", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {}, "shapes": \(shapes)}]}
        """
        let document = try LottieDocument(data: Data(json.utf8))
        #expect(!document.warnings.contains { $0.contains("not drawn") }, "\(document.warnings)")
        let root = try document.makeLayer()
        root.speed = 0
        let tree = root.presentationTree(atMediaTime: CACurrentMediaTime())
        return RasterRenderer().render(try RenderListBuilder(viewport: root.frame, scale: 1).build(root: tree))
    }

    static let square = #"{"ty": "rc", "s": {"a": 0, "k": [10, 10]}, "p": {"a": 0, "k": [5, 5]}, "r": {"a": 0, "k": 0}}"#
    static let red = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "r": 1}"#

    static func repeater(copies: Double, offset: Double, startOpacity: Double, endOpacity: Double) -> String {
        """
        {"ty": "rp", "c": {"a": 0, "k": \(copies)}, "o": {"a": 0, "k": \(offset)}, "m": 1,
         "tr": {"ty": "tr", "p": {"a": 0, "k": [30, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
                "r": {"a": 0, "k": 0}, "so": {"a": 0, "k": \(startOpacity)}, "eo": {"a": 0, "k": \(endOpacity)}}}
        """
    }

    @Test("a repeater draws what is above it c times, one more step of its transform each, opacity from so to eo")
    func repeaterCopies() throws {
        let bitmap = try Self.draw(width: 100, height: 10, shapes: """
            [{"ty": "gr", "it": [\(Self.square), \(Self.red), \(Self.repeater(copies: 3, offset: 0, startOpacity: 100, endOpacity: 50)),
              {"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}]}]
            """)
        // Copies at x 0-10, 30-40 and 60-70, at opacity 1, 0.75 and 0.5; nothing at 90.
        #expect(bitmap[5, 5] == (255, 0, 0, 255))
        #expect(abs(Int(bitmap[35, 5].3) - 191) <= 1 && bitmap[35, 5].0 == bitmap[35, 5].3)
        #expect(abs(Int(bitmap[65, 5].3) - 128) <= 1)
        #expect(bitmap[20, 5].3 == 0 && bitmap[95, 5].3 == 0)
    }

    @Test("a repeater's offset starts the copies that many steps in")
    func repeaterOffset() throws {
        let bitmap = try Self.draw(width: 100, height: 10, shapes: """
            [\(Self.square), \(Self.red), \(Self.repeater(copies: 3, offset: 1, startOpacity: 100, endOpacity: 100))]
            """)
        #expect(bitmap[5, 5].3 == 0)
        for x in [35, 65, 95] { #expect(bitmap[x, 5] == (255, 0, 0, 255), "x \(x)") }
    }

    @Test("a gradient's opacity stops apply at their own positions, not only at the colour stops")
    func opacityStops() throws {
        // White at 0 and 1; opacity 0 at 0, 1 at 0.25, 1 at 1 along x from 0 to 100.
        let bitmap = try Self.draw(width: 100, height: 10, shapes: """
            [{"ty": "rc", "s": {"a": 0, "k": [100, 10]}, "p": {"a": 0, "k": [50, 5]}, "r": {"a": 0, "k": 0}},
             {"ty": "gf", "t": 1, "o": {"a": 0, "k": 100}, "r": 1, "s": {"a": 0, "k": [0, 0]}, "e": {"a": 0, "k": [100, 0]},
              "g": {"p": 2, "k": {"a": 0, "k": [0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0.25, 1, 1, 1]}}}]
            """)
        // Pixel 12 covers t 0.12-0.13: alpha half; from 0.25 on, opaque (the colour stops alone
        // would give 0.5 at the middle).
        #expect(abs(Int(bitmap[12, 5].3) - 128) <= 2, "\(bitmap[12, 5])")
        #expect(bitmap[50, 5] == (255, 255, 255, 255) && bitmap[80, 5] == (255, 255, 255, 255))
    }

    @Test("a hostile repeater count is bounded, not trapped on")
    func hostileCopies() throws {
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 10, "layers": [
          {"ty": 4, "nm": "shapes", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {},
           "shapes": [\(Self.square), \(Self.red), \(Self.repeater(copies: 1e300, offset: 0, startOpacity: 100, endOpacity: 100))]}]}
        """
        let root = try LottieDocument(data: Data(json.utf8)).makeLayer()
        var counts: [Int] = []
        func walk(_ layer: CALayer) {
            if let replicator = layer as? CAReplicatorLayer { counts.append(replicator.instanceCount) }
            for sublayer in layer.sublayers ?? [] { walk(sublayer) }
        }
        walk(root)
        #expect(counts.count == 1 && counts.allSatisfy { $0 > 1 && $0 <= 1000 }, "\(counts)")
    }

    @Test("a star's or polygon's roundness, read and not drawn, is named in the warnings")
    func polystarRoundnessWarned() throws {
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100, "layers": [
          {"ty": 4, "nm": "shapes", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {}, "shapes": [
            {"ty": "sr", "sy": 2, "p": {"a": 0, "k": [50, 50]}, "pt": {"a": 0, "k": 5}, "or": {"a": 0, "k": 20}, "os": {"a": 0, "k": -10}, "r": {"a": 0, "k": 0}},
            \(Self.red)]}]}
        """
        let document = try LottieDocument(data: Data(json.utf8))
        _ = try document.makeLayer()
        #expect(document.warnings.contains { $0.contains("roundness (os, is) is not drawn") }, "\(document.warnings)")
        let plain = try LottieDocument(data: Data(json.replacingOccurrences(of: "-10", with: "0").utf8))
        _ = try plain.makeLayer()
        #expect(!plain.warnings.contains { $0.contains("roundness") }, "\(plain.warnings)")
    }

    /// The stroked shape layers of a document with one shape layer holding `shapes`, as built.
    static func strokes(_ shapes: String) throws -> [CAShapeLayer] {
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100, "layers": [
          {"ty": 4, "nm": "shapes", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {}, "shapes": \(shapes)}]}
        """
        var found: [CAShapeLayer] = []
        var stack = [try LottieDocument(data: Data(json.utf8)).makeLayer()]
        while let layer = stack.popLast() {
            if let shape = layer as? CAShapeLayer, shape.strokeColor != nil { found.append(shape) }
            stack += layer.sublayers ?? []
        }
        return found
    }

    static let line = #"{"ty": "sh", "ks": {"a": 0, "k": {"i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]], "v": [[0, 50], [100, 50]], "c": false}}}"#
    static let stroke = #"{"ty": "st", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 4}, "lc": 1, "lj": 1}"#
    static func trim(_ start: Double, _ end: Double, offset: Double) -> String {
        #"{"ty": "tm", "s": {"a": 0, "k": \#(start)}, "e": {"a": 0, "k": \#(end)}, "o": {"a": 0, "k": \#(offset)}, "m": 1}"#
    }

    @Test("one trim applies, the group's first that changes anything: an outer 0-100 trim with an offset is passed over")
    func firstTrimOnly() throws {
        // lottie-ios's Core Animation engine takes the first trim of the group's items and then
        // of the list around it whose start or end is not a still 0 or 100 (issue_1979's check
        // mark, under an outer trim offset by -45 degrees, matches Apple's frames only so).
        let shapes = try Self.strokes("""
            [{"ty": "gr", "it": [\(Self.line), \(Self.trim(50, 100, offset: 0)), \(Self.stroke)]}, \(Self.trim(0, 100, offset: 90))]
            """)
        let shape = try #require(shapes.first)
        #expect(shapes.count == 1 && shape.strokeStart == 0.5 && shape.strokeEnd == 1, "\(shape.strokeStart)...\(shape.strokeEnd)")
        #expect(shape.path?.elements.count == 2, "one round of the path")
        // The outer trim applies where the group has none of its own.
        let outer = try #require(try Self.strokes("""
            [{"ty": "gr", "it": [\(Self.line), \(Self.stroke)]}, \(Self.trim(10, 60, offset: 0))]
            """).first)
        #expect(outer.strokeStart == 0.1 && outer.strokeEnd == 0.6)
    }

    @Test("a trimmed stroke over two paths trims each on its own, as lottie-ios draws a layer a path under a trim")
    func trimsEachPath() throws {
        let lower = #"{"ty": "sh", "ks": {"a": 0, "k": {"i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]], "v": [[0, 80], [100, 80]], "c": false}}}"#
        let shapes = try Self.strokes("[\(Self.line), \(lower), \(Self.trim(0, 50, offset: 0)), \(Self.stroke)]")
        // Trimmed together, the first line would be whole and the second gone; each on its own,
        // each keeps its first half.
        #expect(shapes.count == 2, "\(shapes.count) stroked layers")
        for shape in shapes {
            #expect(shape.path?.elements.count == 2 && shape.strokeStart == 0 && shape.strokeEnd == 0.5,
                    "\(shape.path?.elements.count ?? 0) elements, \(shape.strokeStart)...\(shape.strokeEnd)")
        }
    }

    @Test("an offset moves both ends along the path, going round more times where they pass its start or end")
    func trimOffsetRounds() throws {
        // 0-25% offset by -45 degrees (-12.5%): from -12.5% to 12.5%. lottie-ios moves both up by
        // a round (87.5%-112.5%) on the path repeated twice: strokeStart 0.4375, strokeEnd 0.5625.
        let before = try #require(try Self.strokes("[\(Self.line), \(Self.trim(0, 25, offset: -45)), \(Self.stroke)]").first)
        #expect(abs(before.strokeStart - 0.4375) < 1e-9 && abs(before.strokeEnd - 0.5625) < 1e-9, "\(before.strokeStart)...\(before.strokeEnd)")
        #expect(before.path?.elements.count == 4, "two rounds of the path")
        // 50-100% offset by 90 degrees: 75%-125%, two rounds from the start: 0.375-0.625.
        let after = try #require(try Self.strokes("[\(Self.line), \(Self.trim(50, 100, offset: 90)), \(Self.stroke)]").first)
        #expect(abs(after.strokeStart - 0.375) < 1e-9 && abs(after.strokeEnd - 0.625) < 1e-9, "\(after.strokeStart)...\(after.strokeEnd)")
        // A start below 0 is not clamped before the offset moves it, as lottie-ios leaves it:
        // -20-50% moved on by 36 degrees (10%) is -10%-60%, a round up on the doubled path:
        // 0.45-0.8 (clamping first gave 10%-60%).
        let unclamped = try #require(try Self.strokes("[\(Self.line), \(Self.trim(-20, 50, offset: 36)), \(Self.stroke)]").first)
        #expect(abs(unclamped.strokeStart - 0.45) < 1e-9 && abs(unclamped.strokeEnd - 0.8) < 1e-9,
                "\(unclamped.strokeStart)...\(unclamped.strokeEnd)")
        // An offset of any size repeats the path at most 16 times, and never traps.
        for offset in [1e300, -1e300, 36_000] {
            let far = try #require(try Self.strokes("[\(Self.line), \(Self.trim(0, 25, offset: offset)), \(Self.stroke)]").first)
            #expect((far.path?.elements.count ?? 0) <= 32, "offset \(offset): \(far.path?.elements.count ?? 0) elements")
        }
    }
}
