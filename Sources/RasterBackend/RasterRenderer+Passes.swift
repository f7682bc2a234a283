import Foundation
import CPixelKernels
import Compositor
import OpenCoreGraphics

// The CPU reference's whole-pass steps: a Gaussian blur and a halving read a whole pass, so they
// run between the bands' stretches of ops, each spread over the threads by output rows.
extension RasterRenderer {
    /// Rows `0..<height` in bands on up to `threads` threads (each output row is its own).
    static func forEachBand(of height: Int, threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let bands = min(threads, max(1, height / minimumBandRows))
        guard bands > 1 else { return body(0..<height) }
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            body((height * band / bands)..<(height * (band + 1) / bands))
        }
    }

    /// One axis of the separable blur, every channel, texels outside transparent.
    /// `usesKernel`: through `oq_blur_axis` (a row's sums tap by tap, vectorized), the same bytes.
    static func blur(_ source: Bitmap, _ op: BlurOp, threads: Int = 1, usesKernel: Bool = true) -> Bitmap {
        let w = source.width, h = source.height, r = op.weights.count / 2
        // Each tap's weight over 255 made once (it was a division a tap and pixel), and each
        // pixel's taps only those inside the pass (those outside add nothing): the same sums.
        let weights = op.weights.map { Double($0) / 255 }
        let horizontal = op.horizontal
        var out = Bitmap(width: w, height: h)
        if usesKernel {
            source.pixels.withUnsafeBufferPointer { src in
                out.pixels.withUnsafeMutableBufferPointer { dst in
                    let src = SharedSource(buffer: src), dst = SharedPixels(buffer: dst)
                    forEachBand(of: h, threads: threads) { rows in
                        withUnsafeTemporaryAllocation(of: Double.self, capacity: 4 * w) { sums in
                            oq_blur_axis(src.buffer.baseAddress!, dst.buffer.baseAddress!, w, h, rows.lowerBound, rows.upperBound,
                                         weights, weights.count, horizontal ? 1 : 0, sums.baseAddress!)
                        }
                    }
                }
            }
            return out
        }
        source.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                let src = SharedSource(buffer: src), dst = SharedPixels(buffer: dst)
                forEachBand(of: h, threads: threads) { rows in
                let src = src.buffer, dst = dst.buffer
                weights.withUnsafeBufferPointer { weights in
                for y in rows {
                    for x in 0..<w {
                        var sum = (0.0, 0.0, 0.0, 0.0)
                        // Tap k reads x + k - r (or y + k - r), inside 0..<w (0..<h).
                        let at = horizontal ? x : y, extent = horizontal ? w : h
                        let taps = max(0, r - at)..<min(weights.count, extent - at + r)
                        let step = horizontal ? 4 : w * 4
                        var i = horizontal ? (y * w + x + taps.lowerBound - r) * 4 : ((y + taps.lowerBound - r) * w + x) * 4
                        for k in taps {
                            let weight = weights[k]
                            sum.0 += Double(src[i]) * weight; sum.1 += Double(src[i + 1]) * weight
                            sum.2 += Double(src[i + 2]) * weight; sum.3 += Double(src[i + 3]) * weight
                            i += step
                        }
                        let o = (y * w + x) * 4
                        dst[o] = SourceOver.rounded(sum.0); dst[o + 1] = SourceOver.rounded(sum.1)
                        dst[o + 2] = SourceOver.rounded(sum.2); dst[o + 3] = SourceOver.rounded(sum.3)
                    }
                }
                }
                }
            }
        }
        return out
    }
}

extension RasterRenderer {
    /// The source at half size: 2x2 means, texels outside transparent.
    static func halve(_ source: Bitmap, _ op: HalveOp, width: Int, height: Int, threads: Int = 1) -> Bitmap {
        var out = Bitmap(width: width, height: height)
        out.pixels.withUnsafeMutableBufferPointer { buffer in
          let pixels = SharedPixels(buffer: buffer)
          forEachBand(of: height, threads: threads) { rows in
          let out = pixels.buffer
          for y in rows {
            for x in 0..<width {
                let sx = 2 * (x - op.originX), sy = 2 * (y - op.originY)
                var sum = (0, 0, 0, 0)
                for j in 0..<2 {
                    for i in 0..<2 {
                        let qx = sx + i, qy = sy + j
                        guard qx >= 0, qy >= 0, qx < source.width, qy < source.height else { continue }
                        let t = source[qx, qy]
                        sum = (sum.0 + Int(t.0), sum.1 + Int(t.1), sum.2 + Int(t.2), sum.3 + Int(t.3))
                    }
                }
                let o = (y * width + x) * 4
                out[o] = SourceOver.rounded(Double(sum.0) / 1020); out[o + 1] = SourceOver.rounded(Double(sum.1) / 1020)
                out[o + 2] = SourceOver.rounded(Double(sum.2) / 1020); out[o + 3] = SourceOver.rounded(Double(sum.3) / 1020)
            }
          }
          }
        }
        return out
    }
}
