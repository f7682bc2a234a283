// Refactoring the render-list builder must not change what it emits: the render list of every
// built-in scene and of every Examples/ document (at its time and at its end) is held to the
// digest recorded in RenderLists/digests.txt. A change that is meant to change render lists
// re-records them (RENDER_LISTS_RECORD=1 swift test --filter RenderListStability) and says why
// in its commit; a refactoring never does. RENDER_LISTS_DUMP=DIR writes every list's text.
import Compositor
import Foundation
import OpenQuartzCore
import SceneCatalog
import SceneFormat
import Testing

private let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
private let digestsFile = here.appendingPathComponent("RenderLists/digests.txt")
private let examplesFolder = here.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")

/// Every frame the digests cover, by name: `catalog/NAME` and `example/NAME@TIME`.
private func frames() throws -> [(name: String, list: () throws -> RenderList)] {
    var frames: [(name: String, list: () throws -> RenderList)] = DemoScene.all.map { scene in
        ("catalog/\(scene.name)", {
            try renderList(of: scene.build(), bounds: scene.bounds, scale: scene.scale, time: scene.time)
        })
    }
    let documents = try FileManager.default.contentsOfDirectory(atPath: examplesFolder.path)
        .filter { $0.hasSuffix(".json") }.sorted()
    for file in documents {
        let document = try SceneDocument.load(contentsOf: examplesFolder.appendingPathComponent(file))
        var times = [document.time]
        if document.duration > document.time { times.append(document.duration) }
        for t in times {
            frames.append(("example/\(file.dropLast(5))@\(SceneValueFormat.seconds(t))", {
                let player = document.makePlayer()
                player.advance(to: t)
                return try renderList(of: player.root, bounds: CGRect(origin: .zero, size: document.size),
                                      scale: document.scale, time: t)
            }))
        }
    }
    return frames
}

private func renderList(of root: CALayer, bounds: CGRect, scale: CGFloat, time: Double) throws -> RenderList {
    let renderer = CARenderer(backend: .cpu, scale: scale)
    renderer.layer = root
    renderer.bounds = bounds
    renderer.beginFrame(atTime: time)
    return try renderer.makeRenderList()
}

private func recordedDigests() throws -> [String: String] {
    let text = try String(contentsOf: digestsFile, encoding: .utf8)
    var digests: [String: String] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        let fields = line.split(separator: " ")
        if fields.count == 2 { digests[String(fields[0])] = String(fields[1]) }
    }
    return digests
}

@Suite("Render lists stay byte-identical")
struct RenderListStabilityTests {
    @Test("every catalog scene and example document builds the render list recorded for it")
    func digestsMatch() throws {
        let record = ProcessInfo.processInfo.environment["RENDER_LISTS_RECORD"] == "1"
        // RENDER_LISTS_DUMP=DIR writes each list's full text there, to diff two runs or commits.
        let dump = ProcessInfo.processInfo.environment["RENDER_LISTS_DUMP"].map { URL(fileURLWithPath: $0) }
        var computed: [(String, String)] = []
        for frame in try frames() {
            let fingerprint = RenderListFingerprint(try frame.list())
            computed.append((frame.name, fingerprint.digest))
            if let dump {
                let file = dump.appendingPathComponent(frame.name.replacingOccurrences(of: "/", with: "-") + ".txt")
                try FileManager.default.createDirectory(at: dump, withIntermediateDirectories: true)
                try fingerprint.text.write(to: file, atomically: true, encoding: .utf8)
            }
        }
        if record {
            let lines = ["# Render-list digests (RenderListStabilityTests): catalog scenes at their time, examples at their",
                         "# time and end. Re-record only for a change meant to alter render lists."]
                + computed.map { "\($0.0) \($0.1)" }
            try FileManager.default.createDirectory(at: digestsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try (lines.joined(separator: "\n") + "\n").write(to: digestsFile, atomically: true, encoding: .utf8)
        }
        let recorded = try recordedDigests()
        #expect(recorded.count == computed.count, "recorded \(recorded.count) frames, built \(computed.count)")
        for (name, digest) in computed {
            #expect(recorded[name] == digest, "\(name): the render list changed (digest \(digest), recorded \(recorded[name] ?? "none"))")
        }
    }

    @Test("the digest sees a change in the last bit of one coordinate, and nothing else moves it")
    func digestIsExact() throws {
        let scene = try #require(DemoScene.all.first { $0.name == "shadows" })
        let list = try renderList(of: scene.build(), bounds: scene.bounds, scale: scene.scale, time: scene.time)
        let again = try renderList(of: scene.build(), bounds: scene.bounds, scale: scene.scale, time: scene.time)
        #expect(RenderListFingerprint(list).digest == RenderListFingerprint(again).digest)
        var nudged = list
        let passIndex = try #require(nudged.passes.indices.last)
        let opIndex = try #require(nudged.passes[passIndex].ops.firstIndex {
            if case .quad = $0 { true } else { false }
        })
        guard case .quad(var quad) = nudged.passes[passIndex].ops[opIndex] else { return }
        quad.opacity = quad.opacity.nextDown
        nudged.passes[passIndex].ops[opIndex] = .quad(quad)
        #expect(RenderListFingerprint(nudged).digest != RenderListFingerprint(list).digest)
    }
}
