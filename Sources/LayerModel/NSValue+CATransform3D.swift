import Foundation
import OpenCoreGraphics

// `NSValue(caTransform3D:)` and `.caTransform3DValue`, as Core Animation code boxes transforms for
// animations (`fromValue`, keyframe `values`) and key-value coding. Foundation on Linux cannot box
// the struct itself (it traps), so the sixteen entries are boxed as an array of doubles ("[16d]").

extension NSValue {
    public convenience init(caTransform3D t: CATransform3D) {
        let storage = BoxedDoubles([t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                                    t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map(Double.init))
        self.init(bytes: storage.pointer, objCType: CATransform3D.boxedType)
    }

    /// The boxed transform; the identity when the value boxes something else.
    public var caTransform3DValue: CATransform3D { CATransform3D.unboxed(self) ?? CATransform3DIdentity }
}

extension CATransform3D {
    /// The type encoding of a boxed transform.
    static let boxedType = "[16d]"

    /// `any` as a transform: one, or an NSValue boxing one; nil for anything else.
    static func unboxed(_ any: Any?) -> CATransform3D? {
        if let transform = any as? CATransform3D { return transform }
        guard let m = BoxedGeometry.doubles(any, type: boxedType, count: 16) else { return nil }
        return CATransform3D(m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
                             m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
    }
}
