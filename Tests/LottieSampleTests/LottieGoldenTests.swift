// Lottie files of our own making (Tests/LottieSampleTests/Documents: each of the importer's
// features at least once, by name) and the two in Examples/lottie, each shown by LottiePlayer at
// three points of its animation: the CPU frame held to its golden (`make goldens` re-records;
// look at them), the GPU frame to the CPU's within the agreement bar.
import Foundation
import LayerModel
import LottieImport
import OpenCoreGraphics
import OpenQuartzCore
import PixelDiff
import SnapshotTesting
import Testing

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let documents = repository.appendingPathComponent("Tests/LottieSampleTests/Documents")
private let examples = repository.appendingPathComponent("Examples/lottie")

/// Every document, as "Documents/name" or "Examples/name".
private var documentNames: [String] {
    [("Documents", documents), ("Examples", examples)].flatMap { prefix, folder in
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }
            .map { "\(prefix)/\($0.dropLast(5))" }
    }.sorted()
}

@Suite("Lottie files of our own against their goldens")
struct LottieGoldenTests {
    @Test("the documents cover the importer's features, and both examples are there")
    func coverage() throws {
        let names = documentNames
        #expect(names.filter { $0.hasPrefix("Documents/") }.count >= 12, "\(names)")
        #expect(names.filter { $0.hasPrefix("Examples/") }.count == 2, "\(names)")
        let json = try names.map { name -> String in
            let folder = name.hasPrefix("Examples/") ? examples : documents
            return try String(contentsOf: folder.appendingPathComponent("\(name.split(separator: "/")[1]).json"), encoding: .utf8)
        }.joined()
        // Shapes, paints, modifiers, layer types, masks, mattes, time, effects.
        for needle in [#""ty":"rc""#, #""ty":"el""#, #""ty":"sr""#, #""ty":"sh""#, #""ty":"fl""#, #""ty":"st""#, #""ty":"gf""#, #""ty":"gs""#,
                       #""ty":"tm""#, #""ty":"rp""#, #""ty":0"#, #""ty":1"#, #""ty":2"#, #""ty":3"#, #""mode":"s""#, #""mode":"i""#,
                       #""inv":true"#, #""tt":1"#, #""tt":2"#, #""tm":"#, #""sr":2"#, #""parent":"#, #""h":1"#, #""to":"#, #""bm":1"#,
                       #""ty":25"#, #""ddd":1"#, #""sk":"#, #""d":[{"#, #""r":2"#, #""ty":5"#, #""sz":"#, #""ty":"rd""#, #""ty":"zz""#, #""ty":"op""#, #""chars":"#] {
            #expect(json.contains(needle), "no document uses \(needle)")
        }
    }

    @Test("each document at 0, 50 and 100% on the CPU as its goldens, and the GPU agrees", arguments: documentNames)
    func renders(name: String) throws {
        let parts = name.split(separator: "/").map(String.init)
        let folder = parts[0] == "Examples" ? examples : documents
        let document = try LottieDocument(contentsOf: folder.appendingPathComponent("\(parts[1]).json"))
        let player = try LottiePlayer(document: document)
        for progress in [0, 50, 100] {
            player.seek(toProgress: Double(progress) / 100)
            let tree = player.presentation()
            let cpu = try tree.renderedImage(bounds: player.root.bounds, scale: 2, backend: .cpu)
            assertSnapshot(of: cpu, as: .image(comparator: FuzzyComparator(maxDifferingFraction: 0, maxChannelDelta: 1)),
                           named: "\(progress)", snapshotDirectory: folder.appendingPathComponent("Goldens").path, testName: parts[1])
            let gpu = try tree.renderedImage(bounds: player.root.bounds, scale: 2, backend: .gpu)
            let agreement = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
            #expect(AgreementBar.gpuAgainstCPU.failure(of: agreement) == nil, "\(name) at \(progress)%: GPU against CPU: \(agreement)")
        }
    }
}
