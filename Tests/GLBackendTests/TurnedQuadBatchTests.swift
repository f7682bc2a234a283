// Turned solid quads (a square-cornered layer's background under a rotation, a skew or a
// perspective) draw in instanced runs (GLQuadBatch.Kind.turned): the same bytes as the general
// program's two draws of each (its interior, then the band around it by exact area), in a few
// calls, and within the bar of the CPU reference.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("GL turned quad batches")
struct TurnedQuadBatchTests {
    /// Square-cornered layers turned every way, overlapping one another: opaque and translucent
    /// colours, layer opacity, a skew, a perspective tilt, slivers too thin for an interior
    /// (drawn singly), some with a border (a rounded ring: the run of the other kind ends there).
    static func turnedFrame() throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 240, height: 180)
        root.backgroundColor = CGColor(red: 0.95, green: 0.94, blue: 0.9, alpha: 1)
        for i in 0..<60 {
            let layer = CALayer()
            let width = i % 9 == 4 ? 1.2 : 14 + Double(i % 7) * 6, height = 10 + Double(i % 5) * 7
            layer.bounds = CGRect(x: 0, y: 0, width: width, height: height)
            layer.position = CGPoint(x: 20 + Double((i * 37) % 200), y: 15 + Double((i * 23) % 150))
            let alpha = i % 3 == 0 ? 1.0 : 0.55 + 0.05 * Double(i % 4)
            layer.backgroundColor = CGColor(red: Double(i % 5) / 4, green: 0.3 + Double(i % 3) / 5, blue: 0.8 - Double(i % 4) / 6,
                                            alpha: alpha)
            if i % 8 == 5 { layer.opacity = 0.7 }
            var transform = CATransform3DMakeRotation(0.13 + Double(i) * 0.41, 0, 0, 1)
            if i % 10 == 3 {
                var skew = CATransform3DIdentity
                skew.m21 = 0.4
                transform = CATransform3DConcat(skew, transform)
            }
            if i % 10 == 7 {
                var perspective = CATransform3DMakeRotation(0.7, 0, 1, 0)
                perspective.m34 = -1 / 300
                transform = CATransform3DConcat(transform, perspective)
            }
            layer.transform = transform
            if i % 11 == 2 {
                layer.borderWidth = 2
                layer.borderColor = CGColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 0.8)
            }
            root.addSublayer(layer)
        }
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    }

    @Test("turned quads drawn in runs give the general program's bytes, in fewer calls, within the bar of the CPU")
    func sameBytes() throws {
        let list = try Self.turnedFrame()
        let turned = list.passes.last!.ops.filter { op in
            guard case .quad(let quad) = op else { return false }
            return GLQuadBatch.kind(of: quad) == .turned
        }.count
        #expect(turned >= 40, "turned quads in the frame: \(turned)")
        let single = try GLDevice()
        single.drawTurnedQuadsOneByOne()
        let batched = try GLDevice()
        let a = try single.render(list), b = try batched.render(list)
        let differing = a.pixels.indices.filter { a.pixels[$0] != b.pixels[$0] }.count
        #expect(differing == 0, "\(differing) bytes differ from the single draws")
        #expect(single.turnedBatches.quads == 0)
        #expect(batched.turnedBatches.quads == turned)
        // Borders end runs, and interiors under a later frame of the run start a new group
        // (MiddleGroups): in this crowded frame still fewer than half the single draws' two a quad.
        #expect(batched.turnedBatches.drawCalls < turned, "\(batched.turnedBatches)")
        let cpu = RasterRenderer().render(list)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: try ImageComparison.compare(cpu, b, tolerance: 2)) == nil)
    }

    @Test("which quads go to the turned runs: solid, source-over, a quadrilateral with an interior")
    func kinds() throws {
        let list = try Self.turnedFrame()
        for op in list.passes.last!.ops {
            guard case .quad(let quad) = op, GLQuadBatch.kind(of: quad) == .turned else { continue }
            #expect(quad.rounded == nil && quad.blend == .sourceOver && quad.polygon.outline.count == 4)
            #expect(GLQuadBatch.rectangleEdges(of: quad.polygon) == nil)
            if case .solid = quad.fill {} else { Issue.record("a turned run took a fill that is not solid") }
        }
        // The slivers (1.2 points wide) have no interior: they draw singly.
        let slivers = list.passes.last!.ops.filter { op in
            guard case .quad(let quad) = op, quad.rounded == nil, quad.polygon.outline.count == 4 else { return false }
            return abs(quad.polygon.area) < 40 && GLQuadBatch.kind(of: quad) == nil
        }
        #expect(!slivers.isEmpty)
    }
}
