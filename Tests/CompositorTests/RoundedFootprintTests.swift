// The footprint of a rounded shape: both backends leave out the pixels off it, so there the
// shape's coverage must be exactly zero.
import Compositor
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Rounded shape footprints")
struct RoundedFootprintTests {
    /// A 64 x 48 rectangle of radius `radius` (a ring `border` wide, if any) through `localToDevice`.
    private func shape(_ localToDevice: ProjectiveTransform2D, radius: Double = 10, border: Double? = nil) throws -> RoundedShape {
        let outer = RoundedRectangle(rect: Rect(x: 0, y: 0, width: 64, height: 48), topLeft: radius, topRight: radius,
                                     bottomRight: radius, bottomLeft: radius)
        let inner = border.map { b in
            RoundedRectangle(rect: Rect(x: b, y: b, width: 64 - 2 * b, height: 48 - 2 * b), topLeft: radius - b,
                             topRight: radius - b, bottomRight: radius - b, bottomLeft: radius - b)
        }
        return RoundedShape(deviceToLocal: try #require(localToDevice.inverted()), outer: outer, inner: inner)
    }

    private func rotation(_ angle: Double, scale: (Double, Double) = (1, 1), w: (Double, Double) = (0, 0)) -> ProjectiveTransform2D {
        ProjectiveTransform2D(m11: cos(angle) * scale.0, m12: sin(angle) * scale.0, m13: w.0,
                              m21: -sin(angle) * scale.1, m22: cos(angle) * scale.1, m23: w.1,
                              m31: 60, m32: 40, m33: 1)
    }

    @Test("off the footprint every pixel of the bounds has zero coverage; on it the shape is drawn", arguments: [0.0, 0.3, 0.79, 1.2, 2.5])
    func zeroOffFootprint(angle: Double) throws {
        let bounds = PixelRect(minX: 0, minY: 0, maxX: 160, maxY: 140)
        for (map, border) in [(rotation(angle), nil), (rotation(angle, scale: (1.6, 1.1)), 3.0),
                              (rotation(angle, w: (0.0008, 0.0005)), 2.0)] {
            let s = try shape(map, border: border)
            let footprint = try #require(s.footprint(within: bounds))
            var inside = 0
            for y in bounds.minY..<bounds.maxY {
                let span = footprint.pixelSpan(row: y)
                for x in bounds.minX..<bounds.maxX {
                    let c = s.coverage(atX: Double(x) + 0.5, y: Double(y) + 0.5)
                    if span.contains(x) { inside += c > 0 ? 1 : 0 } else { #expect(c == 0, "(\(x), \(y)) at angle \(angle)") }
                }
            }
            #expect(inside > 300)
        }
    }

    @Test("a map squashing one way far more than the other, or steep perspective, has no footprint")
    func unevenMaps() throws {
        let bounds = PixelRect(minX: 0, minY: 0, maxX: 160, maxY: 140)
        #expect(try shape(rotation(0.4, scale: (1, 0.05))).footprint(within: bounds) == nil)
        #expect(try shape(rotation(0.4, w: (0.004, 0))).footprint(within: bounds) == nil)
        #expect(try shape(rotation(0.4)).footprint(within: bounds) != nil)
    }
}
