import Foundation
import OpenCoreGraphics

/// A self-contained HTML page of image comparisons: per pair the verdict, expected and actual side
/// by side, a slider that wipes one over the other, the comparator's picture (heat map, ΔE,
/// FLIP's error map) and the red-over-gray mask. Failing pairs come first. Everything it shows is
/// copied beside it, so the folder can be kept as a CI artifact and opened anywhere.
public struct DiffReport {
    public enum Outcome {
        case compared(ComparatorVerdict, expected: Bitmap, actual: Bitmap)
        /// Only one side has the image, or it could not be read or compared: what is wrong.
        case problem(String)
    }

    public struct Entry {
        public let name: String
        public let outcome: Outcome
        public init(name: String, outcome: Outcome) { (self.name, self.outcome) = (name, outcome) }

        public var passed: Bool {
            if case let .compared(verdict, _, _) = outcome { return verdict.passed }
            return false
        }
    }

    public let title: String
    public let entries: [Entry]
    public init(title: String, entries: [Entry]) { (self.title, self.entries) = (title, entries) }

    /// One pair as the page shows it, and as `report.json` keeps it for merging: the verdict and
    /// the stem of its four images (`STEM.expected.png`, `.actual`, `.diff`, `.mask`).
    public struct Row: Codable, Equatable, Sendable {
        public var name: String
        public var passed: Bool
        /// What is wrong when the pair could not be compared; nil when it was.
        public var problem: String?
        public var summary: String?
        public var comparator: String?
        public var width: Int?
        public var height: Int?
        public var stem: String?
        static let kinds = ["expected", "actual", "diff", "mask"]
    }

    /// What `report.json` holds: the page's title and its rows.
    struct Document: Codable {
        var format = "openquartz-diff-report"
        var version = 1
        var title: String
        var rows: [Row]
    }

    /// Writes `index.html`, `report.json` (the rows, for `merge`) and the images into `folder`
    /// (created if missing); returns the page.
    @discardableResult
    public func write(to folder: URL) throws -> URL {
        try Self.makeFolder(folder)
        let rows = try entries.enumerated().map { index, entry in try Self.writePair(entry, index: index, into: folder) }
        return try Self.finish(title: title, rows: rows, in: folder)
    }

    /// The report written pair by pair, as the pairs are compared: each pair's images go into the
    /// folder at once and only its row is kept, so a report of many large pairs holds one pair's
    /// pixels at a time, not every pair's until the end.
    public static func makeFolder(_ folder: URL) throws {
        try OutputFile.makeFolder(folder.path)
    }

    /// One pair's images (`pairINDEX.expected.png`, `.actual`, `.diff`, `.mask`) written into the
    /// report's folder; its row. Files inside the folder are written without following links.
    public static func writePair(_ entry: Entry, index: Int, into folder: URL) throws -> Row {
        switch entry.outcome {
        case let .problem(message):
            return Row(name: entry.name, passed: false, problem: message)
        case let .compared(verdict, expected, actual):
            let stem = "pair\(index)"
            // One picture drawn and written at a time.
            let pictures: [(String, () -> Bitmap)] = [("expected", { expected }), ("actual", { actual }), ("diff", { verdict.diffImage }),
                                                      ("mask", { verdict.diffMask })]
            for (kind, draw) in pictures {
                try CGImage(bitmap: draw()).writePNG(to: folder.appendingPathComponent("\(stem).\(kind).png"), links: .refused)
            }
            return Row(name: entry.name, passed: verdict.passed, summary: verdict.summary, comparator: verdict.comparator,
                       width: expected.width, height: expected.height, stem: stem)
        }
    }

