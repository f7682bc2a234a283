// Which route a filled path takes, measured: edge error against exact area of the float sum (the
// route taken), the integer stencil (stencil-then-cover, binary per pixel centre) and the backing
// store (the path rasterized into a texture at contentsScale and sampled, the route before: a
// subclass that draws its shape into its contents takes it). Shapes a turned layer fills: a circle and a star outline,
// whose exact area per pixel is summed here over a fan of triangles from their centre, each
// clipped to the pixel (ExactCoverageTests.clippedArea).
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("Filled path routes against exact area")
struct PathRouteTests {
    /// A subclass that draws its shape in black into its backing store; its own fill is cleared,
    /// so the renderers draw only the store.
    final class StoredShapeLayer: CAShapeLayer {
        override func draw(in ctx: CGContext) {
            guard let path else { return }
            ctx.addPath(path)
            ctx.setFillColor(CGColor(red: 0, green: 0, blue: 0, alpha: 1))
            ctx.fillPath()
        }
    }

    static func tree(star: Bool, stored: Bool) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 72, height: 72)
        let shape: CAShapeLayer = stored ? StoredShapeLayer() : CAShapeLayer()
        shape.bounds = CGRect(x: 0, y: 0, width: 56, height: 56)
        shape.position = CGPoint(x: 36.3, y: 35.8)
        shape.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        let path = CGMutablePath()
        if star {
            for i in 0..<10 {
                let a = Double(i) * Double.pi / 5, r = i % 2 == 0 ? 26.0 : 11.0
                let p = CGPoint(x: 28 + r * sin(a), y: 28 - r * cos(a))
                if i == 0 { path.move(to: p) } else { path.addLine(to: p) }
            }
            path.closeSubpath()
        } else {
            path.addEllipse(in: CGRect(x: 4, y: 4, width: 48, height: 48))
        }
        shape.path = path
        shape.fillColor = stored ? nil : CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        if stored { shape.setNeedsDisplay() }
        root.addSublayer(shape)
        root.displayTreeIfNeeded()
        return root
    }

    /// Max and mean error over the pixels the outline crosses, in 255ths.
    static func edgeError(_ image: Bitmap, contour: [DevicePoint]) -> (max: Double, mean: Double, pixels: Int) {
        let cx = contour.map(\.x).reduce(0, +) / Double(contour.count), cy = contour.map(\.y).reduce(0, +) / Double(contour.count)
        let centre = DevicePoint(x: cx, y: cy)
        var worst = 0.0, sum = 0.0, count = 0
        for py in 0..<image.height {
            for px in 0..<image.width {
                var exact = 0.0
                for i in contour.indices {
                    exact += ExactCoverageTests.clippedArea([centre, contour[i], contour[(i + 1) % contour.count]], px: px, py: py)
                }
                guard exact > 1e-9, exact < 1 - 1e-9 else { continue }
                let error = abs(Double(image.pixels[(py * image.width + px) * 4 + 3]) / 255 - exact) * 255
                worst = max(worst, error)
                sum += error
                count += 1
            }
        }
        return (worst, sum / Double(max(count, 1)), count)
    }

    @Test("the float sum is exact to 8-bit rounding; the stencil and the backing store are not", arguments: [false, true])
    func routes(star: Bool) throws {
        let name = star ? "star" : "circle"
        let plain = try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 72, height: 72), scale: 1)
            .build(root: PathRouteTests.tree(star: star, stored: false))
        let stored = try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 72, height: 72), scale: 1)
            .build(root: PathRouteTests.tree(star: star, stored: true))
        let contour = try #require(plain.passes.last?.ops.compactMap { op -> PathOp? in if case .path(let p) = op { p } else { nil } }.first?.contours.first)
        let stencilDevice = try GLDevice()
        stencilDevice.fillPathsByStencil()
        let float = PathRouteTests.edgeError(try #require(PathFillTests.gpuSums).render(plain), contour: contour)
        let reference = PathRouteTests.edgeError(RasterRenderer().render(plain), contour: contour)
        let stencil = PathRouteTests.edgeError(try stencilDevice.render(plain), contour: contour)
        let store = PathRouteTests.edgeError(try GLDevice.shared().render(stored), contour: contour)
        print(String(format: "%@, turned, %d edge pixels, error in 255ths (max / mean): float sum %.2f / %.3f, CPU reference %.2f / %.3f, "
                     + "stencil %.1f / %.1f, backing store %.1f / %.2f", name, float.pixels, float.max, float.mean,
                     reference.max, reference.mean, stencil.max, stencil.mean, store.max, store.mean))
        #expect(float.max <= 1 && reference.max <= 1, "\(name): the float sum and the CPU are exact to rounding: \(float), \(reference)")
        #expect(stencil.max > 100 && stencil.mean > 20, "\(name): the stencil is binary per pixel: \(stencil)")
        #expect(store.max > float.max && store.mean > float.mean, "\(name): the backing store resamples: \(store)")
    }
}
