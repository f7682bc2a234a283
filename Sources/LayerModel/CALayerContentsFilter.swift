import Foundation

/// How a layer's contents image is sampled when it is drawn smaller or larger than its pixels,
/// by Core Animation's names (`minificationFilter`, `magnificationFilter`).
public struct CALayerContentsFilter: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Bilinear between the four nearest texels (the default of both filters).
    public static let linear = CALayerContentsFilter(rawValue: "linear")
    /// The texel under the sample point: hard pixel edges (pixel art, magnified QR codes).
    public static let nearest = CALayerContentsFilter(rawValue: "nearest")
    /// Bilinear in the two mipmap levels around the level of detail, mixed between them: a
    /// minification filter (a magnification filter of trilinear is linear). Both backends use
    /// the same mipmaps, 2x2 box means of the level above, and the same level of detail.
    public static let trilinear = CALayerContentsFilter(rawValue: "trilinear")
}

/// Which edges of a layer are anti-aliased (`edgeAntialiasingMask`). Named by y as Core
/// Animation's header names them: the bottom edge is the bounds' minimum y, which on this y-down
/// screen is the top, as `CACornerMask`'s min-Y corners are.
public struct CAEdgeAntialiasingMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The minimum x edge.
    public static let layerLeftEdge = CAEdgeAntialiasingMask(rawValue: 1 << 0)
    /// The maximum x edge.
    public static let layerRightEdge = CAEdgeAntialiasingMask(rawValue: 1 << 1)
    /// The minimum y edge.
    public static let layerBottomEdge = CAEdgeAntialiasingMask(rawValue: 1 << 2)
    /// The maximum y edge.
    public static let layerTopEdge = CAEdgeAntialiasingMask(rawValue: 1 << 3)
    static let all: CAEdgeAntialiasingMask = [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge]
}
