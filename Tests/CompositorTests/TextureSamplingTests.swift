// The sampling functions both backends share: mipmap levels, the level of detail and the
// nine-slice map, checked against values worked out by hand.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Mipmaps, level of detail and nine-slice maps")
struct TextureSamplingTests {
    @Test("mipmap levels halve down to 1x1, each texel the rounded mean of four")
    func mipmaps() {
        let bitmap = Bitmap(width: 4, height: 2) { x, _ in (UInt8(x * 60), 0, 255, 255) }
        let levels = bitmap.mipmapLevels()
        #expect(levels.map(\.width) == [2, 1] && levels.map(\.height) == [1, 1])
        // Columns 0, 60 -> 30; 120, 180 -> 150; then (30 + 150) / 2 = 90.
        #expect(levels[0][0, 0] == (30, 0, 255, 255) && levels[0][1, 0] == (150, 0, 255, 255))
        #expect(levels[1][0, 0] == (90, 0, 255, 255))
        #expect(Bitmap(width: 1, height: 1).mipmapLevels().isEmpty)
        #expect(Bitmap(width: 5, height: 3).mipmapLevels().map(\.width) == [2, 1])
    }

    @Test("level of detail: log2 of texels per pixel, larger axis, through perspective")
    func levelOfDetail() {
        // 64 texels over 16 pixels across, 8 over 8 down: lod 2.
        let map = ProjectiveTransform2D(m11: 1.0 / 16, m12: 0, m13: 0, m21: 0, m22: 1.0 / 8, m23: 0, m31: 0, m32: 0, m33: 1)
        #expect(abs(TextureLevelOfDetail.at(x: 3, y: 3, map: map, slices: nil, width: 64, height: 8) - 2) < 1e-12)
        // Magnified: negative.
        #expect(TextureLevelOfDetail.at(x: 3, y: 3, map: map, slices: nil, width: 4, height: 4) < 0)
        // A nine-slice piece three times steeper adds log2(3).
        let slices = NineSlice(x: .init(s1: 0.25, s2: 0.5, t0: 0, t1: 0.75, t2: 0.8, t3: 1),
                               y: .init(s1: 0, s2: 1, t0: 0, t1: 0, t2: 1, t3: 1))
        let lod = TextureLevelOfDetail.at(x: 1, y: 1, map: map, slices: slices, width: 64, height: 8)
        #expect(abs(lod - (2 + log2(3))) < 1e-12)
        // Perspective: w growing with x shrinks the texture's steps further out.
        let tilted = ProjectiveTransform2D(m11: 1.0 / 16, m12: 0, m13: 0.01, m21: 0, m22: 1.0 / 8, m23: 0, m31: 0, m32: 0, m33: 1)
        let near = TextureLevelOfDetail.at(x: 1, y: 1, map: tilted, slices: nil, width: 64, height: 8)
        let far = TextureLevelOfDetail.at(x: 50, y: 1, map: tilted, slices: nil, width: 64, height: 8)
        #expect(far < near)
    }

    @Test("a nine-slice axis: fixed ends, stretched middle, zero-width pieces hold their value")
    func nineSliceAxis() {
        let axis = NineSlice.Axis(s1: 0.1, s2: 0.9, t0: 0, t1: 0.25, t2: 0.75, t3: 1)
        #expect(axis.map(0.05).value == 0.125 && axis.map(0.05).slope == 2.5)
        #expect(abs(axis.map(0.5).value - 0.5) < 1e-12 && abs(axis.map(0.5).slope - 0.625) < 1e-12)
        #expect(abs(axis.map(0.95).value - 0.875) < 1e-12)
        let noCorner = NineSlice.Axis(s1: 0, s2: 1, t0: 0, t1: 0, t2: 1, t3: 1)
        #expect(noCorner.map(-0.5).value == 0 && noCorner.map(-0.5).slope == 0 && noCorner.map(1.5).value == 1)
    }

    @Test("the builder slices the contents by contentsCenter in points, shrinking corners that do not fit")
    func builderSlices() throws {
        let image = CGImage(bitmap: Bitmap(width: 24, height: 24))
        let layer = namedLayer("button", CGRect(x: 0, y: 0, width: 120, height: 12), color: nil)
        layer.contents = image
        layer.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        let list = try buildList(layer, CGRect(x: 0, y: 0, width: 120, height: 12))
        let fills = list.passes.flatMap(\.ops).compactMap { op -> TextureFill? in
            if case .quad(let q) = op, case .texture(let f) = q.fill { return f } else { return nil }
        }
        let slices = try #require(fills.first?.slices)
        // 6-point corners of 120 across; down, two 6-point corners in 12: s1 = s2 = 0.5.
        #expect(abs(slices.x.s1 - 0.05) < 1e-12 && abs(slices.x.s2 - 0.95) < 1e-12)
        #expect(abs(slices.y.s1 - 0.5) < 1e-12 && abs(slices.y.s2 - 0.5) < 1e-12)
        #expect(slices.x.t1 == 0.25 && slices.x.t2 == 0.75)
    }
}
