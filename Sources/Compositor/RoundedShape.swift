import Foundation
import LayerModel
import OpenCoreGraphics

/// A rectangle of a layer's plane with rounded corners, one radius per corner (y down).
public struct RoundedRectangle: Hashable, Sendable {
    public var rect: Rect
    public var topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double
    /// Continuous corners (`CALayerCornerCurve.continuous`): a superellipse of exponent 5 reaching
    /// `continuousExtent` times the radius along each edge, instead of a quarter circle.
    public var continuous: Bool

    /// How far along each edge a continuous corner reaches, per unit of radius (iOS's corners
    /// start bending about 1.528 radii from the corner): the model's number, which
    /// `CALayer.cornerCurveExpansionFactor(_:)` answers with.
    public static let continuousExtent = Double(CALayerCornerCurve.continuousExtent)

    public init(rect: Rect, topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double, continuous: Bool = false) {
        self.rect = rect
        self.topLeft = topLeft; self.topRight = topRight; self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
        self.continuous = continuous
    }

    /// Signed distance from (x, y) to the outline (negative inside), and its gradient. For
    /// continuous corners the distance is the superellipse's implicit function over its gradient's
    /// length: exact on the outline, first-order near it, which is all anti-aliasing needs.
    @inlinable @inline(__always)
    public func signedDistance(x: Double, y: Double) -> (distance: Double, gx: Double, gy: Double) {
        let halfW = rect.width / 2, halfH = rect.height / 2
        let lx = x - (rect.x + halfW), ly = y - (rect.y + halfH)
        var r = lx >= 0 ? (ly >= 0 ? bottomRight : topRight) : (ly >= 0 ? bottomLeft : topLeft)
        if continuous { r = min(r * RoundedRectangle.continuousExtent, halfW, halfH) }
        let qx = abs(lx) - (halfW - r), qy = abs(ly) - (halfH - r)
        let sx: Double = lx >= 0 ? 1 : -1, sy: Double = ly >= 0 ? 1 : -1
        if qx > 0 && qy > 0 {
            // A corner left square (maskedCorners, a zero radius) has no curve to scale by.
            if continuous && r > 0 {
                let ux = qx / r, uy = qy / r
                let ux4 = ux * ux * ux * ux, uy4 = uy * uy * uy * uy
                let f = pow(ux4 * ux + uy4 * uy, 0.2)
                let g = (ux4 * ux4 + uy4 * uy4).squareRoot()
                let f4 = f * f * f * f
                return ((f - 1) * f4 * r / g, sx * ux4 / g, sy * uy4 / g)
            }
            let length = (qx * qx + qy * qy).squareRoot()
            return (length - r, sx * qx / length, sy * qy / length)
        }
        return qx > qy ? (qx - r, sx, 0) : (qy - r, 0, sy)
    }

    /// The lines of the two straight edges of the quadrant (x, y) lies in, |x| = half the width
    /// and |y| = half the height about the centre, as signed distances (negative inside) and
    /// gradients. The outline lies inside both, so neither is nearer to an inside point than the
    /// outline is, in the layer's plane; but on screen, through a map that squashes one axis
    /// (a layer scaled 1.5 x 0.6, or 28 : 1), the nearer of the two, or a line nearer than a
    /// corner's curve measured along its own gradient, bounds the coverage better: a pill thinner
    /// than a pixel had its ends' curves measured along the long axis and came out whole.
    @inlinable
    public func straightEdgeLines(x: Double, y: Double) -> (x: (distance: Double, gx: Double, gy: Double),
                                                            y: (distance: Double, gx: Double, gy: Double)) {
        let lx = x - (rect.x + rect.width / 2), ly = y - (rect.y + rect.height / 2)
        return ((abs(lx) - rect.width / 2, lx >= 0 ? 1 : -1, 0), (abs(ly) - rect.height / 2, 0, ly >= 0 ? 1 : -1))
    }
}

/// A rounded rectangle, or a ring between two (a border), drawn through a projective map: its
/// coverage multiplies a quad's polygon coverage. Distances are measured in the layer's plane and
/// converted to device pixels with the map's exact derivative at the pixel, so the edge ramps over
/// one device pixel under any transform, and both backends evaluate the same function.
public struct RoundedShape: Hashable, Sendable {
    /// Device pixel (x, y, 1) to the layer's plane, homogeneous.
    public var deviceToLocal: ProjectiveTransform2D
    public var outer: RoundedRectangle
    /// For a ring: the inside that is left out.
    public var inner: RoundedRectangle?

