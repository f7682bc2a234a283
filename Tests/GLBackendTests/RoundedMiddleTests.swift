// Large filled rounded shapes have their middle (every pixel of coverage exactly 1) drawn by a
// colour-only program apart from their frame (GLQuadBatch.middleApart(of:)). The frame and the
// middle must meet without a pixel drawn twice or missed, in drawing order with what overlaps
// them, and give the bytes the whole shape's program gives: held to that device, pixel for pixel.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Rounded shapes' middles drawn apart", .serialized)
struct RoundedMiddleTests {
    /// Two devices of the suite's own, one drawing every rounded shape whole.
    static let devices = Result { () throws -> (apart: GLDevice, whole: GLDevice) in
        let whole = try GLDevice()
        whole.drawRoundedMiddlesWhole()
        return (try GLDevice(), whole)
    }

    enum Arrangement: String, CaseIterable, CustomTestStringConvertible {
        /// An opaque card; a translucent bordered card under a smaller translucent one and over
        /// another (the order of frames and middles); continuous corners scaled unevenly; a card
        /// cut by its superlayer's bounds (not apart: the clip crosses it); a card tilted in
        /// perspective (not apart: the map is not affine); forty small turned cards, translucent
        /// and bordered, some opaque, overlapping every which way (middles drawn in groups, each
        /// ended by a frame over a middle before it).
        case opaque, bordered, continuousScaled, clipped, perspective, overlapping
        var testDescription: String { rawValue }
        var drawsApart: Bool { self != .clipped && self != .perspective }
    }

    static func tree(_ arrangement: Arrangement) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        root.backgroundColor = CGColor(red: 0.95, green: 0.94, blue: 0.9, alpha: 1)
        let holder = CALayer()
        holder.frame = arrangement == .clipped ? CGRect(x: 0, y: 0, width: 200, height: 150) : root.bounds
        holder.masksToBounds = arrangement == .clipped
        root.addSublayer(holder)
        if arrangement == .bordered {
            let below = CALayer()
            below.frame = CGRect(x: 10, y: 20, width: 120, height: 90)
            below.backgroundColor = CGColor(red: 0.9, green: 0.3, blue: 0.2, alpha: 0.8)
            below.cornerRadius = 14
            holder.addSublayer(below)
        }
        if arrangement == .overlapping {
            for i in 0..<40 {
                let small = CALayer()
                small.bounds = CGRect(x: 0, y: 0, width: 60, height: 44)
                // Spread as the peer benchmark's cards are (the R2 sequence), at four times the density.
                small.position = CGPoint(x: (Double(i) * 0.7548776662 + 0.5).truncatingRemainder(dividingBy: 1) * 300 + 10,
                                         y: (Double(i) * 0.5698402910 + 0.5).truncatingRemainder(dividingBy: 1) * 220 + 10)
                small.cornerRadius = 9
                small.transform = CATransform3DMakeRotation(Double(i % 23) * 0.07, 0, 0, 1)
                small.backgroundColor = CGColor(red: Double(i % 7) / 7, green: 0.45, blue: 0.75, alpha: i % 5 == 0 ? 1 : 0.85)
                if i % 3 != 0 {
                    small.borderWidth = 2
                    small.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.9)
                }
                holder.addSublayer(small)
            }
            return root
        }
        let card = CALayer()
        card.frame = CGRect(x: 40.3, y: 31.7, width: 230.5, height: 170.25)
        card.backgroundColor = CGColor(red: 0.2, green: 0.45, blue: 0.9, alpha: arrangement == .bordered ? 0.7 : 1)
        card.cornerRadius = 23.5
        switch arrangement {
        case .bordered:
            card.borderWidth = 5.5
            card.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.8)
        case .continuousScaled:
            card.cornerCurve = .continuous
            card.transform = CATransform3DMakeScale(1.2, 0.9, 1)
        case .perspective:
            var tilt = CATransform3DIdentity
            tilt.m34 = -1 / 400
            card.transform = CATransform3DRotate(tilt, 0.5, 1, 0, 0)
        case .opaque, .clipped, .overlapping:
            break
        }
        holder.addSublayer(card)
        if arrangement == .bordered {
            let above = CALayer()
            above.frame = CGRect(x: 150, y: 90, width: 110, height: 80)
            above.backgroundColor = CGColor(red: 0.1, green: 0.7, blue: 0.3, alpha: 0.6)
            above.cornerRadius = 10
            holder.addSublayer(above)
        }
        return root
    }

    @Test("the same bytes as the whole shape's program, and within the bar of the CPU",
          arguments: Arrangement.allCases, [1.0, 2.0])
    func sameAsWhole(arrangement: Arrangement, scale: Double) throws {
        let root = Self.tree(arrangement)
        let list = try RenderListBuilder(viewport: root.frame, scale: scale).build(root: root)
        let (apart, whole) = try Self.devices.get()
        let before = (apart.roundedMiddlesApart, apart.roundedMiddleGroups)
        let a = try apart.render(list), b = try whole.render(list)
        let drawn = apart.roundedMiddlesApart - before.0, groups = apart.roundedMiddleGroups - before.1
        #expect(arrangement.drawsApart ? drawn > 0 : drawn == 0, "\(drawn) middles drawn apart")
        if arrangement == .overlapping {
            // Overlaps end groups, and a group holds several middles.
            #expect(groups > 1 && groups * 2 < drawn, "\(drawn) middles in \(groups) groups")
        }
        #expect(whole.roundedMiddlesApart == 0)
        let (differing, largest) = GLFrameFixtures.differences(a, b)
        // The same bytes where the driver blends in the target's 8 bits (llvmpipe, NVIDIA's).
        // softpipe blends a translucent draw in float and rounds after (docs/testing.md): in the
        // bordered case 22 of 614,400 bytes, along a translucent card's anti-aliased corner drawn
        // over another's middle, come out a step apart depending on how the draws were split (the
        // same splits without the middle's own pixels give the same bytes there).
        let softpipe = ProcessInfo.processInfo.environment["GALLIUM_DRIVER"] == "softpipe"
        if softpipe {
            #expect(largest <= 1 && differing <= a.pixels.count / 10_000, "\(differing) bytes differ, by up to \(largest)")
        } else {
            #expect(differing == 0, "\(differing) bytes differ from the whole shapes' drawing")
        }
        let report = try ImageComparison.compare(RasterRenderer().render(list), a, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }
}
