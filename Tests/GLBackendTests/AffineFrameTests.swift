// Runs of rounded shapes whose every map is affine with w exactly 1 draw their frames with the
// rounded batch's AFFINE_MAP variant, which reads the map's derivatives (and the vertex stage's
// lengths of them) instead of working them out per pixel (GLQuadBatch.isAffine). The same bits
// as the general program: held to it here on the middles' scenes, byte for byte. Runs whose every
// fragment lies a pixel or more inside each quad's edges (cards clipped only by the frame) take
// the UNCLIPPED variant, which does not read the edges: the same bits again, and a card cut by
// its superlayer's bounds keeps them.
import Compositor
import GLBackend
import Testing

@Suite("Rounded frames under affine maps: the variant that reads the map's derivatives", .serialized)
struct AffineFrameTests {
    /// Two devices of the suite's own, one drawing every frame with the general program.
    static let devices = Result { () throws -> (affine: GLDevice, general: GLDevice) in
        let general = try GLDevice()
        general.drawRoundedFramesGeneral()
        return (try GLDevice(), general)
    }

    @Test("the same bytes as the general program; perspective keeps the general one",
          arguments: RoundedMiddleTests.Arrangement.allCases, [1.0, 2.0])
    func sameAsGeneral(arrangement: RoundedMiddleTests.Arrangement, scale: Double) throws {
        let root = RoundedMiddleTests.tree(arrangement)
        let list = try RenderListBuilder(viewport: root.frame, scale: scale).build(root: root)
        let (affine, general) = try Self.devices.get()
        let before = (affine.roundedAffineRuns, affine.roundedUnclippedRuns)
        let a = try affine.render(list), b = try general.render(list)
        let runs = affine.roundedAffineRuns - before.0, unclipped = affine.roundedUnclippedRuns - before.1
        #expect(arrangement == .perspective ? runs == 0 : runs > 0, "\(runs) runs drawn with the affine variant")
        #expect(arrangement == .perspective || arrangement == .clipped ? unclipped == 0 : unclipped > 0,
                "\(unclipped) runs drawn without their edges")
        #expect(general.roundedAffineRuns == 0)
        let differing = a.pixels.indices.filter { a.pixels[$0] != b.pixels[$0] }.count
        #expect(differing == 0, "\(differing) bytes differ from the general program's")
    }
}
