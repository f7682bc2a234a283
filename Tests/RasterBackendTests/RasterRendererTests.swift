// The CPU reference executor on hand-made render lists, with expected pixels worked out by hand.
import Compositor
import OpenCoreGraphics
import RasterBackend
import Testing



let white = Fill.solid(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1))

@Suite("CPU reference rasterizer")
struct RasterRendererTests {
    @Test("edges half a pixel in give half coverage; whole pixels are full")
    func edgeCoverage() {
        let image = RasterRenderer().render(RenderList.singlePass(4, 1, [DrawOp.rectangle(0.5, 0, 2.5, 1, fill: white, targetWidth: 4, targetHeight: 1)]))
        #expect((0..<4).map { image[$0, 0].3 } == [128, 255, 128, 0])
    }

    @Test("a corner's coverage is the product of its two edges")
    func cornerCoverage() {
        let image = RasterRenderer().render(RenderList.singlePass(2, 2, [DrawOp.rectangle(0.5, 0.5, 2, 2, fill: white, targetWidth: 2, targetHeight: 2)]))
        #expect(image[0, 0].3 == 64) // 0.5 * 0.5 * 255 = 63.75
        #expect(image[1, 0].3 == 128 && image[0, 1].3 == 128 && image[1, 1].3 == 255)
    }

    @Test("source-over in premultiplied 8-bit: half red over blue is purple")
    func sourceOver() {
        let blue = Fill.solid(PremultipliedColor(red: 0, green: 0, blue: 1, alpha: 1))
        let red = Fill.solid(PremultipliedColor(red: 1, green: 0, blue: 0, alpha: 1))
        let image = RasterRenderer().render(RenderList.singlePass(1, 1, [DrawOp.rectangle(0, 0, 1, 1, fill: blue, targetWidth: 1, targetHeight: 1),
                                                        DrawOp.rectangle(0, 0, 1, 1, fill: red, opacity: 0.5, targetWidth: 1, targetHeight: 1)]))
        // Red at half opacity reaches the blender as 8-bit (128, 0, 0, 128), as on the GPU: blue keeps 127/255.
        #expect(image[0, 0] == (128, 0, 127, 255))
    }

