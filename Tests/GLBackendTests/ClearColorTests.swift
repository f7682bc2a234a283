// A background that fills the frame is drawn as the clear colour (GLExecutor.solidColorFilling).
// The driver converts a clear colour to the target's bytes itself, and drivers part at a half
// step: NVIDIA's 580 driver turned a 0.9 grey (229.5 / 255) into 229 where llvmpipe and the CPU
// reference give 230, which failed three agreement tests there. The clear colour is handed over
// already on the target's steps, rounded as every shader rounds (TargetSteps), so that no driver
// has a half step to decide.

import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("The clear colour")
struct ClearColorTests {
    /// Colours whose bytes fall on a half step (0.9, 0.5, 73.5 / 255) or near one, at opacities
    /// that move them there.
    static let cases: [(CGColor, Double)] = [
        (CGColor(gray: 0.9, alpha: 1), 1), (CGColor(red: 1, green: 0.5, blue: 0, alpha: 1), 1),
        (CGColor(red: 73.5 / 255, green: 0.7, blue: 0.1, alpha: 1), 1), (CGColor(gray: 1, alpha: 1), 0.5),
        (CGColor(red: 0.3, green: 0.6, blue: 0.9, alpha: 0.5), 0.9),
    ]

    @Test("a frame-filling background becomes a clear colour on the target's steps, the bytes the CPU writes",
          arguments: 0..<5)
    func clearColourOnSteps(index: Int) throws {
        let (color, opacity) = Self.cases[index]
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        root.backgroundColor = color
        root.opacity = Float(opacity)
        let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        let frame = try #require(list.passes.last)
        let first = try #require(frame.ops.first)
        let clear = try #require(GLExecutor.solidColorFilling(first, width: 40, height: 30),
                                 "the background is drawn as the clear colour")
        let cpu = RasterRenderer().render(list)
        let pixel = cpu[20, 15], bytes = [pixel.0, pixel.1, pixel.2, pixel.3]
        let channels = [clear.red, clear.green, clear.blue, clear.alpha]
        for (channel, value) in channels.enumerated() {
            // Whole steps: a driver that rounds, truncates or rounds half to even makes the same byte.
            #expect(abs(value * 255 - (value * 255).rounded()) < 1e-9, "channel \(channel): \(value * 255) / 255")
            #expect(Int((value * 255).rounded()) == Int(bytes[channel]), "channel \(channel)")
        }
        let gpu = try GLDevice.shared().render(list)
        #expect(gpu[20, 15] == pixel)
    }
}
