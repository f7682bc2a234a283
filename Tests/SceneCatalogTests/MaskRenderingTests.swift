// Masks in pixels, on both backends: a soft mask's alpha multiplies the layer, outside it nothing.
import Compositor
import Foundation
import OpenQuartzCore
import PixelDiff
import SceneCatalog
import Testing

@Suite("Mask rendering")
struct MaskRenderingTests {
    @Test("a half-transparent mask over the left half gives half-alpha red there and nothing elsewhere",
          arguments: [RenderBackend.cpu, .gpu])
    func softMask(backend: RenderBackend) throws {
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 20, height: 10)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let mask = CALayer()
        mask.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        mask.backgroundColor = CGColor(gray: 0, alpha: 0.5)
        layer.mask = mask
        let image = try CARenderer.image(of: layer, bounds: CGRect(x: 0, y: 0, width: 20, height: 10), backend: backend)
        let left = image.bitmap[4, 5], right = image.bitmap[15, 5]
        #expect(abs(Int(left.0) - 128) <= 1 && left.1 == 0 && left.2 == 0 && abs(Int(left.3) - 128) <= 1)
        #expect(right == (0, 0, 0, 0))
    }

    @Test("the mask of the masked-shadow scene removes the shadow; the container's shadow shows",
          arguments: [RenderBackend.cpu, .gpu])
    func shadowClipped(backend: RenderBackend) throws {
        let image = try #require(DemoScene.named("masked-shadow")).render(backend: backend)
        // 4 points right of each page: backdrop beside the masked page, darkened beside the container.
        let beside = image.bitmap[80 + 55 + 4, 75], besideContainer = image.bitmap[220 + 55 + 4, 75]
        #expect(beside == (140, 153, 166, 255) || abs(Int(beside.0) - 140) <= 1)
        #expect(Int(besideContainer.0) < Int(beside.0) - 30)
    }

    /// Path masks differ at their edges only: offscreen, the CAShapeLayer's path is rasterized
    /// into its backing store and resampled; as a clip its outline's coverage is analytic (and
    /// closer to exact, below).
    @Test("shape masks applied as clips look like the same masks drawn offscreen", arguments: [RenderBackend.cpu, .gpu])
    func shapeMasksMatchTheGeneralRoute(backend: RenderBackend) throws {
        let clipped = try MaskScenes.shapeMasks(viaPasses: false).render(backend: backend)
        let offscreen = try MaskScenes.shapeMasks(viaPasses: true).render(backend: backend)
        let report = try ImageComparison.compare(offscreen.bitmap, clipped.bitmap, tolerance: 10)
        #expect(report.meanAbsoluteError < 0.05)
        #expect(report.pixelsOverTolerance == 0,
                "\(report); \(report.pixelsOverTolerance == 0 ? "" : saveFailure("shape-masks.\(backend)", expected: offscreen, actual: clipped))")
    }

    @Test("a circle mask as a clip is within 2/255 of the circle's exact area coverage, and no further off than offscreen",
          arguments: [RenderBackend.cpu, .gpu])
    func circleMaskCoverageIsExact(backend: RenderBackend) throws {
        let size = 40, center = 20.0, radius = 15.3
        func layer(viaPass: Bool) -> CALayer {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: size, height: size)
            root.backgroundColor = .white
            let circle = CAShapeLayer()
            circle.frame = root.bounds
            circle.path = CGPath(ellipseIn: CGRect(x: center - radius, y: center - radius, width: 2 * radius, height: 2 * radius),
                                 transform: nil)
            if viaPass { circle.addSublayer(CALayer()) }
            root.mask = circle
            return root
        }
        func worstError(_ image: CGImage) -> Int {
            var worst = 0
            for y in 0..<size {
                for x in 0..<size {
                    var inside = 0 // 16 x 16 samples per pixel
                    for sy in 0..<16 {
                        for sx in 0..<16 {
                            let dx = Double(x) + (Double(sx) + 0.5) / 16 - center, dy = Double(y) + (Double(sy) + 0.5) / 16 - center
                            if dx * dx + dy * dy <= radius * radius { inside += 1 }
                        }
                    }
                    let exact = Int((Double(inside) / 256 * 255).rounded())
                    worst = max(worst, abs(Int(image.bitmap[x, y].3) - exact))
                }
            }
            return worst
        }
        let bounds = CGRect(x: 0, y: 0, width: size, height: size)
        let clipError = worstError(try CARenderer.image(of: layer(viaPass: false), bounds: bounds, backend: backend))
        let passError = worstError(try CARenderer.image(of: layer(viaPass: true), bounds: bounds, backend: backend))
        #expect(clipError <= 2 && clipError <= passError, "clip \(clipError)/255, offscreen \(passError)/255")
    }

    @Test("continuous corners hug the corner closer at the diagonal than circular ones, and both leave the corner empty",
          arguments: [RenderBackend.cpu, .gpu])
    func continuousCorners(backend: RenderBackend) throws {
        func alpha(_ curve: CALayerCornerCurve, at point: (Int, Int)) throws -> Int {
            let card = CALayer()
            card.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            card.backgroundColor = .black
            card.cornerRadius = 20
            card.cornerCurve = curve
            let image = try CARenderer.image(of: card, bounds: card.frame, backend: backend)
            return Int(image.bitmap[point.0, point.1].3)
        }
        #expect(try alpha(.circular, at: (0, 0)) == 0 && alpha(.continuous, at: (0, 0)) == 0)
        // Four points in on the diagonal: two points outside the circle, most of a point inside
        // the continuous curve.
        #expect(try alpha(.circular, at: (4, 4)) < 10)
        #expect(try alpha(.continuous, at: (4, 4)) > 240)
        // On the diagonal, 5 points in (0.25 radii; the circle passes at 0.29, the continuous curve at 0.20).
        #expect(try alpha(.circular, at: (5, 5)) < 60)
        #expect(try alpha(.continuous, at: (5, 5)) > 200)
    }

    @Test("a shape mask drawn from its path (no mask pass) keeps the layer inside the path at the mask's alpha and clears it outside, on both backends alike",
          arguments: ["opaque", "translucent and stroked", "even-odd star"])
    func pathMaskWithoutItsPass(kind: String) throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 80, height: 60)
        root.backgroundColor = CGColor(red: 0.9, green: 0.9, blue: 0.9, alpha: 1)
        let card = CALayer()
        card.frame = CGRect(x: 4, y: 4, width: 72, height: 52)
        card.backgroundColor = CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 1)
        let stripe = CALayer()
        stripe.frame = CGRect(x: 10, y: 20, width: 60, height: 10)
        stripe.backgroundColor = CGColor(red: 0.9, green: 0.5, blue: 0.1, alpha: 1)
        card.addSublayer(stripe)
        let mask = CAShapeLayer()
        mask.frame = CGRect(x: 20, y: 10, width: 30, height: 30)
        let star = CGMutablePath()
        for i in 0..<5 {
            let angle = Double(i) * 4 * Double.pi / 5 - Double.pi / 2
            let point = CGPoint(x: 15 + 14 * cos(angle), y: 15 + 14 * sin(angle))
            if i == 0 { star.move(to: point) } else { star.addLine(to: point) }
        }
        star.closeSubpath()
        mask.path = kind == "even-odd star" ? star : CGPath(ellipseIn: CGRect(x: 3, y: 5, width: 24, height: 18), transform: nil)
        switch kind {
        case "translucent and stroked":
            mask.fillColor = CGColor(gray: 0, alpha: 0.5)
            mask.strokeColor = CGColor(gray: 0, alpha: 1)
            mask.lineWidth = 2
        case "even-odd star": mask.fillRule = .evenOdd
        default: break
        }
        card.mask = mask
        root.addSublayer(card)
        let list = try RenderListBuilder(viewport: root.frame).build(root: root)
        #expect(list.passes.count == 2, "\(kind): the group pass and the frame, no mask pass: \(list)")
        let cpu = try CARenderer.image(of: root, bounds: root.frame, backend: .cpu)
        let gpu = try CARenderer.image(of: root, bounds: root.frame, backend: .gpu)
        let report = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(kind): \(report)")
        for image in [cpu, gpu] {
            // Outside the mask's path (its layer is at x 24...54, y 14...44): the backdrop alone.
            #expect(image.bitmap[10, 30] == (230, 230, 230, 255) && image.bitmap[70, 50] == (230, 230, 230, 255))
            #expect(image.bitmap[39, 8] == (230, 230, 230, 255))
        }
        // Inside, above the stripe: the card (25, 77, 230), wholly or half over the backdrop.
        let inside = cpu.bitmap[39, 21], centre = cpu.bitmap[39, 29]
        switch kind {
        case "translucent and stroked": #expect(abs(Int(inside.0) - 128) <= 2 && abs(Int(inside.1) - 154) <= 2, "\(inside)")
        case "even-odd star": #expect(centre == (230, 230, 230, 255), "the star's centre is outside under even-odd: \(centre)")
        default: #expect(abs(Int(inside.0) - 25) <= 1 && abs(Int(inside.2) - 230) <= 1, "\(inside)")
        }
    }
}

