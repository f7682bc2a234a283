// A lost GL context (a GPU reset) mid-frame: the device makes a new context and every resource
// anew and draws the frame again, and the frame matches one drawn without the loss.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("GL context recovery")
struct ContextRecoveryTests {
    @Test("after the context is replaced, as a reset replaces it, frames draw the same from fresh GL objects")
    func replacedContext() throws {
        let device = try GLDevice()
        let image = Bitmap(width: 8, height: 8) { x, y in (UInt8(x * 30), UInt8(y * 30), 90, 255) }
        let id = CGImage(bitmap: image).identifier
        let map = ProjectiveTransform2D(m11: 1.0 / 16, m12: 0, m13: 0, m21: 0, m22: 1.0 / 16, m23: 0, m31: 0, m32: 0, m33: 1)
        let list = RenderList.singlePass(16, 16, [DrawOp.rectangle(1, 1, 15, 15, fill: .texture(TextureFill(texture: id, deviceToTexture: map, filter: .linear)),
                                                                   opacity: 0.7, targetWidth: 16, targetHeight: 16)],
                                         textures: [id: image])
        let before = try device.render(list)
        #expect(device.textureCacheStatistics.uploads == 1)
        try device.replaceContextForTesting()
        let after = try device.render(list)
        #expect(after == before)
        // The old context's textures went with it: the image is uploaded again.
        #expect(device.textureCacheStatistics.uploads == 1 && device.textureCacheStatistics.hits == 0)
    }

    @Test("a context lost while a frame is drawn is made anew, with its textures and targets, and the frame drawn again")
    func lossInTheMiddleOfAFrame() throws {
        let list = try GLFrameFixtures.multiPassFrame()
        #expect(list.passes.count >= 3)
        let fresh = try GLDevice()
        let expected = try fresh.render(list)
        let device = try GLDevice()
        _ = try device.render(list)
        #expect(device.textureCacheStatistics == fresh.textureCacheStatistics)
        device.simulateContextLoss()
        let recovered = try device.render(list)
        #expect(device.contextResets == 1)
        #expect(recovered == expected)
        // Drawn again from a new executor, as on a fresh device: the images went up again, the
        // offscreen targets were made again, and nothing came from the lost context's caches.
        #expect(device.textureCacheStatistics == fresh.textureCacheStatistics)
        #expect(device.textureCacheStatistics.hits == 0)
        #expect(device.offscreenTargetsCreated == fresh.offscreenTargetsCreated)
        // And the device goes on as before.
        #expect(try device.render(list) == expected)
        #expect(device.contextResets == 1)
    }

    @Test("a context lost again while the frame is drawn anew is an error naming it, and the device recovers after")
    func lossTwice() throws {
        let list = try GLFrameFixtures.multiPassFrame()
        let device = try GLDevice()
        let expected = try device.render(list)
        device.simulateContextLoss(frames: 2)
        do {
            _ = try device.render(list)
            Issue.record("a frame lost twice was returned")
        } catch let error as GLError {
            guard case .noContext(let reason) = error else { Issue.record("unexpected \(error)"); return }
            #expect(reason.contains("lost again"))
        }
        #expect(device.contextResets == 2)
        #expect(try device.render(list) == expected)
    }

    @Test("the context is robust where the display offers it: Mesa's EGL 1.5 on llvmpipe does")
    func robustWhereOffered() throws {
        let caps = try GLDevice().caps
        guard caps.renderer.contains("llvmpipe") else { return }
        #expect(caps.isRobust)
    }
}
