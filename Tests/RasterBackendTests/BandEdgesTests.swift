// The CPU reference's threads split a pass's rows by work (RasterRenderer.bandEdges), not into
// equal stretches: a frame whose layers crowd one part of it still keeps every thread busy, and
// whichever thread draws a row, the bytes are the same.
import Compositor
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("CPU bands split by work")
struct BandEdgesTests {
    static let (width, height) = (240, 400)

    /// A backdrop over the whole target, then `count` small translucent rectangles in rows
    /// `rows` (half-pixel edges, so each is anti-aliased along every side).
    static func crowded(_ count: Int, in rows: Range<Int>) -> [DrawOp] {
        let backdrop = DrawOp.rectangle(0, 0, Double(width), Double(height),
                                        fill: .solid(PremultipliedColor(red: 0.9, green: 0.9, blue: 0.92, alpha: 1)),
                                        targetWidth: width, targetHeight: height)
        let cards = (0..<count).map { i -> DrawOp in
            let x = Double((i * 37) % (width - 40)) + 0.5, y = Double(rows.lowerBound + (i * 13) % (rows.count - 20)) + 0.5
            let fill = Fill.solid(PremultipliedColor(red: 0.1, green: 0.3, blue: 0.6, alpha: 0.7))
            return DrawOp.rectangle(x, y, x + 39, y + 19, fill: fill, opacity: 0.9, targetWidth: width, targetHeight: height)
        }
        return [backdrop] + cards
    }

    /// The estimated work of rows `rows`, from the same per-op costs the split uses.
    static func work(_ ops: [DrawOp], rows: Range<Int>) -> Int {
        ops.reduce(0) { sum, op in
            guard let cost = RasterRenderer.rowCost(of: op) else { return sum }
            let b = cost.bounds
            let overlap = max(0, min(b.maxY, rows.upperBound) - max(b.minY, rows.lowerBound))
            return sum + overlap * ((b.maxX - b.minX) * cost.perPixel + cost.perRow)
        }
    }

    @Test("layers crowding the top quarter: the bands meet inside it, each with about half the work")
    func crowdedTop() {
        let ops = BandEdgesTests.crowded(200, in: 0..<100)
        let edges = RasterRenderer.bandEdges(of: ops, width: BandEdgesTests.width, height: BandEdgesTests.height, bands: 2)
        #expect(edges.count == 3 && edges.first == 0 && edges.last == BandEdgesTests.height)
        #expect(edges[1] < 100, "\(edges)")
        let top = BandEdgesTests.work(ops, rows: 0..<edges[1]), bottom = BandEdgesTests.work(ops, rows: edges[1]..<BandEdgesTests.height)
        // Within a row's work of an even split.
        let busiestRow = (0..<BandEdgesTests.height).map { BandEdgesTests.work(ops, rows: $0..<($0 + 1)) }.max()!
        #expect(abs(top - bottom) <= 2 * busiestRow, "top \(top), bottom \(bottom), a row up to \(busiestRow)")
    }

    @Test("even work: even rows; no work at all: even rows too; every count of bands covers the rows once")
    func evenAndEmpty() {
        let backdrop = BandEdgesTests.crowded(0, in: 0..<100)
        for bands in 2...5 {
            let edges = RasterRenderer.bandEdges(of: backdrop, width: BandEdgesTests.width, height: BandEdgesTests.height, bands: bands)
            let even = (0...bands).map { BandEdgesTests.height * $0 / bands }
            #expect(zip(edges, even).allSatisfy { abs($0 - $1) <= 1 }, "\(edges) against \(even)")
            #expect(RasterRenderer.bandEdges(of: [], width: BandEdgesTests.width, height: BandEdgesTests.height, bands: bands) == even)
            let crowded = RasterRenderer.bandEdges(of: BandEdgesTests.crowded(60, in: 300..<400), width: BandEdgesTests.width,
                                                   height: BandEdgesTests.height, bands: bands)
            #expect(crowded.count == bands + 1 && crowded.first == 0 && crowded.last == BandEdgesTests.height)
            #expect(zip(crowded, crowded.dropFirst()).allSatisfy { $0 <= $1 }, "\(crowded)")
        }
    }

    @Test("the crowded frame on one, two and three threads: the same bytes")
    func sameBytes() {
        let list = RenderList.singlePass(BandEdgesTests.width, BandEdgesTests.height, BandEdgesTests.crowded(200, in: 0..<100))
        let one = RasterRenderer(threads: 1).render(list)
        #expect(one.pixels.contains { $0 != 0 })
        for threads in [2, 3] {
            let many = RasterRenderer(threads: threads).render(list).pixels
            let differing = zip(many, one.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "\(threads) threads: \(differing) bytes differ")
        }
    }
}
