// The workloads: each is a tree of its complexity that animates (no two frames alike), renders
// on the GPU within the agreement bar of the CPU reference, and times every stage.

import Foundation
import GLBackend
import OpenQuartzCore
import PixelDiff
import QuartzBench
import RasterBackend
import Testing

@Suite("Bench workloads")
struct BenchWorkloadTests {
    @Test("eleven workloads with distinct names, each covering a part of the compositor the issue names")
    func catalog() {
        let names = BenchWorkload.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names == ["cards", "shadows-small", "shadows-large", "nested-clips", "shape-masks", "soft-masks",
                          "perspective-3d", "text", "images", "strokes", "group-opacity"])
        #expect(BenchWorkload.named("text")?.unit == "layers" && BenchWorkload.named("nope") == nil)
    }

    @Test("a workload's tree holds its complexity's worth of items", arguments: BenchWorkload.all.map(\.name))
    func complexity(name: String) throws {
        let workload = try #require(BenchWorkload.named(name))
        for n in [1, 7, 30] {
            #expect(workload.build(complexity: n).sublayers?.count == n, "\(name) at \(n)")
        }
    }

    @Test("frames animate, and the GPU's agree with the CPU reference", arguments: BenchWorkload.all.map(\.name))
    func framesAgreeAndDiffer(name: String) throws {
        let workload = try #require(BenchWorkload.named(name))
        let loop = BenchFrameLoop(workload: workload, complexity: 6, backend: .gpu, fps: 60, firstFrame: 10)
        let first = try loop.next(check: true)
        let a = try #require(loop.lastImage)
        for _ in 0..<3 { _ = try loop.next() }
        let later = try loop.next(check: true)
        let b = try #require(loop.lastImage)
        #expect(first.checked && later.checked)
        #expect(first.mismatch == nil && later.mismatch == nil, "\(first.mismatch ?? "") \(later.mismatch ?? "")")
        #expect(try ImageComparison.compare(a, b, tolerance: 0).pixelsOverTolerance > 100, "frames 10 and 14 of \(name) differ")
        #expect(loop.frame == 15)
        let s = later.stages
        for (stage, seconds) in s.named { #expect(seconds >= 0 && seconds < 10, "\(stage)") }
        #expect(s.flattening > 0 && s.submission > 0 && s.evaluation > 0)
        // The wall-clock frame holds its stages one after another (the GPU's own time runs beside
        // them); here it may hold more, a wait for the GL device while other tests draw on it.
        #expect(later.seconds + 1e-4 >= s.sequential, "frame \(later.seconds) s, stages \(s.sequential) s")
    }

    @Test("the images workload gives its layers new contents every frame")
    func imagesChange() throws {
        let workload = try #require(BenchWorkload.named("images"))
        let root = workload.build(complexity: 3)
        func images() -> [ObjectIdentifier?] {
            (root.sublayers ?? []).map { layer in (layer.contents as? CGImage).map { ObjectIdentifier($0) } }
        }
        let before = images()
        workload.update(root, frame: 1)
        let after = images()
        #expect(before.count == 3 && before.allSatisfy { $0 != nil })
        let kept = zip(before, after).filter { $0.0 == $0.1 }.count
        #expect(kept == 0, "\(kept) layers kept their image")
    }

    @Test("on the CPU backend a frame is drawn by the reference itself and not checked")
    func cpuFrames() throws {
        let loop = BenchFrameLoop(workload: try #require(BenchWorkload.named("cards")), complexity: 5, backend: .cpu, fps: 60)
        let frame = try loop.next(check: true)
        #expect(!frame.checked && frame.mismatch == nil && frame.stages.gpu == 0 && frame.stages.readback == 0)
        #expect(frame.stages.submission > 0)
    }
}
