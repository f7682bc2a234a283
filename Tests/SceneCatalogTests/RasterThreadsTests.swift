// The CPU reference drawn by bands of rows on several threads (RasterRenderer.threads): every
// built-in scene gives the same bytes on one thread as on two or three (bands of other sizes,
// an odd count leaving uneven bands), so the reference does not depend on the machine.
import Compositor
import Foundation
import OpenQuartzCore
import RasterBackend
import SceneCatalog
import Testing

@Suite("CPU reference on several threads")
struct RasterThreadsTests {
    /// Two and three threads in the optimized suite (`make test-release`, CI); three (bands split
    /// unevenly) in a debug build, where the three renders of every scene took 31 s.
    #if DEBUG
    static let threadCounts = [3]
    #else
    static let threadCounts = [2, 3]
    #endif

    @Test("every catalog scene: one thread, two and three give the same bytes")
    func sameBytes() throws {
        var scenes = 0, multiBand = 0
        for scene in DemoScene.all {
            let renderer = CARenderer(backend: .cpu, scale: scene.scale)
            renderer.layer = scene.build()
            renderer.bounds = scene.bounds
            renderer.beginFrame(atTime: scene.time)
            let list = try renderer.makeRenderList()
            let one = RasterRenderer(threads: 1).render(list)
            for threads in Self.threadCounts {
                let many = RasterRenderer(threads: threads).render(list)
                let same = one.pixels == many.pixels
                #expect(same, "\(scene.name): \(threads) threads differ from one")
            }
            scenes += 1
            if list.height >= 2 * 16 { multiBand += 1 }
        }
        #expect(scenes == DemoScene.all.count && multiBand > scenes / 2, "\(multiBand) of \(scenes) scenes split into bands")
    }
}
