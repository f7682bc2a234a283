// Text under a transform that scales it down draws at the resolution it shows at: its backing
// store follows the scale above it (LottiePlayer), as Apple's render(in:) draws text as outlines
// at the context's resolution. Read back from the CPU reference's pixels.
import Foundation
import LayerModel
import LottieImport
import OpenCoreGraphics
import OpenQuartzCore
import Testing

@Suite("Lottie text at the scale it shows at")
struct LottieTextScaleTests {
    /// "%1%" in Liberation Sans at `size` points, its layer scaled by `scale` percent.
    static func draw(size: Double, scale: Double) throws -> Bitmap {
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 80, "h": 40, "layers": [
          {"ty": 5, "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {"p": {"a": 0, "k": [10, 30]}, "s": {"a": 0, "k": [\(scale), \(scale)]}},
           "t": {"d": {"k": [{"s": {"t": "%1%", "f": "LiberationSans", "s": \(size), "fc": [0, 0, 0], "j": 0, "tr": 0}, "t": 0}]}}}]}
        """
        let player = try LottiePlayer(document: try LottieDocument(data: Data(json.utf8)))
        player.seek(toProgress: 0)
        return try player.presentation().renderedImage(bounds: player.root.bounds, scale: 2, backend: .cpu).bitmap
    }

    @Test("text at 400 points scaled to 5% draws as text at 20 points does, not as a bitmap minified twentyfold")
    func scaledDownText() throws {
        let small = try Self.draw(size: 20, scale: 100), scaled = try Self.draw(size: 400, scale: 5)
        var ink = 0, difference = 0
        for y in 0..<small.height {
            for x in 0..<small.width {
                ink += Int(small[x, y].3)
                difference += abs(Int(small[x, y].3) - Int(scaled[x, y].3))
            }
        }
        // Drawn at 2 pixels a point and minified twentyfold, 0.59 of the ink was off; at the scale it
        // shows at (rounded up a quarter octave, so resampled a little), 0.09.
        let off = Double(difference) / Double(ink)
        #expect(ink > 0 && off < 0.15, "\(off) of the ink differs")
    }
}
