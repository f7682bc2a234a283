// `quartz bench` as a person runs it: the table, the JSON and HTML reports (the page checked in
// headless Chromium), --compare, and refusals of bad input.

import Foundation
import OpenCoreGraphics
import Testing

@Suite("quartz bench")
struct BenchCommandTests {
    @Test("a quick run prints the table, writes the JSON and the HTML report, and Chromium shows the page")
    func quickRun() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("r.json"), html = folder.appendingPathComponent("r.html")
        let frames = folder.appendingPathComponent("frames")
        let run = try quartz(["bench", "--quick", "--workloads", "cards,soft-masks", "-o", json.path, "--html", html.path,
                              "--frames", frames.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("cards") && run.output.contains("soft-masks") && run.output.contains("score (geometric mean"))
        #expect(run.output.contains("GL on "), "the device is named: \(run.output.prefix(200))")
        #expect(run.error.contains("1/2 cards") && run.error.contains("2/2 soft-masks"), "progress, a line per workload off a terminal")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect((report["workloads"] as? [Any])?.count == 2 && report["score"] is Double)
        #expect(try CGImage.load(contentsOf: frames.appendingPathComponent("cards.png")).width == 1280)

        let compare = try quartz(["bench", "--compare", json.path, json.path])
        #expect(compare.status == 0 && compare.output.contains("B/A") && compare.output.contains("1.00x"), "\(compare.output)")

        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(page.components(separatedBy: "<svg").count - 1 == 6)
        guard let chromium = QuartzCLITests().chromiumPath() else {
            Issue.record("headless Chromium is needed: scripts/install-deps.sh --test installs it")
            return
        }
        let dom = try QuartzCLITests.browse(chromium, html, profile: folder, ["--dump-dom"])
        #expect(dom.contains("data-workloads=\"2\"") && dom.components(separatedBy: "class=\"sample\"").count > 6, "\(dom.prefix(300))")
        let shot = folder.appendingPathComponent("page.png")
        _ = try QuartzCLITests.browse(chromium, html, profile: folder, ["--window-size=1200,1400", "--screenshot=\(shot.path)"])
        let image = try CGImage.load(contentsOf: shot)
        // The plots drew: their blue lines and bars are on the page.
        var blue = 0
        for y in stride(from: 0, to: image.height, by: 2) {
            for x in stride(from: 0, to: image.width, by: 2) {
                let p = image.bitmap[x, y]
                if p.2 > 150, p.0 < 140, p.2 > p.0 + 40 { blue += 1 }
            }
        }
        #expect(blue > 300, "\(blue) blue samples")
    }

    @Test("bad input is refused with exit 2, naming what")
    func refusals() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unknown = try quartz(["bench", "--workloads", "cards,confetti"])
        #expect(unknown.status == 2 && unknown.error.contains("no workload \"confetti\"") && unknown.error.contains("soft-masks"))
        let broken = folder.appendingPathComponent("broken.json")
        try Data("{\"tool\": 3".utf8).write(to: broken)
        let compare = try quartz(["bench", "--compare", broken.path, broken.path])
        #expect(compare.status == 2 && compare.error.contains("broken.json: not a quartz bench report"), "\(compare.error)")
        let missing = try quartz(["bench", "--compare", folder.appendingPathComponent("gone.json").path, broken.path])
        #expect(missing.status == 2 && missing.error.contains("gone.json: cannot be read"))
        #expect(try quartz(["bench", "--compare", broken.path]).status == 2)
        #expect(try quartz(["bench", "--fps", "0"]).status == 2)
        let unwritable = try quartz(["bench", "--quick", "-o", "/nonexistent/r.json"])
        #expect(unwritable.status == 2 && unwritable.error.contains("/nonexistent/r.json"))
        let list = try quartz(["bench", "--list"])
        #expect(list.status == 0 && list.output.split(separator: "\n").count == 11)
    }
}
