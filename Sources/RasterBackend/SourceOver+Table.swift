import CPixelKernels

extension SourceOver {
    /// `blend` (or `add`) of one colour over runs of pixels: each channel's result depends only on
    /// the byte under it, so a run is a table per channel (`lut`, entry channel x 256 + the byte
    /// under it, made with the very expressions `blend` and `add` evaluate), or for source-over of
    /// a premultiplied colour the same bytes worked out sixteen pixels at a time in C (`source`,
    /// `oq_solid_over`: a translucent run was four lookups a pixel, some 1.3 ns, against 0.1-0.2).
    package struct Table {
        /// Empty where `source` is given (the kernel's bytes are the table's; 1,024 roundings a
        /// table were a few per cent of a frame of cards).
        package let lut: [UInt8]
        /// The source's bytes for `oq_solid_over` (red lowest, alpha highest), where it applies:
        /// source-over, and no colour byte over alpha's.
        package let source: UInt32?
    }

    /// The table of `blend` (or, `adding`, `add`) of one colour.
    package static func table(red: Double, green: Double, blue: Double, alpha: Double, adding: Bool = false) -> Table {
        // The bytes `blend` rounds the source to (unorm8's), whose `over` each entry is
        // (SourceOverTests: `over` is the doubles' expression for every s, a and d).
        let r = rounded(red), g = rounded(green), b = rounded(blue), a = rounded(alpha)
        if !adding, r <= a, g <= a, b <= a {
            return Table(lut: [], source: UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24)
        }
        return Table(lut: lookups(red: red, green: green, blue: blue, alpha: alpha, adding: adding), source: nil)
    }

    /// The table's entries, made with the very expressions `blend` and `add` evaluate.
    package static func lookups(red: Double, green: Double, blue: Double, alpha: Double, adding: Bool = false) -> [UInt8] {
        let values = (unorm8(red), unorm8(green), unorm8(blue), unorm8(alpha))
        // Adding is blending with nothing taken away: d / 255 * 1 is d / 255 exactly.
        let keep = adding ? 1 : 1 - values.3
        // One plain loop a channel (a card's tables were a few per cent of a frame of cards).
        return [UInt8](unsafeUninitializedCapacity: 1024) { table, count in
            func fill(_ channel: Int, _ value: Double) {
                for d in 0..<256 { table[channel * 256 + d] = quantize(value + ByteUnits.value(UInt8(d)) * keep) }
            }
            fill(0, values.0); fill(1, values.1); fill(2, values.2); fill(3, values.3)
            count = 1024
        }
    }

    /// Every channel byte in `start..<end` (a run of whole pixels) through `table`: the kernel where
    /// it applies, or the lookups. `usesKernel` false makes the lookups in every case (the tests
    /// hold the two together).
    package static func apply(_ table: Table, to pixels: UnsafeMutableBufferPointer<UInt8>, from start: Int, to end: Int,
                              usesKernel: Bool = true) {
        guard end > start, let base = pixels.baseAddress else { return }
        if let source = table.source {
            // An opaque colour is that pixel whatever lies beneath (over(s, 0, d) is s): the run
            // is stored four bytes at a time (a frame's background, an opaque card's inside).
            if source >> 24 == 255 {
                UnsafeMutableRawPointer(base + start).withMemoryRebound(to: UInt32.self, capacity: (end - start) / 4) {
                    $0.update(repeating: source.littleEndian, count: (end - start) / 4)
                }
            } else if usesKernel {
                oq_solid_over(base + start, (end - start) / 4, source)
            } else {
                let s = (UInt8(source & 255), UInt8(source >> 8 & 255), UInt8(source >> 16 & 255), UInt8(source >> 24))
                for i in stride(from: start, to: end, by: 4) { blend(r: s.0, g: s.1, b: s.2, a: s.3, into: pixels, at: i) }
            }
            return
        }
        table.lut.withUnsafeBufferPointer { lut in
            // An opaque colour's tables give one value whatever the byte beneath (each is
            // nondecreasing in it, so its ends tell): the run is that pixel.
            if lut[0] == lut[255], lut[256] == lut[511], lut[512] == lut[767], lut[768] == lut[1023] {
                var pattern: UInt32 = 0
                withUnsafeMutableBytes(of: &pattern) { bytes in
                    bytes[0] = lut[0]; bytes[1] = lut[256]; bytes[2] = lut[512]; bytes[3] = lut[768]
                }
                UnsafeMutableRawPointer(base + start).withMemoryRebound(to: UInt32.self, capacity: (end - start) / 4) {
                    $0.update(repeating: pattern, count: (end - start) / 4)
                }
                return
            }
            var i = start
            while i < end {
                pixels[i] = lut[Int(pixels[i])]
                pixels[i + 1] = lut[256 + Int(pixels[i + 1])]
                pixels[i + 2] = lut[512 + Int(pixels[i + 2])]
                pixels[i + 3] = lut[768 + Int(pixels[i + 3])]
                i += 4
            }
        }
    }
}
