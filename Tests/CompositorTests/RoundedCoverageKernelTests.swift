// A rounded shape's coverage along a row (RoundedShape.RowCoverage) comes from a C kernel that
// runs the sampler's arithmetic with its branches as selects, several pixels at once. The CPU
// reference's bytes must not move: each pixel's coverage must be the sampler's to the bit, in
// every copy of the kernel (baseline, AVX2, AVX-512), at any run length and start, on any affine
// map, with or without an inner outline, and where the map is degenerate.
import Compositor
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Rounded coverage kernel")
struct RoundedCoverageKernelTests {
    typealias Random = RoundedShapeSamplerTests.Random

    /// Case `index`: a random rounded rectangle (a ring every other case), seen through a random
    /// affine map: turned, mirrored, squashed to a twentieth, sheared; every fifth with w = 0.5
    /// (the map's homogeneous form scaled), every thirteenth squashed to nothing along one axis.
    static func shape(_ index: Int, _ random: inout Random) throws -> (shape: RoundedShape, bounds: (x: ClosedRange<Int>, y: ClosedRange<Int>)) {
        let width = random.next(1...90), height = random.next(1...70)
        let radius = random.next(0...(min(width, height) / 2)) * (index % 7 == 0 ? 0 : 1)
        let outer = RoundedRectangle(rect: Rect(x: random.next(-3...3), y: random.next(-3...3), width: width, height: height), topLeft: radius,
                                     topRight: radius * random.next(0...1), bottomRight: radius, bottomLeft: radius * random.next(0...1))
        let border = random.next(0.2...6)
        let inner = index % 2 == 0 && width > 2 * border && height > 2 * border
            ? RoundedRectangle(rect: Rect(x: outer.rect.x + border, y: outer.rect.y + border, width: width - 2 * border, height: height - 2 * border),
                               topLeft: max(radius - border, 0), topRight: max(radius - border * random.next(0...2), 0),
                               bottomRight: max(radius - border, 0), bottomLeft: max(radius - border, 0))
            : nil
        let angle = random.next(0...(2 * .pi)), sx = random.next(0.05...3) * (index % 3 == 1 ? -1 : 1), sy = random.next(0.05...3)
        let shear = random.next(-1...1)
        let localToDevice = ProjectiveTransform2D(
            m11: cos(angle) * sx, m12: sin(angle) * sx, m13: 0,
            m21: (shear * cos(angle) - sin(angle)) * sy, m22: (shear * sin(angle) + cos(angle)) * sy, m23: 0,
            m31: random.next(100...140), m32: random.next(100...140), m33: 1)
        var deviceToLocal = try #require(localToDevice.inverted())
        if index % 5 == 0 {
            deviceToLocal = ProjectiveTransform2D(m11: deviceToLocal.m11 * 0.5, m12: deviceToLocal.m12 * 0.5, m13: 0,
                                                  m21: deviceToLocal.m21 * 0.5, m22: deviceToLocal.m22 * 0.5, m23: 0,
                                                  m31: deviceToLocal.m31 * 0.5, m32: deviceToLocal.m32 * 0.5, m33: 0.5)
        }
        if index % 13 == 0 {
            deviceToLocal.m12 = 0; deviceToLocal.m22 = 0
        }
        let corners = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)].map { x, y in
            (x * localToDevice.m11 + y * localToDevice.m21 + localToDevice.m31, x * localToDevice.m12 + y * localToDevice.m22 + localToDevice.m32)
        }
        let xs = Int((corners.map(\.0).min()! - 4).rounded(.down))...Int((corners.map(\.0).max()! + 4).rounded(.up))
        let ys = Int((corners.map(\.1).min()! - 4).rounded(.down))...Int((corners.map(\.1).max()! + 4).rounded(.up))
        return (RoundedShape(deviceToLocal: deviceToLocal, outer: outer, inner: inner), (xs, ys))
    }

    @Test("each pixel's coverage is the sampler's to the bit, in every copy of the kernel, at any run length")
    func sameBits() throws {
        var whole = 0, empty = 0, partial = 0, degenerate = 0
        for copy in KernelCopies.available {
            var random = Random(state: 11)
            for index in 0..<48 {
                let (shape, bounds) = try RoundedCoverageKernelTests.shape(index, &random)
                let rows = RoundedShape.RowCoverage(RoundedShape.Sampler(shape))
                #expect(rows.isKernel, "case \(index): an affine map with circular corners takes the kernel")
                let outer = UnsafeMutablePointer<Double>.allocate(capacity: 16), inner = UnsafeMutablePointer<Double>.allocate(capacity: 16)
                defer { outer.deallocate(); inner.deallocate() }
                for y in bounds.y {
                    var x = bounds.x.lowerBound
                    while x <= bounds.x.upperBound {
                        // Runs of 1 to 16 pixels: whole vectors, partial ones and tails.
                        let count = 1 + Int(random.next() * 16)
                        KernelCopies.with(copy) { rows.coverages(row: y, from: x, count: count, outer: outer, inner: inner) }
                        for i in 0..<count {
                            let c = rows.sampler.outlineCoverage(atX: Double(x + i) + 0.5, y: Double(y) + 0.5)
                            guard c.outer.bitPattern == outer[i].bitPattern, c.inner.bitPattern == inner[i].bitPattern else {
                                Issue.record("\(KernelCopies.names[copy]), case \(index) at (\(x + i), \(y)): (\(outer[i]), \(inner[i])) where the sampler gives \(c)")
                                return
                            }
                            if index % 13 == 0 { degenerate += 1 }
                            if c.outer == 1 { whole += 1 } else if c.outer == 0 { empty += 1 } else { partial += 1 }
                        }
                        x += count
                    }
                }
            }
        }
        // Every kind of pixel was compared, the partial ones by the thousand.
        #expect(whole > 10_000 && empty > 10_000 && partial > 5_000 && degenerate > 1_000,
                "\(whole) whole, \(empty) empty, \(partial) partial, \(degenerate) under a degenerate map")
    }

    @Test("continuous corners and perspective are worked out pixel by pixel, to the same coverage")
    func fallBack() throws {
        let outer = RoundedRectangle(rect: Rect(x: 0, y: 0, width: 64, height: 48), topLeft: 10, topRight: 10, bottomRight: 10, bottomLeft: 10)
        var continuous = outer
        continuous.continuous = true
        let turned = ProjectiveTransform2D(m11: 1, m12: 0.2, m13: 0, m21: -0.2, m22: 1, m23: 0, m31: 60, m32: 40, m33: 1)
        let perspective = ProjectiveTransform2D(m11: 1, m12: 0.2, m13: 0.001, m21: -0.2, m22: 1, m23: 0.0005, m31: 60, m32: 40, m33: 1)
        for (map, shape) in [(turned, continuous), (perspective, outer)] {
            let rows = RoundedShape.RowCoverage(RoundedShape.Sampler(RoundedShape(deviceToLocal: try #require(map.inverted()), outer: shape)))
            #expect(!rows.isKernel)
            let outerValues = UnsafeMutablePointer<Double>.allocate(capacity: 100), innerValues = UnsafeMutablePointer<Double>.allocate(capacity: 100)
            defer { outerValues.deallocate(); innerValues.deallocate() }
            for y in stride(from: 30, to: 110, by: 3) {
                rows.coverages(row: y, from: 50, count: 100, outer: outerValues, inner: innerValues)
                for i in 0..<100 {
                    let c = rows.sampler.outlineCoverage(atX: Double(50 + i) + 0.5, y: Double(y) + 0.5)
                    #expect(c.outer.bitPattern == outerValues[i].bitPattern && c.inner.bitPattern == innerValues[i].bitPattern)
                }
            }
        }
    }
}
