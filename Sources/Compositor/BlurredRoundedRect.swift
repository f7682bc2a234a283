import Foundation
import OpenCoreGraphics

/// A shadow in closed form: a rounded rectangle convolved with a Gaussian, evaluated per pixel
/// instead of drawn, blurred and composited through offscreen passes. Along x the
/// convolution is exact (a difference of two erfs over the row's width, which the corners
/// narrow); along y it is integrated with `ySamples` midpoint samples of the Gaussian (Evan
/// Wallace's method). With square corners both axes are exact. Both backends evaluate exactly
/// this function (the GLSL mirrors it), with the same erf approximation.
public struct BlurredRoundedRect: Hashable, Sendable {
    /// Device pixel (x, y, 1) to the shape's plane, homogeneous: where `rect` lies.
    public var deviceToLocal: ProjectiveTransform2D
    public var rect: Rect
    public var cornerRadius: Double
    /// The Gaussian's standard deviation in the shape's plane.
    public var sigma: Double
    /// Premultiplied colour at full coverage.
    public var color: PremultipliedColor

    /// Samples along y for rounded corners.
    public static let ySamples = 8

    public init(deviceToLocal: ProjectiveTransform2D, rect: Rect, cornerRadius: Double, sigma: Double, color: PremultipliedColor) {
        self.deviceToLocal = deviceToLocal
        self.rect = rect
        self.cornerRadius = cornerRadius
        self.sigma = sigma
        self.color = color
    }

    /// erf to within 5e-4 (Abramowitz and Stegun 7.1.27), in Float as the GPU computes it.
    @inlinable
    public static func erf(_ x: Float) -> Float {
        let a = abs(x)
        var d: Float = 1 + (0.278393 + (0.230389 + 0.078108 * (a * a)) * a) * a
        d *= d
        let e = 1 - 1 / (d * d)
        return x < 0 ? -e : e
    }

    /// The blurred shape's alpha (0...1) at device point (x, y).
    public func alpha(atX x: Double, y: Double) -> Float {
        let m = deviceToLocal
        let w = x * m.m13 + y * m.m23 + m.m33
        guard w > 0 else { return 0 }
        let px = Float((x * m.m11 + y * m.m21 + m.m31) / w - (rect.x + rect.width / 2))
        let py = Float((x * m.m12 + y * m.m22 + m.m32) / w - (rect.y + rect.height / 2))
        return Self.alpha(px: px, py: py, halfWidth: Float(rect.width / 2), halfHeight: Float(rect.height / 2),
                          corner: Float(cornerRadius), sigma: Float(sigma))
    }

    /// The same, from the point relative to the rectangle's centre (the shader's function).
    @inlinable
    public static func alpha(px: Float, py: Float, halfWidth: Float, halfHeight: Float, corner: Float, sigma: Float) -> Float {
        let k = Float(0.5).squareRoot() / sigma
        if corner <= 0 {
            let ax = 0.5 * (erf((px + halfWidth) * k) - erf((px - halfWidth) * k))
            let ay = 0.5 * (erf((py + halfHeight) * k) - erf((py - halfHeight) * k))
            return ax * ay
        }
        // Along y: midpoint samples of the Gaussian over the part of +-3 sigma the box spans.
        let low = py - halfHeight, high = py + halfHeight
        let start = min(max(-3 * sigma, low), high), end = min(max(3 * sigma, low), high)
        let step = (end - start) / Float(ySamples)
        var y = start + step * 0.5
        var value: Float = 0
        for _ in 0..<ySamples {
            let gaussian = exp(-0.5 * y * y / (sigma * sigma)) / (sigma * Float(2 * Double.pi).squareRoot())
            value += rowIntegral(x: px, y: py - y, halfWidth: halfWidth, halfHeight: halfHeight, corner: corner, k: k) * gaussian * step
            y += step
        }
        return value
    }

    /// The blurred width of the shape's row at height y, at x: exact along x.
    @inlinable
    static func rowIntegral(x: Float, y: Float, halfWidth: Float, halfHeight: Float, corner: Float, k: Float) -> Float {
        let delta = min(halfHeight - corner - abs(y), 0)
        let curved = halfWidth - corner + max(0, corner * corner - delta * delta).squareRoot()
        return 0.5 * (erf((x + curved) * k) - erf((x - curved) * k))
    }
}
