// SourceOver.RepeatingBlend, which stores a remembered result where the source and the pixel
// beneath repeat (a shadow's colour over a plain background), against blending every pixel.
import RasterBackend
import Testing

@Suite("Source-over, remembering the last pixel")
struct RepeatingBlendTests {
    @Test("gives the bytes blending pixel by pixel gives, through repeats, changes and empty sources")
    func sameBytes() {
        // Pixels in runs of one value (repeats), with steps between them, under a source that
        // changes every few pixels (sometimes to nothing, sometimes back to what it was).
        let count = 4_000
        var pixels = [UInt8](repeating: 0, count: count * 4)
        var sources: [(Double, Double, Double, Double)] = []
        var state: UInt32 = 12345
        func next() -> UInt32 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return state >> 8
        }
        var pixel: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0), source = (0.0, 0.0, 0.0, 0.0)
        for i in 0..<count {
            if next() % 5 == 0 {
                let a = UInt8(next() % 256)
                pixel = (UInt8(next() % (UInt32(a) + 1)), UInt8(next() % (UInt32(a) + 1)), a / 2, a)
            }
            pixels[i * 4] = pixel.0; pixels[i * 4 + 1] = pixel.1; pixels[i * 4 + 2] = pixel.2; pixels[i * 4 + 3] = pixel.3
            switch next() % 7 {
            case 0: source = (0, 0, 0, 0)
            case 1, 2:
                let a = Double(next() % 1000) / 1000
                source = (a * 0.2, a * 0.3, a * 0.1, a)
            default: break
            }
            sources.append(source)
        }
        var expected = pixels, repeating = SourceOver.RepeatingBlend()
        expected.withUnsafeMutableBufferPointer { out in
            for (i, s) in sources.enumerated() { SourceOver.blend(red: s.0, green: s.1, blue: s.2, alpha: s.3, into: out, at: i * 4) }
        }
        pixels.withUnsafeMutableBufferPointer { out in
            for (i, s) in sources.enumerated() { repeating.blend(red: s.0, green: s.1, blue: s.2, alpha: s.3, into: out, at: i * 4) }
        }
        let differing = (0..<count).filter { i in (0..<4).contains { pixels[i * 4 + $0] != expected[i * 4 + $0] } }
        #expect(differing.isEmpty, "\(differing.count) pixels differ, the first at \(differing.first ?? -1)")
        #expect(Set(expected).count > 100, "the pixels should vary")
    }
}
