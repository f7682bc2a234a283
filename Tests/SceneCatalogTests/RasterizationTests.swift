// shouldRasterize: the subtree drawn once into a keyed pass, served from the cache while nothing
// in it changes, on both backends.
import Compositor
import Foundation
import GLBackend
import OpenQuartzCore
import PixelDiff
import RasterBackend
import Testing

@Suite("Rasterized layers")
struct RasterizationTests {
    /// A 40x30 rasterized card with a sublayer, moving right over 1 second from media time 0.
    private func scene(moving: Bool = true) -> (root: CALayer, card: CALayer, dot: CALayer) {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 120, height: 60)
        root.position = CGPoint(x: 60, y: 30)
        let card = CALayer()
        card.frame = CGRect(x: 10, y: 10, width: 40, height: 30)
        card.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)
        card.cornerRadius = 6
        card.shouldRasterize = true
        let dot = CALayer()
        dot.frame = CGRect(x: 30, y: 20, width: 16, height: 16) // reaches past the card's bounds
        dot.backgroundColor = CGColor(red: 1, green: 0.8, blue: 0, alpha: 1)
        card.addSublayer(dot)
        root.addSublayer(card)
        if moving {
            let move = CABasicAnimation(keyPath: "position.x")
            move.byValue = 50
            move.duration = 1
            MediaClock.$scoped.withValue(0) { card.add(move, forKey: "move") }
        }
        return (root, card, dot)
    }

    private func list(_ root: CALayer, at t: Double) throws -> RenderList {
        try RenderListBuilder(viewport: root.bounds).build(root: root.presentationTree(atMediaTime: t))
    }

    @Test("the rasterized pass keeps its key while the layer moves and changes it when its content changes")
    func keys() throws {
        let (root, _, dot) = scene()
        let key = { (list: RenderList) in list.passes.compactMap(\.cacheKey) }
        let a = try list(root, at: 0.1), b = try list(root, at: 0.6)
        #expect(key(a).count == 1 && key(a) == key(b))
        #expect(a.passes.last != b.passes.last) // it did move
        // The pass covers the card and the dot beyond it: 46 x 36 points.
        #expect(a.passes.first.map { ($0.width, $0.height) }! == (46, 36))
        dot.backgroundColor = CGColor(red: 0, green: 0.8, blue: 0, alpha: 1)
        #expect(key(try list(root, at: 0.1)) != key(a))
    }

    @Test("a rasterized layer at scale 1 looks as the plain one where it is not transformed", arguments: [RenderBackend.cpu, .gpu])
    func sameAsPlain(backend: RenderBackend) throws {
        let (root, card, _) = scene(moving: false)
        let rasterized = try CARenderer.image(of: root, bounds: root.bounds, backend: backend)
        card.shouldRasterize = false
        let plain = try CARenderer.image(of: root, bounds: root.bounds, backend: backend)
        let report = try ImageComparison.compare(plain.bitmap, rasterized.bitmap, tolerance: 2)
        #expect(report.pixelsOverTolerance == 0, "\(report)")
    }

    @Test("frames of a moving rasterized layer draw it once on the CPU and agree with uncached frames")
    func cpuCache() throws {
        let (root, _, _) = scene()
        let cache = RasterPassCache()
        for (i, t) in [0.0, 0.25, 0.5, 0.75].enumerated() {
            let frame = try list(root, at: t)
            let cached = RasterRenderer().render(frame, cache: cache)
            #expect(cached == RasterRenderer().render(frame))
            #expect(cache.stores == 1 && cache.hits == i)
        }
    }

    @Test("the GL backend serves the rasterized pass from its cache and agrees with the CPU")
    func glCache() throws {
        let (root, _, _) = scene()
        let device = try GLDevice()
        for (i, t) in [0.0, 0.25, 0.5].enumerated() {
            let frame = try list(root, at: t)
            let gpu = try device.render(frame)
            #expect(device.cachedPassHits == i)
            let report = try ImageComparison.compare(RasterRenderer().render(frame), gpu, tolerance: 2)
            #expect(report.pixelsOverTolerance == 0, "\(report)")
        }
    }

    @Test("a rasterized layer's pass holds only what the frame can show of it, however far perspective throws its sublayers")
    func passBoundedByTheFrame() throws {
        // A rasterized layer whose sublayer, turned towards the eye under strong perspective,
        // projects thousands of points across its plane (the fuzzer's seed 297 made twenty passes
        // of 7,700 x 4,800 pixels for a 240-point frame: 100 s on the CPU).
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 240, height: 240)
        let rasterized = CALayer()
        rasterized.frame = CGRect(x: 60, y: 60, width: 40, height: 20)
        rasterized.shouldRasterize = true
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 40
        rasterized.sublayerTransform = perspective
        let near = CALayer()
        near.frame = CGRect(x: 0, y: 0, width: 120, height: 78)
        near.backgroundColor = CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1)
        near.transform = CATransform3DMakeRotation(1.35, 1, 0, 0)
        rasterized.addSublayer(near)
        root.addSublayer(rasterized)
        let extent = RenderListBuilder.rasterExtent(of: rasterized)
        #expect(extent.width * extent.height > 10 * 240 * 240, "the sublayer projects far: \(extent)")
        let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        for pass in list.passes { #expect(pass.width <= 260 && pass.height <= 260, "pass \(pass.id): \(pass.width)x\(pass.height)") }
        let gpu = try GLDevice.shared().render(list)
        let report = try ImageComparison.compare(RasterRenderer().render(list), gpu, tolerance: 2)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }
}
