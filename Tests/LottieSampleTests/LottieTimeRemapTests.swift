// Time remapping: a precomposition layer's `tm` gives, at each of its frames, the second of the
// precomposition its layers show, which may run backwards (checked here by a remap that plays
// the precomposition in reverse).
import Foundation
import LayerModel
import LottieImport
import OpenCoreGraphics
import Testing

@Suite("Lottie time remapping")
struct LottieTimeRemapTests {
    @Test("tm plays a precomposition backwards: at frame f its layers show second tm(f)")
    func backwards() throws {
        // The precomposition fades its layer in over frames 0-10 (linear); the remap runs from
        // 1 s at frame 0 down to 0 s at frame 10, so frame 2 shows the precomposition's frame 8.
        let linear = #""o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}"#
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100,
         "assets": [{"id": "fade", "w": 100, "h": 100, "layers": [
           {"ty": 4, "nm": "fading", "ind": 1, "ip": 0, "op": 10, "st": 0, "shapes": [],
            "ks": {"o": {"a": 1, "k": [{"t": 0, "s": [0], \(linear)}, {"t": 10, "s": [100]}]}}}]}],
         "layers": [
           {"ty": 0, "nm": "remapped", "refId": "fade", "ind": 1, "ip": 0, "op": 10, "st": 0, "w": 100, "h": 100,
            "tm": {"a": 1, "k": [{"t": 0, "s": [1], \(linear)}, {"t": 10, "s": [0]}]}, "ks": {}}]}
        """
        let document = try LottieDocument(data: Data(json.utf8))
        #expect(!document.warnings.contains { $0.contains("tm") }, "\(document.warnings)")
        let root = try document.makeLayer()
        root.speed = 0
        func fading(atFrame frame: Double) -> Float {
            root.timeOffset = frame / 10
            var found: Float = -1
            func walk(_ layer: CALayer) {
                if layer.name == "fading" { found = layer.opacity }
                for sublayer in layer.sublayers ?? [] { walk(sublayer) }
            }
            walk(root.presentationTree(atMediaTime: CACurrentMediaTime()))
            return found
        }
        for (frame, opacity) in [(2.0, Float(0.8)), (5, 0.5), (7.5, 0.25)] {
            #expect(abs(fading(atFrame: frame) - opacity) < 1e-3, "frame \(frame): \(fading(atFrame: frame))")
        }
    }

    @Test("a colour sampled through a remap while its easing runs past white stays white, not read as 0-255")
    func colourPastItsEnd() throws {
        // White to pink over frames 0-10 with an out handle below 0: early on the colour eases
        // past white (components above 1), which once read as a 0-255 file's colour: black.
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100,
         "assets": [{"id": "card", "w": 100, "h": 100, "layers": [
           {"ty": 4, "nm": "card", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {}, "shapes": [
             {"ty": "rc", "s": {"a": 0, "k": [100, 100]}, "p": {"a": 0, "k": [50, 50]}, "r": {"a": 0, "k": 0}},
             {"ty": "fl", "o": {"a": 0, "k": 100}, "r": 1, "c": {"a": 1, "k": [
               {"t": 0, "s": [1, 1, 1, 1], "o": {"x": [0.167], "y": [-1.5]}, "i": {"x": [0.7], "y": [1]}},
               {"t": 10, "s": [0.9, 0.5, 0.6, 1]}]}}]}]}],
         "layers": [
           {"ty": 0, "nm": "remapped", "refId": "card", "ind": 1, "ip": 0, "op": 10, "st": 0, "w": 100, "h": 100,
            "tm": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 10, "s": [1]}]}, "ks": {}}]}
        """
        let root = try LottieDocument(data: Data(json.utf8)).makeLayer()
        root.speed = 0
        root.timeOffset = 0.2
        var fill: CGColor?
        func walk(_ layer: CALayer) {
            if let shape = layer as? CAShapeLayer { fill = shape.fillColor }
            for sublayer in layer.sublayers ?? [] { walk(sublayer) }
        }
        walk(root.presentationTree(atMediaTime: CACurrentMediaTime()))
        let components = try #require(fill?.components)
        #expect(components.prefix(3).allSatisfy { $0 > 0.95 }, "\(components)")
    }
}

