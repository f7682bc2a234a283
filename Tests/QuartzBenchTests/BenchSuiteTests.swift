// A whole (short) run: scores, fixed-complexity statistics, checks, the report's JSON round
// trip, the table, the comparison and the HTML; and a driver that renders wrong fails its workload.

import Foundation
import OpenQuartzCore
import QuartzBench
import Testing

@Suite("Bench suite")
struct BenchSuiteTests {
    static func settings(_ names: [String], backend: RenderBackend = .gpu) -> BenchSettings {
        var settings = BenchSettings()
        settings.backend = backend
        settings.workloads = names.compactMap(BenchWorkload.named)
        settings.rampSeconds = 0.5
        settings.fixedFrames = 6
        settings.fixedSeconds = 0.5
        return settings
    }

    @Test("a short GPU run scores each workload, times its fixed frames by stage, and checks frames")
    func shortRun() throws {
        var seen: [BenchProgress] = []
        // 10 fps: frames of the parallel test run wait for the GL device and the cores, and at
        // 60 fps a starting complexity could miss the rate (a score of 0, on a 16-core H100 too).
        var settings = Self.settings(["cards", "text"])
        settings.fps = 10
        let report = try BenchSuite(settings: settings).run { seen.append($0) }
        #expect(report.workloads.map(\.name) == ["cards", "text"])
        #expect(report.failed.isEmpty && report.score != nil)
        for w in report.workloads {
            #expect(w.status == "passed", "\(w.failures)")
            #expect(w.ramp.score >= 0 && w.ramp.low <= w.ramp.score && w.ramp.score <= w.ramp.high, "\(w.ramp)")
            #expect(!w.ramp.samples.isEmpty && w.ramp.bracket.count == 2)
            #expect(w.fixed.frameSeconds.count >= 3 && w.fixed.frameSeconds.count <= 6, "five frames, or three where they take long")
            #expect(w.fixed.median <= w.fixed.p90 && w.fixed.p90 <= w.fixed.p99)
            #expect(w.checkedFrames >= 2, "the first fixed frame and the first ramp samples")
            #expect(w.fixed.stages.submission > 0)
        }
        let geometric = (max(report.workloads[0].ramp.score, 1e-3) * max(report.workloads[1].ramp.score, 1e-3)).squareRoot()
        #expect(abs(try #require(report.score) - geometric) < 1e-9 * geometric)
        #expect(report.gl?.renderer.isEmpty == false && report.machine.cores >= 1 && !report.machine.cpu.isEmpty)
        #expect(seen.first?.workload == "cards" && seen.last?.workload == "text" && seen.last?.phase == "fixed")
        #expect(seen.map(\.fraction) == seen.map(\.fraction).sorted(), "progress only goes forward")

        // JSON round trip, table, comparison with itself, HTML.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try report.json().write(to: file)
        let loaded = try BenchReport.load(file)
        #expect(loaded.workloads.map(\.ramp) == report.workloads.map(\.ramp) && loaded.score == report.score)
        let table = report.table()
        #expect(table.contains("cards") && table.contains("score (geometric mean") && table.contains("frames checked"))
        let comparison = report.comparison(with: loaded, names: ("a.json", "b.json"))
        #expect(comparison.contains("1.00x") && comparison.contains("B/A 1.00x"), "\(comparison)")
        let html = report.html()
        #expect(html.components(separatedBy: "<svg").count - 1 == 3 * 2 && html.contains("id=\"text\""))
    }

