// The CPU reference draws a row of a quad only over the columns its polygon can cover
// (`CoveragePolygon.candidateColumns`), so a turned quad's empty corners cost nothing: held here to
// `coverage` itself, which must be zero at every pixel of the row outside those columns, on
// random turned quadrilaterals, thin slivers, triangles and polygons clipped by a second one.
import Compositor
import Foundation
import Testing

@Suite("Rows of a polygon: the columns it can cover")
struct PolygonRowSpanTests {
    @Test("coverage is zero at every pixel outside a row's candidate columns, and the columns are not the whole bounds",
          arguments: 0..<6)
    func agreesWithCoverage(seed: Int) throws {
        var rng = RoundedShapeSamplerTests.Random(state: UInt64(seed) + 11)
        var narrowed = 0, covered = 0
        for shape in 0..<120 {
            let cx = rng.next(40...360), cy = rng.next(30...270), angle = rng.next(0...(Double.pi))
            let hw = rng.next(0.3...90), hh = rng.next(0.3...90)
            var corners = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { x, y in
                (cx + x * cos(angle) - y * sin(angle), cy + x * sin(angle) + y * cos(angle))
            }
            if shape % 4 == 1 { corners.removeLast() } // a triangle
            guard var polygon = PolygonWhollyCoversTests.polygon(corners) else { continue }
            if shape % 4 == 2, let clip = PolygonWhollyCoversTests.polygon([(cx - 20, 0), (cx + 35, 0), (cx + 35, 300), (cx - 20, 300)]) {
                polygon = polygon.withEdges(of: clip)
            }
            let bounds = polygon.pixelBounds
            for y in bounds.minY..<bounds.maxY {
                let columns = polygon.candidateColumns(row: y)
                if columns.count < bounds.maxX - bounds.minX { narrowed += 1 }
                for x in bounds.minX..<bounds.maxX where !columns.contains(x) {
                    let c = polygon.coverage(atX: Double(x) + 0.5, y: Double(y) + 0.5)
                    #expect(c == 0, "seed \(seed), shape \(shape): pixel (\(x), \(y)) has coverage \(c) outside columns \(columns)")
                    if c != 0 { return }
                }
                covered += 1
            }
        }
        #expect(covered > 1000 && narrowed > covered / 3, "the rows should be many and most turned ones narrowed (\(narrowed) of \(covered))")
    }
}
