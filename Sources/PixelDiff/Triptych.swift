import OpenCoreGraphics

/// Expected | difference picture | actual, side by side with 4-pixel magenta gaps, over opaque
/// white so transparent areas read as white: the picture a failing comparison leaves for a person
/// to look at.
public enum Triptych {
    /// The magenta gap between panels, in pixels.
    public static let gap = 4

    /// With the channel heat map in the middle.
    public static func make(expected: Bitmap, actual: Bitmap) throws -> Bitmap {
        make(expected: expected, middle: try HeatMap.make(expected: expected, actual: actual), actual: actual)
    }

    public static func make(expected: Bitmap, middle: Bitmap, actual: Bitmap) -> Bitmap {
        let w = expected.width
        let panels = [expected, middle, actual]
        let height = panels.map(\.height).max()!
        return Bitmap(width: w * 3 + gap * 2, height: height) { x, y in
            let panel = x / (w + gap), inPanel = x % (w + gap)
            guard panel < 3, inPanel < w else { return (255, 0, 255, 255) }
            let image = panels[panel]
            guard inPanel < image.width, y < image.height else { return (255, 255, 255, 255) }
            let p = image[inPanel, y]
            let keep = 255 - Int(p.3) // composite over white
            return (UInt8(Int(p.0) + keep), UInt8(Int(p.1) + keep), UInt8(Int(p.2) + keep), 255)
        }
    }
}
