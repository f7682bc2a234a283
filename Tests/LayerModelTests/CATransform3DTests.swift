// CATransform3D and its function family, checked against matrices computed by hand. Written
// against Apple's API only, so the same file could run against QuartzCore.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

private func approx(_ a: CATransform3D, _ b: CATransform3D, _ tolerance: CGFloat = 1e-12) -> Bool {
    zip(a.rows, b.rows).allSatisfy { abs($0 - $1) <= tolerance }
}

@Suite("CATransform3D")
struct CATransform3DTests {
    @Test("the identity has ones on the diagonal and nothing else")
    func identity() {
        #expect(CATransform3DIdentity.rows == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        #expect(CATransform3DIsIdentity(CATransform3D()))
        #expect(!CATransform3DIsIdentity(CATransform3DMakeTranslation(0, 0, 1)))
    }

    @Test("translation lives in m41...m43 and moves row vectors")
    func translation() {
        let t = CATransform3DMakeTranslation(3, -4, 5)
        #expect((t.m41, t.m42, t.m43) == (3, -4, 5))
        let p = t.apply(x: 1, y: 1, z: 1)
        #expect((p.x, p.y, p.z, p.w) == (4, -3, 6, 1))
    }

    @Test("scale sits on the diagonal")
    func scale() {
        let t = CATransform3DMakeScale(2, 3, 4)
        #expect(t.rows == [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1])
    }

    @Test("a positive rotation about z turns x toward y, clockwise on a y-down screen")
    func rotationAboutZ() {
        let t = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let p = t.apply(x: 1, y: 0, z: 0)
        #expect(abs(p.x) < 1e-15 && abs(p.y - 1) < 1e-15)
        #expect(CATransform3DGetAffineTransform(t) == CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: 0, ty: 0))
        let cg = CGAffineTransform(rotationAngle: 0.3)
        #expect(approx(CATransform3DMakeRotation(0.3, 0, 0, 1), CATransform3DMakeAffineTransform(cg)))
    }

    @Test("rotation about x by 90 degrees takes y to z and z to -y")
    func rotationAboutX() {
        let t = CATransform3DMakeRotation(.pi / 2, 1, 0, 0)
        let y = t.apply(x: 0, y: 1, z: 0), z = t.apply(x: 0, y: 0, z: 1)
        #expect(abs(y.z - 1) < 1e-15 && abs(y.y) < 1e-15)
        #expect(abs(z.y + 1) < 1e-15 && abs(z.z) < 1e-15)
    }

    @Test("rotation about y by 90 degrees takes z to x and x to -z")
    func rotationAboutY() {
        let t = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        let x = t.apply(x: 1, y: 0, z: 0), z = t.apply(x: 0, y: 0, z: 1)
        #expect(abs(x.z + 1) < 1e-15)
        #expect(abs(z.x - 1) < 1e-15)
    }

    @Test("the rotation axis need not be normalized, and a zero axis gives the identity")
    func rotationAxis() {
        #expect(approx(CATransform3DMakeRotation(0.7, 0, 0, 5), CATransform3DMakeRotation(0.7, 0, 0, 1)))
        #expect(CATransform3DIsIdentity(CATransform3DMakeRotation(1, 0, 0, 0)))
    }

    @Test("Concat(a, b) applies a first, then b")
    func concatOrder() {
        let a = CATransform3DMakeTranslation(10, 0, 0)
        let b = CATransform3DMakeScale(2, 2, 2)
        let p = CATransform3DConcat(a, b).apply(x: 1, y: 1, z: 0)
        #expect((p.x, p.y) == (22, 2)) // (1 + 10) * 2, not 1 * 2 + 10
    }

    @Test("Translate, Scale and Rotate put the new operation before t")
    func prependingFunctions() {
        let t = CATransform3DMakeScale(2, 2, 2)
        #expect(approx(CATransform3DTranslate(t, 1, 2, 3), CATransform3DConcat(CATransform3DMakeTranslation(1, 2, 3), t)))
        #expect(approx(CATransform3DScale(t, 3, 3, 3), CATransform3DConcat(CATransform3DMakeScale(3, 3, 3), t)))
        #expect(approx(CATransform3DRotate(t, 0.5, 1, 1, 0), CATransform3DConcat(CATransform3DMakeRotation(0.5, 1, 1, 0), t)))
        let p = CATransform3DTranslate(t, 1, 0, 0).apply(x: 0, y: 0, z: 0)
        #expect(p.x == 2) // translated by 1, then scaled by 2
    }

    @Test("Invert undoes a perspective transform, and leaves a singular one unchanged")
    func invert() {
        var t = CATransform3DRotate(CATransform3DMakeTranslation(5, -2, 7), 0.4, 1, 2, 3)
        t.m34 = -1.0 / 500
        let inverse = CATransform3DInvert(t)
        #expect(approx(CATransform3DConcat(t, inverse), CATransform3DIdentity, 1e-12))
        let singular = CATransform3DMakeScale(1, 0, 1)
        #expect(CATransform3DInvert(singular) == singular)
    }

    @Test("IsAffine is true exactly without z terms or perspective")
    func isAffine() {
        #expect(CATransform3DIsAffine(CATransform3DMakeRotation(1, 0, 0, 1)))
        #expect(CATransform3DIsAffine(CATransform3DMakeTranslation(4, 5, 0)))
        #expect(!CATransform3DIsAffine(CATransform3DMakeTranslation(4, 5, 1)))
        #expect(!CATransform3DIsAffine(CATransform3DMakeRotation(1, 0, 1, 0)))
        var perspective = CATransform3DIdentity
        perspective.m34 = -0.005
        #expect(!CATransform3DIsAffine(perspective))
    }

    @Test("affine transforms round-trip through the 3D form")
    func affineRoundTrip() {
        let m = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t = CATransform3DMakeAffineTransform(m)
        #expect(t.rows == [1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1])
        #expect(CATransform3DGetAffineTransform(t) == m)
        #expect(CATransform3DEqualToTransform(t, CATransform3DMakeAffineTransform(m)))
        #expect(!CATransform3DEqualToTransform(t, CATransform3DIdentity))
    }

    @Test("perspective m34 = -1/d shrinks points behind the plane by d / (d + z)")
    func perspective() {
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        let p = t.apply(x: 100, y: 0, z: -500) // 500 behind the plane: w = 2
        #expect(p.w == 2 && p.x / p.w == 50)
    }
}
