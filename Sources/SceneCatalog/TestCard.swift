import OpenQuartzCore

/// A procedurally drawn test image, so the catalog needs no files: four coloured quadrants
/// (red top left, green top right, blue bottom left, orange bottom right) that show orientation,
/// a light checker that shows sampling, a white cross on the centre lines, and a bottom band whose
/// alpha fades from opaque to clear, which shows premultiplied sampling at transparent edges.
public enum TestCard {
    public static func image(width: Int = 64, height: Int = 48) -> CGImage {
        let band = max(height / 6, 1)
        let bitmap = Bitmap(width: width, height: height) { x, y in
            let left = x < width / 2, top = y < height / 2
            var (r, g, b): (Int, Int, Int) = top ? (left ? (220, 50, 47) : (60, 170, 70)) : (left ? (38, 110, 210) : (240, 150, 30))
            if ((x / 4) + (y / 4)) % 2 == 0 { r = (r + 255) / 2; g = (g + 255) / 2; b = (b + 255) / 2 }
            if x == width / 2 || y == height / 2 { (r, g, b) = (255, 255, 255) }
            var a = 255
            if y >= height - band { a = 255 - (x * 255) / max(width - 1, 1) }
            return (UInt8(r * a / 255), UInt8(g * a / 255), UInt8(b * a / 255), UInt8(a))
        }
        return CGImage(bitmap: bitmap)
    }
}
