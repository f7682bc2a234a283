// A texture drawn a texel a pixel (a group's, mask's or matte's pass composited where it was
// drawn) goes through a C kernel (oq_picks_over): through the source tables pixel by pixel, or,
// where the columns step one texel a pixel and the table is the identity (no tint, opacity 1),
// the row of texels blended over many bytes at once. The CPU reference's bytes must not move:
// every copy of the kernel must give the Swift path's frame to the byte, for any bytes a pass
// can hold (colour bytes over alpha's included, as plus-lighter leaves them), over any backdrop.
import Compositor
import Foundation
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("Pass composite kernel")
struct PassCompositeKernelTests {
    static let width = 203, height = 150

    /// Every byte drawn at random: no premultiplied colour (a channel may exceed alpha), runs
    /// of clear texels and of opaque ones among them.
    static func noise(_ width: Int, _ height: Int, seed: UInt64) -> Bitmap {
        var state = seed
        func byte() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        return Bitmap(width: width, height: height) { x, _ in
            let (r, g, b, a) = (byte(), byte(), byte(), byte())
            switch x % 37 {
            case 0..<5: return (0, 0, 0, 0)
            case 5..<9: return (r, g, b, 255)
            default: return (r, g, b, a)
            }
        }
    }

    /// A quad drawing `image` (`size` texels) a texel a pixel with its corner at (x, y),
    /// mirrored across where `mirrored` (its columns step back a texel a pixel).
    static func quad(_ image: UInt64, size: (Int, Int), x: Double, y: Double, mirrored: Bool, opacity: Double,
                     tint: PremultipliedColor, alphaOnly: Bool, blend: BlendMode) -> DrawOp? {
        let w = Double(size.0), h = Double(size.1)
        let layer = ProjectiveTransform2D(m11: mirrored ? -w : w, m12: 0, m13: 0, m21: 0, m22: h, m23: 0,
                                          m31: mirrored ? x + w : x, m32: y, m33: 1)
        guard let deviceToTexture = layer.inverted(),
              let polygon = CoveragePolygon(vertices: [DevicePoint(x: x, y: y), DevicePoint(x: x + w, y: y),
                                                       DevicePoint(x: x + w, y: y + h), DevicePoint(x: x, y: y + h)],
                                            targetWidth: width, targetHeight: height) else { return nil }
        let fill = TextureFill(source: .image(image), deviceToTexture: deviceToTexture, filter: .nearest, alphaOnly: alphaOnly)
        return .quad(QuadOp(source: "texture", localRect: Rect(x: 0, y: 0, width: 1, height: 1), localToDevice: layer,
                            polygon: polygon, fill: .texture(fill), opacity: opacity, blend: blend, tint: tint))
    }

    /// A backdrop of noise, then 40 textures of noise a texel a pixel: most as a whole pass is
    /// composited (identity), the rest tinted, faded, alpha-only, mirrored or masking.
    static func list(seed: UInt64) -> RenderList {
        var dice = Dice(state: seed)
        let bitmaps = [noise(width, height, seed: seed), noise(61, 47, seed: seed + 1), noise(150, 90, seed: seed + 2), noise(9, 130, seed: seed + 3)]
        let ids = bitmaps.map { CGImage(bitmap: $0).identifier }
        var ops = [quad(ids[0], size: (width, height), x: 0, y: 0, mirrored: false, opacity: 1, tint: .opaqueWhite,
                        alphaOnly: false, blend: .sourceOver)!]
        for i in 0..<40 {
            let k = 1 + i % 3, image = bitmaps[k]
            let plain = i % 2 == 0
            let x = (dice.next() * Double(width - 20)).rounded(.down) - 10, y = (dice.next() * Double(height - 20)).rounded(.down) - 10
            let tint = !plain && i % 5 == 1 ? PremultipliedColor(red: 0.4, green: 0.2, blue: 0.7, alpha: 0.8) : .opaqueWhite
            let op = quad(ids[k], size: (image.width, image.height), x: x, y: y, mirrored: !plain && i % 7 == 3,
                          opacity: plain || i % 3 == 0 ? 1 : 0.1 + 0.8 * dice.next(), tint: tint,
                          alphaOnly: !plain && i % 9 == 5, blend: !plain && i % 11 == 7 ? .destinationIn : .sourceOver)
            if let op { ops.append(op) }
        }
        return RenderList.singlePass(width, height, ops, textures: Dictionary(uniqueKeysWithValues: zip(ids, bitmaps)))
    }

    struct Dice {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    @Test("every copy of the kernel gives the Swift path's frame to the byte, for any bytes over any backdrop",
          arguments: [1, 2, 3] as [UInt64])
    func sameBytes(seed: UInt64) {
        let list = Self.list(seed: seed)
        // Every quad is drawn a texel a pixel.
        for case .quad(let quad) in list.passes[0].ops {
            #expect(RasterRenderer().textureSampling(of: quad, textures: list.textures) == .picks)
        }
        var swift = RasterRenderer(threads: 1)
        swift.usesKernels = false
        let expected = swift.render(list)
        // The frame is not the backdrop alone: the quads drew.
        #expect(expected.pixels != RenderList.singlePass(Self.width, Self.height, [list.passes[0].ops[0]], textures: list.textures)
            .render(with: swift).pixels)
        for copy in KernelCopies.available {
            let drawn = KernelCopies.with(copy) { RasterRenderer(threads: 1).render(list) }
            let differing = zip(drawn.pixels, expected.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "\(KernelCopies.names[copy]): \(differing) bytes differ from the Swift path's")
        }
    }
}

private extension RenderList {
    func render(with renderer: RasterRenderer) -> Bitmap { renderer.render(self) }
}
