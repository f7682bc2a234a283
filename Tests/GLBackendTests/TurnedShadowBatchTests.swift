// A turned card's closed-form shadow: its quad is no rectangle on screen, and was drawn singly by
// the general program (a radius-100 shadow of a card turned by 0.1: 28 ms on llvmpipe). Where
// each of its polygon's edges is its reach rectangle's (past which the shadow's bytes are 0) or
// clear of its pixel bounds (the frame's guard band), the shadow batches draw those bounds whole
// (QuadOp.isCutOnlyPastItsReach): the bytes of the single draw but for a step at a few pixels (the
// batch's folded map rounds its floats its own way), and within the agreement bar of the CPU.
// A clip that cuts the shadow keeps the single draw.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Turned shadows in the shadow batches", .serialized)
struct TurnedShadowBatchTests {
    /// Two devices of the suite's own, one drawing turned shadows singly.
    static let devices = Result { () throws -> (batched: GLDevice, single: GLDevice) in
        let single = try GLDevice()
        single.drawTurnedShadowsSingly()
        return (try GLDevice(), single)
    }

    enum Clip: String, CaseIterable, CustomTestStringConvertible {
        /// No clip; the card near the frame's corner, the guard band cutting its shadow.
        case none
        /// A clip around the card and its whole shadow: its edges cut nothing.
        case clear
        /// A clip across the shadow: the shadow keeps the single draw.
        case cutting
        var testDescription: String { rawValue }
    }

    static func list(turn: Double, radius: Double, clip: Clip, scale: Double, opacity: Float = 0.6,
                     offset: CGSize = CGSize(width: 1.5, height: 4.25)) throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 150)
        root.backgroundColor = CGColor(red: 0.93, green: 0.94, blue: 0.96, alpha: 1)
        var parent = root
        if clip != .none {
            let container = CALayer()
            container.frame = clip == .clear ? CGRect(x: -150, y: -150, width: 500, height: 450) : CGRect(x: 30.3, y: 12.6, width: 120.5, height: 90.25)
            container.masksToBounds = true
            root.addSublayer(container)
            parent = container
        }
        let card = CALayer()
        let origin = clip == .none ? CGPoint(x: 120.4, y: 70.2) : CGPoint(x: 55.3, y: 38.6)
        card.frame = CGRect(origin: parent === root ? origin : CGPoint(x: origin.x - parent.frame.minX, y: origin.y - parent.frame.minY),
                            size: CGSize(width: 80.5, height: 52.25))
        card.backgroundColor = CGColor(red: 0.2, green: 0.45, blue: 0.9, alpha: 1)
        card.cornerRadius = 11.5
        card.shadowOpacity = opacity
        card.shadowRadius = radius
        card.shadowOffset = offset
        card.transform = CATransform3DMakeRotation(turn, 0, 0, 1)
        parent.addSublayer(card)
        return try RenderListBuilder(viewport: root.frame, scale: scale).build(root: root)
    }

    @Test("drawn whole by the batches where no clip cuts them: the single draw's bytes but for a step at a few pixels, and the CPU's within the bar",
          arguments: Clip.allCases, [(0.1, 1.5, 1.0), (0.45, 5.5, 1.0), (-1.0, 30.0, 1.0), (2.5, 12.0, 2.0)])
    func batched(clip: Clip, case parameters: (turn: Double, radius: Double, scale: Double)) throws {
        let list = try Self.list(turn: parameters.turn, radius: parameters.radius, clip: clip, scale: parameters.scale)
        let shadows = list.passes.last!.ops.filter { op in
            guard case .quad(let quad) = op, case .blurredRoundedRect = quad.fill else { return false }
            return GLQuadBatch.rectangleEdges(of: quad.polygon) == nil
        }
        // One turned closed-form shadow (a wide one a clip cuts to the clip's rectangle is a
        // rectangle again, drawn by the batches as any).
        #expect(clip == .cutting ? shadows.count <= 1 : shadows.count == 1, "\(shadows.count) turned closed-form shadows")
        let (batched, single) = try Self.devices.get()
        let before = batched.shadowsDrawnWhole
        let a = try batched.render(list), b = try single.render(list)
        let whole = batched.shadowsDrawnWhole - before
        #expect(whole == (clip == .cutting ? 0 : 1), "\(whole) turned shadows drawn whole")
        #expect(single.shadowsDrawnWhole == 0)
        let (differing, largest) = GLFrameFixtures.differences(a, b)
        #expect(largest <= 1 && differing <= a.pixels.count / 5_000,
                "\(differing) of \(a.pixels.count) bytes differ from the single draw, by up to \(largest)")
        let report = try ImageComparison.compare(RasterRenderer().render(list), a, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }

    /// The closed form skips its erfs where a pixel lies past their reach beyond a side (no
    /// byte) and its exponentials inside its constant region (one value a shape, from the vertex
    /// stage): an opaque black shadow's every byte, tails and inside (offset to show beside its
    /// card), stays within a step of the CPU's, which works each pixel out whole. A reach cut to
    /// 0.3 of erf's, or an inside 1% off, moved bytes by 2 or more.
    @Test("a sharp turned shadow's tails and inside: every byte within a step of the CPU's",
          arguments: [(0.3, 1.0, 1.0), (-0.7, 0.6, 1.0), (0.2, 1.0, 2.0)])
    func tails(case parameters: (turn: Double, radius: Double, scale: Double)) throws {
        let list = try Self.list(turn: parameters.turn, radius: parameters.radius, clip: .clear, scale: parameters.scale, opacity: 1,
                                 offset: CGSize(width: 30, height: -24))
        let (batched, single) = try Self.devices.get()
        let cpu = RasterRenderer().render(list)
        for device in [batched, single] {
            let profiled = device.profiledShadows.quads
            let (differing, largest) = GLFrameFixtures.differences(try device.render(list), cpu)
            // Sharp enough that its grid would pass BlurredRoundedRectProfile.maxSide: the closed form.
            #expect(device.profiledShadows.quads == profiled)
            #expect(largest <= 1, "\(differing) bytes differ from the CPU's, by up to \(largest)")
        }
    }

    @Test("a polygon edge off the reach rectangle that cuts the pixel bounds keeps the single draw; one clear of them does not")
    func edgesDecide() throws {
        let cut = try Self.list(turn: 0.3, radius: 8, clip: .cutting, scale: 1)
        let clear = try Self.list(turn: 0.3, radius: 8, clip: .clear, scale: 1)
        func shadow(_ list: RenderList) -> QuadOp? {
            list.passes.last!.ops.lazy.compactMap { op -> QuadOp? in
                guard case .quad(let quad) = op, case .blurredRoundedRect = quad.fill else { return nil }
                return quad
            }.first
        }
        let cutQuad = try #require(shadow(cut)), clearQuad = try #require(shadow(clear))
        #expect(!cutQuad.isCutOnlyPastItsReach)
        #expect(clearQuad.isCutOnlyPastItsReach)
        // The same quad with a polygon of its own cut short by a vertical line through it.
        let b = clearQuad.polygon.pixelBounds
        let middle = Double(b.minX + b.maxX) / 2 + 0.25
        var halved = clearQuad
        halved.polygon = try #require(CoveragePolygon(vertices: clearQuad.polygon.vertices.map { DevicePoint(x: min($0.x, middle), y: $0.y) },
                                                      targetWidth: 200, targetHeight: 150))
        #expect(!halved.isCutOnlyPastItsReach)
    }
}
