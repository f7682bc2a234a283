// quartz diff of two folders split across a CI matrix: each job compares a stable slice of the
// names (--shard i/n, or SNAPSHOT_TESTING_SHARD) into a report of its own, and --merge joins the
// reports into the one an unsharded run writes, exiting as it would.
import Foundation
import OpenCoreGraphics
import Testing

@Suite("quartz diff in shards")
struct DiffShardTests {
    /// Twelve pairs: nine alike, two changed, one missing from the actual side.
    static func folders(in folder: URL) throws -> (expected: URL, actual: URL) {
        let expected = folder.appendingPathComponent("expected"), actual = folder.appendingPathComponent("actual")
        for side in [expected, actual] { try FileManager.default.createDirectory(at: side, withIntermediateDirectories: true) }
        for index in 0..<12 {
            let name = "scene-\(index).png"
            let value = UInt8(20 * index)
            try CGImage(bitmap: Bitmap(width: 16, height: 8) { _, _ in (value, 255 - value, 90, 255) }).writePNG(to: expected.appendingPathComponent(name))
            if index == 11 { continue }
            let changed = index == 3 || index == 7 ? value &+ 40 : value
            try CGImage(bitmap: Bitmap(width: 16, height: 8) { _, _ in (changed, 255 - value, 90, 255) }).writePNG(to: actual.appendingPathComponent(name))
        }
        return (expected, actual)
    }

    static func rows(_ report: URL) throws -> [[String: Any]] {
        let data = try Data(contentsOf: report.appendingPathComponent("report.json"))
        return try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["rows"] as? [[String: Any]])
    }

    @Test("three shards compare disjoint slices that cover the folders; merged, their report is the unsharded one and fails as it does")
    func shardsMerge() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (expected, actual) = try Self.folders(in: folder)
        let whole = folder.appendingPathComponent("whole")
        let unsharded = try quartz(["diff", expected.path, actual.path, "--report", whole.path])
        #expect(unsharded.status == 1 && unsharded.output.contains("9 of 12 images match"), "\(unsharded.output)")

        var reports: [URL] = []
        var seen = Set<String>()
        for index in 1...3 {
            let report = folder.appendingPathComponent("shard-\(index)")
            // The first through the option, the others as a CI matrix sets it.
            let run = index == 1
                ? try quartz(["diff", expected.path, actual.path, "--shard", "1/3", "--report", report.path])
                : try quartz(["diff", expected.path, actual.path, "--report", report.path], environment: ["SNAPSHOT_TESTING_SHARD": "\(index)/3"])
            #expect(run.status == 0 || run.status == 1, "\(run.error)")
            #expect(run.output.contains("in shard \(index)/3"), "\(run.output)")
            let names = Set(try Self.rows(report).map { $0["name"] as! String })
            #expect(!names.isEmpty && names.isDisjoint(with: seen), "shard \(index): \(names)")
            seen.formUnion(names)
            reports.append(report)
        }
        #expect(seen.count == 12)

        let merged = folder.appendingPathComponent("merged")
        let run = try quartz(["diff", "--merge"] + reports.map(\.path) + ["--report", merged.path])
        #expect(run.status == 1, "a differing pair fails the merged run as it fails one run")
        #expect(run.output.contains("9 of 12 images match in 3 shard reports"), "\(run.output)")
        #expect(run.output.contains("DIFFERS scene-3.png") && run.output.contains("PROBLEM scene-11.png"), "\(run.output)")
        // The same rows as one run's (by name: verdicts, summaries, problems), each row's four pictures copied.
        func byName(_ rows: [[String: Any]]) -> [String: String] {
            rows.reduce(into: [:]) { result, row in
                result[row["name"] as! String] = "\(row["passed"]!) \(row["summary"] ?? "-") \(row["problem"] ?? "-")"
            }
        }
        let mergedRows = try Self.rows(merged)
        #expect(byName(mergedRows) == byName(try Self.rows(whole)))
        for row in mergedRows {
            guard let stem = row["stem"] as? String else { continue }
            for kind in ["expected", "actual", "diff", "mask"] {
                #expect(FileManager.default.fileExists(atPath: merged.appendingPathComponent("\(stem).\(kind).png").path), "\(stem).\(kind)")
            }
        }
        let html = try String(contentsOf: merged.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("12 pairs, 3 differing or missing"))

        let twice = try quartz(["diff", "--merge", reports[0].path, reports[0].path, "--report", folder.appendingPathComponent("twice").path])
        #expect(twice.status == 2 && twice.error.contains("is in two reports"), "\(twice.error)")
        let notReport = try quartz(["diff", "--merge", expected.path, "--report", folder.appendingPathComponent("none").path])
        #expect(notReport.status == 2 && notReport.error.contains("report.json: missing"), "\(notReport.error)")
        let badShard = try quartz(["diff", expected.path, actual.path, "--shard", "4/3"])
        #expect(badShard.status == 2 && badShard.error.contains("1 <= i <= n"), "\(badShard.error)")
        let mixed = try quartz(["diff", expected.path, actual.path, "--merge", whole.path, "--report", merged.path])
        #expect(mixed.status == 2 && mixed.error.contains("give no images with it"), "\(mixed.error)")
    }
}
