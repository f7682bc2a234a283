import Foundation
import OpenQuartzCore

/// Typed values read from a fuzzer's bytes (libFuzzer's FuzzedDataProvider, in Swift). Past the
/// end every read answers zero, so any input, the empty one included, makes something: the fuzzer
/// then learns which bytes matter from coverage alone.
public struct FuzzedBytes {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Random bytes from a seeded generator: the differential runner's input.
    public init(seed: UInt64, count: Int) {
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        var out = [UInt8]()
        out.reserveCapacity(count)
        while out.count < count {
            // splitmix64: a full-period generator whose output is the same on every platform.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            withUnsafeBytes(of: z) { out.append(contentsOf: $0.prefix(count - out.count)) }
        }
        bytes = out
    }

    public var isExhausted: Bool { offset >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// A number in `range`, from one or two bytes.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound)
        let raw = span < 256 ? UInt64(byte()) : UInt64(byte()) << 8 | UInt64(byte())
        return range.lowerBound + Int(raw % (span + 1))
    }

    /// 0 through 1 in 255 steps.
    public mutating func unit() -> CGFloat { CGFloat(byte()) / 255 }

    /// A value in `range`; when `hostile`, one time in eight a value no caller should send
    /// (NaN, infinities, 1e30, a denormal, -0), so every path meets them.
    public mutating func number(in range: ClosedRange<CGFloat>, hostile: Bool) -> CGFloat {
        if hostile, byte() & 7 == 7 {
            let extremes: [CGFloat] = [.nan, .infinity, -.infinity, 1e30, -1e30, .leastNonzeroMagnitude, -0.0, .greatestFiniteMagnitude]
            return extremes[Int(byte()) % extremes.count]
        }
        return range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// Whatever bytes are left.
    public mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return offset < bytes.count ? Array(bytes[offset...]) : []
    }
}