    @Test("a frame that misses the bar fails its workload, and the run has no score")
    func wrongFrameFails() throws {
        var suite = BenchSuite(settings: Self.settings(["cards", "group-opacity"]))
        var damaged = 0
        suite.tamper = { image in
            damaged += 1
            // A driver that drops a band of the frame.
            for i in stride(from: 100 * image.width * 4, to: 140 * image.width * 4, by: 4) {
                (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2], image.pixels[i + 3]) = (255, 0, 255, 255)
            }
        }
        let report = try suite.run()
        #expect(damaged >= 2)
        #expect(report.failed == ["cards", "group-opacity"] && report.score == nil)
        let failure = try #require(report.workloads.first?.failures.first)
        #expect(failure.contains("frame") && failure.contains("pixels differ"), "\(failure)")
        #expect(report.table().contains("FAILED") && report.html().contains("class=\"failed\""))
    }

    @Test("the CPU backend runs the suite unchecked, with no GL device in the report")
    func cpuRun() throws {
        let report = try BenchSuite(settings: Self.settings(["strokes"], backend: .cpu)).run()
        #expect(report.gl == nil && report.settings.gpuTime == "none (CPU backend)" && report.backend == "cpu")
        #expect(report.workloads[0].checkedFrames == 0 && report.workloads[0].status == "passed")
        #expect(report.table().contains("the CPU backend is the reference"))
    }

    @Test("a report that is not one is refused, naming the file and what is wrong")
    func badReports() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-bad-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func refusal(_ text: String) -> String {
            let file = folder.appendingPathComponent("r.json")
            try? Data(text.utf8).write(to: file)
            do { _ = try BenchReport.load(file); return "accepted" } catch { return "\(error)" }
        }
        #expect(refusal("{ nope").contains("r.json: not a quartz bench report: not JSON"))
        #expect(refusal("{}").contains("no \"backend\"") || refusal("{}").contains("no \""))
        let report = try BenchSuite(settings: Self.settings(["cards"], backend: .cpu)).run()
        var json = try #require(try JSONSerialization.jsonObject(with: report.json()) as? [String: Any])
        json["format"] = 99
        let future = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        #expect(refusal(future).contains("report format 99"))
        var workloads = try #require(json["workloads"] as? [[String: Any]])
        json["format"] = 1
        workloads[0]["fixed"] = ["complexity": "many"]
        json["workloads"] = workloads
        let wrong = refusal(String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self))
        #expect(wrong.contains("workloads[0].fixed"), "\(wrong)")
        #expect("\(BenchError.unreadable("/x.json", "gone"))" == "/x.json: cannot be read (gone)")
    }

    @Test("a report from elsewhere is bounded before it costs time or output: 8 MiB, 1,000 workloads, names of 256 characters, one row per name; control characters shown escaped")
    func hostileReports() throws {
        let report = try BenchSuite(settings: Self.settings(["cards"], backend: .cpu)).run()
        let base = try #require(try JSONSerialization.jsonObject(with: report.json()) as? [String: Any])
        let workload = try #require((base["workloads"] as? [[String: Any]])?.first)
        func read(_ change: (inout [String: Any]) -> Void) -> String {
            var json = base
            change(&json)
            guard let data = try? JSONSerialization.data(withJSONObject: json) else { return "unencodable" }
            do { _ = try BenchReport.read(data, name: "r.json"); return "accepted" } catch { return "\(error)" }
        }
        let start = Date()
        // 2,000 workloads with 1,000-character names: the 2.2 MB report that took 40 s and printed 200 MB.
        let many = read { json in
            json["workloads"] = (0..<2_000).map { i -> [String: Any] in
                var w = workload
                w["name"] = String(repeating: "w", count: 1_000) + "\(i)"
                return w
            }
        }
        #expect(many.contains("2000 workloads, more than 1000"), "\(many)")
        let long = read { json in
            var w = workload
            w["name"] = String(repeating: "n", count: 300)
            json["workloads"] = [w]
        }
        #expect(long.contains("workloads[0].name is longer than 256 characters"), "\(long)")
        let twice = read { json in json["workloads"] = [workload, workload] }
        #expect(twice.contains("the workload \"cards\" is listed twice"), "\(twice)")
        let frames = read { json in
            var w = workload, fixed = w["fixed"] as! [String: Any]
            fixed["frameSeconds"] = [Double](repeating: 0.01, count: 100_001)
            w["fixed"] = fixed
            json["workloads"] = [w]
        }
        #expect(frames.contains("100001 fixed frames, more than 100000"), "\(frames)")
        #expect(Date().timeIntervalSince(start) < 30)
        // A name with a NUL and an escape sequence is printed escaped, never raw.
        var w = workload
        w["name"] = "a\u{0}b\u{1B}[2J"
        var json = base
        json["workloads"] = [w]
        let hostile = try BenchReport.read(try JSONSerialization.data(withJSONObject: json), name: "r.json")
        let comparison = hostile.comparison(with: report, names: ("a\u{0}.json", "b.json"))
        #expect(!comparison.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(comparison.debugDescription)")
        #expect(comparison.contains("a\\u{0}b\\u{1b}[2J") && comparison.contains("only in A"), "\(comparison)")
        // Not JSON: the reason, not Foundation's dump of its parser's state.
        let broken = (try? BenchReport.read(Data("{\"a\": [1, 2".utf8), name: "r.json")).map { _ in "accepted" }
        #expect(broken == nil)
        do { _ = try BenchReport.read(Data("{\"a\": [1, 2".utf8), name: "r.json") } catch {
            #expect("\(error)" == "r.json: not a quartz bench report: not JSON", "\(error)")
        }
    }
}
