// What `quartz fuzz-differential` found: random layer trees the GPU and the CPU reference drew
// differently beyond the agreement bar. The first seeds disagreed until the reference converted a
// draw's colour to 8 bits before blending it, as the GPU does (translucent draws piled up drifted
// a step apart per draw); the others until the GPU filtered textures (shadows upsampled from
// halved passes, groups, rasterized layers, images) in float, as the reference does, instead of
// in the driver's 8-bit steps. They must keep agreeing.
import Foundation
import OpenQuartzCore
import PixelDiff
import SceneCatalog
import Testing

@Suite("Differential fuzz findings")
struct DifferentialFuzzTests {
    /// Seeds of `quartz fuzz-differential --seed 1` (trees of at most 24 layers in 64 x 64 points)
    /// that disagreed, among them the worst ones (308: 936 pixels apart; 825: PSNR 49.3 dB).
    static let seeds: [UInt64] = [43, 57, 64, 84, 308, 578, 695, 825, 130, 198, 257, 260, 275, 485, 748, 877]

    @Test("random trees that once disagreed render alike on the GPU and the CPU", arguments: seeds)
    func agrees(seed: UInt64) throws {
        var bytes = FuzzedBytes(seed: seed, count: 1024)
        let root = RandomLayerTree.make(from: &bytes, size: 64, maxLayers: 24)
        let viewport = CGRect(x: 0, y: 0, width: 64, height: 64)
        let cpu = try root.renderedImage(bounds: viewport, backend: .cpu)
        let gpu = try root.renderedImage(bounds: viewport, backend: .gpu)
        let report = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "seed \(seed): \(report)")
    }
}
