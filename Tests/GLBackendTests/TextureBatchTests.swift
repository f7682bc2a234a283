// Runs of textured quads of one image draw instanced (GLTextureBatch): an emitter's particles
// (turned, scaled, tinted, added or laid over one another, more than one buffer's worth) and a
// replicator's images give the pixels of the same quads drawn one by one, in far fewer calls.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("GL texture batches")
struct TextureBatchTests {
    static let sprite = CGImage(bitmap: Bitmap(width: 12, height: 9) { x, y in
        let a = UInt8(min(255, 60 + x * 16 + y * 5))
        return (a, UInt8(Int(a) * y / 9), UInt8(Int(a) * x / 12), a)
    })

    /// An emitter of `count` particles a second living 1 s: 5,000 live particles at t = 3.
    static func emitterFrame(additive: Bool) throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 200)
        root.backgroundColor = CGColor(red: 0.1, green: 0.12, blue: 0.2, alpha: 1)
        let emitter = CAEmitterLayer()
        emitter.frame = root.bounds
        emitter.emitterPosition = CGPoint(x: 160, y: 100)
        emitter.emitterShape = .rectangle
        emitter.emitterSize = CGSize(width: 300, height: 180)
        emitter.renderMode = additive ? .additive : .oldestLast
        emitter.seed = 17
        let cell = CAEmitterCell()
        cell.contents = sprite
        cell.birthRate = 5000
        cell.lifetime = 1
        cell.spin = 2
        cell.spinRange = 3
        cell.scale = 0.8
        cell.scaleRange = 0.5
        cell.color = CGColor(red: 0.9, green: 0.7, blue: 0.5, alpha: 0.8)
        cell.redRange = 0.1
        cell.alphaSpeed = -0.5
        emitter.emitterCells = [cell]
        root.addSublayer(emitter)
        let presented = root.presentationTree(atMediaTime: 3)
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: presented)
    }

    @Test("5,000 particles drawn in instanced runs give the one-by-one pixels, in two calls instead of 5,000", arguments: [false, true])
    func particles(additive: Bool) throws {
        let list = try Self.emitterFrame(additive: additive)
        let quads = list.passes.last!.ops.filter { if case .quad(let q) = $0, case .texture = q.fill { true } else { false } }.count
        #expect(quads > 4096, "more than one buffer's worth (\(quads))")
        let single = try GLDevice()
        single.drawTexturesOneByOne()
        let batched = try GLDevice()
        let a = try single.render(list), b = try batched.render(list)
        let difference = GLFrameFixtures.differences(a, b)
        // The run sums each pixel's area inside the outline everywhere; single draws take the
        // interior's coverage as exactly 1: the same bytes but where a value lies on a rounding tie.
        #expect(difference.largest <= 1 && difference.bytes < a.pixels.count / 1000, "\(difference)")
        #expect(single.textureBatchedQuads == 0)
        #expect(batched.textureBatchedQuads == quads && batched.textureBatchDrawCalls == (quads + 4095) / 4096)
        // And the CPU reference agrees with the runs within the bar: every byte within 2 where the
        // driver blends in 8 bits; softpipe blends each translucent particle in float over the
        // one beneath and rounds after (docs/testing.md), and piles of them drift a step further.
        let cpu = RasterRenderer().render(list)
        let toCPU = GLFrameFixtures.differences(cpu, b)
        let softpipe = ProcessInfo.processInfo.environment["GALLIUM_DRIVER"] == "softpipe"
        #expect(toCPU.largest <= (softpipe ? 4 : 2), "\(toCPU)")
        #expect(AgreementBar.gpuAgainstCPU.failure(of: try ImageComparison.compare(cpu, b, tolerance: 2)) == nil)
    }

    @Test("a quad of another image, filter or outline ends the run, so drawing order holds")
    func runsKeepOrder() throws {
        let list = try Self.emitterFrame(additive: false)
        var ops = list.passes.last!.ops
        // A solid quad in the middle of the particles: the run before it draws first.
        let middle = ops.count / 2
        let square = QuadOp(source: "square", localRect: Rect(x: 100, y: 60, width: 120, height: 80), localToDevice: .identity,
                            polygon: CoveragePolygon(vertices: [DevicePoint(x: 100, y: 60), DevicePoint(x: 220, y: 60),
                                                                DevicePoint(x: 220, y: 140), DevicePoint(x: 100, y: 140)],
                                                     targetWidth: 320, targetHeight: 200)!,
                            fill: .solid(PremultipliedColor(red: 0.2, green: 0.6, blue: 0.3, alpha: 1)), opacity: 1)
        ops.insert(.quad(square), at: middle)
        var changed = list
        changed.passes[changed.passes.count - 1].ops = ops
        let single = try GLDevice()
        single.drawTexturesOneByOne()
        let batched = try GLDevice()
        let difference = GLFrameFixtures.differences(try single.render(changed), try batched.render(changed))
        #expect(difference.largest <= 1, "\(difference)")
        #expect(batched.textureBatchDrawCalls >= 2)
    }
}
