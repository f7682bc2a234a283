// Under an affine map the rounded batch (rounded_batch.vert) draws a shape's frame from its
// outline grown by 0.75 of the plane's gradient lengths, and cuts the hole (a border's, or the
// middle drawn apart) from the inner rectangle shrunk by the corners' reach, r (1 - 1/sqrt 2), and
// as much again: the exact margins with a little to spare, where a pixel's whole reach did twice
// the work. Held here against the coverage both backends compute (RoundedShape, which the
// shader mirrors): on random maps (turned, scaled up to twice as much one way, sheared) and
// shapes, every pixel centre outside the grown outline has no coverage, and every one inside the
// hole has all of it. With 0.6 for 0.75 pixels outside have coverage; with 0.5, in the hole
// some lack it.
import Compositor
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Rounded frames' margins under affine maps")
struct RoundedFrameMarginTests {
    /// The share of the plane's gradient lengths the outline grows by and the hole shrinks by.
    static let margin = 0.75

    @Test("no coverage outside the grown outline, all of it inside the hole")
    func margins() throws {
        var random = RoundedShapeSamplerTests.Random(state: 11)
        var outsideCovered: [String] = [], holeShort: [String] = [], pixels = 0
        for trial in 0..<150 {
            // device -> plane: a turn, scales within a factor 2 of each other, another turn.
            let (t1, t2) = (random.next(0...Double.pi), random.next(0...Double.pi))
            let s1 = random.next(0.3...3), s2 = s1 * random.next(0.5...2)
            let (c1, n1, c2, n2) = (cos(t1), sin(t1), cos(t2), sin(t2))
            let map = ProjectiveTransform2D(m11: c1 * s1 * c2 - n1 * s2 * n2, m12: n1 * s1 * c2 + c1 * s2 * n2, m13: 0,
                                            m21: -c1 * s1 * n2 - n1 * s2 * c2, m22: -n1 * s1 * n2 + c1 * s2 * c2, m23: 0,
                                            m31: random.next(-50...50), m32: random.next(-50...50), m33: 1)
            let lengthX = hypot(map.m11, map.m21), lengthY = hypot(map.m12, map.m22)
            let (w, h) = (random.next(5...80) * s1, random.next(5...80) * s1)
            let radius = { (random: inout RoundedShapeSamplerTests.Random) in
                random.next() < 0.2 ? 0 : random.next(0...(min(w, h) / 2))
            }
            let outline = RoundedRectangle(rect: Rect(x: 0, y: 0, width: w, height: h), topLeft: radius(&random),
                                           topRight: radius(&random), bottomRight: radius(&random), bottomLeft: radius(&random))
            let shape = RoundedShape(deviceToLocal: map, outer: outline)
            let grown = (x: Self.margin * lengthX, y: Self.margin * lengthY)
            let r = max(outline.topLeft, outline.topRight, outline.bottomRight, outline.bottomLeft)
            let inset = (x: r * (1 - 0.70710678) + grown.x, y: r * (1 - 0.70710678) + grown.y)
            // The device pixels about the shape.
            let toDevice = try #require(map.inverted())
            let corners = [(0.0, 0.0), (w, 0), (w, h), (0, h)].map { toDevice.apply(CGPoint(x: $0.0, y: $0.1)) }
            let (minX, maxX) = (Int(corners.map(\.x).min()!.rounded(.down)) - 4, Int(corners.map(\.x).max()!.rounded(.up)) + 4)
            let (minY, maxY) = (Int(corners.map(\.y).min()!.rounded(.down)) - 4, Int(corners.map(\.y).max()!.rounded(.up)) + 4)
            guard (maxX - minX) * (maxY - minY) <= 8_000 else { continue }
            for py in minY..<maxY {
                for px in minX..<maxX {
                    let (x, y) = (Double(px) + 0.5, Double(py) + 0.5)
                    let l = map.applyHomogeneous(x: x, y: y)
                    let coverage = shape.coverage(atX: x, y: y)
                    pixels += 1
                    if l.x < -grown.x || l.x > w + grown.x || l.y < -grown.y || l.y > h + grown.y, coverage > 0 {
                        outsideCovered.append("case \(trial), pixel (\(px), \(py)): \(coverage)")
                    }
                    if w > 2 * inset.x, h > 2 * inset.y, l.x > inset.x, l.x < w - inset.x, l.y > inset.y, l.y < h - inset.y, coverage < 1 {
                        holeShort.append("case \(trial), pixel (\(px), \(py)): \(coverage)")
                    }
                }
            }
        }
        #expect(pixels > 100_000)
        #expect(outsideCovered.isEmpty, "\(outsideCovered.count) pixels outside the grown outline covered: \(outsideCovered.prefix(3))")
        #expect(holeShort.isEmpty, "\(holeShort.count) pixels in the hole not wholly covered: \(holeShort.prefix(3))")
    }
}