    public init(deviceToLocal: ProjectiveTransform2D, outer: RoundedRectangle, inner: RoundedRectangle? = nil) {
        self.deviceToLocal = deviceToLocal
        self.outer = outer
        self.inner = inner
    }

    /// The area of a one-pixel square, centred `distance` pixels outside an edge (negative:
    /// inside) whose device-space normal is (gx, gy), that lies inside the edge: exact for a
    /// straight edge, where the usual clamp(0.5 - distance) ramp is exact only for axis-aligned
    /// ones (off by up to 1/16 of a pixel's area at 45 degrees, which shows on circles).
    @inlinable
    public static func pixelCoverage(distance: Double, gx: Double, gy: Double) -> Double {
        pixelCoverage(distance: distance, gx: gx, gy: gy, length: (gx * gx + gy * gy).squareRoot())
    }

    /// `pixelCoverage(distance:gx:gy:)` with the normal's length, (gx² + gy²)^½, known.
    @inlinable
    static func pixelCoverage(distance: Double, gx: Double, gy: Double, length: Double) -> Double {
        pixelCoverage(distance: distance, square: SquareParts(gx: gx, gy: gy, length: length))
    }

    /// What `pixelCoverage` takes from an edge's normal alone: the pixel square's extent along it
    /// (a straight edge's normal is the same at every pixel of a shape under an affine map, so
    /// these are worked out once per shape there, with the same arithmetic).
    @usableFromInline
    struct SquareParts: Sendable {
        /// The normal's smaller and larger component over its length; half their sum, half their
        /// difference; twice their product. For a zero (or not finite) length `degenerate` is
        /// set and the rest, divided by it, is not read.
        @usableFromInline let a: Double, b: Double, half: Double, linear: Double, doubleAB: Double
        @usableFromInline let degenerate: Bool

        @inlinable
        init(gx: Double, gy: Double, length: Double) {
            degenerate = !(length > 0)
            a = min(abs(gx), abs(gy)) / length; b = max(abs(gx), abs(gy)) / length
            half = (a + b) / 2; linear = (b - a) / 2; doubleAB = 2 * a * b
        }
    }

    @inlinable
    static func pixelCoverage(distance: Double, square q: SquareParts) -> Double {
        guard !q.degenerate else { return min(max(0.5 - distance, 0), 1) }
        let s = -distance
        if s >= q.half { return 1 }
        if s <= -q.half { return 0 }
        if abs(s) <= q.linear { return 0.5 + s / q.b }
        // Within a corner of the square: a triangle of the area.
        let corner = (q.half - abs(s)) * (q.half - abs(s)) / q.doubleAB
        return s > 0 ? 1 - corner : corner
    }

    /// Coverage at a device point (a pixel centre): the share of the pixel's square inside the
    /// outline, taking the outline as straight across the pixel (`pixelCoverage`), for the ring
    /// the outer rectangle's less the inner one's (the inner lies within the outer: the ring is
    /// what lies between them, where a product overstated a border thinner than a pixel).
    public func coverage(atX x: Double, y: Double) -> Double {
        Sampler(general: self).coverage(atX: x, y: y)
    }

    /// The coverage of the outer rectangle and of the inner one (0 without one) at a device
    /// point, each as `coverage` takes it: for a border drawn over its layer's background in one
    /// step (`QuadOp.isBorder(over:)`).
    public func outlineCoverage(atX x: Double, y: Double) -> (outer: Double, inner: Double) {
        Sampler(general: self).outlineCoverage(atX: x, y: y)
    }

    /// What an affine map (no perspective: w is m33 at every pixel, after an inversion not
    /// always exactly 1) keeps the same from pixel to pixel: d(local)/d(device), and the
    /// on-screen lengths of the straight edges' gradients, (±1, 0) and (0, ±1) mapped.
    struct AffineParts: Sendable {
        let w: Double
        let dxdx: Double, dxdy: Double, dydx: Double, dydy: Double
        let lengthX: Double, lengthY: Double
        /// `pixelCoverage`'s parts for a straight edge's normal, (±1, 0) and (0, ±1) mapped.
        let squareX: SquareParts, squareY: SquareParts
        /// A pixel whose distances in the plane all lie below -reach is covered wholly, and one
        /// whose outline distance lies beyond reach not at all: a gradient of length at most 1
        /// (to rounding) maps to one of at most the derivative's largest singular value, so the
        /// distance on screen passes ±0.7072 pixels, beyond the ±(a + b)/2 <= ±0.70711 at which
        /// `pixelCoverage` is 0 or 1. Infinite (no early answer) for a degenerate map.
        let reach: Double

