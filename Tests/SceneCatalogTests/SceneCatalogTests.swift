// Every built-in scene on every backend (after Skia's GM x sink): the CPU reference against the
// golden PNG checked in beside this file, and the GPU against the CPU by the agreement bar.
//
// Goldens go through swift-snapshot-testing's assertSnapshot (Goldens/<scene>.cpu.png): `make goldens` (record mode failed)
// re-records those that changed, never under CI, where a missing golden fails. A failing golden
// leaves its artifacts in SNAPSHOT_ARTIFACTS (`make test`: out/snapshot-failures); a GPU-vs-CPU
// disagreement writes expected | heat map | actual to Failures/ beside this file.
import Foundation
import Synchronization
import OpenQuartzCore
import PixelDiff
import SceneCatalog
import SnapshotTesting
import Testing

private let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
private let goldens = here.appendingPathComponent("Goldens")
let failures = here.appendingPathComponent("Failures")

private func render(_ scene: DemoScene, _ backend: RenderBackend) throws -> CGImage {
    guard backend == .cpu else { return try scene.render(backend: backend) }
    if let kept = cpuRenders.withLock({ $0[scene.name] }) { return kept }
    let image = try scene.render(backend: .cpu)
    cpuRenders.withLock { $0[scene.name] = image }
    return image
}

/// Each scene's CPU render, made once for the golden test and the GPU's agreement test (the CPU
/// reference is deterministic; rendering it twice was a fifth of this suite's time).
private let cpuRenders = Mutex<[String: CGImage]>([:])

/// Writes the failure picture and returns a sentence naming it.
func saveFailure(_ name: String, expected: CGImage, actual: CGImage) -> String {
    let url = failures.appendingPathComponent("\(name).triptych.png")
    do {
        try FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
        try CGImage(bitmap: Triptych.make(expected: expected.bitmap, actual: actual.bitmap)).writePNG(to: url)
        return "expected | heat map | actual written to \(url.path)"
    } catch {
        return "(could not write the failure picture: \(error))"
    }
}

@Suite("Scene catalog")
struct SceneCatalogTests {
    @Test("the catalog has at least 15 scenes, each with a unique file-safe name and a summary")
    func catalog() {
        let names = DemoScene.all.map(\.name)
        #expect(names.count >= 15)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" || $0 == "." } })
        #expect(DemoScene.all.allSatisfy { !$0.summary.isEmpty })
    }

    @Test("the CPU reference renders the golden image", arguments: DemoScene.all)
    func cpuMatchesGolden(scene: DemoScene) throws {
        try requireSnapshotShard(scene.name)
        // Within 1/255 per channel: the CPU reference is deterministic, but libm's last bits may
        // differ between machines.
        assertSnapshot(of: try render(scene, .cpu), as: .image(comparator: FuzzyComparator(maxDifferingFraction: 0, maxChannelDelta: 1)),
                       named: "cpu", snapshotDirectory: goldens.path, testName: scene.name)
    }

    @Test("the GPU agrees with the CPU reference within the bar", arguments: DemoScene.all)
    func gpuAgreesWithCPU(scene: DemoScene) throws {
        try requireSnapshotShard(scene.name)
        let cpu = try render(scene, .cpu)
        let gpu = try render(scene, .gpu)
        let report = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        if let failure = AgreementBar.gpuAgainstCPU.failure(of: report) {
            let picture = saveFailure("\(scene.name).gpu-vs-cpu", expected: cpu, actual: gpu)
            Issue.record("\(scene.name): GPU and CPU disagree: \(failure); \(picture)")
        }
    }

    @Test("the CPU backend writes byte-identical PNGs run to run", arguments: [DemoScene.all[0], DemoScene.all.last!])
    func cpuIsDeterministic(scene: DemoScene) throws {
        #expect(try render(scene, .cpu).pngData() == render(scene, .cpu).pngData())
    }

    @Test("the renderer's frame cycle and the one-call image give the same pixels")
    func frameCycle() throws {
        let scene = DemoScene.all[1]
        let renderer = CARenderer(backend: .cpu, scale: scene.scale)
        renderer.layer = scene.build()
        renderer.bounds = scene.bounds
        renderer.beginFrame(atTime: scene.time)
        renderer.render()
        renderer.endFrame()
        #expect(try renderer.makeImage().bitmap == render(scene, .cpu).bitmap)
        #expect(renderer.lastRenderList?.passes.first?.ops.isEmpty == false)
    }

    @Test("makeImage before a frame, and a frame without a layer, are errors that say so")
    func rendererErrors() {
        let renderer = CARenderer()
        #expect { try renderer.makeImage() } throws: { "\($0)".contains("no frame has been rendered") }
        renderer.render()
        #expect { try renderer.makeImage() } throws: { "\($0)".contains("no layer") }
        renderer.layer = CALayer()
        renderer.bounds = CGRect(x: 0, y: 0, width: 0, height: 10)
        renderer.render()
        #expect { try renderer.makeImage() } throws: { "\($0)".contains("invalid render target") }
        renderer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        renderer.beginFrame(atTime: .nan)
        renderer.render()
        #expect { try renderer.makeImage() } throws: { "\($0)".contains("not a finite number") }
    }
}
