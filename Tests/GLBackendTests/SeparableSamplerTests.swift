// A texture drawn through an axis-aligned map (a group's or mask's pass composited where it was
// drawn, an image scaled into its layer) is sampled through its columns' and rows' texels worked
// out once (SeparableSampler), a row of source-over in C (oq_texture_over) or, where each pixel is
// one texel, through byte tables; one turned or in perspective has its rows of source-over in C
// (oq_projective_texture_over). The CPU reference's bytes must not move: the frame must be the
// projective sampler's to the byte, in every copy of the kernels and on the Swift path, and the
// GPU's frame of the same list within the agreement bar.
import Compositor
import Foundation
import GLBackend
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Separable texture sampling")
struct SeparableSamplerTests {
    static let width = 240, height = 180

    /// A smooth texture (the GPU's texel choice may differ from the CPU's at a tie, which noise
    /// would turn into a wrong pixel): colour ramps, clear bands along two sides (where they meet,
    /// a pixel's four texels may be three clear and one not: the kernels skip four clear ones),
    /// opaque and translucent parts, premultiplied.
    static func texture(_ width: Int, _ height: Int) -> Bitmap {
        Bitmap(width: width, height: height) { x, y in
            let u = Double(x) / Double(width - 1), v = Double(y) / Double(height - 1)
            let a = u < 0.15 || v < 0.1 ? 0 : v < 0.4 ? 1 : 0.3 + 0.6 * u
            func channel(_ value: Double) -> UInt8 { UInt8((value * a * 255).rounded()) }
            return (channel(u), channel(v), channel(1 - u * v), UInt8((a * 255).rounded()))
        }
    }