        /// Nil under perspective (w varies) or a map that is not finite.
        init?(_ m: ProjectiveTransform2D) {
            guard m.m13 == 0, m.m23 == 0, m.m33 > 0,
                  [m.m11, m.m12, m.m21, m.m22, m.m31, m.m32, m.m33].allSatisfy(\.isFinite) else { return nil }
            // The projective derivative's terms, (m·w - u·0) / w² with u·0 = ±0: the values every
            // pixel computes, but for the sign of a zero, which every use squares or takes the
            // magnitude of.
            w = m.m33
            let w2 = w * w
            dxdx = m.m11 * w / w2; dxdy = m.m21 * w / w2; dydx = m.m12 * w / w2; dydy = m.m22 * w / w2
            lengthX = (dxdx * dxdx + dxdy * dxdy).squareRoot()
            lengthY = (dydx * dydx + dydy * dydy).squareRoot()
            squareX = SquareParts(gx: dxdx, gy: dxdy, length: lengthX)
            squareY = SquareParts(gx: dydx, gy: dydy, length: lengthY)
            let t = dxdx * dxdx + dxdy * dxdy + dydx * dydx + dydy * dydy, det = dxdx * dydy - dydx * dxdy
            let largest = ((t + max(t * t - 4 * det * det, 0).squareRoot()) / 2).squareRoot()
            reach = det != 0 && largest.isFinite ? 0.7072 * largest * (1 + 1e-9) : .infinity
        }

        /// Parts no pixel reads, for a projective map (a `Sampler` with `isAffine` false): held
        /// so rather than as an optional, whose unwrapping copied the 160 bytes at every pixel.
        static var unused: AffineParts {
            AffineParts(w: 0, dxdx: 0, dxdy: 0, dydx: 0, dydy: 0, lengthX: 0, lengthY: 0,
                        squareX: SquareParts(gx: 0, gy: 0, length: 0), squareY: SquareParts(gx: 0, gy: 0, length: 0), reach: 0)
        }

        private init(w: Double, dxdx: Double, dxdy: Double, dydx: Double, dydy: Double, lengthX: Double, lengthY: Double,
                     squareX: SquareParts, squareY: SquareParts, reach: Double) {
            self.w = w; self.dxdx = dxdx; self.dxdy = dxdy; self.dydx = dydx; self.dydy = dydy
            self.lengthX = lengthX; self.lengthY = lengthY; self.squareX = squareX; self.squareY = squareY; self.reach = reach
        }
    }

    /// `coverage` and `outlineCoverage` over many pixels of one shape: under an affine map what
    /// does not change from pixel to pixel is worked out once (`AffineParts`), and the arithmetic
    /// left is the general path's, in its order: the same bits (`RoundedShapeSamplerTests`).
    ///
    /// The per-pixel code is the sampler's own methods, reading its parts in place: passing the
    /// parts' 160 bytes to a function, or capturing them in a nested one, copied them (a memcpy)
    /// at every pixel, and an optional of them did so when unwrapped.
    public struct Sampler: Sendable {
        public let shape: RoundedShape
        let parts: AffineParts
        /// Whether the map is affine, so that the per-shape parts were worked out once.
        public let isAffine: Bool

        public init(_ shape: RoundedShape) {
            self.shape = shape
            let parts = AffineParts(shape.deviceToLocal)
            self.parts = parts ?? .unused
            isAffine = parts != nil
        }

        /// The general path at every pixel (one pixel's question, where working out the affine
        /// parts would cost more than it saves).
        init(general shape: RoundedShape) {
            self.shape = shape
            parts = .unused
            isAffine = false
        }

        public func coverage(atX x: Double, y: Double) -> Double {
            let c = outlineCoverage(atX: x, y: y, both: shape.inner != nil)
            return c.outer > 0 && shape.inner != nil ? max(c.outer - c.inner, 0) : c.outer
        }

        public func outlineCoverage(atX x: Double, y: Double) -> (outer: Double, inner: Double) {
            outlineCoverage(atX: x, y: y, both: true)
        }

