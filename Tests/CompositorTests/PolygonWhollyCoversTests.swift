// A quad's polygon that covers every pixel of its bounds wholly (a card clipped only by the
// frame grown by two pixels) is not measured at each pixel by the CPU reference
// (`CoveragePolygon.coversWholly`): held here to `coverage` itself, which must answer exactly 1
// at every pixel of any rectangle it says so of, on random turned and axis-aligned polygons;
// and it must say so of the frame's clip around a card, not of a clip that crosses one.
import Compositor
import Foundation
import Testing

@Suite("Polygons covering a rectangle's pixels wholly")
struct PolygonWhollyCoversTests {
    static func polygon(_ points: [(Double, Double)], width: Int = 400, height: Int = 300) -> CoveragePolygon? {
        CoveragePolygon(vertices: points.map { DevicePoint(x: $0.0, y: $0.1) }, targetWidth: width, targetHeight: height)
    }

    @Test("the frame's clip covers a card inside it wholly, not one it crosses or one within reach of an edge")
    func frameClip() throws {
        let clip = try #require(Self.polygon([(-2, -2), (402, -2), (402, 302), (-2, 302)]))
        #expect(clip.coversWholly(PixelRect(minX: 0, minY: 0, maxX: 400, maxY: 300)))
        #expect(clip.coversWholly(PixelRect(minX: 120, minY: 40, maxX: 190, maxY: 95)))
        #expect(!clip.coversWholly(PixelRect(minX: -3, minY: 40, maxX: 60, maxY: 95)), "a pixel lies across the clip's edge")
        let tight = try #require(Self.polygon([(10.3, 20), (200, 20), (200, 150), (10.3, 150)]))
        #expect(!tight.coversWholly(PixelRect(minX: 10, minY: 20, maxX: 200, maxY: 150)), "the first column is 0.7 covered")
        #expect(!tight.coversWholly(PixelRect(minX: 11, minY: 20, maxX: 200, maxY: 150)), "the first row is within reach of the top edge")
        #expect(tight.coversWholly(PixelRect(minX: 11, minY: 21, maxX: 199, maxY: 149)))
    }

    @Test("where it says wholly, coverage is exactly 1 at every pixel", arguments: 0..<6)
    func agreesWithCoverage(seed: Int) throws {
        var rng = RoundedShapeSamplerTests.Random(state: UInt64(seed) + 1)
        var claimed = 0, refused = 0
        for _ in 0..<200 {
            // A turned quadrilateral around a random centre, and a rectangle of pixels near its middle.
            let cx = rng.next(80...320), cy = rng.next(60...240), angle = rng.next(0...(Double.pi / 2))
            let hw = rng.next(10...70), hh = rng.next(10...70)
            let corners = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { x, y in
                (cx + x * cos(angle) - y * sin(angle), cy + x * sin(angle) + y * cos(angle))
            }
            guard let polygon = Self.polygon(corners) else { continue }
            let w = Int(rng.next(2...40)), h = Int(rng.next(2...40))
            let x0 = Int(cx) - w / 2 + Int(rng.next(-20...20)), y0 = Int(cy) - h / 2 + Int(rng.next(-20...20))
            let rect = PixelRect(minX: x0, minY: y0, maxX: x0 + w, maxY: y0 + h)
            guard polygon.coversWholly(rect) else { refused += 1; continue }
            claimed += 1
            for y in rect.minY..<rect.maxY {
                for x in rect.minX..<rect.maxX {
                    let c = polygon.coverage(atX: Double(x) + 0.5, y: Double(y) + 0.5)
                    #expect(c == 1, "coverage \(c) at (\(x), \(y)) of \(rect)")
                    if c != 1 { return }
                }
            }
        }
        // Both answers were exercised.
        #expect(claimed > 10 && refused > 10, "\(claimed) wholly, \(refused) not")
    }
}
