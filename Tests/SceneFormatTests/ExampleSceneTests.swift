// The showcase: every scene document in Examples/ (the seeds' listings written as documents) is
// valid, renders on the CPU as its golden frames (at the document's time and at its end), and the
// GPU agrees with the CPU. The goldens go through assertSnapshot (`make goldens` re-records).
import Foundation
import OpenQuartzCore
import PixelDiff
import SceneFormat
import SeedExamples
import SnapshotTesting
import Testing

private let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples")

private var exampleNames: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
}

private func frame(_ document: SceneDocument, at t: Double, _ backend: RenderBackend) throws -> CGImage {
    let player = document.makePlayer()
    player.advance(to: t)
    return try CARenderer.image(of: player.root, bounds: CGRect(origin: .zero, size: document.size), scale: document.scale,
                                backend: backend, atTime: t)
}

@Suite("Example scene documents")
struct ExampleSceneTests {
    @Test("the showcase has the seeds' scenes") func showcase() {
        #expect(exampleNames.count >= 12, "\(exampleNames)")
        for name in ["pie", "star-wars-crawl", "page-fold", "hypnosis-drag", "gradient-text-mask", "replicator-mirror"] {
            #expect(exampleNames.contains(name), "Examples/\(name).json is missing")
        }
    }

    @Test("each example renders as its golden frames on the CPU, and the GPU agrees", arguments: exampleNames)
    func renders(name: String) throws {
        try requireSnapshotShard(name)
        let document = try SceneDocument.load(contentsOf: examples.appendingPathComponent("\(name).json"))
        var times = [document.time]
        if document.duration > document.time { times.append(document.duration) }
        for t in times {
            let cpu = try frame(document, at: t, .cpu)
            assertSnapshot(of: cpu, as: .image(comparator: FuzzyComparator(maxDifferingFraction: 0, maxChannelDelta: 1)),
                           named: SceneValueFormat.seconds(t), snapshotDirectory: examples.appendingPathComponent("Goldens").path,
                           testName: name)
            let gpu = try frame(document, at: t, .gpu)
            let agreement = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
            #expect(AgreementBar.gpuAgainstCPU.failure(of: agreement) == nil, "\(name) at \(t) s: GPU vs CPU \(agreement)")
        }
    }
}

/// File-name spelling of a time: "0", "1.5", "35".
enum SceneValueFormat {
    static func seconds(_ t: Double) -> String {
        t == t.rounded() ? String(Int(t)) : String(format: "%g", t)
    }
}

@Suite("Seed examples in Swift")
struct SeedExampleTests {
    @Test("each Swift port renders like its scene document (within the GPU-vs-CPU bar: paths built by different calls)",
          arguments: SeedExamples.all.map(\.name))
    func portMatchesDocument(name: String) throws {
        let example = try #require(SeedExamples.all.first { $0.name == name })
        let document = try SceneDocument.load(contentsOf: examples.appendingPathComponent("\(name).json"))
        #expect(document.size == example.size && document.time == example.time)
        let swift = try example.render(backend: .cpu)
        let json = try frame(document, at: example.time, .cpu)
        let report = try ImageComparison.compare(json.bitmap, swift.bitmap, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(name): \(report)")
    }
}
