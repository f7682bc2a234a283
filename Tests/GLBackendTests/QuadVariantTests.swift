// The lean variants of the quad program (GLQuadVariant) against the general program they stand
// in for: the same pixels, byte for byte, for every way a texture can be filtered, shaped and
// mapped. A variant whose sampling differs from what the general code picks fails here.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Quad program variants")
struct QuadVariantTests {
    /// Images under every pair of filters, magnified, minified, turned and in perspective, some
    /// rounded, and a translucent group (a pass composited).
    static func frame(magnification: CALayerContentsFilter, minification: CALayerContentsFilter) throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 120, height: 80)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let image = CGImage(bitmap: Bitmap(width: 16, height: 12) { x, y in
            (UInt8(x * 15), UInt8(y * 20), UInt8((x * y) % 256), UInt8(120 + (x + y) * 5))
        })
        let placements: [(CGRect, CATransform3D, CGFloat)] = [
            (CGRect(x: 4, y: 4, width: 40, height: 30), CATransform3DIdentity, 0),        // magnified
            (CGRect(x: 50, y: 4, width: 7, height: 5), CATransform3DIdentity, 0),         // minified
            (CGRect(x: 64, y: 6, width: 30, height: 22), CATransform3DMakeRotation(0.4, 0, 0, 1), 5),
            (CGRect(x: 8, y: 40, width: 50, height: 34), {
                var t = CATransform3DIdentity
                t.m34 = -1 / 60
                return CATransform3DRotate(t, 0.9, 1, 0, 0)
            }(), 0),
        ]
        for (frame, transform, radius) in placements {
            let layer = CALayer()
            layer.frame = frame
            layer.transform = transform
            layer.contents = image
            layer.cornerRadius = radius
            layer.masksToBounds = radius > 0
            layer.magnificationFilter = magnification
            layer.minificationFilter = minification
            root.addSublayer(layer)
        }
        let group = CALayer()
        group.frame = CGRect(x: 66, y: 40, width: 40, height: 30)
        group.opacity = 0.7
        for i in 0..<2 {
            let part = CALayer()
            part.frame = CGRect(x: Double(i) * 12, y: Double(i) * 8, width: 24, height: 18)
            part.contents = image
            group.addSublayer(part)
        }
        root.addSublayer(group)
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    }

    /// `list` drawn by a device that draws every quad with the general program and by one that
    /// takes the lean variants, and how many bytes differ between the two frames.
    static func againstGeneral(_ list: RenderList) throws -> (general: GLDevice, lean: GLDevice, differing: Int) {
        let general = try GLDevice()
        general.drawWithGeneralQuadProgram()
        let lean = try GLDevice()
        let a = try general.render(list), b = try lean.render(list)
        return (general, lean, zip(a.pixels, b.pixels).filter { $0 != $1 }.count)
    }

    @Test("every lean variant draws the pixels of the general program", arguments: [
        (CALayerContentsFilter.nearest, CALayerContentsFilter.nearest), (.linear, .linear), (.nearest, .linear),
        (.linear, .nearest), (.linear, .trilinear), (.nearest, .trilinear), (.trilinear, .trilinear),
    ])
    func sameAsGeneral(filters: (CALayerContentsFilter, CALayerContentsFilter)) throws {
        let (general, lean, differing) = try QuadVariantTests.againstGeneral(QuadVariantTests.frame(magnification: filters.0,
                                                                                                     minification: filters.1))
        #expect(differing == 0, "\(filters): \(differing) bytes differ from the general program")
        #expect(general.plainTextureDraws == 0 && general.fewEdgeDraws == 0)
        #expect(lean.fewEdgeDraws > 0, "\(filters): no quad took the variant without the longer outlines' loops")
        if filters.0 == filters.1 || filters.0 == .linear && filters.1 == .trilinear {
            #expect(lean.plainTextureDraws > 0, "\(filters): no quad took a lean variant")
        }
    }

    /// Axial, radial and conic gradients, two to five stops (one location repeated), translucent
    /// colours, turned, in perspective, rounded and clipped, and under group opacity.
    static func gradientFrame() throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 120, height: 90)
        root.backgroundColor = CGColor(red: 0.9, green: 0.9, blue: 0.85, alpha: 1)
        let types: [CAGradientLayerType] = [.axial, .radial, .conic]
        for i in 0..<6 {
            let layer = CAGradientLayer()
            layer.type = types[i % 3]
            let column = Double(i % 3), row = Double(i / 3)
            layer.frame = CGRect(x: 4 + column * 38, y: 4 + row * 44, width: 34, height: 38)
            let stops = 2 + i % 4
            layer.colors = (0..<stops).map { (k: Int) -> CGColor in
                let f = Double(k) / Double(stops), green = Double((k * 7 + i) % 5) / 5
                return CGColor(red: f, green: green, blue: 1 - f, alpha: k == 1 ? 0.4 : 1)
            }
            if stops > 2 {
                layer.locations = (0..<stops).map { (k: Int) -> NSNumber in
                    NSNumber(value: k == 2 ? 1.0 / Double(stops) : Double(k) / Double(stops - 1))
                }
            }
            let step = Double(i)
            layer.startPoint = CGPoint(x: 0.1 * step, y: 0.2)
            layer.endPoint = CGPoint(x: 0.9, y: 0.7 + 0.05 * step)
            switch i {
            case 1: layer.transform = CATransform3DMakeRotation(0.5, 0, 0, 1)
            case 2:
                var t = CATransform3DIdentity
                t.m34 = -1 / 50
                layer.transform = CATransform3DRotate(t, 0.8, 0, 1, 0)
            case 3:
                layer.cornerRadius = 9
                layer.masksToBounds = true
            case 4: layer.opacity = 0.6
            default: break
            }
            root.addSublayer(layer)
        }
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    }

    @Test("the gradient variant draws the pixels of the general program")
    func gradientSameAsGeneral() throws {
        let (general, lean, differing) = try QuadVariantTests.againstGeneral(QuadVariantTests.gradientFrame())
        #expect(differing == 0, "\(differing) bytes differ from the general program")
        #expect(general.plainGradientDraws == 0 && general.fewEdgeDraws == 0)
        #expect(lean.plainGradientDraws >= 6, "\(lean.plainGradientDraws) quads took the gradient variant")
    }
}
