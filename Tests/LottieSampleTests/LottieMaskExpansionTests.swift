// A mask's expansion ("x"): the mask's outline grown (or shrunk) as an offset path with round
// joins, whichever way the outline runs; drawn on the CPU reference and read back.
import Compositor
import Foundation
import LayerModel
import LottieImport
import OpenCoreGraphics
import OpenQuartzCore
import PixelDiff
import RasterBackend
import Testing

@Suite("Lottie mask expansion")
struct LottieMaskExpansionTests {
    /// A 100 x 100 red solid masked by the square 20...80 (run as `vertices` order gives) expanded by `x`.
    static func tree(expansion x: Double, anticlockwise: Bool = false, inverted: Bool = false) throws -> CALayer {
        let square = anticlockwise ? "[[20, 20], [20, 80], [80, 80], [80, 20]]" : "[[20, 20], [80, 20], [80, 80], [20, 80]]"
        let zero = "[[0, 0], [0, 0], [0, 0], [0, 0]]"
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100, "layers": [
          {"ty": 1, "nm": "solid", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {}, "sw": 100, "sh": 100, "sc": "#ff0000",
           "hasMask": true, "masksProperties": [{"mode": "a", "inv": \(inverted), "o": {"a": 0, "k": 100}, "x": {"a": 0, "k": \(x)},
             "pt": {"a": 0, "k": {"c": true, "v": \(square), "i": \(zero), "o": \(zero)}}}]}]}
        """
        let document = try LottieDocument(data: Data(json.utf8))
        #expect(!document.warnings.contains { $0.contains("expansion") }, "\(document.warnings)")
        let root = try document.makeLayer()
        root.speed = 0
        return root.presentationTree(atMediaTime: CACurrentMediaTime())
    }

    static func draw(expansion x: Double, anticlockwise: Bool = false, inverted: Bool = false) throws -> Bitmap {
        let tree = try tree(expansion: x, anticlockwise: anticlockwise, inverted: inverted)
        return RasterRenderer().render(try RenderListBuilder(viewport: tree.frame, scale: 1).build(root: tree))
    }

    @Test("an expansion of 10 grows the mask 10 each way with round corners, whichever way its outline runs", arguments: [false, true])
    func grows(anticlockwise: Bool) throws {
        let bitmap = try Self.draw(expansion: 10, anticlockwise: anticlockwise)
        #expect(bitmap[12, 50].3 == 255 && bitmap[87, 50].3 == 255 && bitmap[50, 12].3 == 255 && bitmap[50, 87].3 == 255)
        #expect(bitmap[7, 50].3 == 0 && bitmap[92, 50].3 == 0)
        // The corner is a quarter circle about (20, 20): (13, 13) lies 9.9 from it, (11, 11) 12.7.
        #expect(bitmap[13, 13].3 > 200 && bitmap[10, 10].3 == 0, "\(bitmap[13, 13]) \(bitmap[10, 10])")
    }

    @Test("the GPU draws expanded and shrunk masks as the CPU does", arguments: [10.0, -10])
    func gpuAgrees(expansion: Double) throws {
        let tree = try Self.tree(expansion: expansion)
        let cpu = try tree.renderedImage(bounds: tree.bounds, scale: 2, backend: .cpu)
        let gpu = try tree.renderedImage(bounds: tree.bounds, scale: 2, backend: .gpu)
        let agreement = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: agreement) == nil, "\(agreement)")
    }

    @Test("a negative expansion shrinks the mask; an inverted one keeps what lies outside the grown outline")
    func shrinksAndInverts() throws {
        let shrunk = try Self.draw(expansion: -10)
        #expect(shrunk[32, 50].3 == 255 && shrunk[27, 50].3 == 0 && shrunk[72, 72].3 == 0)
        let inverted = try Self.draw(expansion: 10, inverted: true)
        #expect(inverted[5, 50].3 == 255 && inverted[15, 50].3 == 0 && inverted[50, 50].3 == 0)
    }
}
