// CALayer.render(in:): a subtree drawn into a bitmap context in the layer's own space.
import Foundation
import OpenQuartzCore
import Testing

@Suite("render(in:)")
struct RenderInContextTests {
    /// A 20x10 layer, placed and turned elsewhere, with a red top half and a blue square sublayer.
    private func scene() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
        layer.position = CGPoint(x: 300, y: 300)
        layer.transform = CATransform3DMakeRotation(1, 0, 0, 1) // left out by render(in:)
        let top = CALayer()
        top.frame = CGRect(x: 0, y: 0, width: 20, height: 5)
        top.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let square = CALayer()
        square.frame = CGRect(x: 15, y: 5, width: 5, height: 5)
        square.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        layer.sublayers = [top, square]
        return layer
    }

    @Test("in a context flipped to y down the layer draws upright, in its own space")
    func flippedContext() throws {
        let ctx = try #require(CGContext(width: 20, height: 10))
        ctx.translateBy(x: 0, y: 10)
        ctx.scaleBy(x: 1, y: -1)
        scene().render(in: ctx)
        #expect(ctx.bitmap[2, 1] == (255, 0, 0, 255)) // red on top
        #expect(ctx.bitmap[17, 8] == (0, 0, 255, 255)) // blue bottom right
        #expect(ctx.bitmap[2, 8].3 == 0)
    }

    @Test("a scaled context gets a sharper rendering, not a stretched one")
    func scaledContext() throws {
        let ctx = try #require(CGContext(width: 40, height: 20))
        ctx.translateBy(x: 0, y: 20)
        ctx.scaleBy(x: 2, y: -2)
        scene().render(in: ctx)
        #expect(ctx.bitmap[29, 9] == (255, 0, 0, 255) && ctx.bitmap[30, 10] == (0, 0, 255, 255))
    }

    @Test("layers turned in 3D are not rendered, as Apple documents; z alone and rounding keep a layer in the plane")
    func layersTurnedIn3D() throws {
        func draw(_ change: (CALayer, CALayer) -> Void) throws -> Bitmap {
            let layer = scene(), square = layer.sublayers![1]
            change(layer, square)
            let ctx = try #require(CGContext(width: 20, height: 10))
            ctx.translateBy(x: 0, y: 10)
            ctx.scaleBy(x: 1, y: -1)
            layer.render(in: ctx)
            return ctx.bitmap
        }
        let blue: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 255, 255)
        // Turned about y: the square is left out, the rest drawn; CARenderer draws it.
        let turned = try draw { _, square in square.transform = CATransform3DMakeRotation(0.5, 0, 1, 0) }
        #expect(turned[17, 8].3 == 0 && turned[2, 1] == (255, 0, 0, 255))
        let layer = scene()
        layer.sublayers![1].transform = CATransform3DMakeRotation(0.5, 0, 1, 0)
        layer.transform = CATransform3DIdentity
        let shown = try layer.renderedImage(bounds: CGRect(x: 290, y: 295, width: 20, height: 10), backend: .cpu).bitmap
        #expect(shown[17, 8].3 > 0, "CARenderer draws a layer turned in 3D")
        // A sublayerTransform with perspective turns the sublayers: both left out.
        let perspective = try draw { layer, _ in
            var t = CATransform3DIdentity
            t.m34 = -1 / 500
            layer.sublayerTransform = t
        }
        #expect(perspective[2, 1].3 == 0 && perspective[17, 8].3 == 0)
        // Scaled along z, or turned by rounding's 1e-8 about y: drawn.
        let deep = try draw { _, square in square.transform = CATransform3DMakeScale(1, 1, 4) }
        #expect(deep[17, 8] == blue)
        let noise = try draw { _, square in
            var t = CATransform3DIdentity
            (t.m13, t.m31) = (-1.5e-8, 1.5e-8)
            square.transform = t
        }
        #expect(noise[17, 8] == blue)
    }

    @Test("a non-separable blend filter is drawn source-over, a separable one blends, as Apple's render(in:) frames show")
    func blendFilters() throws {
        // A grey square over the red top half, by each filter.
        func draw(_ filter: String, rendered: Bool = false) throws -> (UInt8, UInt8, UInt8, UInt8) {
            let layer = scene()
            let grey = CALayer()
            grey.frame = CGRect(x: 0, y: 0, width: 10, height: 5)
            grey.backgroundColor = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
            grey.compositingFilter = filter
            layer.addSublayer(grey)
            if rendered {
                layer.transform = CATransform3DIdentity
                return try layer.renderedImage(bounds: CGRect(x: 290, y: 295, width: 20, height: 10), backend: .cpu).bitmap[2, 1]
            }
            let ctx = try #require(CGContext(width: 20, height: 10))
            ctx.translateBy(x: 0, y: 10)
            ctx.scaleBy(x: 1, y: -1)
            layer.render(in: ctx)
            return ctx.bitmap[2, 1]
        }
        // Luminosity: grey over red keeps red's hue at grey's luminosity where it blends.
        let plain = try draw("luminosityBlendMode"), blended = try draw("luminosityBlendMode", rendered: true)
        #expect(plain.0 == plain.1 && plain.1 == plain.2 && plain.0 > 100, "drawn plainly: \(plain)")
        #expect(blended.0 > blended.1 + 50, "CARenderer blends: \(blended)")
        // Multiply blends in both: red times grey.
        let multiplied = try draw("multiplyBlendMode")
        #expect(multiplied.1 < 10 && multiplied.0 > 100 && multiplied.0 < 160, "\(multiplied)")
    }
}
