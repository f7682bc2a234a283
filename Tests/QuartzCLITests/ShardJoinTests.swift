// A rendering farm simulated here: shard processes of `quartz animate --shards N`, each with
// JOB_COMPLETION_INDEX set as a Kubernetes Indexed Job sets it (0 to N-1), run at once into one
// shared folder; `quartz join` checks them and assembles them, and everything it writes equals
// one unsharded run byte for byte. A shard killed mid-run (a pod lost) leaves no manifest, so the
// join refuses until it runs again (the Job retries the pod), and the result is still identical.
import Foundation
import Testing

@Suite("Sharded animate and quartz join")
struct ShardJoinTests {
    /// Translucent everywhere (a half-transparent root, a rotating translucent card with a soft
    /// shadow, a growing stroke), so straight and premultiplied colour are both exercised.
    static let scene = #"""
{"format": "openquartz-scene", "version": 1, "size": [72, 48], "duration": 1, "fps": 24,
 "root": {"frame": [0, 0, 72, 48], "backgroundColor": "#f0f4ff80", "sublayers": [
  {"frame": [10, 8, 30, 24], "backgroundColor": "#3478f6c0", "cornerRadius": 6,
   "shadowOpacity": 0.6, "shadowRadius": 3, "shadowOffset": [0, 2],
   "animations": [{"keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 1.2, "duration": 1},
                  {"keyPath": "position.x", "fromValue": 25, "toValue": 48, "duration": 1}]},
  {"class": "CAShapeLayer", "frame": [46, 20, 20, 20], "path": "M 10 0 A 10 10 0 1 1 9.99 0", "fillColor": "clear",
   "strokeColor": "#ff9500", "lineWidth": 3,
   "animations": [{"keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 1}]}
 ]}}
"""#

    /// The scene written into a fresh folder.
    static func sceneFile(_ folder: URL, text: String = scene) throws -> URL {
        let url = folder.appendingPathComponent("scene.json")
        try Data(text.utf8).write(to: url)
        return url
    }

    static func files(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasPrefix("frame-") {
            result[name] = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
        }
        return result
    }

    /// Runs the n shards at once, as the Job's pods do, each told its index only by the environment.
    static func runShards(_ n: Int, scene: URL, into folder: URL, backend: String) throws -> [Run] {
        let lock = NSLock()
        nonisolated(unsafe) var runs: [Int: Run] = [:]
        nonisolated(unsafe) var failures: [String] = []
        DispatchQueue.concurrentPerform(iterations: n) { index in
            do {
                let run = try quartz(["animate", scene.path, "-o", folder.path, "--shards", "\(n)", "--backend", backend],
                                     environment: ["JOB_COMPLETION_INDEX": "\(index)"])
                lock.withLock { runs[index] = run }
            } catch { lock.withLock { failures.append("\(error)") } }
        }
        try #require(failures.isEmpty, "\(failures)")
        return (0..<n).map { runs[$0]! }
    }

    @Test("three shards at once into one folder, joined into a folder, an animated PNG and a GIF: the bytes of one run",
          arguments: ["cpu", "gpu"])
    func shardsJoinToOneRun(backend: String) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try Self.sceneFile(folder)
        let one = folder.appendingPathComponent("one"), shared = folder.appendingPathComponent("shared")
        // MP4 where ffmpeg is on PATH (it is optional, and not installed by the project).
        let ffmpeg = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/ffmpeg") }
        let formats = ["png", "gif"] + (ffmpeg ? ["mp4"] : [])
        for output in [one.path] + formats.map({ folder.appendingPathComponent("one.\($0)").path }) {
            let run = try quartz(["animate", scene.path, "-o", output, "--backend", backend])
            try #require(run.status == 0, "\(run.error)")
        }
        let shards = try Self.runShards(3, scene: scene, into: shared, backend: backend)
        for (index, run) in shards.enumerated() { #expect(run.status == 0, "shard index \(index): \(run.error)") }
        let names = try FileManager.default.contentsOfDirectory(atPath: shared.path)
        #expect(Set(names.filter { $0.hasPrefix("shard-") }) == ["shard-1-of-3.json", "shard-2-of-3.json", "shard-3-of-3.json"])

        let expected = try Self.files(one)
        #expect(expected.count == 25)
        #expect(try Self.files(shared) == expected, "the shards' frames are the unsharded run's")

        let check = try quartz(["join", shared.path])
        #expect(check.status == 0, "\(check.error)")
        #expect(check.output.contains("25 frames 72x48 from 3 shard(s), complete"), "\(check.output)")
        for name in formats.map({ "joined.\($0)" }) + ["joined"] {
            let run = try quartz(["join", shared.path, "-o", folder.appendingPathComponent(name).path])
            try #require(run.status == 0, "\(name): \(run.error)")
        }
        #expect(try Self.files(folder.appendingPathComponent("joined")) == expected)
        for ext in formats {
            let joined = FileManager.default.contents(atPath: folder.appendingPathComponent("joined.\(ext)").path)
            let unsharded = FileManager.default.contents(atPath: folder.appendingPathComponent("one.\(ext)").path)
            #expect(joined != nil && joined == unsharded, "joined .\(ext) differs from one run's")
        }
    }

    @Test("a shard killed mid-run leaves no manifest: join refuses naming it; run again, the join equals one run")
    func killedShardRunsAgain() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Long enough to be killed in the middle: 121 frames of a larger scene.
        let long = Self.scene.replacingOccurrences(of: #""duration": 1, "fps": 24"#, with: #""duration": 1, "fps": 120"#)
        let scene = try Self.sceneFile(folder, text: long)
        let one = folder.appendingPathComponent("one"), shared = folder.appendingPathComponent("shared")
        let unsharded = try quartz(["animate", scene.path, "-o", one.path, "--backend", "cpu", "--scale", "4"])
        try #require(unsharded.status == 0, "\(unsharded.error)")

        for index in [0, 2] {
            let run = try quartz(["animate", scene.path, "-o", shared.path, "--shards", "3", "--backend", "cpu", "--scale", "4"],
                                 environment: ["JOB_COMPLETION_INDEX": "\(index)"])
            try #require(run.status == 0, "\(run.error)")
        }
        // The pod of index 1, killed once its first frames are written.
        let process = Process()
        process.executableURL = try quartzBinary()
        process.arguments = ["animate", scene.path, "-o", shared.path, "--shards", "3", "--backend", "cpu", "--scale", "4"]
        process.environment = ProcessInfo.processInfo.environment.merging(["JOB_COMPLETION_INDEX": "1"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let firstOfShard = shared.appendingPathComponent("frame-000041.png").path
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: firstOfShard), process.isRunning, Date() < deadline { usleep(2_000) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try #require(process.terminationReason == .uncaughtSignal, "the shard finished before it could be killed")
        #expect(!FileManager.default.fileExists(atPath: shared.appendingPathComponent("shard-2-of-3.json").path))

        let refused = try quartz(["join", shared.path, "-o", folder.appendingPathComponent("joined").path])
        #expect(refused.status == 2)
        #expect(refused.error.contains("shard 2 of 3 (frames 40-79)"), "\(refused.error)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("joined").path), "nothing written on refusal")

        let again = try quartz(["animate", scene.path, "-o", shared.path, "--shards", "3", "--backend", "cpu", "--scale", "4"],
                               environment: ["JOB_COMPLETION_INDEX": "1"])
        try #require(again.status == 0, "\(again.error)")
        let joined = try quartz(["join", shared.path, "-o", folder.appendingPathComponent("joined").path])
        try #require(joined.status == 0, "\(joined.error)")
        let expected = try Self.files(one)
        #expect(expected.count == 121)
        #expect(try Self.files(folder.appendingPathComponent("joined")) == expected)
    }

    @Test("join refuses incomplete and mixed shards, naming the frames, shards and files")
    func refusals() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try Self.sceneFile(folder)
        func shard(_ i: Int, of n: Int, into name: String, extra: [String] = []) throws -> URL {
            let url = folder.appendingPathComponent(name)
            let run = try quartz(["animate", scene.path, "-o", url.path, "--shard", "\(i)/\(n)", "--backend", "cpu"] + extra)
            try #require(run.status == 0, "\(run.error)")
            return url
        }
        let a = try shard(1, of: 2, into: "a"), b = try shard(2, of: 2, into: "b")
        #expect(try quartz(["join", a.path, b.path]).status == 0, "one folder per shard joins")

        let onlyA = try quartz(["join", a.path])
        #expect(onlyA.status == 2 && onlyA.error.contains("shard 2 of 2 (frames 12-24)"), "\(onlyA.error)")

        // A frame lost after its shard finished.
        let lost = b.appendingPathComponent("frame-000017.png")
        let kept = try Data(contentsOf: lost)
        try FileManager.default.removeItem(at: lost)
        let missing = try quartz(["join", a.path, b.path])
        #expect(missing.status == 2 && missing.error.contains("1 frame(s) missing though their shards finished: 17"), "\(missing.error)")
        try kept.write(to: lost)

        // The same frame in two places.
        try kept.write(to: a.appendingPathComponent("frame-000017.png"))
        let twice = try quartz(["join", a.path, b.path])
        #expect(twice.status == 2 && twice.error.contains("frame 17 is in 2 places"), "\(twice.error)")
        try FileManager.default.removeItem(at: a.appendingPathComponent("frame-000017.png"))

        // A frame beyond the run.
        try kept.write(to: b.appendingPathComponent("frame-000099.png"))
        let stray = try quartz(["join", a.path, b.path])
        #expect(stray.status == 2 && stray.error.contains("beyond the run's 25: 99"), "\(stray.error)")
        try FileManager.default.removeItem(at: b.appendingPathComponent("frame-000099.png"))

        // A shard of another run (another rate) and the same shard twice.
        let other = try shard(2, of: 2, into: "other", extra: ["--fps", "12"])
        let mixed = try quartz(["join", a.path, other.path])
        #expect(mixed.status == 2 && mixed.error.contains("shards of different runs") && mixed.error.contains("frame counts differ (13 and 25)"),
                "\(mixed.error)")
        let same = try shard(2, of: 2, into: "same")
        let doubled = try quartz(["join", a.path, b.path, same.path])
        #expect(doubled.status == 2 && doubled.error.contains("shard 2 of 2 finished twice"), "\(doubled.error)")

        // A folder with frames but no manifest, and a damaged manifest.
        let plain = folder.appendingPathComponent("plain")
        #expect(try quartz(["animate", scene.path, "-o", plain.path, "--backend", "cpu"]).status == 0)
        let none = try quartz(["join", plain.path])
        #expect(none.status == 2 && none.error.contains("no shard has finished"), "\(none.error)")
        try Data("{\"format\": \"openquartz-shard\", \"shard\": \"one\"}".utf8).write(to: plain.appendingPathComponent("shard-1-of-1.json"))
        let damaged = try quartz(["join", plain.path])
        #expect(damaged.status == 2 && damaged.error.contains("shard-1-of-1.json: \"shard\" is not a whole number from 1 to 1000000 (got one)"), "\(damaged.error)")
        #expect(try Self.files(b).count == 13, "a refused join changes nothing")
    }

    @Test("--shards takes its index from JOB_COMPLETION_INDEX and refuses it missing or out of range")
    func jobCompletionIndex() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try Self.sceneFile(folder)
        let out = folder.appendingPathComponent("frames").path
        let unset = try quartz(["animate", scene.path, "-o", out, "--shards", "4"], environment: ["JOB_COMPLETION_INDEX": ""])
        #expect(unset.status == 2 && unset.error.contains("JOB_COMPLETION_INDEX must be a whole number from 0 to 3"), "\(unset.error)")
        let beyond = try quartz(["animate", scene.path, "-o", out, "--shards", "4"], environment: ["JOB_COMPLETION_INDEX": "4"])
        #expect(beyond.status == 2 && beyond.error.contains("(got \"4\")"), "\(beyond.error)")
        let both = try quartz(["animate", scene.path, "-o", out, "--shards", "4", "--shard", "1/4"], environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(both.status == 2 && both.error.contains("not both"), "\(both.error)")
        let file = try quartz(["animate", scene.path, "-o", out + ".gif", "--shards", "4"], environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(file.status == 2 && file.error.contains("into a folder"), "\(file.error)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let last = try quartz(["animate", scene.path, "-o", out, "--shards", "4", "--backend", "cpu"], environment: ["JOB_COMPLETION_INDEX": "3"])
        #expect(last.status == 0, "\(last.error)")
        #expect(try Self.files(URL(fileURLWithPath: out)).keys.sorted() == (18...24).map { String(format: "frame-%06d.png", $0) })
    }
}
