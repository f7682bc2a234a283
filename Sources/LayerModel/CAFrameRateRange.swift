import Foundation

/// The frame rates an animation or display link would like, as Apple's `CAFrameRateRange`. Kept
/// and copied, never acted on: frames here are made at the times a renderer is given, so the
/// range is a hint with nothing to steer.
public struct CAFrameRateRange: Equatable, Hashable, Sendable {
    public var minimum: Float
    public var maximum: Float
    public var preferred: Float?

    public init(minimum: Float, maximum: Float, preferred: Float?) {
        self.minimum = minimum
        self.maximum = maximum
        self.preferred = preferred
    }

    /// No preference: Apple's `CAFrameRateRangeDefault` (0, 0, 0).
    public static let `default` = CAFrameRateRange(minimum: 0, maximum: 0, preferred: 0)

    /// Whether the two ranges are the same.
    public func isEqual(to range: CAFrameRateRange) -> Bool { self == range }
}