extension LottieTimeRemapTests {
    @Test("inside a remap, a value that holds still is set, not sampled; one that moves is sampled and holds its ends")
    func stillValuesSet() throws {
        // A stroke trimmed by a still trim, its width growing from 2 to 10 over the
        // precomposition's frames 4-6 only, its layer shown throughout; the remap plays the
        // precomposition at speed.
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100,
         "assets": [{"id": "line", "w": 100, "h": 100, "layers": [
           {"ty": 4, "nm": "line", "ind": 1, "ip": 0, "op": 20, "st": 0, "ks": {}, "shapes": [
             {"ty": "el", "s": {"a": 0, "k": [60, 60]}, "p": {"a": 0, "k": [50, 50]}},
             {"ty": "st", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "lc": 1, "lj": 1,
              "w": {"a": 1, "k": [{"t": 4, "s": [2], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 6, "s": [10]}]}},
             {"ty": "tm", "s": {"a": 0, "k": 10}, "e": {"a": 0, "k": 60}, "o": {"a": 0, "k": 0}, "m": 1}]}]}],
         "layers": [
           {"ty": 0, "nm": "remapped", "refId": "line", "ind": 1, "ip": 0, "op": 10, "st": 0, "w": 100, "h": 100,
            "tm": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 10, "s": [1]}]}, "ks": {}}]}
        """
        let root = try LottieDocument(data: Data(json.utf8)).makeLayer()
        var shapes: [CAShapeLayer] = [], lines: [CALayer] = []
        func walk(_ layer: CALayer) {
            if let shape = layer as? CAShapeLayer { shapes.append(shape) }
            if layer.name == "line" { lines.append(layer) }
            for sublayer in layer.sublayers ?? [] { walk(sublayer) }
        }
        walk(root)
        let shape = try #require(shapes.first)
        #expect(shape.animation(forKey: "strokeStart") == nil && shape.animation(forKey: "strokeEnd") == nil)
        #expect(abs(shape.strokeStart - 0.1) < 1e-9 && abs(shape.strokeEnd - 0.6) < 1e-9, "\(shape.strokeStart) \(shape.strokeEnd)")
        #expect(shape.animation(forKey: "lineWidth") != nil)
        #expect(!lines.isEmpty && lines.allSatisfy { $0.animation(forKey: "hidden") == nil && !$0.isHidden })
        root.speed = 0
        for (frame, width) in [(0.0, 2.0), (3, 2), (5, 6), (6, 10), (9, 10)] {
            root.timeOffset = frame / 10
            var found: CGFloat = -1
            func find(_ layer: CALayer) {
                if let shape = layer as? CAShapeLayer { found = shape.lineWidth }
                for sublayer in layer.sublayers ?? [] { find(sublayer) }
            }
            find(root.presentationTree(atMediaTime: CACurrentMediaTime()))
            #expect(abs(found - width) < 1e-6, "frame \(frame): \(found)")
        }
    }
}

@Suite("Lottie sample budget")
struct LottieSampleBudgetTests {
    @Test("a document that needs more sampled values than the budget is refused, naming where it ran out")
    func refused() throws {
        // A layer whose path combines two moving parts is sampled a frame apart: 101 samples.
        let moving = #"{"a": 1, "k": [{"t": 0, "s": [10, 10], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 100, "s": [50, 50]}]}"#
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 100, "w": 100, "h": 100, "layers": [
          {"ty": 4, "nm": "busy", "ind": 1, "ip": 0, "op": 100, "st": 0, "ks": {}, "shapes": [
            {"ty": "rc", "s": \(moving), "p": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}},
            {"ty": "el", "s": \(moving), "p": {"a": 0, "k": [60, 60]}},
            {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "r": 1}]}]}
        """
        let document = try LottieDocument(data: Data(json.utf8))
        _ = try document.makeLayer()
        _ = try document.makeLayer(maxSamples: 101)
        #expect {
            _ = try document.makeLayer(maxSamples: 100)
        } throws: { error in
            "\(error)".hasPrefix("$.layers: the animation needs more than 100 sampled values") && "\(error)".contains("path of layer")
        }
    }
}
