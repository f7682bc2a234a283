import OpenCoreGraphics

/// The differing pixels in red over a faded gray copy of the expected image (as pixelmatch and
/// most review tools draw it): where the change is, with enough of the picture left to say what
/// it is a change of.
public enum DiffMask {
    public static func make(expected: Bitmap, differs: (Int, Int) -> Bool) -> Bitmap {
        Bitmap(width: expected.width, height: expected.height) { x, y in
            if differs(x, y) { return (255, 0, 0, 255) }
            let p = expected[x, y]
            // Luma of the colour over white, faded to 10% contrast.
            let keep = 255 - Int(p.3)
            let luma = ((Int(p.0) + keep) * 77 + (Int(p.1) + keep) * 150 + (Int(p.2) + keep) * 29) >> 8
            let gray = UInt8(255 - (255 - luma) / 10)
            return (gray, gray, gray, 255)
        }
    }
}
