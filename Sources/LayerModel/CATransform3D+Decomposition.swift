import Foundation

/// A transform taken apart into the pieces that animate well, after the "unmatrix" algorithm of
/// CSS Transforms Level 2 (§ Decomposing a 3D matrix), which uses Core Animation's row-vector
/// layout (translation in m41...m43). Interpolating the pieces, rotations by quaternion slerp,
/// keeps a turning layer rigid where a plain matrix blend would shrink it halfway.
struct DecomposedTransform3D: Equatable {
    var perspective: [Double]   // 4
    var translation: [Double]   // 3
    var scale: [Double]         // 3
    var skew: [Double]          // 3: xy, xz, yz
    var quaternion: [Double]    // 4: x, y, z, w

    /// nil when the transform has no decomposition (singular upper 3x3 or m44 = 0).
    init?(_ t: CATransform3D) {
        let entries = t.rows.map { Double($0) }
        guard entries[15] != 0, t.isFinite else { return nil }
        let m = (0..<4).map { i in (0..<4).map { j in entries[i * 4 + j] / entries[15] } }
        var perspectiveMatrix = m
        for i in 0..<3 { perspectiveMatrix[i][3] = 0 }
        perspectiveMatrix[3][3] = 1
        let pm = CATransform3D(rows: perspectiveMatrix.flatMap { $0.map { CGFloat($0) } })
        guard abs(Self.determinant3(m)) > 1e-12 else { return nil }
        if m[0][3] != 0 || m[1][3] != 0 || m[2][3] != 0 {
            let rhs = [m[0][3], m[1][3], m[2][3], m[3][3]]
            let inverse = CATransform3DInvert(pm).rows.map { Double($0) }
            // rhs · transpose(inverse): component i is dot(rhs, row i of the inverse).
            perspective = (0..<4).map { i in (0..<4).reduce(0) { $0 + rhs[$1] * inverse[i * 4 + $1] } }
        } else {
            perspective = [0, 0, 0, 1]
        }
        translation = [m[3][0], m[3][1], m[3][2]]
        var row = (0..<3).map { [m[$0][0], m[$0][1], m[$0][2]] }
        scale = [0, 0, 0]
        skew = [0, 0, 0]
        scale[0] = Self.length(row[0]); row[0] = Self.normalized(row[0])
        skew[0] = Self.dot(row[0], row[1]); row[1] = Self.combine(row[1], row[0], 1, -skew[0])
        scale[1] = Self.length(row[1]); row[1] = Self.normalized(row[1]); skew[0] /= scale[1]
        skew[1] = Self.dot(row[0], row[2]); row[2] = Self.combine(row[2], row[0], 1, -skew[1])
        skew[2] = Self.dot(row[1], row[2]); row[2] = Self.combine(row[2], row[1], 1, -skew[2])
        scale[2] = Self.length(row[2]); row[2] = Self.normalized(row[2]); skew[1] /= scale[2]; skew[2] /= scale[2]
        if Self.dot(row[0], Self.cross(row[1], row[2])) < 0 {
            for i in 0..<3 {
                scale[i] = -scale[i]
                row[i] = row[i].map { -$0 }
            }
        }
        var q = [0.5 * max(1 + row[0][0] - row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] + row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] - row[1][1] + row[2][2], 0).squareRoot(),
                 0.5 * max(1 + row[0][0] + row[1][1] + row[2][2], 0).squareRoot()]
        if row[2][1] > row[1][2] { q[0] = -q[0] }
        if row[0][2] > row[2][0] { q[1] = -q[1] }
        if row[1][0] > row[0][1] { q[2] = -q[2] }
        quaternion = q
    }

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
        func lerp(_ a: [Double], _ b: [Double]) -> [Double] { zip(a, b).map { $0 + ($1 - $0) * f } }
        var result = self
        result.perspective = lerp(perspective, other.perspective)
        result.translation = lerp(translation, other.translation)
        result.scale = lerp(scale, other.scale)
        result.skew = lerp(skew, other.skew)
        var product = min(max(Self.dot(quaternion, other.quaternion), -1), 1)
        var b = other.quaternion
        if product < 0 { // take the short way round
            product = -product
            b = b.map { -$0 }
        }
        if product >= 1 - 1e-12 {
            result.quaternion = lerp(quaternion, b)
        } else {
            let theta = acos(product)
            let w = sin(f * theta) / (1 - product * product).squareRoot()
            let a = cos(f * theta) - product * w
            result.quaternion = zip(quaternion, b).map { $0 * a + $1 * w }
        }
        return result
    }

    private static func determinant3(_ m: [[Double]]) -> Double {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    }
    private static func dot(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }
    private static func length(_ a: [Double]) -> Double { dot(a, a).squareRoot() }
    private static func normalized(_ a: [Double]) -> [Double] { let l = length(a); return l == 0 ? a : a.map { $0 / l } }
    private static func combine(_ a: [Double], _ b: [Double], _ sa: Double, _ sb: Double) -> [Double] {
        zip(a, b).map { $0 * sa + $1 * sb }
    }
    private static func cross(_ a: [Double], _ b: [Double]) -> [Double] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
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
