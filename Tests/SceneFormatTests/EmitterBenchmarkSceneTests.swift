// The emitter benchmark (benchmarks/scenes/emitter-10000.json) is what docs/performance.md says
// it is: 10,000 live particles at 1280x720 at its time, drawn alike by both backends; and an
// emitter's still at a time is frame t of a run that played up to it.
import Foundation
import OpenQuartzCore
import PixelDiff
import SceneFormat
import Testing

@Suite("Emitter benchmark scene")
struct EmitterBenchmarkSceneTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("benchmarks/scenes/emitter-10000.json")

    @Test("10,000 live particles at 5 s, and the GPU agrees with the CPU within the bar")
    func tenThousand() throws {
        let document = try SceneDocument.load(contentsOf: Self.file)
        #expect(document.size == CGSize(width: 1280, height: 720) && document.time == 5)
        let player = document.makePlayer()
        player.advance(to: document.time)
        let presented = player.root.presentationTree(atMediaTime: document.time)
        let emitters = (presented.sublayers ?? []).compactMap { $0 as? CAEmitterLayer }
        #expect(emitters.count == 1)
        let particles = emitters.map { $0.particles().count }.reduce(0, +)
        #expect(abs(particles - 10_000) <= 2, "\(particles) live particles")
        let bounds = CGRect(origin: .zero, size: document.size)
        let cpu = try CARenderer.image(of: player.root, bounds: bounds, scale: 1, backend: .cpu, atTime: document.time)
        let gpu = try CARenderer.image(of: player.root, bounds: bounds, scale: 1, backend: .gpu, atTime: document.time)
        let report = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }

    @Test("a still at t is the frame at t of a player that went through every frame before it")
    func stillEqualsFrame() throws {
        let document = try SceneDocument.load(contentsOf: Self.file)
        let bounds = CGRect(origin: .zero, size: document.size)
        let still = document.makePlayer()
        still.advance(to: 1.5)
        let a = try CARenderer.image(of: still.root, bounds: bounds, scale: 0.25, backend: .cpu, atTime: 1.5)
        let played = document.makePlayer()
        for frame in 0...90 { played.advance(to: Double(frame) / 60) }
        let b = try CARenderer.image(of: played.root, bounds: bounds, scale: 0.25, backend: .cpu, atTime: 1.5)
        #expect(a.bitmap == b.bitmap)
    }
}
