// Blend modes on both backends: random stacks of translucent, turned, rounded layers and images
// (sampled by nearest, see below),
// each blended by one of the modes (inside groups, under masks, over translucent backdrops),
// drawn by the GPU from a copy of the backdrop and by the CPU reference with the same formulas,
// within the agreement bar.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Blend modes on both backends")
struct BlendModeAgreementTests {
    static let modes = BlendMode.compositingFilterNames.map(\.name)

    /// A small deterministic generator (the tree is the same on every run).
    struct Dice {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        mutating func pick<T>(_ items: [T]) -> T { items[min(Int(next() * Double(items.count)), items.count - 1)] }
        mutating func next(_ range: ClosedRange<Double>) -> Double { range.lowerBound + next() * (range.upperBound - range.lowerBound) }
    }

    static func tree(seed: UInt64) -> CALayer {
        var dice = Dice(state: seed)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 96, height: 72)
        root.backgroundColor = CGColor(red: dice.next(), green: dice.next(), blue: dice.next(), alpha: dice.next() < 0.3 ? 0.5 : 1)
        func color() -> CGColor { CGColor(red: dice.next(), green: dice.next(), blue: dice.next(), alpha: 0.3 + 0.7 * dice.next()) }
        func layer(in parent: CALayer, depth: Int) {
            let l = CALayer()
            l.frame = CGRect(x: dice.next() * 50 - 5, y: dice.next() * 40 - 5, width: 20 + dice.next() * 40, height: 15 + dice.next() * 30)
            l.backgroundColor = color()
            if dice.next() < 0.4 { l.cornerRadius = dice.next() * 12 }
            if dice.next() < 0.3 { l.transform = CATransform3DMakeRotation(dice.next() - 0.5, 0, 0, 1) }
            if dice.next() < 0.3 {
                l.contents = CGImage(bitmap: Bitmap(width: 6, height: 5) { x, y in (UInt8(x * 40), UInt8(y * 50), 120, UInt8(150 + x * 15)) })
                // Sampled by nearest: color dodge and burn divide, so a 1/255 difference in what
                // lies beneath (a driver's bilinear filtering of a turned image, within the bar on
                // its own: softpipe's) can come out several 255ths apart. Nearest gives both
                // backends the same inputs, and what is held is the modes' arithmetic.
                l.magnificationFilter = .nearest
                l.minificationFilter = .nearest
            }
            if dice.next() < 0.6 { l.compositingFilter = dice.pick(modes) }
            if dice.next() < 0.15 {
                let mask = CALayer()
                mask.frame = l.bounds.insetBy(dx: 3, dy: 3)
                mask.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.7)
                mask.cornerRadius = 4
                l.mask = mask
            }
            if dice.next() < 0.2 { l.opacity = Float(0.5 + dice.next() * 0.5) }
            if depth < 2 { for _ in 0..<Int(dice.next() * 3) { layer(in: l, depth: depth + 1) } }
            parent.addSublayer(l)
        }
        for _ in 0..<(3 + Int(dice.next() * 4)) { layer(in: root, depth: 0) }
        return root
    }

    @Test("random blended trees agree within the bar", arguments: 0..<24)
    func randomTrees(seed: UInt64) throws {
        let root = Self.tree(seed: seed &* 7919 &+ 17)
        let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        let blends = list.passes.flatMap(\.ops).filter { if case .quad(let q) = $0 { q.blend.readsBackdrop } else { false } }.count
        let gpu = try GLDevice.shared().render(list), cpu = RasterRenderer().render(list)
        let report = try ImageComparison.compare(cpu, gpu, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        // softpipe blends translucent draws in float and rounds after (DifferentialFuzzTests'
        // translucentPile): what lies beneath a blended group drifts by a 255th or two there, and
        // the modes whose formulas divide or whose result turns on a near-grey colour's hue (dodge,
        // burn, soft light, hue, saturation) carry that drift a few 255ths further. Bounded on
        // every driver; the bar itself wherever the driver blends in 8 bits, as llvmpipe does.
        #expect(report.maxChannelDelta <= 8, "seed \(seed): \(report)")
        let softpipe = ProcessInfo.processInfo.environment["GALLIUM_DRIVER"] == "softpipe"
        withKnownIssue("softpipe's float blending, carried further by ill-conditioned modes", isIntermittent: true) {
            #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "seed \(seed), \(blends) blended composites: \(report)")
        } when: { softpipe }
        #expect(list.diagnostics.isEmpty, "\(list.diagnostics)")
    }

    @Test("the random trees blend: most hold a composite that reads its backdrop")
    func treesBlend() throws {
        var blended = 0
        for seed in 0..<24 {
            let root = Self.tree(seed: UInt64(seed) &* 7919 &+ 17)
            let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
            if list.passes.flatMap(\.ops).contains(where: { if case .quad(let q) = $0 { q.blend.readsBackdrop } else { false } }) { blended += 1 }
        }
        #expect(blended >= 18, "\(blended) of 24 trees blend")
    }
}
