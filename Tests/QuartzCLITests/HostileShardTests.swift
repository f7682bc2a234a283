// `quartz join`, sharded animate and the other commands' output folders against an attacker who
// can write into the shared folder and a farm that kills pods mid-write: manifests whose numbers
// would overflow or size gigabytes, frames cut short, links planted where frames go, partial files
// a killed pod left under the same PID, outputs that are the command's own inputs. Each is refused
// with a message naming the file and the field, or cleaned so a retry succeeds; none traps.
import Foundation
import OpenCoreGraphics
import Testing

@Suite("quartz join and output folders under hostile input")
struct HostileShardTests {
    static let scene = #"""
    {"format": "openquartz-scene", "version": 1, "size": [40, 30], "duration": 0.2, "fps": 10,
     "root": {"frame": [0, 0, 40, 30], "backgroundColor": "#3366cc80"}}
    """#

    /// A folder with s.json and one finished shard of it (three frames) in `shard/`.
    static func finishedShard() throws -> (folder: URL, scene: URL, shard: URL) {
        let folder = try scratch()
        let scene = folder.appendingPathComponent("s.json")
        try Data(Self.scene.utf8).write(to: scene)
        let shard = folder.appendingPathComponent("shard")
        let run = try quartz(["animate", scene.path, "-o", shard.path, "--shard", "1/1", "--backend", "cpu"])
        try #require(run.status == 0, "\(run.error)")
        return (folder, scene, shard)
    }

    static func manifest(_ shard: URL) -> URL { shard.appendingPathComponent("shard-1-of-1.json") }

    /// The manifest with `key` set to `value` (raw JSON text).
    static func tamper(_ shard: URL, _ key: String, _ value: String) throws {
        var text = try String(contentsOf: manifest(shard), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: "\"\(key)\" : [^,\\n]+")
        let range = NSRange(text.startIndex..., in: text)
        guard pattern.firstMatch(in: text, range: range) != nil else { throw CocoaError(.fileReadCorruptFile) }
        text = pattern.stringByReplacingMatches(in: text, range: range, withTemplate: "\"\(key)\" : \(value)")
        try Data(text.utf8).write(to: manifest(shard))
    }

    @Test("manifests that claim 10^12 frames or shards, overflowing ranges, or rates of 1e300 are refused at once, naming the field",
          arguments: [("totalFrames", "1000000000000", "\"totalFrames\" is not a whole number from 0 to 1000000"),
                      ("shards", "1000000000000", "\"shards\" is not a whole number from 1 to 1000000"),
                      ("firstFrame", "9223372036854775807", "\"firstFrame\" is not a whole number from 0 to 3"),
                      ("frames", "9223372036854775807", "\"frames\" is not a whole number from 0 to 3"),
                      ("fps", "1e300", "\"fps\" is not a number in (0, 1000]"),
                      ("fps", "-1", "\"fps\" is not a number in (0, 1000]"),
                      ("width", "100000", "\"width\" is not a whole number from 1 to 16384"),
                      ("width", "16384", "exceed the limit of 67108864 pixels"),
                      ("pngCompression", "\"zip\"", "\"pngCompression\" is not one of fast, small")])
    func hostileManifests(key: String, value: String, message: String) throws {
        let (folder, _, shard) = try Self.finishedShard()
        defer { try? FileManager.default.removeItem(at: folder) }
        if key == "width" && value == "16384" { try Self.tamper(shard, "height", "16384") }
        try Self.tamper(shard, key, value)
        let start = Date()
        let run = try quartz(["join", shard.path, "-o", folder.appendingPathComponent("out.png").path])
        #expect(!run.signaled, "join trapped: \(run.error)")
        #expect(run.status == 2 && run.error.contains(message), "\(run.error)")
        #expect(Date().timeIntervalSince(start) < 20, "refusing costs no more than reading the manifest")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
    }

    @Test("a manifest of gigabytes is refused by its size, not loaded; one named for another shard is refused")
    func oversizedAndMisnamedManifests() throws {
        let (folder, _, shard) = try Self.finishedShard()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Data(contentsOf: Self.manifest(shard))
        // Sparse: 4 GiB that take no disk.
        let handle = try FileHandle(forWritingTo: Self.manifest(shard))
        try handle.truncate(atOffset: 4 << 30)
        try handle.close()
        let big = try quartz(["join", shard.path])
        #expect(big.status == 2 && big.error.contains("over 64 KiB, not a shard manifest"), "\(big.error)")
        try original.write(to: Self.manifest(shard))
        try FileManager.default.moveItem(at: Self.manifest(shard), to: shard.appendingPathComponent("shard-2-of-2.json"))
        let misnamed = try quartz(["join", shard.path])
        #expect(misnamed.status == 2 && misnamed.error.contains("named shard 2 of 2 but says shard 1 of 1"), "\(misnamed.error)")
    }

    @Test("extreme rates that pass the check encode without a trap: an animated PNG at 1000 fps and a GIF at 1e-300 fps",
          arguments: [("1000", "png"), ("1e-300", "gif"), ("1e-300", "png"), ("1000", "gif")])
    func extremeRates(fps: String, format: String) throws {
        let (folder, _, shard) = try Self.finishedShard()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.tamper(shard, "fps", fps)
        let run = try quartz(["join", shard.path, "-o", folder.appendingPathComponent("out.\(format)").path])
        #expect(!run.signaled && run.status == 0, "\(run.error)")
    }

    @Test("a frame cut after 40 bytes is refused by check and by every output, naming it; nothing is written",
          arguments: ["", "out.png", "out.gif", "joined"])
    func truncatedFrame(output: String) throws {
        let (folder, _, shard) = try Self.finishedShard()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frame = shard.appendingPathComponent("frame-000001.png")
        try Data(try Data(contentsOf: frame).prefix(40)).write(to: frame)
        let target = folder.appendingPathComponent(output)
        let run = try quartz(["join", shard.path] + (output.isEmpty ? [] : ["-o", target.path]))
        #expect(run.status == 2 && run.error.contains("frame-000001.png: does not decode as a whole PNG"), "\(run.error)")
        #expect(!run.output.contains("complete"))
        if !output.isEmpty {
            let left = (try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? []
            #expect(!FileManager.default.fileExists(atPath: target.path) || left.isEmpty, "nothing joined: \(left)")
        }
    }

    @Test("a link planted at a frame's or the manifest's name in an output folder is refused; the file it names is untouched")
    func linksInOutputFolders() throws {
        let (folder, scene, shard) = try Self.finishedShard()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim.txt")
        try Data("precious".utf8).write(to: victim)
        for (index, name) in ["frame-000000.png", "frame-000002.png", "shard-1-of-1.json"].enumerated() {
            let out = folder.appendingPathComponent("out\(index)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: out.appendingPathComponent(name), withDestinationURL: victim)
            let run = try quartz(["animate", scene.path, "-o", out.path, "--shard", "1/1", "--backend", "cpu"])
            #expect(run.status == 2 && run.error.contains("\(name): it is a symbolic link"), "\(name): \(run.error)")
            #expect(try String(contentsOf: victim, encoding: .utf8) == "precious", "\(name) wrote through the link")
        }
        let joined = folder.appendingPathComponent("joined")
        try FileManager.default.createDirectory(at: joined, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: joined.appendingPathComponent("frame-000001.png"), withDestinationURL: victim)
        let join = try quartz(["join", shard.path, "-o", joined.path])
        #expect(join.status == 2 && join.error.contains("frame-000001.png: it is a symbolic link"), "\(join.error)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
        // A file where a folder should be: the message names it, not Foundation's "error 512".
        let underFile = try quartz(["animate", scene.path, "-o", scene.path + "/frames", "--backend", "cpu"])
        #expect(underFile.status == 2 && underFile.error.contains("s.json is a file, not a folder")
                && !underFile.error.contains("512") && !underFile.error.contains("permission"), "\(underFile.error)")
        // The demo's and diff's report folders are output folders too.
        let demo = folder.appendingPathComponent("demo")
        try FileManager.default.createDirectory(at: demo, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: demo.appendingPathComponent("anchor-points.cpu.png"), withDestinationURL: victim)
        let demoRun = try quartz(["demo", "--only", "anchor-points", "--cpu-only", "--out", demo.path])
        #expect(demoRun.status != 0 && demoRun.error.contains("anchor-points.cpu.png: it is a symbolic link"), "\(demoRun.error)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
        // The user's own output path may be a link to a file: that file is what was asked for.
        let named = folder.appendingPathComponent("named.png")
        try FileManager.default.createSymbolicLink(at: named, withDestinationURL: victim)
        #expect(try quartz(["render", scene.path, "-o", named.path, "--backend", "cpu"]).status == 0)
        #expect(try Data(contentsOf: victim).starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("a pod killed mid-write as PID 1 leaves .NAME.1.partial files; the retry of its index succeeds and removes its own")
    func retryAfterKilledPod() throws {
        let (folder, scene, _) = try Self.finishedShard()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shared = folder.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        // Index 0 of 2 owns frames 0 (of 3: 0 ..< 1), index 1 frames 1 ... 2.
        let stale = [".frame-000001.png.1.partial", ".frame-000002.png.1-00ff00ff00ff00ff.partial", ".shard-2-of-2.json.1.partial"]
        let others = [".frame-000000.png.1.partial"]
        for name in stale + others { try Data("cut".utf8).write(to: shared.appendingPathComponent(name)) }
        let retry = try quartz(["animate", scene.path, "-o", shared.path, "--shards", "2", "--backend", "cpu"],
                               environment: ["JOB_COMPLETION_INDEX": "1"])
        #expect(retry.status == 0, "the retry failed: \(retry.error)")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: shared.path))
        #expect(names.isDisjoint(with: stale), "its own stale partial files are removed: \(names.sorted())")
        #expect(names.isSuperset(of: others), "another shard's are left alone")
        #expect(names.isSuperset(of: ["frame-000001.png", "frame-000002.png", "shard-2-of-2.json"]))
        let first = try quartz(["animate", scene.path, "-o", shared.path, "--shards", "2", "--backend", "cpu"],
                               environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(first.status == 0, "\(first.error)")
        #expect(try quartz(["join", shared.path]).status == 0)
    }

    @Test("an output that is the command's own input is refused and the input kept: diff's pictures, render's and animate's outputs")
    func outputIsAnInput() throws {
        let (folder, scene, shard) = try Self.finishedShard()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = shard.appendingPathComponent("frame-000000.png"), b = shard.appendingPathComponent("frame-000001.png")
        let before = try Data(contentsOf: a), document = try Data(contentsOf: scene)
        // The same file through a link is still the same file.
        let alias = folder.appendingPathComponent("alias.png")
        try FileManager.default.createSymbolicLink(at: alias, withDestinationURL: a)
        for option in ["--heatmap", "--diff-image", "--diff-mask", "--triptych"] {
            for output in [a.path, alias.path] {
                let run = try quartz(["diff", a.path, b.path, option, output])
                #expect(run.status == 2 && run.error.contains("it is the input"), "\(option) \(output): \(run.error)")
            }
        }
        #expect(try Data(contentsOf: a) == before)
        let render = try quartz(["render", scene.path, "-o", scene.path, "--backend", "cpu"])
        #expect(render.status == 2 && render.error.contains("it is the input"), "\(render.error)")
        let animate = try quartz(["animate", scene.path, "-o", scene.path, "--backend", "cpu"])
        #expect(animate.status == 2 && animate.error.contains("it is the input"), "\(animate.error)")
        #expect(try Data(contentsOf: scene) == document)
    }

    @Test("--shard and --shards past a million (the most frames a run may have) are bad input")
    func shardCounts() throws {
        let (folder, scene, _) = try Self.finishedShard()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("o").path
        let shard = try quartz(["animate", scene.path, "-o", out, "--shard", "1/1000001"])
        #expect(shard.status == 2 && shard.error.contains("1 <= i <= n <= 1000000"), "\(shard.error)")
        let shards = try quartz(["animate", scene.path, "-o", out, "--shards", "1000000000000"], environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(shards.status == 2 && shards.error.contains("from 1 to 1000000"), "\(shards.error)")
    }

    @Test("diff refuses a pair whose memory estimate (from the headers, before decoding) is over --max-memory-mb, naming both files; a broken header is refused first")
    func diffMemoryBound() throws {
        let (folder, _, shard) = try Self.finishedShard()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = shard.appendingPathComponent("frame-000000.png").path, b = shard.appendingPathComponent("frame-000001.png").path
        #expect(try quartz(["diff", a, b, "--comparator", "flip"]).status != 2, "small images fit the default")
        // A 70-byte PNG whose header claims 16384 x 16384 (with a CRC of zeros): refused before a row
        // is read (BandedComparisonTests refuses one with a good CRC: "cannot hold").
        var header = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0x40, 0, 0, 0, 0x40, 0,
                           8, 6, 0, 0, 0])
        header += Data(repeating: 0, count: 40)
        let liar = folder.appendingPathComponent("liar.png")
        try header.write(to: liar)
        let start = Date()
        let refused = try quartz(["diff", liar.path, liar.path, "--comparator", "flip"])
        #expect(refused.status == 2 && refused.error.contains("cannot decode image \(liar.path)"), "\(refused.error)")
        #expect(Date().timeIntervalSince(start) < 10)
        // A real 8192 x 64 PNG: bands of 32 rows of both images, 2.5 MB with the bar, over a 1 MiB limit.
        let wide = folder.appendingPathComponent("wide.png")
        try CGImage(bitmap: Bitmap(width: 8192, height: 64)).writePNG(to: wide)
        let low = try quartz(["diff", wide.path, wide.path, "--max-memory-mb", "1"])
        #expect(low.status == 2 && low.error.contains("would take about 3 MiB, more than --max-memory-mb 1") && low.error.contains("wide.png"),
                "\(low.error)")
        #expect(try quartz(["diff", wide.path, wide.path, "--max-memory-mb", "3"]).status == 0)
        // Folders: the pair is a problem of its own; the report is written without following links.
        let left = folder.appendingPathComponent("left"), right = folder.appendingPathComponent("right")
        for side in [left, right] {
            try FileManager.default.createDirectory(at: side, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: a, toPath: side.appendingPathComponent("x.png").path)
        }
        let report = folder.appendingPathComponent("report")
        try FileManager.default.createDirectory(at: report, withIntermediateDirectories: true)
        let victim = folder.appendingPathComponent("victim.txt")
        try Data("precious".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(at: report.appendingPathComponent("index.html"), withDestinationURL: victim)
        let linked = try quartz(["diff", left.path, right.path, "--report", report.path])
        #expect(linked.status == 2 && linked.error.contains("index.html: it is a symbolic link"), "\(linked.error)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
    }
}
