import Foundation

/// The storage a layer asks for its drawn content, by Core Animation's names. A hint: backing
/// stores are 8-bit RGBA here whatever it says (see `CALayer.contentsFormat`).
public struct CALayerContentsFormat: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Four 8-bit channels (the default).
    public static let RGBA8Uint = CALayerContentsFormat(rawValue: "RGBA8")
    /// Four half-float channels.
    public static let RGBA16Float = CALayerContentsFormat(rawValue: "RGBAh")
    /// One 8-bit gray channel.
    public static let gray8Uint = CALayerContentsFormat(rawValue: "Gray8")
}
