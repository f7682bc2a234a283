import Foundation
import OpenCoreGraphics

// Where a layer's shadow lies: Core Animation casts it in the layer's own plane. shadowOffset and
// shadowRadius are lengths of the layer's bounds space, so the layer's transform (and every
// ancestor's) moves, turns, scales and tilts the shadow with the layer, as Apple's frames show
// (lottie-ios's shadow samples: a layer scaled by 1.5 casts its shadow 1.5 times as far and as
// soft) and as CSS does for a transformed element's box-shadow.

/// What the shadow rule needs of a layer's plane-to-device map.
struct ShadowGeometry {
    /// The layer's plane to device pixels.
    let map: ProjectiveTransform2D

    /// The device pixels per point of a map that is a similarity (translation, rotation, uniform
    /// scale, maybe a mirror): under it the shadow is the device-space shape blurred by this many
    /// times shadowRadius and moved by the image of shadowOffset, with no resampling. nil for
    /// any other map (non-uniform scale, skew, perspective), whose shadow is drawn in the plane.
    var similarityScale: Double? {
        let ax = (map.m11, map.m12), ay = (map.m21, map.m22)
        let sx = (ax.0 * ax.0 + ax.1 * ax.1).squareRoot(), sy = (ay.0 * ay.0 + ay.1 * ay.1).squareRoot()
        guard abs(map.m13) < 1e-12, abs(map.m23) < 1e-12, abs(map.m33 - 1) < 1e-12, sx > 1e-9, sx.isFinite,
              abs(sx - sy) <= 1e-9 * sx, abs(ax.0 * ay.0 + ax.1 * ay.1) <= 1e-9 * sx * sx else { return nil }
        return sx
    }

    /// The device displacement of `offset` (a vector of the layer's plane) under an affine map.
    func deviceOffset(_ offset: CGSize) -> (dx: Double, dy: Double) {
        (map.m11 * offset.width + map.m21 * offset.height, map.m12 * offset.width + map.m22 * offset.height)
    }

    /// The most device pixels one point of the plane spans at `p` (the largest singular value of
    /// the map's derivative there), or nil where `p` maps from behind the eye or to infinity.
    func stretch(at p: CGPoint) -> Double? {
        let h = map.applyHomogeneous(x: p.x, y: p.y)
        guard h.w > 1e-12, h.x.isFinite, h.y.isFinite else { return nil }
        let w2 = h.w * h.w
        let a = (map.m11 * h.w - h.x * map.m13) / w2, b = (map.m21 * h.w - h.x * map.m23) / w2
        let c = (map.m12 * h.w - h.y * map.m13) / w2, d = (map.m22 * h.w - h.y * map.m23) / w2
        let sum = a * a + b * b + c * c + d * d, det = a * d - b * c
        let largest = ((sum + max(sum * sum - 4 * det * det, 0).squareRoot()) / 2).squareRoot()
        return largest.isFinite ? largest : nil
    }

    /// The most device pixels per point anywhere on `rect`, from its corners and centre (a
    /// projective map's stretch is largest at the rim of a convex region nearest the eye); nil
    /// when none of them is in front of the eye.
    func largestStretch(over rect: CGRect) -> Double? {
        let points = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.maxY),
                      CGPoint(x: rect.minX, y: rect.maxY), CGPoint(x: rect.midX, y: rect.midY)]
        return points.compactMap(stretch(at:)).max()
    }
}
