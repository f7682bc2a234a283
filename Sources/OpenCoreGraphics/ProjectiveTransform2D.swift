import Foundation

/// A 3x3 projective transform of the plane (a homography), row-vector form like `CGAffineTransform`:
///
///     [x' y' w'] = [x y 1] · | m11 m12 m13 |
///                            | m21 m22 m23 |
///                            | m31 m32 m33 |      point = (x'/w', y'/w')
///
/// It is what a perspective `CATransform3D` does to the points of a layer's plane (z = 0) once the
/// depth is flattened away, so it maps layer planes into one another and into device pixels.
/// Not an Apple type; OpenQuartz uses it between the model and the renderers.
public struct ProjectiveTransform2D: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var m11: Double, m12: Double, m13: Double
    public var m21: Double, m22: Double, m23: Double
    public var m31: Double, m32: Double, m33: Double

    public init(m11: Double, m12: Double, m13: Double,
                m21: Double, m22: Double, m23: Double,
                m31: Double, m32: Double, m33: Double) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13
        self.m21 = m21; self.m22 = m22; self.m23 = m23
        self.m31 = m31; self.m32 = m32; self.m33 = m33
    }

    public static let identity = ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)

    public init(_ t: CGAffineTransform) {
        self.init(m11: t.a, m12: t.b, m13: 0, m21: t.c, m22: t.d, m23: 0, m31: t.tx, m32: t.ty, m33: 1)
    }

    /// The homogeneous image of (x, y, 1).
    @inlinable
    public func applyHomogeneous(x: Double, y: Double) -> (x: Double, y: Double, w: Double) {
        (x * m11 + y * m21 + m31, x * m12 + y * m22 + m32, x * m13 + y * m23 + m33)
    }

    /// The image of `p`; coordinates are infinite or NaN where the point maps to infinity (w = 0).
    public func apply(_ p: CGPoint) -> CGPoint {
        let h = applyHomogeneous(x: p.x, y: p.y)
        return CGPoint(x: h.x / h.w, y: h.y / h.w)
    }

    /// `self` applied first, then `other`.
    public func concatenating(_ o: ProjectiveTransform2D) -> ProjectiveTransform2D {
        ProjectiveTransform2D(
            m11: m11 * o.m11 + m12 * o.m21 + m13 * o.m31,
            m12: m11 * o.m12 + m12 * o.m22 + m13 * o.m32,
            m13: m11 * o.m13 + m12 * o.m23 + m13 * o.m33,
            m21: m21 * o.m11 + m22 * o.m21 + m23 * o.m31,
            m22: m21 * o.m12 + m22 * o.m22 + m23 * o.m32,
            m23: m21 * o.m13 + m22 * o.m23 + m23 * o.m33,
            m31: m31 * o.m11 + m32 * o.m21 + m33 * o.m31,
            m32: m31 * o.m12 + m32 * o.m22 + m33 * o.m32,
            m33: m31 * o.m13 + m32 * o.m23 + m33 * o.m33)
    }

    public var determinant: Double {
        m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31) + m13 * (m21 * m32 - m22 * m31)
    }

    /// The inverse, or nil when the transform is singular or not finite (a plane seen edge-on).
    /// The test is relative to the matrix's scale, so tiny but regular transforms still invert.
    public func inverted() -> ProjectiveTransform2D? {
        // Singular, or so near it that the inverse means nothing: the determinant against the
        // cube of the largest entry that scales or projects (the translation row m31, m32 left
        // out, as moving a map changes nothing of its conditioning). Measured against the largest
        // entry of all, a layer 10,000 points from the origin had no inverse, and its contents
        // and gradient were not drawn.
        let det = determinant
        let scale = [m11, m12, m13, m21, m22, m23, m33].map(abs).max() ?? 0
        guard det.isFinite, scale > 0, abs(det) > 1e-12 * scale * scale * scale else { return nil }
        let inv = 1 / det
        return ProjectiveTransform2D(
            m11: (m22 * m33 - m23 * m32) * inv, m12: (m13 * m32 - m12 * m33) * inv, m13: (m12 * m23 - m13 * m22) * inv,
            m21: (m23 * m31 - m21 * m33) * inv, m22: (m11 * m33 - m13 * m31) * inv, m23: (m13 * m21 - m11 * m23) * inv,
            m31: (m21 * m32 - m22 * m31) * inv, m32: (m12 * m31 - m11 * m32) * inv, m33: (m11 * m22 - m12 * m21) * inv)
    }

    public var isFinite: Bool {
        [m11, m12, m13, m21, m22, m23, m31, m32, m33].allSatisfy(\.isFinite)
    }

    public var description: String {
        func f(_ v: Double) -> String { String(format: "%.6g", v) }
        return "[\(f(m11)) \(f(m12)) \(f(m13)); \(f(m21)) \(f(m22)) \(f(m23)); \(f(m31)) \(f(m32)) \(f(m33))]"
    }
}
