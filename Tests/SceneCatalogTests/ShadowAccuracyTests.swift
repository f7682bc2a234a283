// Shadows against the closed form: a rectangle's Gaussian shadow is a product of two erf
// differences, so the blurred passes (halved copies for large radii) can be checked exactly.
import Foundation
import OpenQuartzCore
import PixelDiff
import Testing

@Suite("Shadow accuracy")
struct ShadowAccuracyTests {
    /// Alpha of a w x h rectangle at (x0, y0) blurred with sigma, at point (x, y).
    private func exactAlpha(x: Double, y: Double, rect: CGRect, sigma: Double) -> Double {
        let s = sigma * 2.0.squareRoot()
        let ax = (erf((x - rect.minX) / s) - erf((x - rect.maxX) / s)) / 2
        let ay = (erf((y - rect.minY) / s) - erf((y - rect.maxY) / s)) / 2
        return ax * ay
    }

    @Test("a rectangle's shadow matches the exact Gaussian within 2/255 everywhere",
          arguments: [(RenderBackend.cpu, 6.0), (.cpu, 40), (.gpu, 6), (.gpu, 40)])
    func rectangleShadow(backend: RenderBackend, radius: Double) throws {
        let size = CGSize(width: 400, height: 300)
        let layer = CALayer()
        layer.frame = CGRect(x: 150, y: 100, width: 100, height: 80)
        layer.shadowPath = CGPath(rect: layer.bounds, transform: nil)
        layer.shadowOpacity = 1
        layer.shadowRadius = radius
        layer.shadowOffset = CGSize(width: 10, height: 20)
        let image = try CARenderer.image(of: layer, bounds: CGRect(origin: .zero, size: size), backend: backend)
        let shadowRect = layer.frame.offsetBy(dx: 10, dy: 20)
        var worst = 0.0
        for y in stride(from: 0, to: Int(size.height), by: 3) {
            for x in stride(from: 0, to: Int(size.width), by: 3) {
                let expected = exactAlpha(x: Double(x) + 0.5, y: Double(y) + 0.5, rect: shadowRect, sigma: radius) * 255
                worst = max(worst, abs(Double(image.bitmap[x, y].3) - expected))
            }
        }
        #expect(worst <= 2, "largest alpha error \(worst)/255 at radius \(radius) on \(backend)")
    }
}

@Suite("Closed-form shadows")
struct ClosedFormShadowTests {
    /// A white rounded card over grey with a shadow; `viaPasses` adds an empty sublayer, which
    /// sends the shadow through the offscreen blur instead of the closed form.
    private func card(radius: Double, corner: CGFloat, viaPasses: Bool) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 160)
        root.position = CGPoint(x: 100, y: 80)
        root.backgroundColor = CGColor(gray: 0.8, alpha: 1)
        let card = CALayer()
        card.frame = CGRect(x: 50, y: 40, width: 100, height: 70)
        card.backgroundColor = .white
        card.cornerRadius = corner
        card.shadowOpacity = 0.8
        card.shadowRadius = radius
        card.shadowOffset = CGSize(width: 4, height: 8)
        card.setAffineTransform(CGAffineTransform(rotationAngle: 0.2))
        if viaPasses { card.addSublayer(CALayer()) }
        root.addSublayer(card)
        return root
    }

    @Test("the closed form matches the offscreen blur within 2/255 on both backends",
          arguments: [(RenderBackend.cpu, 3.0, CGFloat(0)), (.cpu, 10, 16), (.gpu, 10, 16), (.gpu, 25, 30),
                      // corners under 0.165 sigma are drawn square in closed form
                      (.cpu, 40, 5), (.gpu, 40, 5)])
    func matchesBlur(backend: RenderBackend, radius: Double, corner: CGFloat) throws {
        let bounds = CGRect(x: 0, y: 0, width: 200, height: 160)
        let closed = try CARenderer.image(of: card(radius: radius, corner: corner, viaPasses: false), bounds: bounds, backend: backend)
        let passes = try CARenderer.image(of: card(radius: radius, corner: corner, viaPasses: true), bounds: bounds, backend: backend)
        let report = try ImageComparison.compare(passes.bitmap, closed.bitmap, tolerance: 2)
        #expect(report.pixelsOverTolerance == 0, "radius \(radius), corner \(corner): \(report)")
        #expect(report.maxChannelDelta > 0 || radius < 5) // the two really are different computations
    }

    @Test("a rounded shadowPath in closed form matches the same outline through the offscreen blur within 2/255",
          arguments: [RenderBackend.cpu, .gpu])
    func shadowPathMatchesBlur(backend: RenderBackend) throws {
        let bounds = CGRect(x: 0, y: 0, width: 200, height: 160)
        func scene(recognizable: Bool) -> CALayer {
            let root = card(radius: 12, corner: 0, viaPasses: false)
            let outline = CGMutablePath()
            outline.addRoundedRect(in: CGRect(x: 8, y: 6, width: 84, height: 58), cornerWidth: 14, cornerHeight: 14)
            // A trailing move adds nothing to the fill but makes the path no longer the canonical
            // rounded rectangle, which sends it through the offscreen blur.
            if !recognizable { outline.move(to: .zero) }
            root.sublayers?.first?.shadowPath = outline
            root.sublayers?.first?.backgroundColor = CGColor(gray: 1, alpha: 0.5) // the path, not the alpha, shapes it
            return root
        }
        let closed = try CARenderer.image(of: scene(recognizable: true), bounds: bounds, backend: backend)
        let passes = try CARenderer.image(of: scene(recognizable: false), bounds: bounds, backend: backend)
        let report = try ImageComparison.compare(passes.bitmap, closed.bitmap, tolerance: 2)
        #expect(report.pixelsOverTolerance == 0, "\(report)")
        #expect(report.maxChannelDelta > 0)
    }
}
