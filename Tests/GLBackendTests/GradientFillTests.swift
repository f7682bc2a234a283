// CAGradientLayer drawn from its formula on both backends (issue 50): the colour at each pixel
// from the geometry (axial, radial, conic), held to values worked out here from the layer's
// points; gradients of any size (lottie-ios pads every gradient layer by 10,000 points a side);
// rounded corners that shape the gradient without masksToBounds, as they shape the background;
// the GPU against the CPU reference turned, in perspective, translucent and with more stops than
// a fill carries; and the CPU's pixels against Core Graphics' drawing of the same gradient.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Gradients from their formula")
struct GradientFillTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    static func render(_ root: CALayer) throws -> [(String, Bitmap)] {
        let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        return [("GPU", try GLDevice.shared().render(list)), ("CPU", RasterRenderer().render(list))]
    }

    static func root(_ width: Double = 100, _ height: Double = 100) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        return root
    }

    typealias RGB = (Double, Double, Double)

    /// The colour a CAGradientLayer draws `t` of the way from sRGB colour `a` to `b`: both
    /// converted into Generic RGB, mixed there and the mix converted to sRGB (GenericRGBTests
    /// holds those conversions to Apple's frames).
    static func mix(_ a: RGB, _ b: RGB, _ t: Double) -> RGB {
        let a = GenericRGB.fromSRGB(a.0, a.1, a.2), b = GenericRGB.fromSRGB(b.0, b.1, b.2)
        return GenericRGB.toSRGB(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
    }

    /// Whether the pixel is the sRGB colour (0...1 components, opaque) within 2 steps a channel.
    static func near(_ p: (UInt8, UInt8, UInt8, UInt8), _ want: RGB) -> Bool {
        abs(Double(p.0) - want.0 * 255) <= 2 && abs(Double(p.1) - want.1 * 255) <= 2 && abs(Double(p.2) - want.2 * 255) <= 2
            && p.3 == 255
    }

    @Test("an axial gradient 20,100 points wide, as lottie-ios pads them, shows its visible hundred points at full resolution")
    func paddedAxial() throws {
        let root = Self.root(100, 20)
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: -10_000, y: 0, width: 20_100, height: 20)
        gradient.colors = [Self.red, Self.blue]
        gradient.startPoint = CGPoint(x: 10_000.0 / 20_100, y: 0.5)
        gradient.endPoint = CGPoint(x: 10_100.0 / 20_100, y: 0.5)
        root.addSublayer(gradient)
        root.displayTreeIfNeeded()
        #expect(gradient.contents == nil, "no backing store, of any size")
        for (backend, image) in try Self.render(root) {
            for x in [0, 10, 50, 77, 99] {
                let t = (Double(x) + 0.5) / 100
                #expect(Self.near(image[x, 10], Self.mix((1, 0, 0), (0, 0, 1), t)), "\(backend) at x \(x): \(image[x, 10]), t \(t)")
            }
        }
    }

    @Test("radial: t is the distance from startPoint over endPoint's reach on each axis; conic: the angle clockwise from endPoint's direction")
    func radialAndConic() throws {
        let root = Self.root(200, 100)
        let radial = CAGradientLayer()
        radial.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        radial.type = .radial
        radial.colors = [Self.red, Self.blue]
        radial.startPoint = CGPoint(x: 0.5, y: 0.5)
        radial.endPoint = CGPoint(x: 1, y: 1)
        let conic = CAGradientLayer()
        conic.frame = CGRect(x: 100, y: 0, width: 100, height: 100)
        conic.type = .conic
        conic.colors = [Self.red, Self.green, Self.blue]
        conic.startPoint = CGPoint(x: 0.5, y: 0.5)
        conic.endPoint = CGPoint(x: 1, y: 0.5)
        root.addSublayer(radial)
        root.addSublayer(conic)
        for (backend, image) in try Self.render(root) {
            for (x, y) in [(50, 50), (70, 50), (50, 20), (90, 80)] {
                let dx = Double(x) + 0.5 - 50, dy = Double(y) + 0.5 - 50
                let t = min((dx * dx + dy * dy).squareRoot() / 50, 1)
                #expect(Self.near(image[x, y], Self.mix((1, 0, 0), (0, 0, 1), t)), "\(backend) radial at (\(x), \(y)): \(image[x, y]), t \(t)")
            }
            for (x, y) in [(150, 90), (110, 49), (165, 80)] {
                let dx = Double(x) + 0.5 - 150, dy = Double(y) + 0.5 - 50
                var turn = atan2(dy, dx) / (2 * Double.pi)
                if turn < 0 { turn += 1 }
                let want = turn < 0.5 ? Self.mix((1, 0, 0), (0, 1, 0), 2 * turn) : Self.mix((0, 1, 0), (0, 0, 1), 2 * turn - 1)
                #expect(Self.near(image[x, y], want), "\(backend) conic at (\(x), \(y)): \(image[x, y]), t \(turn)")
            }
        }
    }

    @Test("device and calibrated colours draw alike, mixed in Generic RGB; gray ones stay gray; on both backends")
    func colourSpaces() throws {
        let root = Self.root(100, 30)
        let device = CGColorSpaceCreateDeviceRGB()
        let rows: [([CGColor], (Double) -> RGB)] = [
            ([CGColor(colorSpace: device, components: [1, 0, 0, 1])!, CGColor(colorSpace: device, components: [0, 0, 1, 1])!],
             { t in Self.mix((1, 0, 0), (0, 0, 1), t) }),
            ([Self.red, Self.blue], { t in Self.mix((1, 0, 0), (0, 0, 1), t) }),
            ([CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 1)], { t in Self.mix((0, 0, 0), (1, 1, 1), t) }),
        ]
        for (i, row) in rows.enumerated() {
            let gradient = CAGradientLayer()
            gradient.frame = CGRect(x: 0, y: Double(i) * 10, width: 100, height: 10)
            gradient.colors = row.0
            gradient.startPoint = CGPoint(x: 0, y: 0.5)
            gradient.endPoint = CGPoint(x: 1, y: 0.5)
            root.addSublayer(gradient)
        }
        for (backend, image) in try Self.render(root) {
            for (i, row) in rows.enumerated() {
                for x in [0, 30, 50, 99] {
                    let want = row.1((Double(x) + 0.5) / 100), p = image[x, i * 10 + 5]
                    let close = abs(Double(p.0) - want.0 * 255) <= 1 && abs(Double(p.1) - want.1 * 255) <= 1 && abs(Double(p.2) - want.2 * 255) <= 1
                    #expect(close, "\(backend) row \(i) at x \(x): \(p), want \(want)")
                }
                if i == 2 { for x in [0, 30, 50, 99] { #expect(image[x, 25].0 == image[x, 25].1 && image[x, 25].1 == image[x, 25].2) } }
            }
            for x in 0..<100 { #expect(image[x, 5] == image[x, 15], "\(backend) at x \(x): device \(image[x, 5]), calibrated \(image[x, 15])") }
            // Red is Apple's (255, 38, 0) in sRGB: sRGB's red lies outside Generic RGB's gamut.
            #expect(image[0, 5].1 > 30, "\(backend): \(image[0, 5])")
        }
    }

    @Test("rounded corners shape the gradient without masksToBounds, as they shape the background")
    func roundedWithoutMasksToBounds() throws {
        let root = Self.root(60, 60)
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        gradient.colors = [Self.red, Self.blue]
        gradient.cornerRadius = 15
        root.addSublayer(gradient)
        for (backend, image) in try Self.render(root) {
            #expect(image[11, 11].3 == 0, "\(backend): the corner is cut")
            #expect(image[30, 30].3 == 255, "\(backend): the middle is filled")
        }
    }

    @Test("the CPU reference's gradient is Core Graphics' drawing of it, axial, radial and conic")
    func matchesCoreGraphics() throws {
        for type in [CAGradientLayerType.axial, .radial, .conic] {
            let root = Self.root(64, 48)
            let gradient = CAGradientLayer()
            gradient.frame = root.bounds
            gradient.type = type
            gradient.colors = [Self.red, CGColor(red: 0.2, green: 0.8, blue: 0.3, alpha: 0.5), Self.blue]
            gradient.locations = [0, 0.3, 1]
            gradient.startPoint = CGPoint(x: 0.3, y: 0.4)
            gradient.endPoint = CGPoint(x: 0.9, y: 0.8)
            root.addSublayer(gradient)
            let cpu = try #require(Self.render(root).last?.1)
            let ctx = try #require(CGContext(width: 64, height: 48))
            ctx.translateBy(x: 0, y: 48)
            ctx.scaleBy(x: 1, y: -1)
            gradient.drawGradient(in: ctx)
            let report = try ImageComparison.compare(cpu, ctx.bitmap, tolerance: 1)
            #expect(report.maxChannelDelta <= 1, "\(type.rawValue): \(report)")
        }
    }

    @Test("turned, in perspective, translucent, and with more stops than a fill carries: the GPU agrees with the CPU reference")
    func agreement() throws {
        let root = Self.root(240, 160)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 300
        let cases: [(CAGradientLayerType, CATransform3D, Int)] = [
            (.axial, CATransform3DMakeRotation(0.4, 0, 0, 1), 2), (.radial, CATransform3DRotate(perspective, 0.6, 0, 1, 0), 3),
            (.conic, CATransform3DMakeRotation(-0.3, 0, 0, 1), 4), (.axial, CATransform3DRotate(perspective, 0.5, 1, 0, 0), 40),
        ]
        for (i, (type, transform, count)) in cases.enumerated() {
            let gradient = CAGradientLayer()
            gradient.frame = CGRect(x: 10 + Double(i % 2) * 120, y: 10 + Double(i / 2) * 75, width: 100, height: 60)
            gradient.type = type
            gradient.transform = transform
            gradient.cornerRadius = i == 1 ? 12 : 0
            var colors: [CGColor] = []
            for k in 0..<count {
                let red = Double(k % 3) / 2, green = Double((k + 1) % 4) / 3, blue = Double(k % 2)
                colors.append(CGColor(red: red, green: green, blue: blue, alpha: k % 2 == 0 ? 1 : 0.6))
            }
            gradient.colors = colors
            gradient.startPoint = CGPoint(x: 0.2, y: 0.3)
            gradient.endPoint = CGPoint(x: 0.9, y: 0.7)
            root.addSublayer(gradient)
        }
        // Drawn offscreen and moved into its pass: masked by a shape (as lottie-ios masks gradient
        // fills by their paths) and a group of translucent layers.
        let masked = CAGradientLayer()
        masked.frame = CGRect(x: 60, y: 40, width: 120, height: 80)
        masked.type = .radial
        masked.colors = [Self.red, Self.green, Self.blue]
        masked.startPoint = CGPoint(x: 0.5, y: 0.5)
        masked.endPoint = CGPoint(x: 1, y: 1)
        let shape = CAShapeLayer()
        shape.path = CGPath(ellipseIn: CGRect(x: 10, y: 5, width: 100, height: 70), transform: nil)
        masked.mask = shape
        masked.opacity = 0.8
        let inner = CALayer()
        inner.frame = CGRect(x: 20, y: 20, width: 30, height: 30)
        inner.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 0.7)
        masked.addSublayer(inner)
        root.addSublayer(masked)
        let images = try Self.render(root)
        let report = try ImageComparison.compare(images[1].1, images[0].1, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }
}
