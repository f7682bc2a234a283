// A blur's axes go through a C kernel (oq_blur_axis: each row's sums tap by tap, vectorized
// across the row). The CPU reference's bytes must not move: every copy's blurred pass must be the
// Swift loop's (each pixel's taps in order) to the byte, whatever the radius against the pass.
import Compositor
import Foundation
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("Blur axis kernel")
struct BlurAxisKernelTests {
    /// A pass of noise (opaque, translucent and clear texels) blurred across and then down by
    /// `taps` weights, composited whole.
    static func list(width: Int, height: Int, taps: Int, seed: UInt32) -> RenderList {
        var state = seed
        func next() -> UInt32 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return state >> 8
        }
        let noise = Bitmap(width: width, height: height) { _, _ in
            let a = [0, 255, UInt8(next() % 256)][Int(next() % 3)]
            func channel() -> UInt8 { a == 0 ? 0 : UInt8(next() % (UInt32(a) + 1)) }
            return (channel(), channel(), channel(), a)
        }
        // Gaussian-like weights summing to about 255, as the compositor makes them.
        let r = Double(taps / 2), sigma = max(r / 2.5, 0.5)
        let raw = (0..<taps).map { exp(-pow(Double($0) - r, 2) / (2 * sigma * sigma)) }
        let weights = raw.map { Float($0 / raw.reduce(0, +) * 255) }
        let map = ProjectiveTransform2D(m11: 1 / Double(width), m12: 0, m13: 0, m21: 0, m22: 1 / Double(height), m23: 0,
                                        m31: 0, m32: 0, m33: 1)
        let content = RenderPass(id: 0, width: width, height: height, ops: [
            DrawOp.rectangle(0, 0, Double(width), Double(height), fill: .texture(TextureFill(texture: 1, deviceToTexture: map, filter: .nearest)),
                             targetWidth: width, targetHeight: height),
        ])
        let across = RenderPass(id: 1, width: width, height: height, ops: [.blur(BlurOp(source: 0, horizontal: true, weights: weights))])
        let down = RenderPass(id: 2, width: width, height: height, ops: [.blur(BlurOp(source: 1, horizontal: false, weights: weights))])
        return RenderList(width: width, height: height, passes: [content, across, down], textures: [1: noise], diagnostics: [])
    }

    @Test("every copy's blur is the Swift loop's to the byte: wide and narrow passes, radii within and past them",
          arguments: [(97, 61, 37), (160, 160, 129), (3, 2, 37), (1, 1, 5), (40, 7, 129), (7, 40, 3)])
    func sameBytes(size: (Int, Int, Int)) {
        let (width, height, taps) = size
        let list = Self.list(width: width, height: height, taps: taps, seed: UInt32(width * 31 + taps))
        var plain = RasterRenderer(threads: 2)
        plain.usesKernels = false
        let expected = plain.render(list)
        // The blur does something: the frame is not the noise it started from.
        #expect(expected != list.textures[1]!)
        for copy in KernelCopies.available {
            let drawn = KernelCopies.with(copy) { RasterRenderer(threads: 2).render(list) }
            let differing = zip(drawn.pixels, expected.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "\(KernelCopies.names[copy]), \(width) x \(height), \(taps) taps: \(differing) bytes differ")
        }
    }
}
