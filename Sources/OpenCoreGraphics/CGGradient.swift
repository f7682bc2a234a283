import Foundation

/// Colours at locations 0...1, interpolated in straight (unpremultiplied) sRGB, as Core Graphics
/// does; drawn by `CGContext.drawLinearGradient` and `drawRadialGradient`.
public final class CGGradient: @unchecked Sendable {
    /// (location, straight RGBA), sorted by location.
    let stops: [(location: CGFloat, color: (CGFloat, CGFloat, CGFloat, CGFloat))]

    /// `locations` default to evenly spaced; nil when the counts differ or there are no colours.
    public init?(colorsSpace space: CGColorSpace?, colors: [CGColor], locations: [CGFloat]?) {
        guard !colors.isEmpty, locations == nil || locations?.count == colors.count else { return nil }
        let positions = locations ?? colors.indices.map { colors.count == 1 ? 0 : CGFloat($0) / CGFloat(colors.count - 1) }
        stops = zip(positions, colors).map { location, color in
            func unit(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(max(v, 0), 1) }
            let c = color.rgba
            return (location.isFinite ? location : 0, (unit(c.red), unit(c.green), unit(c.blue), unit(c.alpha)))
        }.sorted { $0.location < $1.location }
    }

    /// The premultiplied colour at `t` (clamped to the first and last stops).
    public func premultipliedColor(at t: CGFloat) -> (Float, Float, Float, Float) {
        var c = stops[0].color
        if t >= stops[stops.count - 1].location {
            c = stops[stops.count - 1].color
        } else if t > stops[0].location {
            let i = stops.firstIndex { $0.location > t }! - 1
            let a = stops[i], b = stops[i + 1]
            let f = b.location > a.location ? (t - a.location) / (b.location - a.location) : 0
            c = (a.color.0 + (b.color.0 - a.color.0) * f, a.color.1 + (b.color.1 - a.color.1) * f,
                 a.color.2 + (b.color.2 - a.color.2) * f, a.color.3 + (b.color.3 - a.color.3) * f)
        }
        return (Float(c.0 * c.3), Float(c.1 * c.3), Float(c.2 * c.3), Float(c.3))
    }
}

/// Whether a gradient also paints before its start and after its end.
public struct CGGradientDrawingOptions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1)
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 2)
}

extension CGContext {
    /// Paints the clip area with the gradient along start -> end (user space).
    public func drawLinearGradient(_ gradient: CGGradient, start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions) {
        let dx = end.x - start.x, dy = end.y - start.y
        let length2 = dx * dx + dy * dy
        guard length2 > 0, length2.isFinite else { return }
        fill(shader: { p in
            let t = ((p.x - start.x) * dx + (p.y - start.y) * dy) / length2
            return Self.gradientColor(gradient, t, options)
        })
    }

    /// Paints the gradient between two circles (user space), the t of each point being the
    /// largest for which it lies on the circle interpolated between them.
    public func drawRadialGradient(_ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat,
                                   endCenter: CGPoint, endRadius: CGFloat, options: CGGradientDrawingOptions) {
        let cdx = endCenter.x - startCenter.x, cdy = endCenter.y - startCenter.y, dr = endRadius - startRadius
        let a = cdx * cdx + cdy * cdy - dr * dr
        fill(shader: { p in
            let px = p.x - startCenter.x, py = p.y - startCenter.y
            let b = px * cdx + py * cdy + startRadius * dr
            let c = px * px + py * py - startRadius * startRadius
            var t: CGFloat
            if abs(a) < 1e-12 {
                guard abs(b) > 1e-12 else { return nil }
                t = c / (2 * b)
            } else {
                let discriminant = b * b - a * c
                guard discriminant >= 0 else { return nil }
                let root = discriminant.squareRoot()
                t = max((b + root) / a, (b - root) / a)
                if startRadius + t * dr < 0 { t = min((b + root) / a, (b - root) / a) }
            }
            guard startRadius + t * dr >= 0 else { return nil }
            return Self.gradientColor(gradient, t, options)
        })
    }

    package static func gradientColor(_ gradient: CGGradient, _ t: CGFloat, _ options: CGGradientDrawingOptions) -> (Float, Float, Float, Float)? {
        guard t.isFinite else { return nil }
        if t < 0 && !options.contains(.drawsBeforeStartLocation) { return nil }
        if t > 1 && !options.contains(.drawsAfterEndLocation) { return nil }
        return gradient.premultipliedColor(at: min(max(t, 0), 1))
    }
}
