// The two facts GL's rounded frames take shortcuts by (GLQuadBatch.Shortcuts): a map that is a
// similarity, and an inner outline that is its outer one eroded by a border. Their drawing is held
// to the whole work in GLBackendTests' FrameShortcutTests.
import Compositor
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Rounded shapes: similarities and eroded outlines")
struct RoundedShapeErosionTests {
    @Test("similarities: turns, uniform scales and mirrors, not squashes, shears or perspective")
    func similarities() {
        for angle in stride(from: 0.0, to: 2 * .pi, by: 0.37) {
            for scale in [0.25, 1, 3.5] {
                for mirror in [1.0, -1.0] {
                    let (c, s) = (cos(angle), sin(angle))
                    let m = ProjectiveTransform2D(m11: c * scale * mirror, m12: s * scale, m13: 0, m21: -s * scale * mirror,
                                                  m22: c * scale, m23: 0, m31: 10, m32: -4, m33: 1)
                    #expect(m.isSimilarity, "angle \(angle), scale \(scale), mirror \(mirror)")
                    #expect(m.inverted()!.isSimilarity, "inverse of angle \(angle), scale \(scale), mirror \(mirror)")
                }
            }
        }
        let squashed = ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1.0001, m23: 0, m31: 0, m32: 0, m33: 1)
        let sheared = ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0.001, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
        let flat = ProjectiveTransform2D(m11: 0, m12: 0, m13: 0, m21: 0, m22: 0, m23: 0, m31: 0, m32: 0, m33: 1)
        let tilted = ProjectiveTransform2D(m11: 1, m12: 0, m13: 0.001, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
        for m in [squashed, sheared, flat, tilted] { #expect(!m.isSimilarity) }
    }

    @Test("erosion: one width all round under corners at least as wide; not tighter corners, uneven sides or continuous corners")
    func erosion() {
        func rounded(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ radii: [Double], continuous: Bool = false) -> RoundedRectangle {
            RoundedRectangle(rect: Rect(x: x, y: y, width: w, height: h), topLeft: radii[0], topRight: radii[1],
                             bottomRight: radii[2], bottomLeft: radii[3], continuous: continuous)
        }
        let outer = rounded(10, 20, 64, 48, [10, 10, 10, 10])
        #expect(rounded(12, 22, 60, 44, [8, 8, 8, 8]).isEroded(from: outer))
        #expect(outer.isEroded(from: outer), "a filled shape alone: eroded by nothing")
        #expect(rounded(20, 30, 44, 28, [0, 0, 0, 0]).isEroded(from: outer), "a border as wide as the radius")
        #expect(!rounded(22, 32, 40, 24, [0, 0, 0, 0]).isEroded(from: outer), "a border wider than the radius")
        #expect(!rounded(12, 23, 60, 43, [8, 8, 8, 8]).isEroded(from: outer), "uneven sides")
        #expect(!rounded(12, 22, 60, 44, [8, 8, 7, 8]).isEroded(from: outer), "a corner not the border less")
        let mixed = rounded(10, 20, 64, 48, [10, 0, 10, 0])
        #expect(!rounded(12, 22, 60, 44, [8, 0, 8, 0]).isEroded(from: mixed), "square corners under a border")
        #expect(mixed.isEroded(from: mixed))
        let continuous = rounded(10, 20, 64, 48, [10, 10, 10, 10], continuous: true)
        #expect(!rounded(12, 22, 60, 44, [8, 8, 8, 8], continuous: true).isEroded(from: continuous))
        #expect(!rounded(42, 44, 0, 0, [0, 0, 0, 0]).isEroded(from: rounded(10, 20, 64, 48, [32, 32, 32, 32])),
                "no inside left")
    }
}
