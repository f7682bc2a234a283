// The table of byte / 255 the blends and the texture sampler read (C's, statically initialised)
// must hold exactly what the division gives, or every CPU image would move by a rounding.
@testable import RasterBackend
import Testing

@Suite("Byte units")
struct ByteUnitsTests {
    @Test("every byte's entry is Double(byte) / 255, bit for bit")
    func everyByte() {
        for byte in UInt8.min...UInt8.max {
            let divided = Double(byte) / 255
            #expect(ByteUnits.value(byte).bitPattern == divided.bitPattern, "byte \(byte)")
        }
    }
}
