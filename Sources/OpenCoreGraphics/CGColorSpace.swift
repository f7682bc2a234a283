import Foundation

/// A colour space. OpenQuartz draws in sRGB only: a space says how many components a colour made
/// in it has (gray: one, RGB: three, each with alpha after), and spaces compare by name, as
/// Apple's compare equal when they are the same space.
public final class CGColorSpace: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    /// The colour model: how many colour components (alpha aside) a colour in the space has.
    public let model: CGColorSpaceModel

    /// A space by one of the names below; nil for a name not known here, as Apple's initializer.
    public init?(name: String) {
        guard let model = CGColorSpace.models[name] else { return nil }
        self.name = name
        self.model = model
    }

    public static let sRGB = "kCGColorSpaceSRGB"
    public static let deviceRGB = "kCGColorSpaceDeviceRGB"
    public static let genericRGB = "kCGColorSpaceGenericRGB"
    public static let genericRGBLinear = "kCGColorSpaceGenericRGBLinear"
    public static let extendedSRGB = "kCGColorSpaceExtendedSRGB"
    public static let displayP3 = "kCGColorSpaceDisplayP3"
    public static let deviceGray = "kCGColorSpaceDeviceGray"
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"
    public static let linearGray = "kCGColorSpaceLinearGray"
    public static let extendedGray = "kCGColorSpaceExtendedGray"

    private static let models: [String: CGColorSpaceModel] = [
        sRGB: .rgb, deviceRGB: .rgb, genericRGB: .rgb, genericRGBLinear: .rgb, extendedSRGB: .rgb, displayP3: .rgb,
        deviceGray: .monochrome, genericGrayGamma2_2: .monochrome, linearGray: .monochrome, extendedGray: .monochrome,
    ]

    /// Colour components, alpha not counted.
    public var numberOfComponents: Int { model == .monochrome ? 1 : 3 }

    public static func == (lhs: CGColorSpace, rhs: CGColorSpace) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { "CGColorSpace(\(name))" }
}

/// The colour models of the spaces above (Apple's raw values).
public enum CGColorSpaceModel: Int32, Sendable {
    case unknown = -1, monochrome = 0, rgb = 1
}

/// Apple's Generic RGB (gamma 1.8; `GenericRGB`), by its C name as Swift code on Apple spells it.
public let kCGColorSpaceGenericRGB = CGColorSpace.genericRGB

public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace(name: CGColorSpace.deviceRGB)! }
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace(name: CGColorSpace.deviceGray)! }

extension CGColor {
    /// A colour from `components` in `space`: its colour components then alpha (gray and alpha,
    /// or red, green, blue and alpha), as Apple reads them from the pointer.
    public convenience init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        self.init(in: space, list: Array(UnsafeBufferPointer(start: components, count: space.numberOfComponents + 1)))
    }

    /// The same from an array (what Swift callers pass): nil when the count does not match the
    /// space, where Apple would read past the array.
    public convenience init?(colorSpace space: CGColorSpace, components: [CGFloat]) {
        self.init(in: space, list: components)
    }

    /// Both of the above (an array passed where a pointer is taken would call the pointer's
    /// initializer again, so neither delegates to the other).
    private convenience init?(in space: CGColorSpace, list components: [CGFloat]) {
        guard components.count == space.numberOfComponents + 1 else { return nil }
        if space.model == .monochrome {
            self.init(gray: components[0], alpha: components[1])
        } else if space.name == CGColorSpace.deviceRGB {
            self.init(deviceRed: components[0], green: components[1], blue: components[2], alpha: components[3])
        } else {
            self.init(red: components[0], green: components[1], blue: components[2], alpha: components[3])
        }
    }

    /// The space the colour's components are in: device gray for gray colours, device RGB for
    /// colours made in it, sRGB for the rest.
    public var colorSpace: CGColorSpace? {
        CGColorSpace(name: numberOfComponents == 2 ? CGColorSpace.deviceGray : isDeviceRGB ? CGColorSpace.deviceRGB : CGColorSpace.sRGB)
    }
}
