// What the layer-tree fuzz target found (fuzz/Sources/FuzzLayerTree), one test per finding; the
// inputs stay in fuzz/corpus/FuzzLayerTree/ (crash-*), replayed by every fuzz run.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Fuzz findings: layer trees")
struct LayerFuzzRegressionTests {
    @Test("a drawn layer (a shape) with bounds 1e30 wide has no backing store instead of trapping on the pixel count")
    func hugeDrawnLayer() throws {
        let shape = CAShapeLayer()
        shape.bounds = CGRect(x: 0, y: 0, width: 1e30, height: 20)
        shape.position = CGPoint(x: 10, y: 10)
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        shape.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        shape.displayIfNeeded()
        #expect(shape.contents == nil)
        _ = try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 32, height: 32)).build(root: shape)
    }

    @Test("a shadow offset 1e30 (drawn from its shape, not in closed form) lands nowhere and traps nothing")
    func hugeShadowOffset() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
        let layer = CALayer()
        layer.frame = CGRect(x: 4, y: 4, width: 16, height: 16)
        layer.shadowOpacity = 1
        layer.shadowRadius = 3
        for offset in [CGSize(width: 1e30, height: 0), CGSize(width: 0, height: -1e30), CGSize(width: 1e300, height: 1e300)] {
            layer.shadowOffset = offset
            let child = CALayer()
            child.frame = CGRect(x: 2, y: 2, width: 4, height: 4)
            child.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            layer.sublayers = [child]
            root.sublayers = [layer]
            let list = try RenderListBuilder(viewport: root.frame).build(root: root)
            #expect(list.passes.count == 1, "no blur pass for a shadow that lands nowhere")
        }
    }

    @Test("a rasterized layer (shouldRasterize) 1e30 points wide is drawn into a pass of the largest side, not trapped")
    func hugeRasterizedLayer() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 1e30, height: 8)
        layer.position = CGPoint(x: 16, y: 16)
        layer.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        layer.shouldRasterize = true
        root.addSublayer(layer)
        _ = try RenderListBuilder(viewport: root.frame).build(root: root)
    }

    @Test("an integer property animated to 1e30 (a replicator's instanceCount) is clamped, not trapped")
    func hugeIntegerAnimation() {
        let replicator = CAReplicatorLayer()
        let grow = CABasicAnimation(keyPath: "instanceCount")
        grow.fromValue = 1
        grow.toValue = 1e30
        grow.duration = 1
        grow.beginTime = 0
        MediaClock.$scoped.withValue(0) { replicator.add(grow, forKey: "grow") }
        let presented = replicator.presentationTree(atMediaTime: 0.5) as? CAReplicatorLayer
        #expect((presented?.instanceCount ?? 0) > 1_000_000)
    }

    @Test("Int(clampingPixels:) rounds, clamps, and takes NaN as the lower bound")
    func clampingPixels() {
        #expect(Int(clampingPixels: 2.5, to: 0...10) == 3)
        #expect(Int(clampingPixels: 2.5, .down, to: 0...10) == 2)
        #expect(Int(clampingPixels: 1e30, to: 0...10) == 10)
        #expect(Int(clampingPixels: -1e300, to: -5...10) == -5)
        #expect(Int(clampingPixels: .nan, to: 1...10) == 1)
        #expect(Int(clampingPixels: .infinity, to: Int.min...Int.max) == Int.max)
    }

    @Test("a shadow radius that is a denormal number blurs nothing, rather than dividing 0 by 0 into the pixels")
    func denormalShadowRadius() throws {
        #expect(GaussianBlur.weights(sigma: Double.leastNonzeroMagnitude * 4) == [1])
        #expect(GaussianBlur.weights(sigma: 1e-200) == [1])
        let list = try Self.shadowFromShape(radius: CGFloat.leastNonzeroMagnitude)
        for pass in list.passes {
            for op in pass.ops {
                guard case .blur(let blur) = op else { continue }
                let finite = blur.weights.allSatisfy { $0.isFinite }
                #expect(finite)
            }
        }
    }

    @Test("a footprint 1e30 pixels across gives each row a span clamped to whole pixels, not a trap")
    func hugeFootprintSpan() {
        let huge = [DevicePoint(x: -1e30, y: -1e30), DevicePoint(x: 1e30, y: -1e30),
                    DevicePoint(x: 1e30, y: 1e30), DevicePoint(x: -1e30, y: 1e30)]
        let span = huge.pixelSpan(row: 5)
        #expect(span.contains(0) && span.contains(1 << 30) && span.contains(-(1 << 30)))
        let farRight = huge.map { DevicePoint(x: $0.x + 4e30, y: $0.y) }
        #expect(farRight.pixelSpan(row: 5).lowerBound > 1 << 30, "a footprint far right spans nothing near the target")
        let small = [DevicePoint(x: 2, y: 0), DevicePoint(x: 6, y: 0), DevicePoint(x: 6, y: 4), DevicePoint(x: 2, y: 4)]
        #expect(small.pixelSpan(row: 1) == 2..<6, "pixels 2...5 have centres inside, and no more")
    }

    @Test("a shadow radius past Int's range (drawn from its shape) is said as cut to the largest blur, not converted to an Int")
    func shadowSigmaPastInt() throws {
        for radius in [CGFloat(1e30), 1e300, .greatestFiniteMagnitude] {
            let list = try Self.shadowFromShape(radius: radius)
            #expect(list.diagnostics.contains { $0.contains("the largest blur drawn") }, "\(radius): \(list.diagnostics)")
        }
    }

    /// The render list of a 32 x 32 frame with a shadowed layer of `radius` whose shadow comes
    /// from its shape (a blue sublayer), not from a closed form.
    static func shadowFromShape(radius: CGFloat) throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
        let layer = CALayer()
        layer.frame = CGRect(x: 4, y: 4, width: 16, height: 16)
        layer.shadowOpacity = 1
        layer.shadowRadius = radius
        let child = CALayer()
        child.frame = CGRect(x: 2, y: 2, width: 4, height: 4)
        child.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        layer.addSublayer(child)
        root.addSublayer(layer)
        return try RenderListBuilder(viewport: root.frame).build(root: root)
    }
}