    /// The same for a pair of files compared band by band: its four images drawn and written a
    /// band at a time (`BandedComparison`), so a report of large images never holds one whole.
    public static func writePair(name: String, _ outcome: BandedComparison.Outcome, expected: String, actual: String,
                                 comparator: RowComparator, index: Int, into folder: URL) throws -> Row {
        let stem = "pair\(index)"
        let pictures: [(String, BandedComparison.Picture)] = [("expected", .expected), ("actual", .actual), ("diff", .diffImage), ("mask", .diffMask)]
        for (kind, picture) in pictures {
            try BandedComparison.write(picture, expected: expected, actual: actual, comparator: comparator,
                                       to: folder.appendingPathComponent("\(stem).\(kind).png"), links: .refused)
        }
        let judgement = outcome.judgement
        return Row(name: name, passed: judgement.passed, summary: judgement.summary, comparator: judgement.comparator,
                   width: outcome.width, height: outcome.height, stem: stem)
    }

    /// `report.json` and `index.html` for the rows written so far; returns the page.
    @discardableResult
    public static func finish(title: String, rows: [Row], in folder: URL) throws -> URL {
        try write(Document(title: title, rows: rows), to: folder)
    }

    /// Merges the reports written into `reports` (each by `write(to:)`, as shards of one suite write
    /// theirs) into one in `folder`: every row, failing first, with its images copied. A name in two
    /// reports is refused (shards compare disjoint slices), as is a folder without `report.json`.
    @discardableResult
    public static func merge(_ reports: [URL], into folder: URL, title: String) throws -> (page: URL, rows: [Row]) {
        var rows: [Row] = []
        var seen: [String: URL] = [:]
        try makeFolder(folder)
        for (index, report) in reports.enumerated() {
            let file = report.appendingPathComponent("report.json")
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw DiffReportError(description: "\(file.path): missing (a report folder written by quartz diff --report has one)")
            }
            let document: Document
            do { document = try JSONDecoder().decode(Document.self, from: data) } catch {
                // The field that is wrong, not Foundation's dump of its decoder's state.
                let at: String
                switch error {
                case let DecodingError.keyNotFound(key, context): at = "no \"\(ShownText.escaped(key.stringValue))\" at \(Self.path(context.codingPath))"
                case let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context):
                    at = "a value of the wrong kind at \(Self.path(context.codingPath))"
                default: at = "not JSON"
                }
                throw DiffReportError(description: "\(ShownText.escaped(file.path, limit: 1_024)): not a diff report (\(at))")
            }
            guard document.format == "openquartz-diff-report" else {
                throw DiffReportError(description: "\(file.path): \"format\" is not \"openquartz-diff-report\"")
            }
            for var row in document.rows {
                if let other = seen[row.name] {
                    throw DiffReportError(description: "\(row.name) is in two reports, \(other.path) and \(report.path): shards compare disjoint slices")
                }
                seen[row.name] = report
                if let stem = row.stem {
                    let merged = "r\(index + 1)-\(stem)"
                    for kind in Row.kinds {
                        let source = report.appendingPathComponent("\(stem).\(kind).png")
                        let target = folder.appendingPathComponent("\(merged).\(kind).png")
                        guard let bytes = FileManager.default.contents(atPath: source.path) else {
                            throw DiffReportError(description: "\(source.path): missing, though \(file.path) shows it")
                        }
                        try OutputFile.write(bytes, to: target.path, links: .refused)
                    }
                    row.stem = merged
                }
                rows.append(row)
            }
        }
        return (try write(Document(title: title, rows: rows), to: folder), rows)
    }

    static func path(_ keys: [CodingKey]) -> String {
        keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\(ShownText.escaped($0.stringValue))" }.joined()
    }

    private static func write(_ document: Document, to folder: URL) throws -> URL {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try OutputFile.write(try encoder.encode(document), to: folder.appendingPathComponent("report.json").path, links: .refused)
        let url = folder.appendingPathComponent("index.html")
        try OutputFile.write(Data(page(title: document.title, rows: document.rows).utf8), to: url.path, links: .refused)
        return url
    }

    static func section(_ row: Row) -> String {
        let name = escape(row.name)
        guard let stem = row.stem, let width = row.width, let height = row.height else {
            return "<section class=bad><h2>\(name) <span class=verdict>PROBLEM</span></h2><p>\(escape(row.problem ?? ""))</p></section>\n"
        }
        let size = "width=\(width) height=\(height)"
        func figure(_ kind: String, _ caption: String) -> String {
            "<figure><img src=\"\(stem).\(kind).png\" \(size) alt=\"\(name) \(caption)\"><figcaption>\(caption)</figcaption></figure>"
        }
        return """
        <section class=\(row.passed ? "ok" : "bad")><h2>\(name) <span class=verdict>\(row.passed ? "match" : "DIFFERS")</span></h2>
        <p>\(escape(row.summary ?? ""))</p>
        <div class=row>\(figure("expected", "expected"))\(figure("actual", "actual"))
        <figure><div class=wipe style="width:\(width)px;height:\(height)px">
        <img src="\(stem).expected.png" \(size) alt="\(name) expected under the slider">
        <img class=top src="\(stem).actual.png" \(size) alt="\(name) actual over the slider"></div>
        <input type=range min=0 max=100 value=50 aria-label="wipe between expected and actual"><figcaption>slider: expected | actual</figcaption></figure>
        \(figure("diff", (row.comparator ?? "") + " picture"))\(figure("mask", "differing pixels"))</div></section>

        """
    }

    static func page(title: String, rows: [Row]) -> String {
        let ordered = rows.enumerated().sorted { ($0.element.passed ? 1 : 0, $0.offset) < ($1.element.passed ? 1 : 0, $1.offset) }
        let sections = ordered.map { section($0.element) }.joined()
        let failing = rows.filter { !$0.passed }.count
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>
        body { font: 13px/1.4 sans-serif; margin: 16px; background: #f6f6f8; color: #222; }
        section { background: white; border: 1px solid #ddd; border-left: 6px solid #18794e; border-radius: 6px; padding: 6px 12px; margin: 10px 0; }
        section.bad { border-left-color: #c0392b; } .bad .verdict { color: #c0392b; } .ok .verdict { color: #18794e; }
        h2 { font-size: 14px; margin: 4px 0; } p { margin: 4px 0; color: #444; }
        .row { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-start; }
        figure { margin: 0; } figcaption { color: #666; font-size: 11px; }
        img { max-width: 360px; min-width: 160px; height: auto; image-rendering: pixelated; border: 1px solid #ccc; background: repeating-conic-gradient(#eee 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
        .wipe { position: relative; max-width: 360px; overflow: hidden; }
        .wipe img { position: absolute; left: 0; top: 0; border: none; min-width: 0; max-width: none; }
        .wipe img.top { clip-path: inset(0 0 0 50%); }
        input[type=range] { width: 100%; max-width: 360px; }
        </style>
        <script>
        window.addEventListener("load", () => {
          // The slider wipes the actual image over the expected one.
          for (const figure of document.querySelectorAll(".wipe")) {
            const slider = figure.parentElement.querySelector("input");
            const top = figure.querySelector("img.top");
            // As the other images: at most 360 pixels wide, small ones enlarged to 160.
            const scale = Math.min(360 / top.naturalWidth, Math.max(1, 160 / top.naturalWidth));
            figure.style.width = (top.naturalWidth * scale) + "px";
            figure.style.height = (top.naturalHeight * scale) + "px";
            for (const img of figure.querySelectorAll("img")) { img.style.width = figure.style.width; }
            slider.addEventListener("input", () => { top.style.clipPath = `inset(0 0 0 ${slider.value}%)`; });
          }
          // For tests and people alike: how many of the page's images the browser could show.
          const images = Array.from(document.images);
          document.body.dataset.loaded = images.filter(i => i.complete && i.naturalWidth > 0).length + "/" + images.length;
        });
        </script></head><body>
        <h1>\(escape(title))</h1>
        <p>\(rows.count) pairs, \(failing) differing or missing.</p>
        \(sections)</body></html>

        """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// A report that cannot be merged: which file, and why.
public struct DiffReportError: Error, CustomStringConvertible {
    public let description: String
}
