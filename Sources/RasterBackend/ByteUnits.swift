/// Each byte's value over 255, exactly as `Double(byte) / 255` gives it, read from a table: the
/// blends and the texture sampler convert several bytes a pixel, and a division is some twenty
/// cycles where a load from a table of 2 KiB that stays in the cache is four. The same numbers,
/// so the same output bytes.
enum ByteUnits {
    nonisolated(unsafe) static let table: UnsafeBufferPointer<Double> = {
        let table = UnsafeMutableBufferPointer<Double>.allocate(capacity: 256)
        for byte in 0..<256 { table[byte] = Double(byte) / 255 }
        return UnsafeBufferPointer(table)
    }()

    /// `Double(byte) / 255`.
    @inline(__always)
    static func value(_ byte: UInt8) -> Double { table[Int(byte)] }
}
