// A closed-form shadow's quad, where it is an axis-aligned rectangle, grows out to whole pixels
// (RenderListBuilder.outToWholePixels): the pixels it gains lie past the shadow's negligible
// reach, so both backends draw the same bytes as with the reach's own rectangle, and a quad of
// whole pixels needs no edges: the GL shadow batch's UNCLIPPED variant leaves them out, the same
// bytes as the program that works them out. Turned shadows keep their quads, and a quad cut by a
// clip at a fractional place keeps its edges.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("Closed-form shadows' quads in whole pixels", .serialized)
struct ShadowWholePixelTests {
    /// Two devices of the suite's own, one drawing every shadow with its edges worked out.
    static let devices = Result { () throws -> (unclipped: GLDevice, edges: GLDevice) in
        let edges = try GLDevice()
        edges.drawShadowEdgesAlways()
        return (try GLDevice(), edges)
    }

    static func list(_ card: OccludedShadowTests.Card, scale: Double, wholePixels: Bool, radius: Double) throws -> RenderList {
        let root = OccludedShadowTests.tree(card)
        func shadowed(_ layer: CALayer) -> [CALayer] {
            (layer.shadowOpacity > 0 ? [layer] : []) + (layer.sublayers ?? []).flatMap(shadowed)
        }
        for layer in shadowed(root) { layer.shadowRadius = radius }
        var builder = RenderListBuilder(viewport: root.frame, scale: scale)
        // The whole shadow, one quad (the strips' inner edges lie along the card's fractional
        // edges, and keep them).
        builder.cutsOccludedShadows = false
        builder.shadowQuadsInWholePixels = wholePixels
        return try builder.build(root: root)
    }

    static func shadowQuads(_ list: RenderList) -> [QuadOp] {
        list.passes.last!.ops.compactMap { op in
            guard case .quad(let quad) = op, case .blurredRoundedRect = quad.fill else { return nil }
            return quad
        }
    }

    @Test("the same bytes as the reach's own rectangle on both backends; whole-pixel quads drawn without their edges",
          arguments: OccludedShadowTests.Card.allCases, [(1.0, 5.5), (1.5, 5.5), (2.0, 30.0), (1.0, 60.0)])
    func sameBytes(card: OccludedShadowTests.Card, scaleAndRadius: (Double, Double)) throws {
        let (scale, radius) = scaleAndRadius
        let snapped = try Self.list(card, scale: scale, wholePixels: true, radius: radius)
        let reach = try Self.list(card, scale: scale, wholePixels: false, radius: radius)
        let quads = Self.shadowQuads(snapped)
        #expect(quads.count == 1 && Self.shadowQuads(reach).count == 1, "one closed-form shadow")
        // Unturned and unclipped, the quad is whole pixels; turned, it is no rectangle on screen
        // unless the frame cuts it to one; a clip at a fractional place keeps its edges.
        let whole = quads.allSatisfy { $0.polygon.wholePixelRect != nil }
        if !card.isTurned && card != .clipped { #expect(whole, "\(quads.map(\.polygon.vertices)) in whole pixels") }
        if card == .clipped { #expect(!whole, "a fractional clip's edges kept") }
        func bytesApart(_ a: Bitmap, _ b: Bitmap) -> Int { zip(a.pixels, b.pixels).filter { $0 != $1 }.count }
        #expect(bytesApart(RasterRenderer().render(snapped), RasterRenderer().render(reach)) == 0,
                "the CPU reference's bytes changed with the quad grown")
        let (unclipped, edges) = try Self.devices.get()
        let before = unclipped.shadowUnclippedRuns
        let gpu = try unclipped.render(snapped)
        let runs = unclipped.shadowUnclippedRuns - before
        #expect(whole ? runs > 0 : runs == 0, "\(runs) shadow runs drawn without their edges")
        #expect(edges.shadowUnclippedRuns == 0)
        #expect(bytesApart(gpu, try edges.render(snapped)) == 0, "the UNCLIPPED variant's bytes differ from the edges' program's")
        #expect(bytesApart(gpu, try edges.render(reach)) == 0, "the GPU's bytes changed with the quad grown")
    }

    @Test("an axis-aligned rectangle grows out to whole pixels, its winding kept; other polygons stay")
    func outToWholePixels() {
        let rectangle = [DevicePoint(x: 10.25, y: 3.5), DevicePoint(x: 40.75, y: 3.5), DevicePoint(x: 40.75, y: 20.01),
                         DevicePoint(x: 10.25, y: 20.01)]
        #expect(RenderListBuilder.outToWholePixels(rectangle) == [DevicePoint(x: 10, y: 3), DevicePoint(x: 41, y: 3),
                                                                  DevicePoint(x: 41, y: 21), DevicePoint(x: 10, y: 21)])
        let reversed = Array(rectangle.reversed())
        #expect(RenderListBuilder.outToWholePixels(reversed) == Array(RenderListBuilder.outToWholePixels(rectangle).reversed()))
        let turned = [DevicePoint(x: 10, y: 3), DevicePoint(x: 40, y: 5), DevicePoint(x: 38, y: 20), DevicePoint(x: 9, y: 18)]
        #expect(RenderListBuilder.outToWholePixels(turned) == turned)
        let triangle = Array(rectangle.prefix(3))
        #expect(RenderListBuilder.outToWholePixels(triangle) == triangle)
        // The pixels a whole-pixel rectangle covers, on the target; none for a fractional one.
        let snapped = CoveragePolygon(vertices: RenderListBuilder.outToWholePixels(rectangle), targetWidth: 64, targetHeight: 64)
        #expect(snapped?.wholePixelRect == PixelRect(minX: 10, minY: 3, maxX: 41, maxY: 21))
        #expect(CoveragePolygon(vertices: rectangle, targetWidth: 64, targetHeight: 64)?.wholePixelRect == nil)
        let overhanging = CoveragePolygon(vertices: [DevicePoint(x: -2, y: -2), DevicePoint(x: 70, y: -2), DevicePoint(x: 70, y: 9),
                                                     DevicePoint(x: -2, y: 9)], targetWidth: 64, targetHeight: 64)
        #expect(overhanging?.wholePixelRect == PixelRect(minX: 0, minY: 0, maxX: 64, maxY: 9))
    }
}
