import Foundation

/// A transform taken apart into the pieces that animate well, after the "unmatrix" algorithm of
/// CSS Transforms Level 2 (§ Decomposing a 3D matrix), which uses Core Animation's row-vector
/// layout (translation in m41...m43). Interpolating the pieces, rotations by quaternion slerp,
/// keeps a turning layer rigid where a plain matrix blend would shrink it halfway.
struct DecomposedTransform3D: Equatable {
    // Fixed-size values, not arrays: a transform animation decomposes two transforms a frame, and
    // the arrays' allocations were most of that (Lottie layers' transforms keyframed frame by
    // frame). Every expression is the arrays' version's, in its order (sums from 0, left to right),
    // so the numbers are the same to the bit.
    var perspective: SIMD4<Double>
    var translation: SIMD3<Double>
    var scale: SIMD3<Double>
    var skew: SIMD3<Double>         // xy, xz, yz
    var quaternion: SIMD4<Double>   // x, y, z, w

    /// nil when the transform has no decomposition (singular upper 3x3 or m44 = 0).
    init?(_ t: CATransform3D) {
        let entries = t.entries
        guard entries[15] != 0, t.isFinite else { return nil }
        // m[i][j] is m[i * 4 + j].
        let m = entries / entries[15]
        var perspectiveMatrix = m
        perspectiveMatrix[3] = 0; perspectiveMatrix[7] = 0; perspectiveMatrix[11] = 0
        perspectiveMatrix[15] = 1
        guard abs(Self.determinant3(m)) > 1e-12 else { return nil }
        if m[3] != 0 || m[7] != 0 || m[11] != 0 {
            let rhs = SIMD4(m[3], m[7], m[11], m[15])
            let inverse = CATransform3DInvert(CATransform3D(entries: perspectiveMatrix)).entries
            // rhs · transpose(inverse): component i is dot(rhs, row i of the inverse).
            func component(_ i: Int) -> Double {
                0 + rhs[0] * inverse[i * 4] + rhs[1] * inverse[i * 4 + 1] + rhs[2] * inverse[i * 4 + 2] + rhs[3] * inverse[i * 4 + 3]
            }
            perspective = SIMD4(component(0), component(1), component(2), component(3))
        } else {
            perspective = SIMD4(0, 0, 0, 1)
        }
        translation = SIMD3(m[12], m[13], m[14])
        var row = (SIMD3(m[0], m[1], m[2]), SIMD3(m[4], m[5], m[6]), SIMD3(m[8], m[9], m[10]))
        scale = SIMD3(repeating: 0)
        skew = SIMD3(repeating: 0)
        scale[0] = Self.length(row.0); row.0 = Self.normalized(row.0)
        skew[0] = Self.dot(row.0, row.1); row.1 = Self.combine(row.1, row.0, 1, -skew[0])
        scale[1] = Self.length(row.1); row.1 = Self.normalized(row.1); skew[0] /= scale[1]
        skew[1] = Self.dot(row.0, row.2); row.2 = Self.combine(row.2, row.0, 1, -skew[1])
        skew[2] = Self.dot(row.1, row.2); row.2 = Self.combine(row.2, row.1, 1, -skew[2])
        scale[2] = Self.length(row.2); row.2 = Self.normalized(row.2); skew[1] /= scale[2]; skew[2] /= scale[2]
        if Self.dot(row.0, Self.cross(row.1, row.2)) < 0 {
            scale = -scale
            row = (-row.0, -row.1, -row.2)
        }
        var q = SIMD4(0.5 * max(1 + row.0[0] - row.1[1] - row.2[2], 0).squareRoot(),
                      0.5 * max(1 - row.0[0] + row.1[1] - row.2[2], 0).squareRoot(),
                      0.5 * max(1 - row.0[0] - row.1[1] + row.2[2], 0).squareRoot(),
                      0.5 * max(1 + row.0[0] + row.1[1] + row.2[2], 0).squareRoot())
        if q[3] >= Self.halfTurnLimit {
            // The signs of x, y and z against w's from the differences across the diagonal.
            if row.2[1] > row.1[2] { q[0] = -q[0] }
            if row.0[2] > row.2[0] { q[1] = -q[1] }
            if row.1[0] > row.0[1] { q[2] = -q[2] }
        } else {
            // A turn of (nearly) half a revolution: w is (nearly) 0 and those differences with
            // it, so they cannot give the signs; x, y and z are signed against the largest of
            // them by the sums across the diagonal instead (Shepperd's method). A mirrored layer
            // turned in its plane decomposes so (a negative scale and a half turn about an axis
            // in the plane): with the signs lost, the recomposed matrix turned the other way
            // (issue_2270's right ribbon loop, mirrored and turned by -30 degrees, turned by +30).
            let sumXY = row.0[1] + row.1[0], sumXZ = row.0[2] + row.2[0], sumYZ = row.1[2] + row.2[1]
            if q[0] >= q[1], q[0] >= q[2] {
                q[1] = sumXY / (4 * q[0]); q[2] = sumXZ / (4 * q[0]); q[3] = (row.1[2] - row.2[1]) / (4 * q[0])
            } else if q[1] >= q[2] {
                q[0] = sumXY / (4 * q[1]); q[2] = sumYZ / (4 * q[1]); q[3] = (row.2[0] - row.0[2]) / (4 * q[1])
            } else {
                q[0] = sumXZ / (4 * q[2]); q[1] = sumYZ / (4 * q[2]); q[3] = (row.0[1] - row.1[0]) / (4 * q[2])
            }
        }
        quaternion = q
    }