    /// Over a plain background, 48 rectangles of three textures: shifted by whole pixels, by
    /// fractions, scaled up, down and mirrored through their layer's inverse (whose m33 is 1 but
    /// for its last bits), hanging past the texture's edge; nearest and bilinear; tinted,
    /// alpha-only, translucent; over, plus, destination-in and multiply; and some turned (the
    /// projective path).
    static func list(seed: UInt64) -> RenderList {
        var random = BlendModeAgreementTests.Dice(state: seed)
        // Keyed by their images' identities: the GPU's texture cache, shared by the tests that
        // run beside this one, keeps textures by identity.
        let bitmaps = [texture(17, 13), texture(64, 48), texture(150, 110)]
        let ids = bitmaps.map { CGImage(bitmap: $0).identifier }
        let textures = Dictionary(uniqueKeysWithValues: zip(ids, bitmaps))
        var ops = [DrawOp.rectangle(0, 0, Double(width), Double(height), fill: .solid(PremultipliedColor(red: 0.3, green: 0.5, blue: 0.6, alpha: 1)),
                                    targetWidth: width, targetHeight: height)]
        for i in 0..<48 {
            let id = ids[i % 3], image = textures[id]!
            let whole = i % 4 < 2
            let scale = whole ? (i % 8 == 1 ? -1 : 1) : random.pick([0.37, 0.55, 1.7, 2.3, -0.8, 1])
            let w = Double(image.width) * abs(scale), h = Double(image.height) * abs(scale) * (i % 5 == 0 ? 1.3 : 1)
            var x = (random.next() * Double(width - 20)).rounded(.down) - 10, y = (random.next() * Double(height - 20)).rounded(.down) - 10
            if !whole, i % 3 == 0 { x += 0.25 + random.next() / 2; y += random.next() }
            // Layer plane (the texture's 0...1) to device, then inverted as the builder inverts it.
            var layer = ProjectiveTransform2D(m11: w * (scale < 0 ? -1 : 1), m12: 0, m13: 0, m21: 0, m22: h, m23: 0,
                                              m31: scale < 0 ? x + w : x, m32: y, m33: 1)
            if i % 12 == 11 {
                let turn = random.next()
                // About the rectangle's corner (x, y).
                let about = ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: -x, m32: -y, m33: 1)
                let back = ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: x, m32: y, m33: 1)
                layer = layer.concatenating(about).concatenating(
                    ProjectiveTransform2D(m11: cos(turn), m12: sin(turn), m13: 0, m21: -sin(turn), m22: cos(turn), m23: 0, m31: 0, m32: 0, m33: 1)
                ).concatenating(back)
            } else if i % 16 == 7 {
                // Tilted back in perspective about its left edge: w varies across it.
                let tilt = ProjectiveTransform2D(m11: 1, m12: 0, m13: 0.6 / w, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
                let about = ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: -x, m32: -y, m33: 1)
                let back = ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: x, m32: y, m33: 1)
                layer = layer.concatenating(about).concatenating(tilt).concatenating(back)
            }
            guard let deviceToTexture = layer.inverted() else { continue }
            let corners = [(0.0, 0.0), (1, 0), (1, 1), (0, 1)].map { layer.apply(CGPoint(x: $0.0, y: $0.1)) }
            // Some rectangles reach two pixels past the texture (clamp to edge), their local
            // rectangle with them.
            let grow = i % 7 == 0 && i % 12 != 11 && i % 16 != 7 ? 2.0 : 0
            let vertices = corners.enumerated().map { k, p in
                DevicePoint(x: Double(p.x) + (k == 1 || k == 2 ? grow : 0), y: Double(p.y) + (k >= 2 ? grow : 0))
            }
            guard let polygon = CoveragePolygon(vertices: vertices, targetWidth: width, targetHeight: height) else { continue }
            // Nearest sampling and destination-in on rectangles of whole pixels, a texel a pixel (as
            // passes are composited): elsewhere the GPU may choose the other texel at a tie, or
            // clear a pixel an edge a hair short of it reaches.
            let exact = whole && i % 5 != 0 && i % 12 != 11 && i % 16 != 7
            let fill = TextureFill(source: .image(id), deviceToTexture: deviceToTexture, filter: exact && i % 4 == 0 ? .nearest : .linear,
                                   alphaOnly: i % 10 == 9 || i % 24 == 4)
            let tint = i % 5 == 4 ? PremultipliedColor(red: 0.4, green: 0.2, blue: 0.7, alpha: 0.8) : .opaqueWhite
            let blend: BlendMode = i % 16 == 15 ? .plus : exact && (i % 8 == 1 || i % 16 == 12) ? .destinationIn : i % 16 == 13 ? .multiply : .sourceOver
            let local = vertices.map { deviceToTexture.apply(CGPoint(x: $0.x, y: $0.y)) }
            let minU = Double(local.map(\.x).min()!), minV = Double(local.map(\.y).min()!)
            let localRect = Rect(x: minU, y: minV, width: Double(local.map(\.x).max()!) - minU, height: Double(local.map(\.y).max()!) - minV)
            ops.append(.quad(QuadOp(source: "texture", localRect: localRect, localToDevice: layer,
                                    polygon: polygon, fill: .texture(fill), opacity: i % 3 == 1 ? 0.2 + random.next() * 0.7 : 1,
                                    blend: blend, tint: tint)))
        }
        return RenderList.singlePass(width, height, ops, textures: textures)
    }

    @Test("the separable sampler's and the projective kernel's frames are the Swift sampler's to the byte, in every copy, and the GPU agrees",
          arguments: [1, 2, 3] as [UInt64])
    func sameBytes(seed: UInt64) throws {
        let list = SeparableSamplerTests.list(seed: seed)
        // Most quads take the separable paths, a fair share of them one texel a pixel.
        var paths = [RasterRenderer.TextureSampling: Int]()
        for case .quad(let quad) in list.passes[0].ops {
            if let path = RasterRenderer().textureSampling(of: quad, textures: list.textures) { paths[path, default: 0] += 1 }
        }
        #expect(paths[.picks, default: 0] >= 8 && paths[.separable, default: 0] >= 15 && paths[.projective, default: 0] >= 6,
                "\(paths)")
        // The reference: every pixel centre through TextureSampler in Swift.
        var reference = RasterRenderer(threads: 1)
        (reference.samplesSeparably, reference.usesKernels) = (false, false)
        let expected = reference.render(list)
        var swift = RasterRenderer(threads: 1)
        swift.usesKernels = false
        var frames = [("Swift, separable", swift.render(list))]
        for copy in KernelCopies.available {
            frames.append((KernelCopies.names[copy], KernelCopies.with(copy) { RasterRenderer(threads: 1).render(list) }))
            // Every textured run through the projective kernel (oq_projective_texture_over).
            var projective = RasterRenderer(threads: 1)
            projective.samplesSeparably = false
            frames.append(("\(KernelCopies.names[copy]), projective", KernelCopies.with(copy) { projective.render(list) }))
        }
        for (name, drawn) in frames {
            let differing = zip(drawn.pixels, expected.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "\(name): \(differing) bytes differ from the Swift projective sampler's")
        }
        let gpu = try GLDevice.shared().render(list)
        let report = try ImageComparison.compare(expected, gpu, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }
}
