// The GL texture cache across the frames of an animation: layers that move without changing
// their content upload their images once.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("GL texture cache")
struct TextureCacheTests {
    @Test("an animation moving image layers uploads each image once, then only hits")
    func movingLayersHit() throws {
        let device = try GLDevice()
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
        root.position = CGPoint(x: 32, y: 32)
        for i in 0..<3 {
            var bitmap = Bitmap(width: 4, height: 4)
            for p in stride(from: 0, to: bitmap.pixels.count, by: 4) { bitmap.pixels[p + i] = 255; bitmap.pixels[p + 3] = 255 }
            let layer = CALayer()
            layer.frame = CGRect(x: 4 + Double(i) * 20, y: 4, width: 16, height: 16)
            layer.contents = CGImage(bitmap: bitmap)
            let move = CABasicAnimation(keyPath: "position.y")
            move.fromValue = 12
            move.toValue = 52
            move.duration = 1
            move.beginTime = 0
            MediaClock.$scoped.withValue(0) { layer.add(move, forKey: "move") }
            root.addSublayer(layer)
        }
        let builder = RenderListBuilder(viewport: root.bounds)
        var lists: [RenderList] = []
        for t in stride(from: 0.0, through: 0.9, by: 0.1) {
            lists.append(try builder.build(root: root.presentationTree(atMediaTime: t)))
        }
        #expect(lists[0] != lists[5]) // the layers do move
        _ = try device.render(lists[0])
        let first = device.textureCacheStatistics
        #expect(first.uploads == 3)
        for list in lists.dropFirst() { _ = try device.render(list) }
        let after = device.textureCacheStatistics
        #expect(after.uploads == 3)
        #expect(after.hits == first.hits + 27)
        #expect(after.hitRate == 27.0 / 30.0)
    }
}

@Suite("GL devices sharing a display")
struct SharedDisplayTests {
    @Test("closing one device leaves another on the same EGL display working")
    func closeOne() throws {
        let keeper = try GLDevice()
        do {
            let other = try GLDevice()
            _ = try other.render(RenderList(width: 2, height: 2, passes: [], textures: [:], diagnostics: []))
        }
        let frame = try keeper.render(RenderList(width: 2, height: 2, passes: [], textures: [:], diagnostics: []))
        #expect(frame.width == 2 && frame.pixels.allSatisfy { $0 == 0 })
    }
}

@Suite("GL offscreen target pool")
struct PassPoolTests {
    /// Two shadowed cards: shape, blur and composite passes of two sizes.
    private func list() throws -> RenderList {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 120, height: 60)
        root.position = CGPoint(x: 60, y: 30)
        for i in 0..<2 {
            let card = CALayer()
            card.frame = CGRect(x: 10 + Double(i) * 60, y: 10, width: 30 + Double(i) * 10, height: 30)
            card.backgroundColor = .white
            card.shadowOpacity = 1
            card.shadowRadius = 3
            card.addSublayer(CALayer()) // keeps the shadow on the offscreen blur (not the closed form)
            root.addSublayer(card)
        }
        return try RenderListBuilder(viewport: root.bounds).build(root: root)
    }

    @Test("a pass's target is reused once nothing samples it, and a second frame creates none")
    func reuse() throws {
        let device = try GLDevice()
        let frame = try list()
        let offscreen = frame.passes.count - 1
        #expect(offscreen == 6)
        _ = try device.render(frame)
        let first = device.offscreenTargetsCreated
        #expect(first < offscreen) // the first card's targets serve the second's where sizes match
        #expect(first > 0)
        _ = try device.render(frame)
        #expect(device.offscreenTargetsCreated == first)
    }
}

@Suite("GL texture memory limit")
struct TextureMemoryLimitTests {
    /// A 16 x 16 frame drawing the given 32 x 32 images (4 KiB of texture each) side by side.
    private func frame(_ images: [Bitmap]) -> RenderList {
        var ops: [DrawOp] = []
        var textures: [UInt64: Bitmap] = [:]
        for (i, image) in images.enumerated() {
            let id = CGImage(bitmap: image).identifier
            textures[id] = image
            let map = ProjectiveTransform2D(m11: 1.0 / 8, m12: 0, m13: 0, m21: 0, m22: 1.0 / 16, m23: 0, m31: 0, m32: 0, m33: 1)
            ops.append(.rectangle(Double(i * 8), 0, Double(i * 8 + 8), 16,
                                  fill: .texture(TextureFill(texture: id, deviceToTexture: map, filter: .linear)),
                                  opacity: 1, targetWidth: 16, targetHeight: 16))
        }
        return RenderList.singlePass(16, 16, ops, textures: textures)
    }

    @Test("past maxTextureBytes idle textures go first; a frame needing more than the limit by itself is an error naming it")
    func limit() throws {
        let device = try GLDevice()
        #expect(device.maxTextureBytes == RenderLimits.standard.maxTextureBytes)
        device.maxTextureBytes = 10_000 // two 32 x 32 images (8 KiB), not three
        let images = (0..<3).map { n in Bitmap(width: 32, height: 32) { x, _ in (UInt8(n * 100), UInt8(x * 8), 0, 255) } }
        // Frames of one or two images at a time: the oldest idle one is deleted to make room.
        for pair in [[0, 1], [2], [0], [1, 2]] {
            let picture = try device.render(frame(pair.map { images[$0] }))
            #expect(picture.width == 16)
        }
        #expect(device.textureCacheStatistics.uploads == 6)
        // Three at once cannot fit.
        #expect(throws: GLError.textureMemory(needed: 12_288, limit: 10_000)) { try device.render(frame(images)) }
        #expect("\(GLError.textureMemory(needed: 12_288, limit: 10_000))".contains("more than the limit of 10000"))
    }
}