/// A layer far larger than its mask (lottie-ios pads a gradient fill's layer by 10,000 points a
/// side and masks it with the fill's shape) is drawn offscreen only over the pixels its mask
/// draws, and so is every group inside it: a frame of such fills cost the frame's pixels each.
@Suite("Masks bound their passes")
struct MaskBoundPassTests {
    /// A 20,040-point gradient with a translucent square beside it (a group at half opacity, so
    /// a pass of its own) under an ellipse mask 12 x 9 points.
    static func paddedGradient(compositingFilter: String? = nil) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        let masked = CALayer()
        masked.frame = root.bounds
        masked.compositingFilter = compositingFilter
        let mask = CAShapeLayer()
        mask.frame = root.bounds
        mask.path = CGPath(ellipseIn: CGRect(x: 10, y: 12, width: 12, height: 9))
        mask.fillColor = .black
        masked.mask = mask
        let group = CALayer()
        group.frame = root.bounds
        group.opacity = 0.5
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: -10_000, y: -10_000, width: 20_040, height: 20_040)
        // Device RGB, as lottie-ios's padded gradients are.
        let device = CGColorSpaceCreateDeviceRGB()
        gradient.colors = [CGColor(colorSpace: device, components: [1, 0, 0, 1])!, CGColor(colorSpace: device, components: [0, 0, 1, 1])!]
        gradient.startPoint = CGPoint(x: 0.4995, y: 0.5)
        gradient.endPoint = CGPoint(x: 0.5015, y: 0.5)
        let square = CALayer()
        square.frame = CGRect(x: 14, y: 10, width: 20, height: 20)
        square.backgroundColor = CGColor(red: 0, green: 0.6, blue: 0, alpha: 0.7)
        group.addSublayer(gradient)
        group.addSublayer(square)
        masked.addSublayer(group)
        root.addSublayer(masked)
        return root
    }

    @Test("every pass under a mask holds only the mask's pixels; the GPU draws what the CPU draws")
    func passesWithinTheMask() throws {
        let root = Self.paddedGradient()
        let list = try RenderListBuilder(viewport: root.bounds).build(root: root)
        let offscreen = list.passes.dropLast()
        #expect(offscreen.count >= 2)
        // The ellipse's pixels, x 10...22 and y 12...21, with a pixel of ramp each side.
        for pass in offscreen { #expect(pass.width <= 14 && pass.height <= 11, "pass \(pass.id): \(pass.width) x \(pass.height)") }
        let cpu = try CARenderer.image(of: root, bounds: root.bounds, backend: .cpu)
        let gpu = try CARenderer.image(of: root, bounds: root.bounds, backend: .gpu)
        let report = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: 2)
        #expect(report.pixelsOverTolerance == 0, "\(report)")
        // Drawn inside the ellipse: the gradient's red left of the square, the square's green on
        // it; nothing outside the ellipse.
        let left = cpu.bitmap[12, 16], onSquare = cpu.bitmap[20, 16]
        #expect(left.0 > 90 && left.0 > 4 * left.1, "\(left)")
        #expect(onSquare.1 > 40 && onSquare.0 < left.0, "\(onSquare)")
        #expect(cpu.bitmap[5, 5] == (0, 0, 0, 0) && cpu.bitmap[30, 16] == (0, 0, 0, 0))
    }

    @Test("a compositingFilter that clears the backdrop where its source is clear (source-in) keeps its pass's whole reach")
    func clearingBlendKeepsItsReach() throws {
        let root = Self.paddedGradient(compositingFilter: "sourceIn")
        let list = try RenderListBuilder(viewport: root.bounds).build(root: root)
        let frame = try #require(list.passes.last)
        // The masked layer's composite covers the frame (its content's reach), clearing what is
        // outside the ellipse, as without the mask's bound.
        let composite = try #require(frame.ops.compactMap { op -> QuadOp? in
            if case .quad(let q) = op, q.blend == .sourceIn { q } else { nil }
        }.first)
        #expect(composite.polygon.pixelBounds.width >= 40 && composite.polygon.pixelBounds.height >= 40)
    }
}
