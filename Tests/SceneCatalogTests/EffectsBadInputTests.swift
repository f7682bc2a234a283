// Bad values on compositing properties: Core Animation's behaviour or a diagnostic, never a
// crash, a GL error or a black frame.
import Compositor
import Foundation
import OpenQuartzCore
import PixelDiff
import Testing

@Suite("Effects with bad values")
struct EffectsBadInputTests {
    /// A backdrop and one card carrying `configure`'s bad values.
    private func scene(_ configure: (CALayer) -> Void) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 60, height: 40)
        root.position = CGPoint(x: 30, y: 20)
        root.backgroundColor = CGColor(gray: 0.8, alpha: 1)
        let card = CALayer()
        card.name = "card"
        card.frame = CGRect(x: 10, y: 10, width: 30, height: 20)
        card.backgroundColor = CGColor(red: 0.2, green: 0.3, blue: 0.9, alpha: 1)
        root.addSublayer(card)
        configure(card)
        return root
    }

    static let cases: [(String, @Sendable (CALayer) -> Void)] = [
        ("negative corner radius and border width", { $0.cornerRadius = -5; $0.borderWidth = -3; $0.masksToBounds = true }),
        ("NaN corner radius and border width", { $0.cornerRadius = .nan; $0.borderWidth = .nan }),
        ("NaN shadow values", { $0.shadowOpacity = .nan; $0.shadowRadius = .nan; $0.shadowOffset = CGSize(width: CGFloat.nan, height: 1) }),
        ("negative and infinite shadow radius", { $0.shadowOpacity = 1; $0.shadowRadius = -.infinity }),
        ("infinite shadow radius", { $0.shadowOpacity = 1; $0.shadowRadius = .infinity }),
        ("shadowPath with NaN points", { layer in
            let path = CGMutablePath()
            path.move(to: CGPoint(x: CGFloat.nan, y: 0))
            path.addLine(to: CGPoint(x: 10, y: CGFloat.infinity))
            path.addLine(to: CGPoint(x: 0, y: 10))
            layer.shadowPath = path
            layer.shadowOpacity = 1
        }),
        ("NaN colours", { layer in
            layer.backgroundColor = CGColor(red: .nan, green: 0.5, blue: .nan, alpha: .nan)
            layer.borderColor = CGColor(red: .nan, green: .nan, blue: .nan, alpha: 1)
            layer.borderWidth = 2
            layer.shadowColor = CGColor(red: .nan, green: 0, blue: 0, alpha: .nan)
            layer.shadowOpacity = 1
        }),
        ("a mask of zero size with NaN opacity", { layer in
            let mask = CALayer()
            mask.frame = .zero
            mask.opacity = .nan
            layer.mask = mask
        }),
        ("rasterizationScale NaN and huge", { $0.shouldRasterize = true; $0.rasterizationScale = .nan }),
        ("rasterizationScale huge", { $0.shouldRasterize = true; $0.rasterizationScale = 1e9 }),
    ]

    @Test("each renders on both backends, they agree, and the backdrop is still there",
          arguments: cases.indices)
    func renders(index: Int) throws {
        let (name, configure) = Self.cases[index]
        let root = scene(configure)
        let cpu = try CARenderer.image(of: root, bounds: root.bounds, backend: .cpu)
        let gpu = try CARenderer.image(of: root, bounds: root.bounds, backend: .gpu)
        let report = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(name): \(report)")
        #expect(cpu.bitmap[2, 2] == (204, 204, 204, 255), "\(name): the backdrop is gone")
    }

    @Test("a rounded, bordered card scaled 1e20 (an outline 1e21 pixels across) fills the frame on both backends")
    func hugeRoundedOutline() throws {
        // The layer-tree fuzzer's find: the CPU's rows of a rounded shape came from its outline's
        // footprint in device pixels, converted to Int unclamped (a trap past 9.2e18). Then the
        // card vanished: clipping its 1e21-pixel edges to the frame lost the frame to rounding.
        for scale in [1e20, 1e30, 1e300] {
            let root = scene { card in
                card.cornerRadius = 4
                card.borderWidth = 1
                card.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
                card.transform = CATransform3DMakeScale(scale, scale, 1)
            }
            let cpu = try CARenderer.image(of: root, bounds: root.bounds, backend: .cpu)
            let gpu = try CARenderer.image(of: root, bounds: root.bounds, backend: .gpu)
            let report = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
            #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "scale \(scale): \(report)")
            if scale < 1e38 {  // past Float's range the GPU's map is infinite; only agreement and no trap count
                #expect(cpu.bitmap[2, 2] == (51, 77, 230, 255), "scale \(scale): the card should cover the frame")
            }
        }
    }

    @Test("a clip with no area (masksToBounds on empty bounds, or a plane squashed to a line) shows nothing it clips, on both backends")
    func clipWithoutArea() throws {
        // The layer-tree fuzzer's find: a zero-wide container scaled -1e30 in x with masksToBounds
        // and cornerRadius had no inverse to measure its outline through, so its group pass was
        // composited unclipped, and the stroke inside it reached 1e30 pixels (its bounds in
        // pixels trapped converting to Int). A clip polygon with no area kept everything.
        let squashes: [(String, CGRect, CATransform3D, CGFloat)] = [
            ("empty bounds", .zero, CATransform3DIdentity, 0),
            ("empty bounds, rounded", .zero, CATransform3DIdentity, 6),
            ("zero wide, rounded, scaled -1e30", CGRect(x: 0, y: 0, width: 0, height: 20), CATransform3DMakeScale(-1e30, -0.227, 1), 11),
            ("zero high, scaled 1e30", CGRect(x: 0, y: 0, width: 20, height: 0), CATransform3DMakeScale(1, 1e30, 1), 0),
        ]
        for (name, bounds, transform, radius) in squashes {
            let root = scene { card in
                let clip = CALayer()
                clip.bounds = bounds
                clip.position = CGPoint(x: 15, y: 10)
                clip.transform = transform
                clip.masksToBounds = true
                clip.cornerRadius = radius
                let red = CALayer()
                red.frame = CGRect(x: -10, y: -10, width: 20, height: 20)
                red.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
                let stroke = CAShapeLayer()
                stroke.frame = CGRect(x: -10, y: -10, width: 20, height: 20)
                let path = CGMutablePath()
                path.move(to: CGPoint(x: 2, y: 2))
                path.addLine(to: CGPoint(x: 18, y: 4))
                path.addLine(to: CGPoint(x: -1e30, y: 15))
                path.addLine(to: CGPoint(x: 12, y: 0))
                stroke.path = path
                stroke.fillColor = nil
                stroke.strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
                stroke.lineWidth = 3.6
                clip.sublayers = [red, stroke]
                card.addSublayer(clip)
            }
            for backend in [RenderBackend.cpu, .gpu] {
                let image = try CARenderer.image(of: root, bounds: root.bounds, backend: backend)
                let bitmap = image.bitmap
                let reddish = (0..<bitmap.height).reduce(0) { count, y in
                    count + (0..<bitmap.width).count { x in let p = bitmap[x, y]; return p.0 > p.2 }
                }
                #expect(reddish == 0, "\(name), \(backend): \(reddish) pixels of the clipped layers show")
            }
        }
    }
}
