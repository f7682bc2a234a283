// Which keyframe's handles ease which segment. A Lottie keyframe object carries both handles of
// the segment that leaves it ("o" and "i", and for positions "to" and "ti"); the keyframe after it
// carries the next segment's. Reading "i" from the arriving keyframe instead eased every segment
// with its neighbour's curve (lottie-ios's issue_1877 check mark grew to 2.6 times its size).
// Held keyframes keep their value whole up to the next one, also where the importer samples a
// value a frame apart; where every keyframe of a value holds, the jump lands on the side of its
// frame that lottie-ios's Float key times put it on Apple's clock.
import Foundation
import LayerModel
import LottieImport
import Testing

@Suite("Lottie keyframe handles")
struct LottieKeyframeTests {
    /// A 100 x 100 document with one null layer whose opacity and position are the given properties.
    static func layer(opacity: String, position: String) throws -> CALayer {
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "layers": [
          {"ty": 4, "nm": "probe", "ind": 1, "ip": 0, "op": 20, "st": 0, "shapes": [],
           "ks": {"o": \(opacity), "p": \(position), "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}}}]}
        """
        return try paused(json)
    }

    /// The document `json` made into layers and paused, its frame set through `presented`.
    static func paused(_ json: String) throws -> CALayer {
        let root = try LottieDocument(data: Data(json.utf8)).makeLayer()
        root.speed = 0
        return root
    }

    /// `root`'s presentation at `frame` of a 10 fps document.
    static func presented(_ root: CALayer, atFrame frame: Double) -> CALayer {
        root.timeOffset = frame / 10
        return root.presentationTree(atMediaTime: CACurrentMediaTime())
    }

    static func probe(_ root: CALayer, atFrame frame: Double) -> CALayer {
        presented(root, atFrame: frame).sublayers!.first { $0.name == "probe" }!
    }

    @Test("a segment eases by the handles of the keyframe it leaves, \"i\" included")
    func easingHandles() throws {
        // Segment 0-10: symmetric ease in and out on the first keyframe, so halfway is half.
        // The second keyframe's "i" (0.9, 0.1) belongs to segment 10-20 and must not bend 0-10.
        let opacity = """
        {"a": 1, "k": [
          {"t": 0, "s": [0], "o": {"x": [0.5], "y": [0]}, "i": {"x": [0.5], "y": [1]}},
          {"t": 10, "s": [100], "o": {"x": [0], "y": [0]}, "i": {"x": [0.9], "y": [0.1]}},
          {"t": 20, "s": [100]}]}
        """
        let root = try Self.layer(opacity: opacity, position: #"{"a": 0, "k": [0, 0]}"#)
        #expect(abs(Self.probe(root, atFrame: 5).opacity - 0.5) < 1e-3)
        #expect(abs(Self.probe(root, atFrame: 2.5).opacity - 0.5) > 0.1, "eased, not linear")
    }

    @Test("a position follows the spatial tangents of the keyframe it leaves, \"ti\" included")
    func spatialTangents() throws {
        // From (0, 0) to (100, 0), bulging down by "to" (0, 50) and "ti" (0, 50) of the first
        // keyframe: halfway (linear easing) the cubic is at (50, 37.5). The second keyframe's
        // "ti" (0, -50) belongs to a later segment.
        let position = """
        {"a": 1, "k": [
          {"t": 0, "s": [0, 0], "to": [0, 50], "ti": [0, 50], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}},
          {"t": 10, "s": [100, 0], "to": [0, 0], "ti": [0, -50], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}},
          {"t": 20, "s": [100, 0]}]}
        """
        let root = try Self.layer(opacity: #"{"a": 0, "k": 100}"#, position: position)
        let m = Self.probe(root, atFrame: 5).transform
        #expect(abs(m.m41 - 50) < 1e-6 && abs(m.m42 - 37.5) < 1e-6, "at (\(m.m41), \(m.m42))")
    }

    /// y at x of the timing curve through (0, 0), (x1, y1), (x2, y2), (1, 1), by bisection to the
    /// last bit: the reference for the importer's own solver.
    static func timingCurve(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t }
        var low = 0.0, high = 1.0
        while high - low > 1e-16 {
            let middle = (low + high) / 2
            if middle == low || middle == high { break }
            if bezier(middle, x1, x2) < x { low = middle } else { high = middle }
        }
        return bezier((low + high) / 2, y1, y2)
    }

    @Test("a sampled position eases along its path by the cubic timing curve, flat and steep handles too", arguments: [
        (0.42, 0.0, 0.58, 1.0), (0.0, 0.5, 1.0, 0.5), (0.9, 0.1, 0.1, 0.9), (0.0, 0.0, 0.0, 1.0), (1.0, 0.0, 1.0, 1.0), (0.3, -0.6, 0.7, 1.6),
    ])
    func easedAlongPath(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) throws {
        // Spatial tangents a third of the way along a straight line: the path's parameter is the
        // distance, so x is 100 times the eased progress, worked out a frame apart.
        let position = """
        {"a": 1, "k": [
          {"t": 0, "s": [0, 0], "to": [33.333333333333336, 0], "ti": [-33.333333333333336, 0], "o": {"x": [\(x1)], "y": [\(y1)]}, "i": {"x": [\(x2)], "y": [\(y2)]}},
          {"t": 10, "s": [100, 0]}]}
        """
        let root = try Self.layer(opacity: #"{"a": 0, "k": 100}"#, position: position)
        for frame in 1..<10 {
            let x = Self.probe(root, atFrame: Double(frame)).transform.m41
            let expected = 100 * Self.timingCurve(Double(frame) / 10, x1, y1, x2, y2)
            #expect(abs(x - expected) < 1e-6, "frame \(frame): \(x), the curve gives \(expected)")
        }
    }

    @Test("a held position keeps its value up to the next keyframe, though the transform is sampled a frame apart")
    func heldPosition() throws {
        let position = """
        {"a": 1, "k": [
          {"t": 0, "s": [0, 0], "h": 1},
          {"t": 10, "s": [100, 0], "h": 1},
          {"t": 20, "s": [40, 0]}]}
        """
        let root = try Self.layer(opacity: #"{"a": 0, "k": 100}"#, position: position)
        for (frame, x) in [(5.0, 0.0), (9.25, 0.0), (9.9, 0.0), (10.0, 100.0), (10.5, 100.0), (19.75, 100.0), (20.0, 40.0)] {
            let m = Self.probe(root, atFrame: frame).transform
            #expect(abs(m.m41 - x) < 1e-6, "frame \(frame): x \(m.m41), held \(x)")
        }
    }

    @Test("a held trim keeps its ends up to the next keyframe")
    func heldTrim() throws {
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "layers": [
          {"ty": 4, "nm": "probe", "ind": 1, "ip": 0, "op": 20, "st": 0,
           "ks": {"o": {"a": 0, "k": 100}, "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}},
           "shapes": [
             {"ty": "rc", "s": {"a": 0, "k": [50, 50]}, "p": {"a": 0, "k": [50, 50]}, "r": {"a": 0, "k": 0}},
             {"ty": "st", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 4}, "lc": 1, "lj": 1},
             {"ty": "tm", "s": {"a": 0, "k": 0}, "o": {"a": 0, "k": 0}, "m": 1,
              "e": {"a": 1, "k": [{"t": 0, "s": [20], "h": 1}, {"t": 10, "s": [80], "h": 1}, {"t": 20, "s": [100]}]}}]}]}
        """
        let root = try Self.paused(json)
        func strokeEnd(_ frame: Double) -> Double? {
            let probe = Self.probe(root, atFrame: frame)
            var stack = [probe]
            while let layer = stack.popLast() {
                if let shape = layer as? CAShapeLayer, shape.strokeColor != nil { return Double(shape.strokeEnd) }
                stack += layer.sublayers ?? []
            }
            return nil
        }
        for (frame, end) in [(5.0, 0.2), (9.5, 0.2), (10.0, 0.8), (19.5, 0.8)] {
            let value = try #require(strokeEnd(frame))
            #expect(abs(value - end) < 1e-6, "frame \(frame): strokeEnd \(value), held \(end)")
        }
    }

    @Test("a sampled turn follows a steep timing curve between frames, not only at them")
    func easedBetweenFrames() throws {
        // A quarter turn over 10 frames on a steep ease in and out: the transform is sampled, and
        // samples a frame apart, linear between them, strayed by degrees at the steep middle.
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "layers": [
          {"ty": 4, "nm": "probe", "ind": 1, "ip": 0, "op": 20, "st": 0, "shapes": [],
           "ks": {"o": {"a": 0, "k": 100}, "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
                  "r": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0.9], "y": [0]}, "i": {"x": [0.1], "y": [1]}}, {"t": 10, "s": [90]}]}}}]}
        """
        let root = try Self.paused(json)
        for frame in stride(from: 3.0, through: 7.0, by: 0.25) {
            let m = Self.probe(root, atFrame: frame).transform
            let degrees = atan2(m.m12, m.m11) * 180 / .pi
            let expected = 90 * Self.timingCurve(frame / 10, 0.9, 0, 0.1, 1)
            // A thousandth of the turn (the sampler's tolerance) and a little for the sampling of
            // the probe itself.
            #expect(abs(degrees - expected) < 0.12, "frame \(frame): \(degrees)°, the curve gives \(expected)°")
        }
    }

    @Test("a value whose every keyframe holds jumps where lottie-ios's Float key times put the jump, a mixed one at its frame")
    func discreteJumps() throws {
        // 25 frames a second, frames 0-32: lottie-ios's paused timeline is 33 frames. Frame 8's
        // key time, 8/33 rounded to Float, lies past 8/33, so Core Animation still shows the value
        // before it at frame 8; 17/33 rounds down, so at frame 17 the jump is taken (the rule
        // Apple's frames of TypeFace/H at 25% show). A value with a keyframe that does not hold
        // becomes segments with Double key times: its jump lands on its frame.
        let held = """
        {"a": 1, "k": [{"t": 0, "s": [10], "h": 1}, {"t": 8, "s": [20], "h": 1}, {"t": 17, "s": [30], "h": 1}, {"t": 25, "s": [40], "h": 1}]}
        """
        let mixed = """
        {"a": 1, "k": [{"t": 0, "s": [0, 0], "h": 1}, {"t": 8, "s": [50, 0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 25, "s": [100, 0]}]}
        """
        // The scale is sampled into the transform with the position: its jump too.
        let scale = """
        {"a": 1, "k": [{"t": 0, "s": [100, 100], "h": 1}, {"t": 8, "s": [200, 200], "h": 1}, {"t": 17, "s": [300, 300], "h": 1}]}
        """
        let json = """
        {"v": "5.7.0", "fr": 25, "ip": 0, "op": 32, "w": 100, "h": 100, "layers": [
          {"ty": 4, "nm": "probe", "ind": 1, "ip": 0, "op": 32, "st": 0, "shapes": [],
           "ks": {"o": \(held), "p": \(mixed), "a": {"a": 0, "k": [0, 0]}, "s": \(scale), "r": {"a": 0, "k": 0}}}]}
        """
        let root = try Self.paused(json)
        func probe(_ frame: Double) -> CALayer {
            root.timeOffset = frame / 25
            return root.presentationTree(atMediaTime: CACurrentMediaTime()).sublayers!.first { $0.name == "probe" }!
        }
        for (frame, opacity) in [(7.5, 0.1), (8.0, 0.1), (8.01, 0.2), (16.99, 0.2), (17.0, 0.3), (24.99, 0.3)] {
            let value = Double(probe(frame).opacity)
            #expect(abs(value - opacity) < 1e-6, "frame \(frame): opacity \(value), expected \(opacity)")
        }
        let eased: (Double) -> Double = { 50 + 50 * ($0 - 8) / 17 }  // linear from 50 at frame 8 to 100 at 25
        let positions: [(Double, Double, Double)] = [(7.99, 0, 1), (8, 50, 1), (8.01, eased(8.01), 2), (17, eased(17), 3)]
        for (frame, x, scale) in positions {
            let m = probe(frame).transform
            #expect(abs(m.m41 - x) < 1e-6 && abs(m.m11 - scale) < 1e-6, "frame \(frame): x \(m.m41), scale \(m.m11); expected \(x), \(scale)")
        }
    }
}
