// CGAffineTransform, ProjectiveTransform2D, CGColor and CGImage cropping.
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Core Graphics types")
struct GeometryTypeTests {
    @Test("concatenating applies self first, then the argument")
    func affineOrder() {
        let t = CGAffineTransform(translationX: 10, y: 0).concatenating(CGAffineTransform(scaleX: 2, y: 2))
        #expect(CGPoint(x: 1, y: 1).applying(t) == CGPoint(x: 22, y: 2))
        #expect(CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 10, y: 0) == t)
    }

    @Test("an affine transform and its inverse cancel; a singular one inverts to itself")
    func affineInverse() {
        let t = CGAffineTransform(rotationAngle: 0.3).translatedBy(x: 4, y: -2).scaledBy(x: 2, y: 3)
        let p = CGPoint(x: 5, y: 7).applying(t).applying(t.inverted())
        #expect(abs(p.x - 5) < 1e-12 && abs(p.y - 7) < 1e-12)
        let singular = CGAffineTransform(scaleX: 0, y: 1)
        #expect(singular.inverted() == singular)
    }

    @Test("a rect's transformed box holds its four corners")
    func rectApplying() {
        let r = CGRect(x: 0, y: 0, width: 10, height: 20).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(abs(r.minX + 20) < 1e-12 && abs(r.width - 20) < 1e-12 && abs(r.height - 10) < 1e-12)
    }

    @Test("a projective transform inverts, and a flattened one does not")
    func projectiveInverse() throws {
        let h = ProjectiveTransform2D(m11: 2, m12: 0.1, m13: 0.001, m21: 0.3, m22: 1.5, m23: 0.002, m31: 10, m32: 20, m33: 1)
        let inverse = try #require(h.inverted())
        let p = inverse.apply(h.apply(CGPoint(x: 3, y: 4)))
        #expect(abs(p.x - 3) < 1e-9 && abs(p.y - 4) < 1e-9)
        let flat = ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 0, m23: 0, m31: 0, m32: 0, m33: 1)
        #expect(flat.inverted() == nil)
        // A translation of any size keeps a map invertible (a layer 10,000 points from the origin,
        // a lottie-ios gradient padded that far, once had no inverse); a nearly flattened one has none.
        for distance in [1e4, 1e7, -3e9] {
            let far = ProjectiveTransform2D(m11: 0.5, m12: 0, m13: 0, m21: 0, m22: 0.5, m23: 0, m31: distance, m32: 3, m33: 1)
            let back = try #require(far.inverted(), "translated by \(distance)")
            #expect(abs(back.apply(far.apply(CGPoint(x: 7, y: 9))).x - 7) < 1e-6)
        }
        let edgeOn = ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1e-14, m23: 0, m31: 5e4, m32: 0, m33: 1)
        #expect(edgeOn.inverted() == nil)
    }

    @Test("colors report their components and premultiply clamped values")
    func colors() {
        let c = CGColor(red: 1, green: 0.5, blue: 0, alpha: 0.5)
        #expect(c.components == [1, 0.5, 0, 0.5] && c.numberOfComponents == 4 && c.alpha == 0.5)
        #expect(CGColor(gray: 0.2, alpha: 1).components == [0.2, 1])
        let p = c.premultiplied
        #expect(p.red == 0.5 && p.green == 0.25 && p.blue == 0 && p.alpha == 0.5)
        let wild = CGColor(red: 2, green: .nan, blue: -1, alpha: 1).premultiplied
        #expect(wild.red == 1 && wild.green == 0 && wild.blue == 0)
        #expect(c.copy(alpha: 1) == CGColor(red: 1, green: 0.5, blue: 0, alpha: 1))
    }

    @Test("cropping keeps the pixels inside the rectangle, rounded outwards")
    func cropping() throws {
        let image = CGImage(bitmap: Bitmap(width: 4, height: 4) { x, y in (UInt8(x), UInt8(y), 0, 255) })
        let crop = try #require(image.cropping(to: CGRect(x: 1.5, y: 2, width: 2, height: 5)))
        #expect(crop.width == 3 && crop.height == 2)
        #expect(crop.bitmap[0, 0] == (1, 2, 0, 255) && crop.bitmap[2, 1] == (3, 3, 0, 255))
        #expect(image.cropping(to: CGRect(x: 10, y: 10, width: 2, height: 2)) == nil)
        #expect(image.cropping(to: CGRect(x: CGFloat.nan, y: 0, width: 2, height: 2)) == nil)
    }

    @Test("image limits refuse empty, negative and oversized sizes")
    func limits() {
        #expect(ImageLimits.violation(width: 100, height: 100) == nil)
        #expect(ImageLimits.violation(width: 0, height: 100) != nil)
        #expect(ImageLimits.violation(width: -5, height: 100) != nil)
        #expect(ImageLimits.violation(width: 40_000, height: 10) != nil)
        #expect(ImageLimits.violation(width: 30_000, height: 30_000) != nil)
    }
}