    /// Below this w a rotation is taken as half a turn for finding its quaternion's signs.
    private static let halfTurnLimit = 1e-4

    /// The transform the pieces make.
    var recomposed: CATransform3D {
        var m = CATransform3DIdentity
        m.m14 = perspective[0]; m.m24 = perspective[1]; m.m34 = perspective[2]; m.m44 = perspective[3]
        m.m41 = translation[0]; m.m42 = translation[1]; m.m43 = translation[2]
        let (x, y, z, w) = (quaternion[0], quaternion[1], quaternion[2], quaternion[3])
        let rotation = CATransform3D(
            m11: 1 - 2 * (y * y + z * z), m12: 2 * (x * y + z * w), m13: 2 * (x * z - y * w), m14: 0,
            m21: 2 * (x * y - z * w), m22: 1 - 2 * (x * x + z * z), m23: 2 * (y * z + x * w), m24: 0,
            m31: 2 * (x * z + y * w), m32: 2 * (y * z - x * w), m33: 1 - 2 * (x * x + y * y), m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
        m = CATransform3DConcat(rotation, m)
        if skew[2] != 0 { var s = CATransform3DIdentity; s.m32 = skew[2]; m = CATransform3DConcat(s, m) }
        if skew[1] != 0 { var s = CATransform3DIdentity; s.m31 = skew[1]; m = CATransform3DConcat(s, m) }
        if skew[0] != 0 { var s = CATransform3DIdentity; s.m21 = skew[0]; m = CATransform3DConcat(s, m) }
        return CATransform3DConcat(CATransform3DMakeScale(scale[0], scale[1], scale[2]), m)
    }

    /// The pieces `fraction` of the way from `self` to `other`; rotation by spherical interpolation.
    func interpolated(to other: DecomposedTransform3D, fraction f: Double) -> DecomposedTransform3D {
        var result = self
        result.perspective = perspective + (other.perspective - perspective) * f
        result.translation = translation + (other.translation - translation) * f
        result.scale = scale + (other.scale - scale) * f
        result.skew = skew + (other.skew - skew) * f
        var product = min(max(Self.dot(quaternion, other.quaternion), -1), 1)
        var b = other.quaternion
        if product < 0 { // take the short way round
            product = -product
            b = -b
        }
        if product >= 1 - 1e-12 {
            result.quaternion = quaternion + (b - quaternion) * f
        } else {
            let theta = acos(product)
            let w = sin(f * theta) / (1 - product * product).squareRoot()
            let a = cos(f * theta) - product * w
            result.quaternion = quaternion * a + b * w
        }
        return result
    }

    private static func determinant3(_ m: SIMD16<Double>) -> Double {
        m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8])
            + m[2] * (m[4] * m[9] - m[5] * m[8])
    }
    private static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { 0 + a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
    private static func dot(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> Double {
        0 + a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
    }
    private static func length(_ a: SIMD3<Double>) -> Double { dot(a, a).squareRoot() }
    private static func normalized(_ a: SIMD3<Double>) -> SIMD3<Double> { let l = length(a); return l == 0 ? a : a / l }
    private static func combine(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ sa: Double, _ sb: Double) -> SIMD3<Double> {
        a * sa + b * sb
    }
    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
    }
}

private extension CATransform3D {
    /// The sixteen entries row by row, as doubles.
    var entries: SIMD16<Double> {
        SIMD16(Double(m11), Double(m12), Double(m13), Double(m14), Double(m21), Double(m22), Double(m23), Double(m24),
               Double(m31), Double(m32), Double(m33), Double(m34), Double(m41), Double(m42), Double(m43), Double(m44))
    }

    init(entries e: SIMD16<Double>) {
        self.init(m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6], m24: e[7],
                  m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13], m43: e[14], m44: e[15])
    }
}

extension CATransform3D {
    /// The transform `fraction` of the way to `other`, by decomposition (translation, scale, skew,
    /// perspective, quaternion rotation); an element-wise blend where either has no decomposition.
    public func interpolated(to other: CATransform3D, fraction: Double) -> CATransform3D {
        guard let a = DecomposedTransform3D(self), let b = DecomposedTransform3D(other) else {
            return CATransform3D(rows: zip(rows, other.rows).map { $0 + ($1 - $0) * CGFloat(fraction) })
        }
        return a.interpolated(to: b, fraction: fraction).recomposed
    }
}
