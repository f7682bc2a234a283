// A pass's paths hold their rasterizers' cells until the bands have drawn them; where many large
// paths would hold more than RasterRenderer.maxPathCells at once, the ops are drawn in stretches,
// one after another. Every pixel still meets the ops in their order: the same bytes with any
// limit and any thread count.
import Compositor
import Foundation
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("Paths drawn in stretches")
struct PathStretchTests {
    static let size = (width: 96, height: 64)

    static func ellipse(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double, segments: Int = 40) -> [DevicePoint] {
        (0..<segments).map { i in
            let a = Double(i) * 2 * Double.pi / Double(segments)
            return DevicePoint(x: cx + rx * cos(a), y: cy + ry * sin(a))
        }
    }

    /// Twelve paths nearly as large as the frame (translucent, every third stroked), with a
    /// background and its border between some of them.
    static func list() throws -> RenderList {
        let (width, height) = PathStretchTests.size
        var ops: [DrawOp] = []
        for i in 0..<12 {
            let centre = (Double(width) / 2 + Double(i % 5) - 2, Double(height) / 2 + Double(i % 3) - 1)
            let outline = ellipse(centre.0, centre.1, Double(width) / 2 - Double(i), Double(height) / 2 - Double(i) / 2)
            let stroke = i % 3 == 0 ? PathStroke(contours: [ellipse(centre.0, centre.1, 20 + Double(i), 12),
                                                             ellipse(centre.0, centre.1, 17 + Double(i), 9).reversed()],
                                                 color: PremultipliedColor(red: 0.1, green: 0.2, blue: 0.5, alpha: 0.5)) : nil
            let colour = PremultipliedColor(red: 0.05 * Double(i % 4), green: 0.1, blue: 0.04 * Double(i % 6), alpha: 0.3)
            ops.append(.path(try #require(PathOp(source: "ellipse", contours: [outline], evenOdd: i % 2 == 1, color: colour,
                                                 stroke: stroke, opacity: 1, targetWidth: width, targetHeight: height))))
            if i % 4 == 1 {
                ops.append(DrawOp.rectangle(10 + Double(i), 8, 40 + Double(i), 30, fill: .solid(PremultipliedColor(red: 0.2, green: 0, blue: 0, alpha: 0.4)),
                                            targetWidth: width, targetHeight: height))
            }
        }
        return RenderList.singlePass(width, height, ops)
    }

    @Test("the cut falls before a path that would pass the limit, and a stretch holds at least one op")
    func cuts() throws {
        let ops = try PathStretchTests.list().passes[0].ops
        let paths = ops.indices.filter { if case .path = ops[$0] { true } else { false } }
        #expect(RasterRenderer.pathStretches(of: ops, maxPathCells: .max) == [0..<ops.count])
        // A limit below one path's cells: every path starts a stretch of its own.
        let alone = RasterRenderer.pathStretches(of: ops, maxPathCells: 1)
        #expect(alone.map(\.lowerBound) == paths, "\(alone)")
        #expect(alone.last?.upperBound == ops.count && alone.allSatisfy { !$0.isEmpty })
        // A limit of about three full-frame paths: a few stretches, each within it or one path.
        let (width, height) = PathStretchTests.size
        let some = RasterRenderer.pathStretches(of: ops, maxPathCells: 3 * (width + 2) * height)
        #expect(some.count > 2 && some.count < paths.count, "\(some)")
    }

    @Test("drawn in stretches, on one thread or two, the frame is the one drawn at once", arguments: [1, 2])
    func sameBytes(threads: Int) throws {
        let list = try PathStretchTests.list()
        let whole = RasterRenderer(threads: threads).render(list)
        #expect(whole.pixels.contains { $0 != 0 })
        let (width, height) = PathStretchTests.size
        for limit in [1, 2 * (width + 2) * height, 5 * (width + 2) * height] {
            var renderer = RasterRenderer(threads: threads)
            renderer.maxPathCells = limit
            #expect(renderer.render(list).pixels == whole.pixels, "limit \(limit)")
        }
    }
}
