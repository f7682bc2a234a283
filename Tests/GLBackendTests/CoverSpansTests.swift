// The rectangles a path's cover is drawn over on the CPU route (GLCoverSpans): every pixel the
// cover would colour inside exactly one of them, and the frames the same bytes as the CPU
// reference's where the cover skips the rest.
import Compositor
import GLBackend
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("A path's cover drawn over the pixels it colours")
struct CoverSpansTests {
    /// A ring's coverage over a square: 1 on the ring, a fringe either side, the float residue of
    /// summed edges (1e-8 and the like) in its hole and around it.
    static func ring(side: Int, radius: Double, width: Double, residue: Float) -> [Float] {
        let c = Double(side) / 2
        return (0..<side * side).map { i in
            let x = Double(i % side) + 0.5 - c, y = Double(i / side) + 0.5 - c
            let d = abs((x * x + y * y).squareRoot() - radius)
            let v = Float(min(max(width / 2 + 0.5 - d, 0), 1))
            return v > 0 ? v : (i % 7 == 0 ? residue : 0)
        }
    }

    /// How many of `rectangles` hold each pixel of `bounds`, and whether any reaches past them.
    static func counts(_ rectangles: [PixelRect], within bounds: PixelRect) -> (counts: [Int], outside: Bool) {
        var counts = [Int](repeating: 0, count: bounds.width * bounds.height), outside = false
        for r in rectangles {
            outside = outside || r.minX < bounds.minX || r.minY < bounds.minY || r.maxX > bounds.maxX || r.maxY > bounds.maxY
            for y in max(r.minY, bounds.minY)..<min(r.maxY, bounds.maxY) {
                for x in max(r.minX, bounds.minX)..<min(r.maxX, bounds.maxX) { counts[(y - bounds.minY) * bounds.width + x - bounds.minX] += 1 }
            }
        }
        return (counts, outside)
    }

    @Test("every pixel the cover colours lies in one rectangle, none past the bounds; a ring's hole is left out",
          arguments: [(Float(1), Float(0)), (Float(0.05), Float(0)), (Float(0.4), Float(0.9))])
    func rectangles(fillAlpha: Float, strokeAlpha: Float) {
        let side = 150, bounds = PixelRect(minX: 37, minY: -5, maxX: 37 + side, maxY: -5 + side)
        let fill = CoverSpansTests.ring(side: side, radius: 60, width: 3, residue: 3e-8)
        let stroke = strokeAlpha > 0 ? CoverSpansTests.ring(side: side, radius: 41.3, width: 1.2, residue: 1e-7) : nil
        let rectangles = GLCoverSpans.rectangles(fill: fill, fillAlpha: fillAlpha, stroke: stroke, strokeAlpha: strokeAlpha, within: bounds)
        let (counts, outside) = CoverSpansTests.counts(rectangles, within: bounds)
        #expect(!outside, "a rectangle reaches past the bounds")
        #expect(counts.allSatisfy { $0 <= 1 }, "rectangles overlap")
        var missed = 0
        for i in fill.indices where fill[i] * fillAlpha + (stroke?[i] ?? 0) * strokeAlpha >= GLCoverSpans.clearBelow && counts[i] == 0 {
            missed += 1
        }
        #expect(missed == 0, "\(missed) pixels the cover colours are in no rectangle")
        let kept = counts.reduce(0, +)
        #expect(kept * 3 < side * side, "\(kept) of \(side * side) pixels kept: the hole and the residue were not left out")
    }

    @Test("a filled shape over most of its bounds takes the one quad; nothing coloured, no rectangle")
    func wholeAndNone() {
        let bounds = PixelRect(minX: 0, minY: 0, maxX: 40, maxY: 30)
        let filled = [Float](repeating: 1, count: 40 * 30)
        #expect(GLCoverSpans.rectangles(fill: filled, fillAlpha: 1, stroke: nil, strokeAlpha: 0, within: bounds) == [bounds])
        let faint = [Float](repeating: 0.001, count: 40 * 30)
        #expect(GLCoverSpans.rectangles(fill: faint, fillAlpha: 1, stroke: nil, strokeAlpha: 0, within: bounds).isEmpty,
                "0.001 rounds to a clear byte")
        #expect(GLCoverSpans.rectangles(fill: faint, fillAlpha: 1, stroke: nil, strokeAlpha: 0, within: bounds).isEmpty)
    }

    @Test("rings and a faint square summed on the CPU and covered over their spans: the CPU reference's bytes")
    func ringsOnTheGPU() throws {
        let device = try GLDevice()
        device.sumPathsOnCPU()
        let size = 128
        var ops: [DrawOp] = []
        for (i, alpha) in [0.03, 0.3, 1.0].enumerated() {
            let c = 40.0 + 24.3 * Double(i), r = 30.0 - 4.1 * Double(i)
            let outer = PathFillTests.circle(c, c - 3.7, r), inner = Array(PathFillTests.circle(c, c - 3.7, r - 2.6 - Double(i)).reversed())
            ops.append(.path(try #require(PathOp(source: DrawSource(stringLiteral: "ring \(i)"), contours: [outer, inner], evenOdd: false,
                                                  color: PremultipliedColor(red: 0.2 * alpha, green: 0.5 * alpha, blue: alpha, alpha: alpha),
                                                  opacity: 1, targetWidth: size, targetHeight: size))))
        }
        // A square so faint that each pixel is half a step and a little (0.55 / 255): a byte of 1
        // on the CPU, which a cover that took it for clear would leave out.
        let faint = 0.55 / 255
        let square = [DevicePoint(x: 20, y: 20), DevicePoint(x: 100, y: 20), DevicePoint(x: 100, y: 100), DevicePoint(x: 20, y: 100)]
        ops.append(.path(try #require(PathOp(source: "faint square", contours: [square], evenOdd: false,
                                              color: PremultipliedColor(red: faint, green: faint, blue: faint, alpha: faint),
                                              opacity: 1, targetWidth: size, targetHeight: size))))
        for op in ops {
            let list = RenderList(width: size, height: size, passes: [RenderPass(id: 0, width: size, height: size, ops: [op])],
                                  textures: [:], diagnostics: [])
            let gpu = try device.render(list), cpu = RasterRenderer().render(list)
            let apart = zip(gpu.pixels, cpu.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
            #expect(apart == 0, "\(op): the GPU \(apart)/255 from the CPU reference")
            #expect(cpu.pixels.contains { $0 != 0 }, "the ring drew nothing")
        }
    }
}
