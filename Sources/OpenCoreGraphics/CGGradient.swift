import Foundation

/// Colours at locations 0...1, interpolated straight (unpremultiplied) in the gradient's space, as
/// Core Graphics does; drawn by `CGContext.drawLinearGradient` and `drawRadialGradient`, and by
/// the renderers for a CAGradientLayer (the compositor's GradientFill carries these stops). The
/// space is sRGB, or Generic RGB for components given in it (converted to sRGB after the mix,
/// `GenericRGB`): how Core Animation draws a CAGradientLayer's colours.
public final class CGGradient: @unchecked Sendable {
    /// One colour at its location: straight (not premultiplied), in the gradient's space, each
    /// component in 0...1.
    public struct Stop: Hashable, Sendable {
        public var location: Double
        public var red: Double, green: Double, blue: Double, alpha: Double
        public init(location: Double, red: Double, green: Double, blue: Double, alpha: Double) {
            self.location = location; self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        }
    }

    /// Sorted by location, at least one.
    public let stops: [Stop]
    /// Whether the stops are Generic RGB components (`CGColorSpace.genericRGB`), else sRGB.
    public let isGenericRGB: Bool

    /// `locations` default to evenly spaced; nil when the counts differ or there are no colours.
    /// The colours' components, as sRGB ones (`init(colorSpace:colorComponents:locations:count:)`).
    public convenience init?(colorsSpace space: CGColorSpace?, colors: [CGColor], locations: [CGFloat]?) {
        guard !colors.isEmpty, locations == nil || locations?.count == colors.count else { return nil }
        self.init(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: colors.flatMap(\.rgbaComponents),
                  locations: locations, count: colors.count)
    }

    /// Raw components in `space` (red, green, blue, alpha per colour; gray and alpha in a
    /// monochrome space), `count` colours at `locations` (evenly spaced when nil). Components in
    /// Generic RGB stay there and are converted after the mix; any other RGB space's are taken
    /// as sRGB. Nil when a count is short or no colour is given.
    public init?(colorSpace space: CGColorSpace, colorComponents components: [CGFloat], locations: [CGFloat]?, count: Int) {
        let n = space.numberOfComponents + 1
        guard count > 0, count <= components.count / n, locations == nil || locations!.count >= count else { return nil }
        func unit(_ v: CGFloat) -> Double { v.isNaN ? 0 : Double(min(max(v, 0), 1)) }
        stops = (0..<count).map { i in
            let c = components[(i * n)..<(i * n + n)].map(unit)
            let location = locations.map { $0[i] } ?? (count == 1 ? 0 : CGFloat(i) / CGFloat(count - 1))
            let rgb = n == 2 ? (c[0], c[0], c[0]) : (c[0], c[1], c[2])
            return Stop(location: location.isFinite ? Double(location) : 0, red: rgb.0, green: rgb.1, blue: rgb.2, alpha: c[n - 1])
        }.sorted { $0.location < $1.location }
        isGenericRGB = space.name == CGColorSpace.genericRGB
    }

    /// The premultiplied sRGB colour at `t` (clamped to the first and last stops).
    public func premultipliedColor(at t: CGFloat) -> (Float, Float, Float, Float) {
        let c = CGGradient.premultipliedColor(at: Double(t), stops: stops, genericRGB: isGenericRGB)
        return (Float(c.0), Float(c.1), Float(c.2), Float(c.3))
    }

    /// The premultiplied colour of `stops` (sorted, at least one) at `t`: the first stop's colour
    /// up to it, the last's from it, straight colours mixed between the two stops around `t` and
    /// premultiplied after. The one formula of every gradient here: Core Graphics' drawing, both
    /// renderers' GradientFill, and (line for line) layer_quad.frag's gradientColor.
    /// Generic RGB stops are converted to sRGB between the mix and the premultiplication.
    public static func premultipliedColor(at t: Double, stops: [Stop], genericRGB: Bool = false) -> (Double, Double, Double, Double) {
        let c = straightColor(at: t, stops: stops)
        let rgb = genericRGB ? GenericRGB.toSRGB(c.red, c.green, c.blue) : (c.red, c.green, c.blue)
        return (rgb.0 * c.alpha, rgb.1 * c.alpha, rgb.2 * c.alpha, c.alpha)
    }

    /// `premultipliedColor(at:stops:)` before the premultiplication: the straight colour at `t`.
    public static func straightColor(at t: Double, stops: [Stop]) -> Stop {
        var c = stops[0]
        if t >= stops[stops.count - 1].location {
            c = stops[stops.count - 1]
        } else if t > stops[0].location {
            let (i, f) = segment(at: t, stops: stops)
            let a = stops[i], b = stops[i + 1]
            c = Stop(location: t, red: a.red + (b.red - a.red) * f, green: a.green + (b.green - a.green) * f,
                     blue: a.blue + (b.blue - a.blue) * f, alpha: a.alpha + (b.alpha - a.alpha) * f)
        }
        return c
    }

    /// Where `t` falls among `stops` (sorted, at least one): the pair of neighbouring stops
    /// around it (the first one's index) and the fraction of the way from one to the other; the
    /// first pair at 0 up to the first stop, the last pair at 1 from the last (a single stop: 0, 0).
    public static func segment(at t: Double, stops: [Stop]) -> (index: Int, fraction: Double) {
        let last = stops.count - 1
        if t >= stops[last].location { return (max(last - 1, 0), last > 0 ? 1 : 0) }
        guard t > stops[0].location else { return (0, 0) }
        var i = 1
        while i < last && !(stops[i].location > t) { i += 1 }
        let a = stops[i - 1], b = stops[i]
        return (i - 1, b.location > a.location ? (t - a.location) / (b.location - a.location) : 0)
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