    @Test("an opaque colour's run is that colour whatever lies beneath; a translucent one's still blends each byte")
    func opaqueRuns() {
        let under = Bitmap(width: 40, height: 3) { x, y in (UInt8(x * 6), UInt8(255 - x * 6), UInt8(y * 80), 255) }
        let map = ProjectiveTransform2D(m11: 1.0 / 40, m12: 0, m13: 0, m21: 0, m22: 1.0 / 3, m23: 0, m31: 0, m32: 0, m33: 1)
        let texture = Fill.texture(TextureFill(texture: 1, deviceToTexture: map, filter: .nearest))
        let teal = Fill.solid(PremultipliedColor(red: 0.1, green: 0.6, blue: 0.7, alpha: 1))
        func frame(opacity: Double) -> Bitmap {
            RasterRenderer().render(RenderList.singlePass(40, 3, [
                DrawOp.rectangle(0, 0, 40, 3, fill: texture, targetWidth: 40, targetHeight: 3),
                DrawOp.rectangle(2, 0, 38, 3, fill: teal, opacity: opacity, targetWidth: 40, targetHeight: 3),
            ], textures: [1: under]))
        }
        let opaque = frame(opacity: 1)
        for y in 0..<3 {
            for x in 2..<38 { #expect(opaque[x, y] == (26, 153, 179, 255), "(\(x), \(y))") }
            #expect(opaque[0, y] == under[0, y] && opaque[39, y] == under[39, y])
        }
        // At 0.99 the alpha byte is 252: 3/255 of what lies beneath shows, so the run varies.
        let translucent = frame(opacity: 0.99)
        #expect(translucent[2, 0] != translucent[37, 0])
        // Red: the source's byte 25 (0.1 x 0.99 x 255 = 25.2) plus 3/255 of 12 (0.14) or of 222 (2.6).
        #expect(translucent[2, 0].0 == 25 && translucent[37, 0].0 == 28)
    }

    @Test("a long stretch of one sampled colour, through a table, gives the bytes blending pixel by pixel gives",
          arguments: [BlendMode.sourceOver, .plus])
    func longStretchOfOneColour(blend: BlendMode) {
        let width = 300
        let under = Bitmap(width: width, height: 2) { x, y in (UInt8(x % 256), UInt8(255 - x % 256), UInt8((x * 7 + y * 50) % 256), 255) }
        let tint = Bitmap(width: 1, height: 1) { _, _ in (40, 90, 120, 160) }
        func map(_ w: Int) -> ProjectiveTransform2D {
            ProjectiveTransform2D(m11: 1.0 / Double(w), m12: 0, m13: 0, m21: 0, m22: 1.0 / 2, m23: 0, m31: 0, m32: 0, m33: 1)
        }
        let image = RasterRenderer().render(RenderList.singlePass(width, 2, [
            DrawOp.rectangle(0, 0, Double(width), 2, fill: .texture(TextureFill(texture: 1, deviceToTexture: map(width), filter: .nearest)),
                             targetWidth: width, targetHeight: 2),
            DrawOp.rectangle(0, 0, Double(width), 2, fill: .texture(TextureFill(texture: 2, deviceToTexture: map(1), filter: .nearest)),
                             opacity: 0.8, targetWidth: width, targetHeight: 2, blend: blend),
        ], textures: [1: under, 2: tint]))
        // Pixel by pixel, as the renderer blends a sampled colour.
        var expected = under.pixels
        let c = (40.0 / 255 * 0.8, 90.0 / 255 * 0.8, 120.0 / 255 * 0.8, 160.0 / 255 * 0.8)
        expected.withUnsafeMutableBufferPointer { pixels in
            for i in stride(from: 0, to: pixels.count, by: 4) {
                if blend == .plus {
                    SourceOver.add(red: c.0, green: c.1, blue: c.2, alpha: c.3, into: pixels, at: i)
                } else {
                    SourceOver.blend(red: c.0, green: c.1, blue: c.2, alpha: c.3, into: pixels, at: i)
                }
            }
        }
        #expect(image.pixels == expected)
    }

    @Test("the source is converted to 8 bits before it is blended: black at 0.25% opacity darkens 200 to 199, as the GPU does")
    func sourceConvertedBeforeBlending() {
        let gray = Fill.solid(PremultipliedColor(red: 200.0 / 255, green: 200.0 / 255, blue: 200.0 / 255, alpha: 1))
        let black = Fill.solid(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1))
        let image = RasterRenderer().render(RenderList.singlePass(1, 1, [DrawOp.rectangle(0, 0, 1, 1, fill: gray, targetWidth: 1, targetHeight: 1),
                                                        DrawOp.rectangle(0, 0, 1, 1, fill: black, opacity: 0.0025, targetWidth: 1, targetHeight: 1)]))
        // Exactly, 200 x (1 - 0.0025) = 199.5 would round to 200; the alpha as a byte is 1, and 200 x 254/255 = 199.2.
        #expect(image[0, 0] == (199, 199, 199, 255))
    }

    @Test("a texture mapped texel for pixel reproduces the image exactly, with either filter",
          arguments: [SamplingFilter.linear, .nearest])
    func identityTexture(filter: SamplingFilter) {
        let source = Bitmap(width: 4, height: 3) { x, y in (UInt8(x * 60), UInt8(y * 100), 7, 255) }
        let map = ProjectiveTransform2D(m11: 0.25, m12: 0, m13: 0, m21: 0, m22: 1.0 / 3, m23: 0, m31: 0, m32: 0, m33: 1)
        let fill = Fill.texture(TextureFill(texture: 1, deviceToTexture: map, filter: filter))
        let image = RasterRenderer().render(RenderList.singlePass(4, 3, [DrawOp.rectangle(0, 0, 4, 3, fill: fill, targetWidth: 4, targetHeight: 3)],
                                                 textures: [1: source]))
        #expect(image == source)
    }

