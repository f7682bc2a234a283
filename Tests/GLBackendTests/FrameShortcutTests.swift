// Affine runs of rounded shapes leave out what none of their instances needs (GLQuadBatch.
// Shortcuts): under similarities the straight edges' lines, which cannot be nearer on screen than
// the outline there (SIMILAR_MAP), and where each inner outline is its outer one eroded by the
// border the second outline, whose distances are the outer's shifted (ERODED_RING); with both,
// the device direction is the plane's turned, not measured (rounded_shape.glsl's
// similarCoverages). Exact in real numbers; in floats they round apart, so these hold the
// shortcuts to the program that works everything out within a step, in a few bytes at most, and
// to the CPU reference within the bar; and runs that do not qualify keep the whole work.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Rounded frames' shortcuts: no straight lines under similarities, the inner outline eroded", .serialized)
struct FrameShortcutTests {
    /// Two devices of the suite's own, one working every frame out whole.
    static let devices = Result { () throws -> (shortcuts: GLDevice, whole: GLDevice) in
        let whole = try GLDevice()
        whole.drawRoundedFramesWithoutShortcuts()
        return (try GLDevice(), whole)
    }

    enum Arrangement: String, CaseIterable, CustomTestStringConvertible {
        /// Cards turned through any angle, scaled alike both ways, some mirrored, with borders of
        /// 0.5 to 8 points under corners of at least that radius, and cards without a border:
        /// both shortcuts. The same cards scaled unevenly: eroded, the lines kept. Cards whose
        /// corners are tighter than their borders (the inner corner square): lines left out,
        /// the inner outline worked out. The same cards as the first tilted in perspective:
        /// eroded, the map's derivatives and the lines worked out at every pixel.
        case similar, squashed, tightCorners, perspective
        var testDescription: String { rawValue }
    }

    static func tree(_ arrangement: Arrangement, seed: UInt64) -> CALayer {
        // The blend tests' generator: a failing seed draws the same cards again.
        var dice = BlendModeAgreementTests.Dice(state: seed)
        func random(_ range: ClosedRange<Double>) -> Double { range.lowerBound + (range.upperBound - range.lowerBound) * dice.next() }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        root.backgroundColor = CGColor(red: 0.95, green: 0.94, blue: 0.9, alpha: 1)
        for i in 0..<36 {
            let card = CALayer()
            let width = random(12...90), height = random(12...70)
            card.bounds = CGRect(x: 0, y: 0, width: width, height: height)
            card.position = CGPoint(x: random(0...320), y: random(0...240))
            // A border leaves an inside (one as wide as half the card has none to erode to).
            let most = min(width, height) / 2
            let border = i % 4 == 0 ? 0 : min(random(0.5...8), most * 0.8)
            card.cornerRadius = arrangement == .tightCorners && border > 1 ? border * 0.6
                : min(most, random(min(border, most)...30))
            var transform = CATransform3DMakeRotation(random(0...(2 * .pi)), 0, 0, 1)
            let scale = random(0.5...2.2)
            let mirrored = i % 5 == 0 ? -1.0 : 1.0
            transform = CATransform3DScale(transform, scale * mirrored, arrangement == .squashed ? scale * 0.55 : scale, 1)
            if arrangement == .perspective {
                var tilt = CATransform3DIdentity
                tilt.m34 = -1 / 500
                transform = CATransform3DConcat(transform, CATransform3DRotate(tilt, random(0.2...0.9), 1, 0.3, 0))
            }
            card.transform = transform
            card.backgroundColor = CGColor(red: Double(i % 7) / 7, green: 0.45, blue: 0.75, alpha: i % 6 == 0 ? 1 : 0.8)
            if border > 0 {
                card.borderWidth = border
                card.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: i % 3 == 0 ? 1 : 0.85)
            }
            root.addSublayer(card)
        }
        return root
    }

    @Test("within a step of the whole work in a few bytes, and within the bar of the CPU",
          arguments: Arrangement.allCases, [1.0, 2.0])
    func nearWholeWork(arrangement: Arrangement, scale: Double) throws {
        let (shortcuts, whole) = try Self.devices.get()
        for seed in 1...3 as ClosedRange<UInt64> {
            let root = Self.tree(arrangement, seed: seed)
            let list = try RenderListBuilder(viewport: root.frame, scale: scale).build(root: root)
            let before = (shortcuts.roundedSimilarRuns, shortcuts.roundedErodedRuns, shortcuts.roundedAffineRuns)
            let a = try shortcuts.render(list), b = try whole.render(list)
            let similar = shortcuts.roundedSimilarRuns - before.0, eroded = shortcuts.roundedErodedRuns - before.1
            let affine = shortcuts.roundedAffineRuns - before.2
            if arrangement == .perspective {
                #expect(affine == 0 && similar == 0 && eroded > 0, "seed \(seed): \(affine) affine, \(similar) without lines, \(eroded) eroded")
            } else {
                #expect(affine > 0, "seed \(seed): \(affine) affine runs")
                #expect(arrangement == .squashed ? similar == 0 : similar == affine, "seed \(seed): \(similar) of \(affine) runs without lines")
                #expect(arrangement == .tightCorners ? eroded == 0 : eroded == affine, "seed \(seed): \(eroded) of \(affine) runs eroded")
            }
            #expect(whole.roundedSimilarRuns == 0 && whole.roundedErodedRuns == 0)
            let (differing, largest) = GLFrameFixtures.differences(a, b)
            #expect(largest <= 1 && differing <= a.pixels.count / 20_000,
                    "seed \(seed): \(differing) of \(a.pixels.count) bytes differ from the whole work, by up to \(largest)")
            let report = try ImageComparison.compare(RasterRenderer().render(list), a, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
            #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "seed \(seed): \(report)")
        }
    }
}
