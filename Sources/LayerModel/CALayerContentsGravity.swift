/// How a layer's `contents` image is placed in its bounds, with Core Animation's string values.
///
/// OpenQuartz's geometry is y-down (iOS flavour), and the edge names mean what they say on screen:
/// `.top` puts the image against the top edge of the bounds. (Apple's constants are named for
/// macOS's y-up space, which is why on iOS `.top` famously shows at the bottom of an unflipped
/// layer; ports that relied on that swap should swap the names back.)
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let center = CALayerContentsGravity(rawValue: "center")
    public static let top = CALayerContentsGravity(rawValue: "top")
    public static let bottom = CALayerContentsGravity(rawValue: "bottom")
    public static let left = CALayerContentsGravity(rawValue: "left")
    public static let right = CALayerContentsGravity(rawValue: "right")
    public static let topLeft = CALayerContentsGravity(rawValue: "topLeft")
    public static let topRight = CALayerContentsGravity(rawValue: "topRight")
    public static let bottomLeft = CALayerContentsGravity(rawValue: "bottomLeft")
    public static let bottomRight = CALayerContentsGravity(rawValue: "bottomRight")
    /// Stretch to fill the bounds (the default).
    public static let resize = CALayerContentsGravity(rawValue: "resize")
    /// Scale uniformly to fit inside the bounds.
    public static let resizeAspect = CALayerContentsGravity(rawValue: "resizeAspect")
    /// Scale uniformly to cover the bounds.
    public static let resizeAspectFill = CALayerContentsGravity(rawValue: "resizeAspectFill")

    /// All twelve gravities.
    public static let allCases: [CALayerContentsGravity] = [
        .center, .top, .bottom, .left, .right, .topLeft, .topRight, .bottomLeft, .bottomRight,
        .resize, .resizeAspect, .resizeAspectFill,
    ]
}