    @Test("bilinear sampling halfway between two texels averages them")
    func bilinear() {
        let source = Bitmap(width: 2, height: 1) { x, _ in x == 0 ? (0, 0, 0, 255) : (200, 100, 50, 255) }
        // Device pixel centre 0.5 samples u = 0.5: halfway between the texel centres 0.25 and 0.75.
        let map = ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
        let fill = Fill.texture(TextureFill(texture: 1, deviceToTexture: map, filter: .linear))
        let image = RasterRenderer().render(RenderList.singlePass(1, 1, [DrawOp.rectangle(0, 0, 1, 1, fill: fill, targetWidth: 1, targetHeight: 1)],
                                                 textures: [1: source]))
        #expect(image[0, 0] == (100, 50, 25, 255))
    }

    @Test("the same list renders to the same bytes every time")
    func deterministic() {
        let polygon = CoveragePolygon(vertices: [DevicePoint(x: 3.3, y: 1.7), DevicePoint(x: 40.1, y: 9.2),
                                                 DevicePoint(x: 30.7, y: 35.9), DevicePoint(x: 2.2, y: 28.4)],
                                      targetWidth: 48, targetHeight: 40)!
        let op = DrawOp.quad(QuadOp(source: "test", localRect: Rect(x: 0, y: 0, width: 1, height: 1), localToDevice: .identity,
                                    polygon: polygon, fill: .solid(PremultipliedColor(red: 0.2, green: 0.4, blue: 0.1, alpha: 0.7)),
                                    opacity: 0.9))
        let renders = (0..<3).map { _ in RasterRenderer().render(RenderList.singlePass(48, 40, [op, op])) }
        #expect(renders[0] == renders[1] && renders[1] == renders[2])
    }

    @Test("an op whose texture is missing from the list draws nothing")
    func missingTexture() {
        let fill = Fill.texture(TextureFill(texture: 99, deviceToTexture: .identity, filter: .linear))
        let image = RasterRenderer().render(RenderList.singlePass(2, 2, [DrawOp.rectangle(0, 0, 2, 2, fill: fill, targetWidth: 2, targetHeight: 2)]))
        #expect(image == Bitmap(width: 2, height: 2))
    }
}

@Suite("Halving passes")
struct HalveTests {
    /// A 4x2 pass: the left column opaque white, column 1 half-covered, then halved to 2x1 at
    /// origin (0, 0) and to 3x1 at origin (1, 0).
    static func list(originX: Int, width: Int) -> RenderList {
        let source = RenderPass(id: 0, width: 4, height: 2, ops: [DrawOp.rectangle(0, 0, 1.5, 2, fill: white, targetWidth: 4, targetHeight: 2)])
        return RenderList(width: width, height: 1,
                          passes: [source, RenderPass(id: 1, width: width, height: 1, ops: [.halve(HalveOp(source: 0, originX: originX))])],
                          textures: [:], diagnostics: [])
    }

    @Test("each pixel is the mean of its 2x2 block, rounded once; blocks outside the source are transparent")
    func means() {
        let image = RasterRenderer().render(Self.list(originX: 0, width: 2))
        // Block 0: two full texels and two half-covered (128): (255 + 255 + 128 + 128) / 4 = 191.5.
        #expect(image[0, 0] == (192, 192, 192, 192))
        #expect(image[1, 0] == (0, 0, 0, 0))
        let shifted = RasterRenderer().render(Self.list(originX: 1, width: 3))
        #expect(shifted[0, 0] == (0, 0, 0, 0) && shifted[1, 0] == (192, 192, 192, 192))
    }
}
