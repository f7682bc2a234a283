import Foundation

/// A color in the sRGB color space (or extended gray, stored as sRGB), with straight (not
/// premultiplied) components as Core Graphics reports them.
///
/// A colour made in device RGB (`CGColor(colorSpace: CGColorSpaceCreateDeviceRGB(), components:)`)
/// remembers it (`isDeviceRGB`), so that `colorSpace` names the space it was made in; device RGB
/// is sRGB here, as on iOS, and every renderer draws both alike.
///
/// Components outside 0...1 are kept as given (extended range) but clamped when drawn; NaN
/// components are drawn as 0. `CGColor` is immutable, like Apple's.
public final class CGColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Red, green, blue and alpha, in that order. Gray colors are stored with r = g = b.
    public let rgba: (red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat)
    private let isGray: Bool
    /// Made in device RGB, not a calibrated space.
    public let isDeviceRGB: Bool

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        rgba = (red, green, blue, alpha)
        isGray = false
        isDeviceRGB = false
    }

    /// Components in device RGB (`CGColor(colorSpace:components:)` with a device RGB space).
    init(deviceRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        rgba = (red, green, blue, alpha)
        isGray = false
        isDeviceRGB = true
    }

    /// A colour of these components in this colour's RGB space (device or calibrated): what an
    /// animation's interpolation makes between colours.
    public func with(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) -> CGColor {
        isDeviceRGB ? CGColor(deviceRed: red, green: green, blue: blue, alpha: alpha) : CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    public init(gray: CGFloat, alpha: CGFloat) {
        rgba = (gray, gray, gray, alpha)
        isGray = true
        isDeviceRGB = false
    }

    public static let black = CGColor(gray: 0, alpha: 1)
    public static let white = CGColor(gray: 1, alpha: 1)
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// The components in the color's own space: [gray, alpha] or [red, green, blue, alpha].
    public var components: [CGFloat]? {
        isGray ? [rgba.red, rgba.alpha] : rgbaComponents
    }

    /// [red, green, blue, alpha], a gray colour's gray as each of the three.
    package var rgbaComponents: [CGFloat] { [rgba.red, rgba.green, rgba.blue, rgba.alpha] }

    public var numberOfComponents: Int { isGray ? 2 : 4 }

    public var alpha: CGFloat { rgba.alpha }

    /// The same color with another alpha.
    public func copy(alpha: CGFloat) -> CGColor? {
        isGray ? CGColor(gray: rgba.red, alpha: alpha) : with(red: rgba.red, green: rgba.green, blue: rgba.blue, alpha: alpha)
    }

    /// Premultiplied components in 0...1, ready to draw: clamped, NaN drawn as 0.
    public var premultiplied: (red: Double, green: Double, blue: Double, alpha: Double) {
        func unit(_ v: CGFloat) -> Double { v.isNaN ? 0 : min(max(Double(v), 0), 1) }
        let a = unit(rgba.alpha)
        return (unit(rgba.red) * a, unit(rgba.green) * a, unit(rgba.blue) * a, a)
    }

    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs.rgba == rhs.rgba
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rgba.red); hasher.combine(rgba.green)
        hasher.combine(rgba.blue); hasher.combine(rgba.alpha)
    }

    public var description: String {
        isGray ? "CGColor(gray: \(rgba.red), alpha: \(rgba.alpha))"
               : "CGColor(red: \(rgba.red), green: \(rgba.green), blue: \(rgba.blue), alpha: \(rgba.alpha))"
    }
}
