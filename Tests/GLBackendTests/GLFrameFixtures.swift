// Frames the GL tests share: small, but with offscreen passes and an image, so that a test of the
// device's frame handling (errors, lost contexts) touches every kind of GL object a frame makes.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics

enum GLFrameFixtures {
    /// Bytes of `a` and `b` that differ, and the largest difference: how the tests hold one way of
    /// drawing a frame to another (a batch to single draws, a shortcut to the whole work).
    static func differences(_ a: Bitmap, _ b: Bitmap) -> (bytes: Int, largest: Int) {
        var bytes = 0, largest = 0
        for i in a.pixels.indices where a.pixels[i] != b.pixels[i] {
            bytes += 1
            largest = max(largest, abs(Int(a.pixels[i]) - Int(b.pixels[i])))
        }
        return (bytes, largest)
    }

    /// A 48 x 32 frame of three passes or more: a translucent group of two overlapping layers
    /// (drawn offscreen, then composited), a blurred shadow (offscreen, blurred) and an image.
    static func multiPassFrame() throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 48, height: 32)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let group = CALayer()
        group.frame = CGRect(x: 4, y: 4, width: 24, height: 24)
        group.opacity = 0.6
        for (i, colour) in [CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1), CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 1)].enumerated() {
            let part = CALayer()
            part.frame = CGRect(x: Double(i) * 8, y: Double(i) * 8, width: 16, height: 16)
            part.backgroundColor = colour
            group.addSublayer(part)
        }
        root.addSublayer(group)
        let picture = CALayer()
        picture.frame = CGRect(x: 30, y: 6, width: 14, height: 20)
        picture.contents = CGImage(bitmap: Bitmap(width: 7, height: 10) { x, y in (UInt8(x * 36), UInt8(y * 25), 140, 255) })
        picture.shadowOpacity = 0.8
        picture.shadowRadius = 3
        picture.shadowPath = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 14, height: 20), transform: nil)
        root.addSublayer(picture)
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    }
}
