// RoundedShape.Sampler works out once what an affine map keeps the same at every pixel and
// answers early for pixels wholly inside or outside. The CPU reference's bytes must not move, so
// the sampler must give the general path's coverage to the bit, partial pixels and early answers
// alike, on any affine map (turned, squashed, sheared) and any corner, over each shape's device
// bounds and a margin.
import Compositor
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Rounded shape sampler")
struct RoundedShapeSamplerTests {
    /// A deterministic generator (SplitMix64), so a failure names a case that can be run again.
    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        mutating func next(_ range: ClosedRange<Double>) -> Double { range.lowerBound + next() * (range.upperBound - range.lowerBound) }
    }

    @Test("the sampler's coverage equals the general path's to the bit on random affine maps and shapes")
    func sameBits() throws {
        var random = Random(state: 7)
        var whole = 0, empty = 0, partial = 0
        for index in 0..<60 {
            let width = random.next(2...90), height = random.next(2...70)
            let radius = random.next(0...(min(width, height) / 2)), continuous = index % 3 == 0
            let outer = RoundedRectangle(rect: Rect(x: 0, y: 0, width: width, height: height), topLeft: radius,
                                         topRight: radius * random.next(0...1), bottomRight: radius, bottomLeft: radius * random.next(0...1),
                                         continuous: continuous)
            let border = random.next(0.2...4)
            let inner = index % 2 == 0 && width > 2 * border && height > 2 * border
                ? RoundedRectangle(rect: Rect(x: border, y: border, width: width - 2 * border, height: height - 2 * border),
                                   topLeft: max(radius - border, 0), topRight: max(radius - border, 0),
                                   bottomRight: max(radius - border, 0), bottomLeft: max(radius - border, 0), continuous: continuous)
                : nil
            // Turned, scaled unevenly (down to a twentieth), sheared, moved to a fraction of a pixel.
            let angle = random.next(0...(2 * .pi)), sx = random.next(0.05...3), sy = random.next(0.05...3), shear = random.next(-1...1)
            let localToDevice = ProjectiveTransform2D(
                m11: cos(angle) * sx, m12: sin(angle) * sx, m13: 0,
                m21: (shear * cos(angle) - sin(angle)) * sy, m22: (shear * sin(angle) + cos(angle)) * sy, m23: 0,
                m31: random.next(100...140), m32: random.next(100...140), m33: 1)
            let shape = RoundedShape(deviceToLocal: try #require(localToDevice.inverted()), outer: outer, inner: inner)
            let sampler = RoundedShape.Sampler(shape)
            #expect(sampler.isAffine, "case \(index): an affine map's inverse is affine")
            // The pixels of the shape's device bounds and three more all round.
            let corners = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)].map { x, y in
                (x * localToDevice.m11 + y * localToDevice.m21 + localToDevice.m31, x * localToDevice.m12 + y * localToDevice.m22 + localToDevice.m32)
            }
            let minX = (corners.map(\.0).min()! - 3).rounded(.down), maxX = (corners.map(\.0).max()! + 3).rounded(.up)
            let minY = (corners.map(\.1).min()! - 3).rounded(.down), maxY = (corners.map(\.1).max()! + 3).rounded(.up)
            for y in stride(from: minY + 0.5, to: maxY, by: 1) {
                for x in stride(from: minX + 0.5, to: maxX, by: 1) {
                    let general = shape.coverage(atX: x, y: y), sampled = sampler.coverage(atX: x, y: y)
                    guard general.bitPattern == sampled.bitPattern else {
                        Issue.record("case \(index) at (\(x), \(y)): \(sampled) where the general path gives \(general)")
                        return
                    }
                    let outlines = (shape.outlineCoverage(atX: x, y: y), sampler.outlineCoverage(atX: x, y: y))
                    guard outlines.0.outer.bitPattern == outlines.1.outer.bitPattern,
                          outlines.0.inner.bitPattern == outlines.1.inner.bitPattern else {
                        Issue.record("case \(index) at (\(x), \(y)): outlines \(outlines.1) where the general path gives \(outlines.0)")
                        return
                    }
                    if general == 1 { whole += 1 } else if general == 0 { empty += 1 } else { partial += 1 }
                }
            }
        }
        // Every kind of pixel was compared, the partial ones by the thousand.
        #expect(whole > 10_000 && empty > 5_000 && partial > 5_000, "\(whole) whole, \(empty) empty, \(partial) partial")
    }

    @Test("under perspective the sampler takes the general path")
    func perspective() throws {
        let outer = RoundedRectangle(rect: Rect(x: 0, y: 0, width: 64, height: 48), topLeft: 10, topRight: 10, bottomRight: 10, bottomLeft: 10)
        let map = ProjectiveTransform2D(m11: 1, m12: 0.2, m13: 0.001, m21: -0.2, m22: 1, m23: 0.0005, m31: 60, m32: 40, m33: 1)
        let shape = RoundedShape(deviceToLocal: try #require(map.inverted()), outer: outer)
        let sampler = RoundedShape.Sampler(shape)
        #expect(!sampler.isAffine)
        for y in stride(from: 30.5, to: 110, by: 1) {
            for x in stride(from: 50.5, to: 150, by: 1) {
                #expect(sampler.coverage(atX: x, y: y).bitPattern == shape.coverage(atX: x, y: y).bitPattern)
            }
        }
    }
}
