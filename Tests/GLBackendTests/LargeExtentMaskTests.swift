// Masks of any extent (issue 50): lottie-ios inverts a mask by adding a rectangle 20 million points
// across to the mask's path (even-odd), in a CAShapeLayer subclass that overrides nothing, nested
// in container layers that lay it out from their superlayers. The shape is drawn from its path on
// both backends, so its extent costs nothing and the mask draws what the frame shows.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("Masks of any extent")
struct LargeExtentMaskTests {
    /// A shape layer subclass that overrides nothing, as lottie-ios's mask layers are.
    final class MaskShapeLayer: CAShapeLayer {}

    /// A container that lays its sublayers and its mask out to fill it, as lottie-ios's do.
    final class FillingLayer: CALayer {
        override func layoutSublayers() {
            super.layoutSublayers()
            for layer in (sublayers ?? []) + [mask].compactMap({ $0 }) {
                layer.anchorPoint = .zero
                layer.bounds = bounds
            }
        }
    }

    /// A 60 x 60 red layer masked by a circle of radius 15 at its centre, inverted (the
    /// circle's outside shows) when `inverted`, through lottie-ios's layering when `nested`.
    static func frame(inverted: Bool, nested: Bool) throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
        let content = FillingLayer()
        content.frame = root.bounds
        content.backgroundColor = CGColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 1)
        let shape = MaskShapeLayer()
        shape.fillRule = .evenOdd
        let path = CGMutablePath()
        if inverted { path.addRect(CGRect(x: -10_000_000, y: -10_000_000, width: 20_000_000, height: 20_000_000)) }
        path.addEllipse(in: CGRect(x: 15, y: 15, width: 30, height: 30))
        shape.path = path
        if nested {
            let composition = FillingLayer(), container = FillingLayer()
            container.addSublayer(shape)
            composition.addSublayer(container)
            content.mask = composition
        } else {
            content.mask = shape
        }
        root.addSublayer(content)
        root.displayTreeIfNeeded()
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    }

    @Test("a mask whose path reaches ±10 million points masks on both backends, inverted or not, nested or not",
          arguments: [(false, false), (true, false), (false, true), (true, true)])
    func extentCostsNothing(inverted: Bool, nested: Bool) throws {
        let list = try Self.frame(inverted: inverted, nested: nested)
        for (backend, image) in [("GPU", try GLDevice.shared().render(list)), ("CPU", RasterRenderer().render(list))] {
            let centre = image[30, 30], corner = image[4, 4]
            let shown = (r: 230, g: 26)
            func isContent(_ p: (UInt8, UInt8, UInt8, UInt8)) -> Bool { abs(Int(p.0) - shown.r) <= 1 && abs(Int(p.1) - shown.g) <= 1 && p.3 == 255 }
            if inverted {
                #expect(centre.3 == 0 && isContent(corner), "\(backend), nested \(nested): the circle's outside shows: \(centre) \(corner)")
            } else {
                #expect(isContent(centre) && corner.3 == 0, "\(backend), nested \(nested): the circle shows: \(centre) \(corner)")
            }
        }
    }
}
