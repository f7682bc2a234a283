// A filled path whose edges are nearly vertical, hundreds of pixels from most of the pixels they
// count for: each pixel left of an edge takes the edge's whole height, which the float formula
// (a difference of two large integrals times the steep edge's large inverse slope) lost: 6% off
// every 16th row of a lottie-ios mask on the GPU, while the CPU's doubles hid it.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Near-vertical path edges", .serialized)
struct NearVerticalEdgeTests {
    @Test("a shape bounded by near-vertical edges, flattened into short pieces, is opaque inside on both backends")
    func nearVertical() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 500, height: 250)
        let shape = CAShapeLayer()
        shape.frame = root.bounds
        let path = CGMutablePath()
        // Curves with their handles on their ends: straight, but flattened into many pieces whose
        // joins fall inside rows, as Lottie's bezier masks are.
        let corners = [CGPoint(x: 3.3, y: 2), CGPoint(x: 3.45, y: 248), CGPoint(x: 496.6, y: 248), CGPoint(x: 496.45, y: 2)]
        path.move(to: corners[0])
        for i in 1...4 {
            let p = corners[i % 4]
            path.addCurve(to: p, control1: corners[i - 1], control2: p)
        }
        path.closeSubpath()
        shape.path = path
        shape.fillColor = .black
        root.addSublayer(shape)
        let list = try RenderListBuilder(viewport: root.frame, scale: 2).build(root: root)
        let images = [("GPU", try GLDevice.shared().render(list)), ("CPU", RasterRenderer().render(list))]
        for (backend, image) in images {
            var thin = 0
            for y in stride(from: 8, to: 490, by: 1) where image[500, y].3 != 255 { thin += 1 }
            #expect(thin == 0, "\(backend): \(thin) rows not opaque inside the shape")
        }
        let report = try ImageComparison.compare(images[1].1, images[0].1, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }
}
