// The table of byte / 255 the blends and the texture sampler read (C's, statically initialised)
// must hold exactly what the division gives, or every CPU image would move by a rounding.
import RasterBackend
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

    @Test("a byte's value quantized again is the byte: a source of no bytes leaves a pixel as it is")
    func roundTrip() {
        for byte in UInt8.min...UInt8.max {
            #expect(SourceOver.quantize(ByteUnits.value(byte)) == byte, "byte \(byte)")
            #expect(SourceOver.quantize(0 + ByteUnits.value(byte) * (1 - 0)) == byte, "byte \(byte)")
        }
    }
}
