// GIF frames are quantized on several threads at once (quartz animate encodes frames in
// parallel): the result must be the one a single thread gets. giflib's median cut sorts through a
// file-level static, so unguarded concurrent calls gave other palettes (a sharded run's GIF
// differed from one run's now and then).
import Dispatch
import Foundation
import OpenCoreGraphics
import Testing

@Suite("GIF encoder")
struct GIFEncoderTests {
    /// Frames of many colours (more than 255, so the median cut sorts along every axis), each different.
    static func frame(_ seed: Int) -> Bitmap {
        Bitmap(width: 96, height: 64) { x, y in
            (UInt8((x * 5 + seed * 37) & 255), UInt8((y * 7 + x * seed) & 255), UInt8((x * y + seed * 11) & 255), 255)
        }
    }

    /// A one-frame GIF of a quantized frame: its bytes hold the palette and the indices.
    static func gif(_ frame: GIFEncoder.Frame) throws -> Data {
        var encoder = GIFEncoder(width: 96, height: 64, fps: 30)
        try encoder.add(frame)
        return try encoder.encoded()
    }

    @Test("quantizing on many threads at once gives each frame the palette and indices one thread gives it")
    func concurrentQuantizationIsDeterministic() throws {
        let frames = (0..<8).map(Self.frame)
        let expected = try frames.map { try Self.gif(GIFEncoder.quantize($0)) }
        let lock = NSLock()
        nonisolated(unsafe) var differing: [Int] = []
        DispatchQueue.concurrentPerform(iterations: 96) { iteration in
            let index = iteration % frames.count
            let bytes = try? Self.gif(GIFEncoder.quantize(frames[index]))
            if bytes != expected[index] {
                lock.withLock { differing.append(iteration) }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) of 96 concurrent quantizations differ from the serial ones")
    }
}
