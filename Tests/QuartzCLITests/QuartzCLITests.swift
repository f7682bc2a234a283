// The quartz command as a person runs it: a real process, its output and its exit codes.
import Foundation
import OpenCoreGraphics
import Testing

private func writeGray(_ value: UInt8, to url: URL) throws {
    try CGImage(bitmap: Bitmap(width: 20, height: 10) { _, _ in (value, value, value, 255) }).writePNG(to: url)
}

@Suite("quartz command")
struct QuartzCLITests {
    @Test("--help documents the subcommands and the exit codes")
    func help() throws {
        let run = try quartz(["--help"])
        #expect(run.status == 0)
        for word in ["render", "animate", "check", "schema", "info", "demo", "diff", "Exit codes", "OPENQUARTZ_EGL_PLATFORM"] {
            #expect(run.output.contains(word), "help lacks \(word)")
        }
    }

    @Test("info names the EGL platform and the GL renderer")
    func info() throws {
        let run = try quartz(["info"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("EGL platform:") && run.output.contains("GL renderer:"))
        #expect(run.output.contains("max texture:"))
        // The drivers CI verifies, and whether this one is among them.
        #expect(run.output.contains("drivers verified: Mesa llvmpipe") && run.output.contains("softpipe"))
        #expect(run.output.contains("verified:") && run.output.contains("debug output:"))
    }

    @Test("check --passes compares every pass on both backends, the frame last, and writes each pass's images")
    func checkPasses() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A translucent group (drawn offscreen) and a blurred shadow of a path (halved, blurred).
        let scene = folder.appendingPathComponent("passes.json")
        try Data(#"""
        {"format": "openquartz-scene", "version": 1, "size": [64, 48],
         "root": {"bounds": [0, 0, 64, 48], "position": [32, 24], "backgroundColor": [1, 1, 1, 1], "sublayers": [
           {"bounds": [0, 0, 30, 30], "position": [20, 24], "opacity": 0.5, "sublayers": [
             {"bounds": [0, 0, 20, 20], "position": [10, 10], "backgroundColor": [1, 0, 0, 1]},
             {"bounds": [0, 0, 20, 20], "position": [20, 20], "backgroundColor": [0, 0, 1, 1]}]},
           {"class": "CAShapeLayer", "bounds": [0, 0, 16, 16], "position": [48, 24], "path": "M 0 0 L 16 8 L 0 16 Z",
            "fillColor": [0, 0.6, 0, 1], "shadowOpacity": 1, "shadowRadius": 6}]}}
        """#.utf8).write(to: scene)
        let prefix = folder.appendingPathComponent("p").path
        let run = try quartz(["check", scene.path, "--passes", "--images", prefix])
        #expect(run.status == 0, "\(run.output) \(run.error)")
        let rows = run.output.split(separator: "\n").filter { $0.hasPrefix("  pass ") || $0.hasPrefix("  frame pass ") }
        #expect(rows.count >= 3, "\(run.output)")
        #expect(rows.last?.hasPrefix("  frame pass (\(rows.count) of \(rows.count),") == true, "\(run.output)")
        #expect(rows.allSatisfy { $0.contains(": agree: max delta ") }, "\(run.output)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("p.pass-") }
        #expect(written.count == 2 * (rows.count - 1), "\(written)")
    }

    @Test("diff of identical images succeeds and reports no delta")
    func diffIdentical() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.png")
        try writeGray(100, to: a)
        let run = try quartz(["diff", a.path, a.path])
        #expect(run.status == 0 && run.output.contains("max delta 0"))
    }

    @Test("diff over the tolerance exits 1 and writes the heat map")
    func diffOverTolerance() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.png"), b = folder.appendingPathComponent("b.png")
        let heat = folder.appendingPathComponent("heat.png")
        try writeGray(100, to: a)
        try writeGray(120, to: b)
        let run = try quartz(["diff", a.path, b.path, "--heatmap", heat.path])
        #expect(run.status == 1)
        #expect(run.error.contains("misses the bar"), "\(run.error)")
        #expect(try CGImage.load(contentsOf: heat).width == 20)
        #expect(try quartz(["diff", a.path, b.path, "--tolerance", "20"]).status == 0)
    }

    @Test("diff with Chromium's comparators and pixelmatch, each with its picture")
    func diffComparators() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.png"), b = folder.appendingPathComponent("b.png")
        let picture = folder.appendingPathComponent("diff.png")
        try writeGray(100, to: a)
        try writeGray(101, to: b)
        #expect(try quartz(["diff", a.path, b.path, "--comparator", "exact"]).status == 1)
        #expect(try quartz(["diff", a.path, b.path, "--comparator", "off-by-one"]).status == 0)
        #expect(try quartz(["diff", a.path, b.path, "--comparator", "fuzzy", "--max-fraction", "1", "--max-delta", "1"]).status == 0)
        let match = try quartz(["diff", a.path, b.path, "--comparator", "pixelmatch", "--json", "--diff-image", picture.path])
        #expect(match.status == 0 && match.output.contains(#""differingPixels":0"#), "\(match.output) \(match.error)")
        #expect(try CGImage.load(contentsOf: picture).width == 20)
        try writeGray(200, to: b)
        let fail = try quartz(["diff", a.path, b.path, "--comparator", "pixelmatch"])
        #expect(fail.status == 1 && fail.error.contains("do not match") && fail.output.contains("200 of 200 pixels differ"))
        #expect(try quartz(["diff", a.path, b.path, "--comparator", "pixelmatch", "--threshold", "2"]).status != 0)
    }

    @Test("diff with CIEDE2000 and FLIP writes the picture, the mask and the triptych, and times itself on request")
    func diffPerceptual() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.png"), b = folder.appendingPathComponent("b.png")
        try writeGray(100, to: a)
        try writeGray(101, to: b)
        let outputs = ["diff", "mask", "triptych"].map { folder.appendingPathComponent("\($0).png") }
        let close = try quartz(["diff", a.path, b.path, "--comparator", "ciede2000", "--json", "--repeats", "3",
                                "--diff-image", outputs[0].path, "--diff-mask", outputs[1].path, "--triptych", outputs[2].path])
        #expect(close.status == 0 && close.output.contains(#""megapixelsPerSecond":"#), "\(close.output) \(close.error)")
        #expect(try outputs.map { try CGImage.load(contentsOf: $0).width } == [20, 20, 20 * 3 + 8])
        #expect(try quartz(["diff", a.path, b.path, "--comparator", "ciede2000", "--perceptual-precision", "1"]).status == 1)
        try writeGray(160, to: b)
        let far = try quartz(["diff", a.path, b.path, "--comparator", "flip"])
        #expect(far.status == 1 && far.output.contains("flip: mean"), "\(far.output)")
        let invalid = try quartz(["diff", a.path, b.path, "--comparator", "ciede2000", "--precision", "2"])
        #expect(invalid.status != 0 && invalid.status != 1 && invalid.error.contains("--precision"))
    }

    @Test("diff of two folders matches PNGs by name, reports missing and new ones, and writes an HTML report that Chromium shows")
    func diffFolders() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = folder.appendingPathComponent("expected"), actual = folder.appendingPathComponent("actual")
        for side in [expected, actual] { try FileManager.default.createDirectory(at: side.appendingPathComponent("sub"), withIntermediateDirectories: true) }
        try writeGray(100, to: expected.appendingPathComponent("same.png"))
        try writeGray(100, to: actual.appendingPathComponent("same.png"))
        try writeGray(100, to: expected.appendingPathComponent("sub/changed.png"))
        try writeGray(180, to: actual.appendingPathComponent("sub/changed.png"))
        try writeGray(100, to: expected.appendingPathComponent("gone.png"))
        try writeGray(100, to: actual.appendingPathComponent("new.png"))
        try Data("broken".utf8).write(to: expected.appendingPathComponent("broken.png"))
        try writeGray(100, to: actual.appendingPathComponent("broken.png"))
        let report = folder.appendingPathComponent("report")
        let run = try quartz(["diff", expected.path, actual.path, "--comparator", "ciede2000", "--report", report.path, "--json"])
        #expect(run.status == 2 && run.error.contains("broken.png"), "\(run.error)")
        #expect(run.output.contains(#""failing":4"#) && run.output.contains("missing from") && run.output.contains("a new image"), "\(run.output)")
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("sub/changed.png") && html.contains("type=range") && html.contains("PROBLEM"))
        // Failing pairs come first.
        let changedAt = try #require(html.range(of: "sub/changed.png")), sameAt = try #require(html.range(of: "same.png"))
        #expect(changedAt.lowerBound < sameAt.lowerBound)
        try FileManager.default.removeItem(at: expected.appendingPathComponent("broken.png"))
        #expect(try quartz(["diff", expected.path, actual.path]).status == 1, "differing and missing images, all readable")

        guard let chromium = chromiumPath() else {
            Issue.record("headless Chromium is needed: scripts/install-deps.sh --test installs it")
            return
        }
        let page = report.appendingPathComponent("index.html")
        let dom = try browse(chromium, page, profile: folder, ["--dump-dom"])
        // Two compared pairs, five images each (expected, actual, two under the slider, picture, mask... ) all decoded.
        let loaded = try #require(dom.range(of: #"data-loaded="(\d+)/(\d+)""#, options: .regularExpression))
        let counts = dom[loaded].split(separator: "\"")[1].split(separator: "/")
        #expect(counts.count == 2 && counts[0] == counts[1] && Int(counts[0]) == 2 * 6, "\(dom[loaded])")
        let shot = folder.appendingPathComponent("report.png")
        _ = try browse(chromium, page, profile: folder, ["--window-size=1400,900", "--screenshot=\(shot.path)"])
        let image = try CGImage.load(contentsOf: shot)
        #expect(image.width == 1400 && image.height == 900)
        var reds = 0
        for y in stride(from: 0, to: image.height, by: 2) {
            for x in stride(from: 0, to: image.width, by: 2) where image.bitmap[x, y] == (255, 0, 0, 255) { reds += 1 }
        }
        #expect(reds > 20, "the mask of the changed pair shows in the screenshot")
        try? FileManager.default.createDirectory(atPath: "out", withIntermediateDirectories: true)
        try? Data(contentsOf: shot).write(to: URL(fileURLWithPath: "out/diff-report-screenshot.png"))
    }

    @Test("diff bad input: a folder against a file, a report that cannot be written, images of other sizes")
    func diffFoldersBadInput() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.png"), small = folder.appendingPathComponent("small.png")
        try writeGray(100, to: a)
        try CGImage(bitmap: Bitmap(width: 3, height: 2) { _, _ in (1, 2, 3, 255) }).writePNG(to: small)
        let mixed = try quartz(["diff", folder.path, a.path])
        #expect(mixed.status == 2 && mixed.error.contains("is not"), "\(mixed.error)")
        let blocked = try quartz(["diff", folder.path, folder.path, "--report", a.appendingPathComponent("report").path])
        #expect(blocked.status == 2 && blocked.error.contains("cannot write the report"), "\(blocked.error)")
        for comparator in ["bar", "exact", "pixelmatch", "ciede2000", "flip"] {
            let sized = try quartz(["diff", a.path, small.path, "--comparator", comparator])
            #expect(sized.status == 2 && sized.error.contains("20x10 against 3x2"), "\(comparator): \(sized.error)")
        }
        let unwritable = try quartz(["diff", a.path, a.path, "--diff-mask", folder.appendingPathComponent("no/such/mask.png").path])
        #expect(unwritable.status == 2 && unwritable.error.contains("does not exist"), "\(unwritable.error)")
    }

    @Test("diff of an unreadable file exits 2 and names it")
    func diffBadInput() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.png"), broken = folder.appendingPathComponent("broken.png")
        try Data("not a png".utf8).write(to: broken)
        let run = try quartz(["diff", missing.path, broken.path])
        #expect(run.status == 2 && run.error.contains(missing.path))
        let second = try quartz(["diff", broken.path, broken.path])
        #expect(second.status == 2 && second.error.contains(broken.path))
        // An empty file, and a JPEG cut off after its header, are named as such.
        let empty = folder.appendingPathComponent("empty.png"), jpeg = folder.appendingPathComponent("photo.jpg")
        try Data().write(to: empty)
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00]).write(to: jpeg)
        let good = folder.appendingPathComponent("good.png")
        try writeGray(100, to: good)
        let emptyRun = try quartz(["diff", good.path, empty.path])
        #expect(emptyRun.status == 2 && emptyRun.error.contains("\(empty.path): empty file"), "\(emptyRun.error)")
        let jpegRun = try quartz(["diff", good.path, jpeg.path, "--comparator", "flip"])
        #expect(jpegRun.status == 2 && jpegRun.error.contains("cannot decode image \(jpeg.path)"), "\(jpegRun.error)")
    }

    @Test("demo renders the chosen scenes on both backends and writes images, heat maps and a summary")
    func demo() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try quartz(["demo", "--only", "crawl-m24", "--out", folder.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("1 of 1 scenes agree"))
        for file in ["crawl-m24.cpu.png", "crawl-m24.gpu.png", "crawl-m24.heatmap.png", "summary.txt"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "\(file) missing")
        }
    }

    // MARK: Scene documents

    private static let animatedScene = #"""
    {"format": "openquartz-scene", "version": 1, "size": [64, 48], "duration": 1, "fps": 10,
     "root": {"frame": [0, 0, 64, 48], "backgroundColor": "#eeeeee", "sublayers": [
       {"name": "card", "frame": [8, 8, 32, 24], "backgroundColor": "#3366cc", "cornerRadius": 4,
        "animations": [{"keyPath": "position.x", "fromValue": 16, "toValue": 48, "duration": 1, "timingFunction": "linear"}]}]},
     "transactions": [{"time": 0.5, "duration": 0.2, "changes": [{"layer": "card", "set": {"opacity": 0.4}}],
                       "completion": {"changes": [{"layer": "card", "set": {"backgroundColor": "#cc3333"}}]}}]}
    """#

    private func writeScene(_ text: String = animatedScene, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("scene.json")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("render writes the PNG at the time asked, on either backend, and --json describes it")
    func render() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try writeScene(in: folder)
        let cpu = folder.appendingPathComponent("cpu.png"), gpu = folder.appendingPathComponent("gpu.png")
        let run = try quartz(["render", scene.path, "-o", cpu.path, "--time", "0.25", "--backend", "cpu", "--json"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains(#""width":64"#) && run.output.contains(#""backend":"cpu""#))
        let image = try CGImage.load(contentsOf: cpu)
        // At 0.25 s the card's centre is at x = 24: (24, 20) is blue, (44, 20) the backdrop.
        #expect(image.bitmap[24, 20].2 > 150 && image.bitmap[44, 20] == (238, 238, 238, 255))
        #expect(try quartz(["render", scene.path, "-o", gpu.path, "--time", "0.25", "--scale", "2"]).status == 0)
        #expect(try CGImage.load(contentsOf: gpu).width == 128)
        // The CPU backend writes the same bytes run to run.
        let again = folder.appendingPathComponent("again.png")
        #expect(try quartz(["render", scene.path, "-o", again.path, "--time", "0.25", "--backend", "cpu"]).status == 0)
        #expect(try Data(contentsOf: cpu) == Data(contentsOf: again))
        // --repeats times the frame alone, for benchmarks; the image is the same.
        let timed = try quartz(["render", scene.path, "-o", again.path, "--time", "0.25", "--backend", "cpu", "--repeats", "3", "--json"])
        #expect(timed.status == 0 && timed.output.contains(#""frameSeconds":"#) && timed.output.contains(#""repeats":3"#), "\(timed.output)")
        // ...and says where a repeated frame's time went: the render list took some.
        let report = try JSONSerialization.jsonObject(with: Data(timed.output.utf8)) as? [String: Any]
        let stages = report?["stageSeconds"] as? [String: Double]
        #expect((stages?["compositing"] ?? 0) > 0 && (stages?["execution"] ?? 0) > 0 && stages?["encoding"] == nil, "\(timed.output)")
        #expect(try Data(contentsOf: cpu) == Data(contentsOf: again))
        #expect(try quartz(["render", scene.path, "-o", again.path, "--repeats", "-1"]).status != 0)
        // --repeat-step moves each repeat later (motion for benchmarks): 0.25 + 3 x 0.1; the image
        // is still the frame at --time, and a step without repeats is refused.
        let moving = try quartz(["render", scene.path, "-o", again.path, "--time", "0.25", "--backend", "cpu", "--repeats", "3",
                                 "--repeat-step", "0.1", "--json"])
        let movingReport = try JSONSerialization.jsonObject(with: Data(moving.output.utf8)) as? [String: Any]
        #expect(moving.status == 0 && abs((movingReport?["lastRepeatTime"] as? Double ?? 0) - 0.55) < 1e-9, "\(moving.output) \(moving.error)")
        #expect(try Data(contentsOf: cpu) == Data(contentsOf: again))
        let alone = try quartz(["render", scene.path, "-o", again.path, "--repeat-step", "0.1"])
        #expect(alone.status == 2 && alone.error.contains("--repeats"), "\(alone.error)")
    }

    @Test("a document with mistakes: every one on its own line with its path, exit 2, no output file")
    func renderBadDocument() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try writeScene(#"{"version": 1, "root": {"opacty": 1, "sublayers": [{"transform": [1, 2]}]}}"#, in: folder)
        let out = folder.appendingPathComponent("out.png")
        let run = try quartz(["render", scene.path, "-o", out.path])
        #expect(run.status == 2)
        #expect(run.error.contains("root.opacty: unknown property of a CALayer; did you mean \"opacity\"?"))
        #expect(run.error.contains("root.sublayers[0].transform: expected 16 numbers, got 2"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let syntax = try writeScene("{\"version\": 1,\n \"root\": {]}", in: folder)
        let second = try quartz(["render", syntax.path, "-o", out.path])
        #expect(second.status == 2 && second.error.contains("scene.json:2:11:"), "\(second.error)")
        // An output folder that does not exist: exit 2, nothing written.
        let third = try quartz(["render", try writeScene(in: folder).path, "-o", folder.appendingPathComponent("no/such/out.png").path])
        #expect(third.status == 2 && third.error.contains("cannot write") && third.error.contains("does not exist"), "\(third.error)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("partial") }
        #expect(leftovers.isEmpty)
    }

    @Test("animate writes a PNG folder, an animated PNG and a GIF; no progress bar without a terminal")
    func animate() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try writeScene(in: folder)
        let frames = folder.appendingPathComponent("frames")
        let run = try quartz(["animate", scene.path, "-o", frames.path, "--backend", "cpu"])
        #expect(run.status == 0, "\(run.error)")
        #expect(!run.error.contains("\r") && !run.error.contains("frames]"))
        let names = try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted()
        #expect(names.count == 11 && names.first == "frame-000000.png" && names.last == "frame-000010.png")
        for file in ["anim.png", "anim.gif"] {
            let url = folder.appendingPathComponent(file)
            let result = try quartz(["animate", scene.path, "-o", url.path, "--backend", "cpu", "--json"])
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output.contains(#""frames":11"#) && result.output.contains(#""encoding":"#))
            let data = try Data(contentsOf: url)
            if file.hasSuffix(".png") {
                #expect(data.range(of: Data("acTL".utf8)) != nil && data.range(of: Data("fdAT".utf8)) != nil)
                // Viewers without APNG show the first frame, which is the still at time 0.
                #expect(try CGImage.load(contentsOf: url).bitmap == CGImage.load(contentsOf: frames.appendingPathComponent("frame-000000.png")).bitmap)
            } else {
                #expect(data.starts(with: Data("GIF89a".utf8)) && data.range(of: Data("NETSCAPE2.0".utf8)) != nil)
            }
        }
    }

    @Test("shards of an animation together write exactly the frames of one unsharded run")
    func shards() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try writeScene(in: folder)
        let whole = folder.appendingPathComponent("whole"), parts = folder.appendingPathComponent("parts")
        #expect(try quartz(["animate", scene.path, "-o", whole.path, "--backend", "cpu"]).status == 0)
        for i in 1...3 {
            let run = try quartz(["animate", scene.path, "-o", parts.path, "--backend", "cpu", "--shard", "\(i)/3"])
            #expect(run.status == 0, "\(run.error)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: whole.path).sorted()
        // The frames of one run, and each shard's manifest (written last, for quartz join).
        let manifests = (1...3).map { "shard-\($0)-of-3.json" }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parts.path).sorted() == (names + manifests).sorted())
        for name in names {
            #expect(try Data(contentsOf: whole.appendingPathComponent(name)) == Data(contentsOf: parts.appendingPathComponent(name)), "\(name)")
        }
        let bad = try quartz(["animate", scene.path, "-o", folder.appendingPathComponent("x.gif").path, "--shard", "1/2"])
        #expect(bad.status != 0 && bad.error.contains("folder"))
        #expect(try quartz(["animate", scene.path, "-o", parts.path, "--shard", "4/3"]).status != 0)
    }

    @Test("an ffmpeg that stops reading is reported with its own words, not ended by a broken pipe")
    func ffmpegExitsEarly() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try writeScene(in: folder)
        // An ffmpeg that refuses at once, reading nothing: each frame (256 x 192 pixels, 192 KiB)
        // is more than a pipe holds, so the first write finds no reader.
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let fake = bin.appendingPathComponent("ffmpeg")
        try Data("#!/bin/sh\necho 'Unknown encoder libx264' >&2\nexit 1\n".utf8).write(to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let mp4 = folder.appendingPathComponent("a.mp4")
        for backend in ["cpu", "gpu"] {
            let run = try quartz(["animate", scene.path, "-o", mp4.path, "--backend", backend, "--scale", "4"], environment: ["PATH": path])
            #expect(!run.signaled && run.status != 0, "\(backend): status \(run.status), signaled \(run.signaled): \(run.error)")
            #expect(run.error.contains("ffmpeg failed") && run.error.contains("Unknown encoder libx264"), "\(backend): \(run.error)")
            #expect(!FileManager.default.fileExists(atPath: mp4.path))
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("a.mp4") || $0.hasSuffix(".mp4") }
            #expect(left.isEmpty, "\(backend) left \(left)")
        }
    }

    @Test("MP4 says plainly when ffmpeg is missing; check compares the backends; schema prints the schema")
    func checkAndSchema() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try writeScene(in: folder)
        let mp4 = folder.appendingPathComponent("a.mp4")
        let video = try quartz(["animate", scene.path, "-o", mp4.path, "--backend", "cpu"])
        if video.status == 0 {
            #expect(try Data(contentsOf: mp4).count > 0)
        } else {
            #expect(video.status == 2 && video.error.contains("ffmpeg"))
            #expect(!FileManager.default.fileExists(atPath: mp4.path))
        }
        let check = try quartz(["check", scene.path, "--time", "0.6", "--json"])
        #expect(check.status == 0 && check.output.contains(#""agree":true"#), "\(check.output) \(check.error)")
        // Every subcommand speaks JSON for machines.
        let info = try quartz(["info", "--json"])
        #expect(info.status == 0 && info.output.hasPrefix("{") && info.output.contains(#""renderer":"#))
        let image = folder.appendingPathComponent("x.png")
        #expect(try quartz(["render", scene.path, "-o", image.path, "--backend", "cpu"]).status == 0)
        let diff = try quartz(["diff", image.path, image.path, "--json"])
        #expect(diff.status == 0 && diff.output.contains(#""match":true"#) && diff.output.contains(#""maxChannelDelta":0"#))
        // The demo takes scene documents from --examples (here the one document, scene.json).
        let demo = try quartz(["demo", "--only", "scene", "--out", folder.appendingPathComponent("demo").path, "--json",
                               "--examples", folder.path])
        #expect(demo.status == 0 && demo.output.contains(#""agree":true"#) && demo.output.contains(#""scenes":1"#), "\(demo.output)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("demo/scene.gpu.png").path))
        let schema = try quartz(["schema"])
        #expect(schema.status == 0 && schema.output.contains("https://json-schema.org/draft/2020-12/schema"))
    }

    @Test("the demo's index page, opened in headless Chromium, shows every scene's images; a screenshot is kept")
    func indexPageInChromium() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples")
        let run = try quartz(["demo", "--out", folder.path, "--examples", examples.path])
        #expect(run.status == 0, "\(run.error)")
        let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        let scenes = html.components(separatedBy: "<section id=").count - 1
        #expect(scenes >= 70, "the index has \(scenes) scenes")
        guard let chromium = chromiumPath() else {
            Issue.record("headless Chromium is needed: scripts/install-deps.sh --test installs it")
            return
        }
        func browse(_ arguments: [String]) throws -> String {
            try QuartzCLITests.browse(chromium, folder.appendingPathComponent("index.html"), profile: folder, arguments)
        }
        // Every image (GPU, CPU and heat map of each scene) loaded and decoded in the browser.
        let dom = try browse(["--dump-dom"])
        #expect(dom.contains("data-loaded=\"\(3 * scenes)/\(3 * scenes)\""), "\(dom.prefix(300))")
        let shot = folder.appendingPathComponent("index.png")
        _ = try browse(["--window-size=1600,5200", "--screenshot=\(shot.path)"])
        let image = try CGImage.load(contentsOf: shot)
        #expect(image.width == 1600 && image.height == 5200)
        // The page is not blank: the scenes' images put many colours on it.
        var colours = Set<UInt32>()
        for y in stride(from: 0, to: image.height, by: 7) {
            for x in stride(from: 0, to: image.width, by: 7) {
                let p = image.bitmap[x, y]
                colours.insert(UInt32(p.0) << 16 | UInt32(p.1) << 8 | UInt32(p.2))
            }
        }
        #expect(colours.count > 500)
        // Kept for people to look at: out/index-screenshot.png beside the build.
        try? FileManager.default.createDirectory(atPath: "out", withIntermediateDirectories: true)
        try? Data(contentsOf: shot).write(to: URL(fileURLWithPath: "out/index-screenshot.png"))
    }

    /// Headless Chromium on PATH (Debian's `chromium`), if installed.
    func chromiumPath() -> String? {
        ["chromium", "chromium-browser"].lazy.compactMap { name -> String? in
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
                .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }.first
    }

    /// Opens `page` in headless Chromium with `arguments`; returns what it printed.
    static func browse(_ chromium: String, _ page: URL, profile: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                             "--user-data-dir=\(profile.appendingPathComponent("profile").path)"] + arguments + [page.absoluteString]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func browse(_ chromium: String, _ page: URL, profile: URL, _ arguments: [String]) throws -> String {
        try Self.browse(chromium, page, profile: profile, arguments)
    }
}
