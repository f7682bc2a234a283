// A frame lays the tree out before it draws it: layers placed only by layoutSublayers show where
// the layout put them, on both backends.
import Foundation
import OpenQuartzCore
import Testing

/// Two halves, placed by layout alone.
private final class HalvesLayer: CALayer {
    override func layoutSublayers() {
        let items = sublayers ?? []
        for (i, item) in items.enumerated() {
            item.frame = CGRect(x: CGFloat(i) * bounds.width / 2, y: 0, width: bounds.width / 2, height: bounds.height)
        }
    }
}

@Suite("Layout in rendered frames")
struct LayoutRenderingTests {
    @Test("layers placed by layoutSublayers are drawn where it put them", arguments: [RenderBackend.cpu, .gpu])
    func layoutBeforeDrawing(backend: RenderBackend) throws {
        let root = HalvesLayer()
        for color in [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)] {
            let half = CALayer()
            half.backgroundColor = color
            root.addSublayer(half)
        }
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
        let image = try CARenderer.image(of: root, backend: backend).bitmap
        #expect(image[5, 5] == (255, 0, 0, 255) && image[35, 5] == (0, 0, 255, 255), "\(backend)")
        // Resized between frames (without animation): laid out again in the next one.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.bounds.size.width = 20
        CATransaction.commit()
        let renderer = CARenderer(backend: backend)
        renderer.layer = root
        renderer.bounds = CGRect(x: 0, y: 0, width: 40, height: 10)
        // The layout runs in the frame at 0 s; the sublayers, already drawn, move there with
        // implicit animations (as on Apple's platforms, unless layoutSublayers disables actions),
        // so the frame at 1 s shows where the layout put them.
        var resized = Bitmap(width: 1, height: 1)
        try renderer.renderFrames(from: 0, to: 1, fps: 1) { _, _, frame in resized = frame.bitmap }
        // The layer now spans x 10...30 about its unchanged position: red, then blue, then nothing.
        #expect(root.sublayers?.last?.frame == CGRect(x: 10, y: 0, width: 10, height: 10), "\(backend)")
        #expect(resized[15, 5] == (255, 0, 0, 255) && resized[25, 5] == (0, 0, 255, 255) && resized[35, 5].3 == 0, "\(backend)")
    }
}
