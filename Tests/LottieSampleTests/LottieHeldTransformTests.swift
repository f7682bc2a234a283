// A position whose last keyframe holds shows the keyframe before it from then on (lottie-ios's
// discrete path animation, its key times unpadded), as Apple's frames of TypeFace Y show.
// A transform lottie-ios animates as one `transform` animation split into held and eased
// segments (a negative x scale or a skew, its parts' keyframes sharing their timing) is drawn
// untransformed through a held segment of one value, as Apple's frames of issue_2066 show; the
// same keyframes without the flip, or with parts of different timing, hold their value.
import Foundation
import LayerModel
import LottieImport
import Testing

@Suite("Lottie held transforms")
struct LottieHeldTransformTests {
    /// A null layer scaled by `scale` whose position eases 0-5, holds 5-15 and eases 15-20, with
    /// a rotation keyframed by `rotation`, and a shape layer parented to it.
    static func root(scale: String, rotation: String = #"{"a": 0, "k": 0}"#) throws -> CALayer {
        let eased = #""o": {"x": [0.3], "y": [0]}, "i": {"x": [0.7], "y": [1]}"#
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 200, "h": 200, "layers": [
          {"ty": 3, "nm": "null", "ind": 1, "ip": 0, "op": 20, "st": 0,
           "ks": {"o": {"a": 0, "k": 0}, "a": {"a": 0, "k": [0, 0]}, "s": \(scale), "r": \(rotation),
                  "p": {"a": 1, "k": [{"t": 0, "s": [20, 30], \(eased)}, {"t": 5, "s": [40, 50], "h": 1},
                                      {"t": 15, "s": [40, 50], \(eased)}, {"t": 20, "s": [60, 70]}]}}},
          {"ty": 4, "nm": "probe", "ind": 2, "parent": 1, "ip": 0, "op": 20, "st": 0, "shapes": [],
           "ks": {"o": {"a": 0, "k": 100}, "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]},
                  "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}}}]}
        """
        return try LottieKeyframeTests.paused(json)
    }

    /// The null's wrapper around the probe, at `frame`.
    static func nullTransform(_ root: CALayer, atFrame frame: Double) -> CATransform3D {
        let tree = LottieKeyframeTests.presented(root, atFrame: frame)
        func find(_ layer: CALayer) -> CALayer? {
            if layer.sublayers?.contains(where: { $0.name == "probe" }) == true { return layer }
            return layer.sublayers?.lazy.compactMap(find).first
        }
        return find(tree)!.transform
    }

    static let flipped = #"{"a": 0, "k": [-50, 50]}"#

    @Test("flipped, with one held segment between eased ones: untransformed while it holds, its matrix elsewhere")
    func flippedHoldIsUntransformed() throws {
        let root = try Self.root(scale: Self.flipped)
        for frame in [5.5, 10, 14.5] {
            #expect(CATransform3DIsIdentity(Self.nullTransform(root, atFrame: frame)), "frame \(frame)")
        }
        let late = Self.nullTransform(root, atFrame: 17.5)
        #expect(abs(late.m11 + 0.5) < 1e-6 && abs(late.m22 - 0.5) < 1e-6 && late.m41 > 40 && late.m41 < 60)
        let early = Self.nullTransform(root, atFrame: 4.99)
        #expect(abs(early.m11 + 0.5) < 1e-6 && abs(early.m41 - 40) < 0.5, "whole up to the held segment: \(early.m41)")
    }

    @Test("the same keyframes unflipped hold their value")
    func unflippedHoldsItsValue() throws {
        let m = Self.nullTransform(try Self.root(scale: #"{"a": 0, "k": [50, 50]}"#), atFrame: 10)
        #expect(abs(m.m11 - 0.5) < 1e-6 && abs(m.m41 - 40) < 1e-6 && abs(m.m42 - 50) < 1e-6)
    }

    @Test("flipped, with a part of other timing (sampled as one discrete animation): its matrix throughout")
    func otherTimingHoldsItsMatrix() throws {
        let rotation = #"{"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 20, "s": [0]}]}"#
        let m = Self.nullTransform(try Self.root(scale: Self.flipped, rotation: rotation), atFrame: 10)
        #expect(abs(m.m11 + 0.5) < 1e-6 && abs(m.m41 - 40) < 1e-6 && abs(m.m42 - 50) < 1e-6)
    }

    /// A shape layer whose position keyframes are all held (the last held too when `lastHeld`),
    /// scaled by `scale`.
    static func heldPositions(lastHeld: Bool, scale: String = #"{"a": 0, "k": [100, 100]}"#) throws -> CALayer {
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 200, "h": 200, "layers": [
          {"ty": 4, "nm": "probe", "ind": 1, "ip": 0, "op": 30, "st": 0, "shapes": [],
           "ks": {"o": {"a": 0, "k": 100}, "a": {"a": 0, "k": [0, 0]}, "s": \(scale), "r": {"a": 0, "k": 0},
                  "p": {"a": 1, "k": [{"t": 0, "s": [10, 10], "h": 1}, {"t": 10, "s": [20, 30], "h": 1},
                                      {"t": 20, "s": [50, 70]\(lastHeld ? #", "h": 1"# : "")}]}}}]}
        """
        return try LottieKeyframeTests.paused(json)
    }

    static func probePosition(_ root: CALayer, atFrame frame: Double) -> (Double, Double) {
        let m = LottieKeyframeTests.probe(root, atFrame: frame).transform
        return (Double(m.m41), Double(m.m42))
    }

    @Test("a position whose last keyframe holds shows the keyframe before it from then on")
    func heldLastPositionShowsTheOneBefore() throws {
        let root = try Self.heldPositions(lastHeld: true)
        #expect(Self.probePosition(root, atFrame: 15) == (20, 30))
        #expect(Self.probePosition(root, atFrame: 25) == (20, 30), "the last keyframe's (50, 70) is never shown")
    }

    @Test("a last keyframe that does not hold, or a flipped layer's, is shown")
    func lastPositionShownOtherwise() throws {
        #expect(Self.probePosition(try Self.heldPositions(lastHeld: false), atFrame: 25) == (50, 70))
        let flipped = try Self.heldPositions(lastHeld: true, scale: #"{"a": 0, "k": [-100, 100]}"#)
        #expect(Self.probePosition(flipped, atFrame: 25) == (50, 70))
    }
}
