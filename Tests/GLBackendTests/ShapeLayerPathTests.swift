// CAShapeLayers drawn from their paths: an animated strokeEnd makes a filled path per frame on
// both backends, with no texture made or uploaded; the GPU's frames agree with the CPU's.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Shape layers drawn from their paths")
struct ShapeLayerPathTests {
    static func spinner() -> (root: CALayer, ring: CAShapeLayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 80, height: 60)
        let ring = CAShapeLayer()
        ring.path = CGPath(ellipseIn: CGRect(x: 18.3, y: 9.6, width: 42, height: 40), transform: nil)
        ring.fillColor = CGColor(red: 0.9, green: 0.9, blue: 1, alpha: 1)
        ring.strokeColor = CGColor(red: 0.1, green: 0.3, blue: 0.8, alpha: 1)
        ring.lineWidth = 5
        ring.lineCap = .round
        ring.transform = CATransform3DMakeRotation(0.4, 0, 0, 1)
        ring.position = CGPoint(x: 40, y: 30)
        ring.bounds = CGRect(x: 0, y: 0, width: 80, height: 60)
        root.addSublayer(ring)
        let grow = CABasicAnimation(keyPath: "strokeEnd")
        grow.fromValue = 0
        grow.toValue = 1
        grow.duration = 1
        MediaClock.$scoped.withValue(0) { ring.add(grow, forKey: "grow") }
        return (root, ring)
    }

    @Test("an animated strokeEnd: one path op per frame (the stroke over the fill), no texture, and the GPU agrees with the CPU")
    func animatedStrokeEnd() throws {
        let (root, _) = ShapeLayerPathTests.spinner()
        // A device of its own: other suites upload textures on the shared one while this runs.
        let device = try GLDevice()
        var strokeInk: [Int] = []
        for time in [0.2, 0.5, 0.9] {
            let tree = root.presentationTree(atMediaTime: time)
            tree.displayTreeIfNeeded()
            let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: tree)
            #expect(list.textures.isEmpty, "t = \(time): a texture was made")
            let paths = list.passes.flatMap(\.ops).compactMap { op -> PathOp? in if case .path(let p) = op { p } else { nil } }
            // Fill and stroke in one op: the stroke over the fill, blended once.
            #expect(paths.count == 1 && paths[0].source.description.hasSuffix("fill and stroke") && paths[0].stroke != nil)
            let cpu = RasterRenderer().render(list), gpu = try device.render(list)
            let report = try ImageComparison.compare(cpu, gpu, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
            #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "t = \(time): \(report)")
            #expect(report.maxChannelDelta <= 1, "t = \(time): \(report)")
            // The stroke's blue shows on more pixels as strokeEnd grows.
            strokeInk.append(stride(from: 0, to: cpu.pixels.count, by: 4).filter { cpu.pixels[$0] < 100 && cpu.pixels[$0 + 2] > 150 }.count)
        }
        #expect(strokeInk[0] < strokeInk[1] && strokeInk[1] < strokeInk[2], "stroke pixels \(strokeInk)")
        #expect(device.textureCacheStatistics.uploads == 0, "textures were uploaded")
        #expect(device.pathStatistics.paths == 3, "one path a frame: \(device.pathStatistics)")
    }
}
