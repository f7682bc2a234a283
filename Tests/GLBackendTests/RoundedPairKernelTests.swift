// A layer's background and border drawn as one (RasterRenderer.drawPair), and a rounded solid
// alone, go through C kernels (oq_rounded_pair_run, oq_rounded_fill_run) where the map is affine,
// the corners circular and the quad covers the pixels wholly. The CPU reference's bytes must not
// move: the kernels' frame must be the Swift path's to the byte, on cards of every kind, in every
// copy of the kernels; and the GPU's frame of the same cards within the agreement bar.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Rounded pair kernel")
struct RoundedPairKernelTests {
    /// 60 cards over a plain background: sizes from 2 to 90 points, corner radii up to half the
    /// smaller side (some corners square), borders from a fifth of a point to wider than the
    /// radius (a third with none), translucent and opaque colours and opacities; turned, mirrored, scaled unevenly,
    /// some continuous corners or in perspective (the Swift path), some across the frame's edge.
    static func cards(seed: UInt64) -> CALayer {
        var random = BlendModeAgreementTests.Dice(state: seed)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        root.backgroundColor = CGColor(red: 0.95, green: 0.95, blue: 0.96, alpha: 1)
        for i in 0..<60 {
            let card = CALayer()
            let width = random.next(2...90), height = random.next(2...70)
            card.bounds = CGRect(x: 0, y: 0, width: width, height: height)
            card.position = CGPoint(x: random.next(-10...330), y: random.next(-10...250))
            card.cornerRadius = random.next(0...(min(width, height) / 2))
            if i % 5 == 0 { card.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner] }
            card.cornerCurve = i % 11 == 0 ? .continuous : .circular
            card.backgroundColor = CGColor(red: random.next(), green: random.next(), blue: random.next(), alpha: i % 3 == 0 ? 1 : random.next(0.2...1))
            card.borderWidth = i % 3 == 2 ? 0 : random.next(0.2...(i % 4 == 0 ? 12 : 4))
            card.borderColor = CGColor(red: random.next(), green: random.next(), blue: random.next(), alpha: i % 2 == 0 ? 1 : random.next(0.2...1))
            card.opacity = Float(i % 6 == 0 ? random.next(0.3...1) : 1)
            var transform = CATransform3DMakeRotation(random.next(0...(2 * .pi)), 0, 0, 1)
            transform = CATransform3DScale(transform, random.next(0.3...2) * (i % 7 == 3 ? -1 : 1), random.next(0.3...2), 1)
            if i % 13 == 0 { transform.m34 = -1 / 300; transform = CATransform3DRotate(transform, 0.5, 1, 0, 0) }
            card.transform = transform
            root.addSublayer(card)
        }
        return root
    }

    @Test("the kernels' frame is the Swift path's to the byte, in every copy, and the GPU agrees", arguments: [1, 2, 3] as [UInt64])
    func sameBytes(seed: UInt64) throws {
        let root = RoundedPairKernelTests.cards(seed: seed)
        let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        // Most pairs are ones the kernel takes; the rest (continuous, perspective, across the edge) are not.
        var kernel = 0, swift = 0, solids = 0
        for pass in list.passes {
            for (index, op) in pass.ops.enumerated() {
                guard case .quad(let fill) = op, let shape = fill.rounded else { continue }
                let takes = RoundedShape.RowCoverage(RoundedShape.Sampler(shape)).isKernel
                    && fill.polygon.coversWholly(fill.polygon.pixelBounds)
                if index + 1 < pass.ops.count, case .quad(let ring) = pass.ops[index + 1], ring.isBorder(over: fill) {
                    if takes { kernel += 1 } else { swift += 1 }
                } else if shape.inner == nil, takes, case .solid = fill.fill {
                    solids += 1
                }
            }
        }
        #expect(kernel >= 20 && swift >= 5 && solids >= 10,
                "\(kernel) pairs the kernel takes, \(swift) it does not, \(solids) rounded solids alone")
        try KernelAgreement.expectSameBytes(list)
    }
}
