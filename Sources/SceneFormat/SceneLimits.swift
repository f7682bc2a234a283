import Foundation
import OpenQuartzCore

/// What a scene document may ask for. Documents come from people and pipelines alike; a limit
/// turns a mistake or a hostile file into an error naming it, before it can exhaust memory or
/// time.
public struct SceneLimits: Sendable {
    /// Largest document file, in bytes.
    public var maxFileBytes = 16 << 20
    /// Most layers in the tree, masks included.
    public var maxLayers = 100_000
    /// Deepest nesting of sublayers and masks.
    public var maxDepth = 64
    /// Largest image file, in bytes (its decoded size is bounded by `ImageLimits`).
    public var maxImageBytes = 64 << 20
    /// Largest rendered side, in pixels, and largest pixel count.
    public var maxSide = 16_384
    public var maxPixels = 64 << 20
    /// Longest timeline, in seconds, and most transactions.
    public var maxDuration = 3_600.0
    public var maxTransactions = 10_000
    /// Most characters (Unicode scalars), lines and attribute runs of one text layer's string:
    /// `TextLimits`' defaults, what a layer draws at most.
    public var maxTextCharacters = TextLimits().maxCharacters
    public var maxTextLines = TextLimits().maxLines
    public var maxTextRuns = TextLimits().maxRuns
    /// Most items a tiled layer's drawing makes, every copy of its repeated groups counted:
    /// what one tile may have to look through.
    public var maxDrawingItems = 1_000_000

    public init() {}

    public static let standard = SceneLimits()
}
