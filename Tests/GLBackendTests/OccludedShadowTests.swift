// Closed-form shadows under opaque backgrounds drawn as strips around the covered middle
// (RenderPass.cuttingOccludedShadows): the same bytes on both backends as the whole shadow, at
// fractional places and scales, with rounded and square outlines, borders,
// sublayers, shadow paths and clips; and no cut where the background hides nothing for certain.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Shadows under opaque layers")
struct OccludedShadowTests {
    enum Card: String, CaseIterable, CustomTestStringConvertible {
        // (Continuous and per-corner outlines cast their shadows through an offscreen blur, which
        // is not cut.)
        case rounded, square, bordered, withSublayersAndPath, clipped, farOffset
        /// The background is translucent: nothing is cut.
        case translucent
        /// The card is turned, and a square one turned and enlarged: the shadow keeps its quad,
        /// told the pixels its card covers (`QuadOp.occluded`).
        case turned, turnedSquare
        var testDescription: String { rawValue }
        var isCut: Bool { self != .translucent && !isTurned }
        var isTurned: Bool { self == .turned || self == .turnedSquare }
    }

    static func tree(_ card: Card) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        root.backgroundColor = CGColor(red: 0.93, green: 0.94, blue: 0.96, alpha: 1)
        var parent = root
        if card == .clipped {
            // A clip across the card and its shadow: the hole stays inside it.
            let clip = CALayer()
            clip.frame = CGRect(x: 10, y: 8, width: 112.4, height: 99.7)
            clip.masksToBounds = true
            root.addSublayer(clip)
            parent = clip
        }
        let layer = CALayer()
        layer.frame = CGRect(x: 23.3, y: 17.6, width: 101.5, height: 66.25)
        layer.backgroundColor = CGColor(red: 0.2, green: 0.45, blue: 0.9, alpha: card == .translucent ? 0.7 : 1)
        layer.cornerRadius = card == .square || card == .turnedSquare ? 0 : 13.5
        layer.shadowOpacity = 0.6
        layer.shadowRadius = 5.5
        layer.shadowOffset = CGSize(width: 1.5, height: card == .farOffset ? 31 : 4.25)
        switch card {
        case .bordered:
            layer.borderWidth = 2.5
            layer.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.8)
        case .withSublayersAndPath:
            layer.shadowPath = CGPath(roundedRect: layer.bounds, cornerWidth: 13.5, cornerHeight: 13.5, transform: nil)
            let label = CALayer()
            label.frame = CGRect(x: 8, y: 30, width: 60, height: 12)
            label.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.9)
            layer.addSublayer(label)
        case .turned: layer.transform = CATransform3DMakeRotation(0.2, 0, 0, 1)
        case .turnedSquare: layer.transform = CATransform3DScale(CATransform3DMakeRotation(-0.7, 0, 0, 1), 1.2, 1.2, 1)
        default: break
        }
        parent.addSublayer(layer)
        return root
    }

    static func lists(_ card: Card, scale: Double) throws -> (cut: RenderList, whole: RenderList) {
        let root = tree(card)
        var builder = RenderListBuilder(viewport: root.frame, scale: scale)
        let cut = try builder.build(root: root)
        builder.cutsOccludedShadows = false
        return (cut, try builder.build(root: root))
    }

    /// The shadow's quads in the frame, and the pixels their polygons' bounds hold.
    static func shadowQuads(_ list: RenderList) -> (count: Int, pixels: Int) {
        var count = 0, pixels = 0
        for case .quad(let quad) in list.passes.last!.ops {
            guard case .blurredRoundedRect = quad.fill else { continue }
            count += 1
            pixels += quad.polygon.pixelBounds.width * quad.polygon.pixelBounds.height
        }
        return (count, pixels)
    }

    @Test("the same bytes on both backends with the covered middle cut out, and far fewer shadow pixels",
          arguments: Card.allCases, [1.0, 1.5, 2.0])
    func sameBytes(card: Card, scale: Double) throws {
        let (cut, whole) = try Self.lists(card, scale: scale)
        let (cutQuads, wholeQuads) = (Self.shadowQuads(cut), Self.shadowQuads(whole))
        #expect(wholeQuads.count == 1, "one closed-form shadow to begin with")
        if card.isCut {
            #expect(cutQuads.count >= 3, "the shadow is drawn in strips")
            #expect(Double(cutQuads.pixels) < 0.75 * Double(wholeQuads.pixels),
                    "\(cutQuads.pixels) of \(wholeQuads.pixels) shadow pixels left")
        } else if card.isTurned {
            // One quad, its card's middle marked: most of the card, a whole pixel clear of its edges.
            let quads = cut.passes.last!.ops.compactMap { op -> QuadOp? in
                guard case .quad(let quad) = op, case .blurredRoundedRect = quad.fill else { return nil }
                return quad
            }
            #expect(quads.count == 1)
            let occluded = try #require(quads.first?.occluded)
            #expect(occluded.width * occluded.height >= Int(0.3 * 101.5 * 66.25 * scale * scale),
                    "\(occluded) of a card of \(Int(101.5 * 66.25 * scale * scale)) pixels")
        } else {
            #expect(cut == whole, "nothing is hidden for certain, so nothing is cut")
        }
        let cpu = (cut: RasterRenderer().render(cut), whole: RasterRenderer().render(whole))
        let device = try GLDevice.shared()
        let gpu = (cut: try device.render(cut), whole: try device.render(whole))
        func bytesApart(_ a: Bitmap, _ b: Bitmap) -> Int { zip(a.pixels, b.pixels).filter { $0 != $1 }.count }
        #expect(bytesApart(cpu.cut, cpu.whole) == 0, "the CPU reference's bytes changed")
        #expect(bytesApart(gpu.cut, gpu.whole) == 0, "the GPU's bytes changed")
        let report = try ImageComparison.compare(cpu.cut, gpu.cut, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }
}
