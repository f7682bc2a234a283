// Shape outlines kept between frames (ShapeOutlineCache): the lists are the ones built without
// it; a moved, turned or slightly scaled shape reuses its outline; a path changed in any way
// is flattened anew; and what no frame uses is let go.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Shape outlines kept between frames")
struct ShapeOutlineCacheTests {
    static let viewport = CGRect(x: 0, y: 0, width: 120, height: 120)

    /// A filled, stroked and dashed shape (curves and lines) turned and scaled about its centre.
    static func scene(path: CGPath, angle: CGFloat = 0, scale: CGFloat = 1) -> CALayer {
        let root = CALayer()
        root.frame = viewport
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 20, y: 20, width: 80, height: 80)
        shape.path = path
        shape.fillColor = CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.8)
        shape.strokeColor = CGColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 1)
        shape.lineWidth = 5
        shape.lineJoin = .round
        shape.lineDashPattern = [12, 4]
        shape.strokeEnd = 0.8
        shape.transform = CATransform3DConcat(CATransform3DMakeRotation(angle, 0, 0, 1), CATransform3DMakeScale(scale, scale, 1))
        root.addSublayer(shape)
        return root
    }

    static func drop() -> CGMutablePath {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 40, y: 5))
        path.addCurve(to: CGPoint(x: 75, y: 50), control1: CGPoint(x: 60, y: 20), control2: CGPoint(x: 75, y: 35))
        path.addArc(center: CGPoint(x: 40, y: 50), radius: 35, startAngle: 0, endAngle: .pi, clockwise: false)
        path.addLine(to: CGPoint(x: 40, y: 5))
        path.closeSubpath()
        return path
    }

    static func list(_ root: CALayer, cache: ShapeOutlineCache?) throws -> RenderList {
        var builder = RenderListBuilder(viewport: viewport, scale: 1)
        builder.outlineCache = cache
        return try builder.build(root: root)
    }

    @Test("frames built with the cache are the lists built without it; a moved, turned or slightly scaled shape reuses its outlines")
    func sameListsReused() throws {
        let cache = ShapeOutlineCache(), path = Self.drop()
        // Turns keep the magnification; 1.1 and 1.15 keep the tolerance's power of two (0.02
        // pixels over the scale, rounded down: 2^-6 from scale 1 to 1.28); 3 does not.
        for (angle, scale) in [(0.0, 1.0), (0.3, 1), (0.6, 1.1), (2.5, 1.15), (1.2, 3)] as [(CGFloat, CGFloat)] {
            let root = Self.scene(path: path, angle: angle, scale: scale)
            #expect(try Self.list(root, cache: cache) == Self.list(root, cache: nil), "at \(angle) rad, scale \(scale)")
        }
        // Fill and stroke made at the first frame and at scale 3, found at the three between.
        #expect(cache.misses == 4 && cache.hits == 6, "\(cache.misses) made, \(cache.hits) kept")
    }

    @Test("a path changed in place, or another of as many elements, is flattened anew; what a frame does not use is let go a frame later")
    func changedPathsAndLettingGo() throws {
        let cache = ShapeOutlineCache()
        let path = CGMutablePath()
        path.addEllipse(in: CGRect(x: 10, y: 10, width: 60, height: 40))
        let root = Self.scene(path: path)
        let shape = try #require(root.sublayers?.first as? CAShapeLayer)
        shape.strokeColor = nil
        #expect(try Self.list(root, cache: cache) == Self.list(root, cache: nil))
        #expect(cache.count == 1)
        // The same number of elements, moved: a new outline, the old one kept a frame more.
        let moved = CGMutablePath()
        moved.addEllipse(in: CGRect(x: 14, y: 10, width: 60, height: 40))
        shape.path = moved
        #expect(try Self.list(root, cache: cache) == Self.list(root, cache: nil))
        #expect(cache.count == 2 && cache.misses == 2)
        // Changed in place after it was set (where the layer keeps the object it was given).
        moved.addRect(CGRect(x: 30, y: 60, width: 10, height: 10))
        #expect(try Self.list(root, cache: cache) == Self.list(root, cache: nil))
        // The first ellipse, unused for a frame, is gone; one outline is kept.
        #expect(try Self.list(root, cache: cache) == Self.list(root, cache: nil))
        #expect(cache.count == 1, "\(cache.count) kept")
    }

    @Test("a stroke drawn small is flattened for the pixels it lands on: a 447-point ring shown 42 pixels wide is cut into 168 chords, not 264")
    func smallStrokeFlattenedForItsPixels() throws {
        // 9squares_AlBoardman's rings: 1,920-point compositions fitted into 180 pixels.
        let root = CALayer()
        root.frame = Self.viewport
        let ring = CAShapeLayer()
        ring.bounds = CGRect(x: -447, y: -447, width: 894, height: 894)
        ring.position = CGPoint(x: 60, y: 60)
        ring.transform = CATransform3DMakeScale(0.094, 0.094, 1)
        ring.path = CGPath(ellipseIn: ring.bounds)
        ring.fillColor = nil
        ring.strokeColor = CGColor(red: 0.97, green: 0.49, blue: 0.37, alpha: 1)
        ring.lineWidth = 8
        root.addSublayer(ring)
        let list = try Self.list(root, cache: nil)
        let path = try #require(list.passes.last?.ops.compactMap { op -> PathOp? in if case .path(let p) = op { p } else { nil } }.first)
        // The stroke's outline is a piece per chord (no joins inside a curve). The tolerance is
        // 0.02 pixels over the scale 0.094, rounded down to a power of two: 1/8 point, and Wang's
        // bound cuts each of the four quarter arcs into 42 chords at that, 168 pieces; the stroke's
        // own 0.05 points cut them into 66, 264 pieces.
        #expect(path.contours.count > 120 && path.contours.count < 200, "\(path.contours.count) pieces")
    }
}