        private func outlineCoverage(atX x: Double, y: Double, both: Bool) -> (outer: Double, inner: Double) {
            let m = shape.deviceToLocal
            let lx: Double, ly: Double, d: Derivative
            if isAffine {
                // w = x·0 + y·0 + m33 = m33 exactly; over 1 (most maps) the quotient is the value.
                let u = x * m.m11 + y * m.m21 + m.m31, v = x * m.m12 + y * m.m22 + m.m32
                if parts.w == 1 { lx = u; ly = v } else { lx = u / parts.w; ly = v / parts.w }
                d = Derivative(dxdx: parts.dxdx, dxdy: parts.dxdy, dydx: parts.dydx, dydy: parts.dydy)
            } else {
                let u = x * m.m11 + y * m.m21 + m.m31, v = x * m.m12 + y * m.m22 + m.m32, w = x * m.m13 + y * m.m23 + m.m33
                guard w > 0 else { return (0, 0) }
                lx = u / w; ly = v / w
                // d(local)/d(device), exactly, for the projective map.
                let w2 = w * w
                d = Derivative(dxdx: (m.m11 * w - u * m.m13) / w2, dxdy: (m.m21 * w - u * m.m23) / w2,
                               dydx: (m.m12 * w - v * m.m13) / w2, dydy: (m.m22 * w - v * m.m23) / w2)
            }
            let outside = covered(shape.outer, lx, ly, d)
            guard both, let inner = shape.inner, outside > 0 else { return (outside, 0) }
            return (outside, covered(inner, lx, ly, d))
        }

        /// The coverage of the pixel whose centre maps to (lx, ly) by one outline.
        @inline(__always)
        private func covered(_ outline: RoundedRectangle, _ lx: Double, _ ly: Double, _ d: Derivative) -> Double {
            let distance = outline.signedDistance(x: lx, y: ly)
            // The straight edges' lines, the nearer on screen, bound the coverage (straightEdgeLines).
            let lines = outline.straightEdgeLines(x: lx, y: ly)
            guard isAffine else {
                var edge = d.onScreen(distance)
                let lineX = d.onScreen(lines.x), lineY = d.onScreen(lines.y)
                if lineX.distance > edge.distance { edge = lineX }
                if lineY.distance > edge.distance { edge = lineY }
                return RoundedShape.pixelCoverage(distance: edge.distance, gx: edge.gx, gy: edge.gy, length: edge.length)
            }
            // Wholly inside or outside, most pixels: no need to measure on screen.
            let reach = parts.reach
            if distance.distance <= -reach, lines.x.distance <= -reach, lines.y.distance <= -reach { return 1 }
            if distance.distance >= reach { return 0 }
            // Under an affine map a straight edge's normal, (±1, 0) or (0, ±1) mapped, has the
            // same length and square parts at every pixel; the outline's own normal is one where
            // the point faces a side rather than a corner (the same sum of the same squares).
            let axis = distance.gy == 0 && abs(distance.gx) == 1 ? 1 : distance.gx == 0 && abs(distance.gy) == 1 ? 2 : 0
            var edge = d.onScreen(distance, length: axis == 1 ? parts.lengthX : axis == 2 ? parts.lengthY : nil), edgeAxis = axis
            let lineX = d.onScreen(lines.x, length: parts.lengthX), lineY = d.onScreen(lines.y, length: parts.lengthY)
            if lineX.distance > edge.distance { edge = lineX; edgeAxis = 1 }
            if lineY.distance > edge.distance { edge = lineY; edgeAxis = 2 }
            switch edgeAxis {
            case 1: return RoundedShape.pixelCoverage(distance: edge.distance, square: parts.squareX)
            case 2: return RoundedShape.pixelCoverage(distance: edge.distance, square: parts.squareY)
            default: return RoundedShape.pixelCoverage(distance: edge.distance, gx: edge.gx, gy: edge.gy, length: edge.length)
            }
        }
    }

    /// d(local)/d(device) at a pixel.
    struct Derivative {
        let dxdx: Double, dxdy: Double, dydx: Double, dydy: Double

        /// A local distance and gradient in device pixels: the distance over the gradient's
        /// length (given where the map is affine and the gradient a straight edge's).
        @inline(__always)
        func onScreen(_ s: (distance: Double, gx: Double, gy: Double), length known: Double? = nil)
            -> (distance: Double, gx: Double, gy: Double, length: Double) {
            let gx = s.gx * dxdx + s.gy * dydx, gy = s.gx * dxdy + s.gy * dydy
            let length = known ?? (gx * gx + gy * gy).squareRoot()
            return (length > 0 ? s.distance / length : s.distance, gx, gy, length)
        }
    }
}
