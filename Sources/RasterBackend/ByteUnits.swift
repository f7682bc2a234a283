import CByteUnits

/// Each byte's value over 255, exactly as `Double(byte) / 255` gives it, read from a table: the
/// blends and the texture sampler convert several bytes a pixel, and a division is some twenty
/// cycles where a load from a table of 2 KiB that stays in the cache is four. The same numbers,
/// so the same output bytes (`ByteUnitsTests`).
///
/// The table is C's (`Sources/CByteUnits`), filled by the compiler: a Swift global with a computed
/// initializer is read through `swift_once` at every access, and under the thread sanitizer the
/// runtime's once takes a lock whenever it is called, so the renderer's threads, reading it
/// several times a pixel, met in the kernel on a futex at nearly every read: the sanitizer's run of
/// the suite took 1,898 s in a CI rehearsal, 530 s with the table in C.
package enum ByteUnits {
    /// `Double(byte) / 255`.
    @inline(__always)
    package static func value(_ byte: UInt8) -> Double { oq_byte_unit(byte) }
}
