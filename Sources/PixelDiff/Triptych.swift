import OpenCoreGraphics

/// Expected | heat map | actual, side by side with 4-pixel gaps, over opaque white so transparent
/// areas read as white: the picture a failing comparison leaves for a person to look at.
public enum Triptych {
    public static func make(expected: Bitmap, actual: Bitmap) throws -> Bitmap {
        let heat = try HeatMap.make(expected: expected, actual: actual)
        let gap = 4, w = expected.width, h = expected.height
        let panels = [expected, heat, actual]
        return Bitmap(width: w * 3 + gap * 2, height: h) { x, y in
            let panel = x / (w + gap), inPanel = x % (w + gap)
            guard panel < 3, inPanel < w else { return (255, 0, 255, 255) }
            let p = panels[panel][inPanel, y]
            let keep = 255 - Int(p.3) // composite over white
            return (UInt8(Int(p.0) + keep), UInt8(Int(p.1) + keep), UInt8(Int(p.2) + keep), 255)
        }
    }
}
