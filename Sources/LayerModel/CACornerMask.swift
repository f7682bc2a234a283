import Foundation

/// Corners of a layer, named as on a y-down screen (Core Animation's names are for macOS's y-up
/// space: its "min Y" corners are at the top here, as on iOS).
public struct CACornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Top left.
    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
    /// Top right.
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
    /// Bottom left.
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
    /// Bottom right.
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)
    public static let all: CACornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
}

/// The shape of a layer's rounded corners.
public struct CALayerCornerCurve: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Quarter circles of the corner radius (the default).
    public static let circular = CALayerCornerCurve(rawValue: "circular")
    /// A curve whose curvature rises smoothly from the straight edge (Apple's "squircle" corners):
    /// drawn here as a superellipse of exponent 5 reaching 1.528 times the radius along each edge,
    /// the common approximation of iOS's continuous corners.
    public static let continuous = CALayerCornerCurve(rawValue: "continuous")

    /// How far along each edge a continuous corner reaches, per unit of radius: where iOS's
    /// corners start to bend. The renderers draw the superellipse this far.
    public static let continuousExtent: CGFloat = 1.528
}
