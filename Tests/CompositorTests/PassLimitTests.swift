// Image limits are process-wide, so a test that lowers them runs in a process of its own (an exit
// test): the other tests, running in parallel, keep the defaults.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Offscreen passes under the image limits")
struct PassLimitTests {
    /// Three rasterized layers filling a 2,048-point frame, one inside the other, rasterized at
    /// 8 pixels a point (16,384 pixels across): the side of the largest offscreen pass their render
    /// list asks for. (A pass holds only what the frame shows of a layer, so the layers fill the
    /// frame rather than overflow it.)
    static func largestPassForNestedRasterizedLayers() throws -> Int {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 2048, height: 2048)
        var parent = root
        for _ in 0..<3 {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 2048, height: 2048)
            layer.position = CGPoint(x: 1024, y: 1024)
            layer.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 0.5)
            layer.shouldRasterize = true
            layer.rasterizationScale = 8
            parent.addSublayer(layer)
            parent = layer
        }
        let list = try RenderListBuilder(viewport: root.frame).build(root: root)
        return list.passes.dropLast().map { max($0.width, $0.height) }.max() ?? 0
    }

    @Test("by default a pass is at most 8192 pixels a side")
    func defaultLimit() throws {
        #expect(try Self.largestPassForNestedRasterizedLayers() == 8192)
    }

    @Test("image limits lowered to 4 megapixels (a server's) bound passes to 2048 a side")
    func loweredLimit() async {
        await #expect(processExitsWith: .success) {
            ImageLimits.maxPixelCount = 1 << 22
            let largest = try PassLimitTests.largestPassForNestedRasterizedLayers()
            if largest != 2048 {
                FileHandle.standardError.write(Data("largest pass \(largest), expected 2048\n".utf8))
                exit(1)
            }
        }
    }
}
