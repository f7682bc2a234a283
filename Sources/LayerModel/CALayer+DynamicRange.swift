import Foundation

// Apple's high-dynamic-range controls. Output here is 8-bit sRGB (PNG files, 8-bit GL targets),
// so every value renders as standard range; the properties are kept, copied and coded so code
// that sets them compiles and reads back what it set.

extension CALayer {
    /// When the layer's contents are tone mapped, as Apple's `CALayer.ToneMapMode`.
    public struct ToneMapMode: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The system decides.
        public static let automatic = ToneMapMode(rawValue: "automatic")
        /// Never tone map.
        public static let never = ToneMapMode(rawValue: "never")
        /// Tone map whenever the system supports it.
        public static let ifSupported = ToneMapMode(rawValue: "ifSupported")
    }

    /// The dynamic range the layer's contents would like, as Apple's `CALayer.DynamicRange`.
    public struct DynamicRange: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let automatic = DynamicRange(rawValue: "automatic")
        public static let standard = DynamicRange(rawValue: "standard")
        public static let constrainedHigh = DynamicRange(rawValue: "constrainedHigh")
        public static let high = DynamicRange(rawValue: "high")
    }
}
