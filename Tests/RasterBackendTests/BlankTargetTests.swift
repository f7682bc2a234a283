// A pass whose first op paints most of the target opaquely starts with those pixels unwritten
// (RasterRenderer.blankTarget): the frame must come out as from a zeroed target. Debug builds
// mark the unwritten pixels, so one the op failed to paint shows here.
import Compositor
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("A pass's target under an opaque first op")
struct BlankTargetTests {
    static let width = 97, height = 61
    static let opaque = Fill.solid(PremultipliedColor(red: 0.9, green: 0.5, blue: 0.2, alpha: 1))
    static let translucent = Fill.solid(PremultipliedColor(red: 0.1, green: 0.2, blue: 0.4, alpha: 0.5))

    @Test("the same bytes as a target zeroed first",
          arguments: [(0.0, 0.0, 97.0, 61.0), (0.3, 0.2, 96.6, 60.9), (-5.0, -3.0, 120.0, 70.0), (12.5, 7.25, 85.0, 55.5)])
    func sameBytes(rect: (Double, Double, Double, Double)) {
        let w = Self.width, h = Self.height
        let ops = [
            DrawOp.rectangle(rect.0, rect.1, rect.2, rect.3, fill: Self.opaque, targetWidth: w, targetHeight: h),
            DrawOp.rectangle(-2, 20.5, 40.5, 70, fill: Self.translucent, targetWidth: w, targetHeight: h),
            DrawOp.rectangle(60.25, -1, 99, 30.75, fill: Self.translucent, targetWidth: w, targetHeight: h),
        ]
        // Led by an op that paints nothing, the pass starts from a zeroed target.
        let nothing = DrawOp.rectangle(0, 0, Double(w), Double(h), fill: .solid(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0)),
                                       targetWidth: w, targetHeight: h)
        let image = RasterRenderer().render(RenderList.singlePass(w, h, ops))
        let zeroed = RasterRenderer().render(RenderList.singlePass(w, h, [nothing] + ops))
        let differing = (0..<(w * h)).filter { i in (0..<4).contains { image.pixels[i * 4 + $0] != zeroed.pixels[i * 4 + $0] } }
        #expect(differing.isEmpty, "\(differing.count) pixels differ, the first at \(differing.first.map { ($0 % w, $0 / w) } ?? (-1, -1))")
        // Outside the opaque op only the translucent ones: the corner no op reaches is transparent.
        #expect(rect.0 >= 1 && rect.1 >= 1 ? image[0, 0] == (0, 0, 0, 0) : image[0, 0].3 > 0)
    }
}
