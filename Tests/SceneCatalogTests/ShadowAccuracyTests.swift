// Shadows against the closed form: a rectangle's Gaussian shadow is a product of two erf
// differences, so the blurred passes (halved copies for large radii) can be checked exactly.
import Foundation
import OpenQuartzCore
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
