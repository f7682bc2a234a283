import Foundation

/// The relative links of Markdown files and whether they resolve: the file (or folder) a link
/// names must exist, and an anchor must name a heading of the file it points into, by GitHub's
/// rule for heading ids. Links to the web are not followed; code blocks and code spans are not
/// read for links or headings.
struct MarkdownLinks {
    struct Link: Equatable, CustomStringConvertible {
        let file: URL
        let line: Int
        let target: String
        var description: String { "\(file.lastPathComponent):\(line): (\(target))" }
    }

    /// Every link of `text` that is not to the web (`http:`, `https:`, `mailto:`), with its line.
    static func links(in text: String, of file: URL) -> [Link] {
        var links: [Link] = []
        for (number, line) in proseLines(of: text) {
            let prose = withoutCodeSpans(line)
            var rest = prose[...]
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                // `[text](target "title")`: the target ends at the first space.
                let target = String(after[..<close]).split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
                if !target.isEmpty, !["http://", "https://", "mailto:"].contains(where: target.hasPrefix) {
                    links.append(Link(file: file, line: number, target: target))
                }
                rest = after[after.index(after: close)...]
            }
        }
        return links
    }

    /// The ids GitHub gives the headings of `text`: lower-cased, code marks dropped, everything but
    /// letters, digits, spaces, hyphens and underscores removed, spaces made hyphens; a repeated
    /// id gets -1, -2, ...
    static func anchors(in text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for (_, line) in proseLines(of: text) where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }
            guard title.first == " " else { continue }
            let kept = title.trimmingCharacters(in: .whitespaces).lowercased().unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" || $0 == "_"
            }
            let slug = String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-")
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    /// What is wrong with `link`, or nil when it resolves.
    static func problem(with link: Link) -> String? {
        let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        let anchor = parts.count > 1 ? String(parts[1]) : nil
        let folder = link.file.deletingLastPathComponent()
        let target = path.isEmpty ? link.file : folder.appendingPathComponent(path.removingPercentEncoding ?? path).standardized
        guard FileManager.default.fileExists(atPath: target.path) else {
            return "\(link): \(target.path) does not exist"
        }
        guard let anchor, !anchor.isEmpty else { return nil }
        guard target.pathExtension == "md", let text = try? String(contentsOf: target, encoding: .utf8) else {
            return "\(link): an anchor into a file that is not Markdown"
        }
        return anchors(in: text).contains(anchor) ? nil : "\(link): \(target.lastPathComponent) has no heading #\(anchor)"
    }

    /// Lines outside fenced code blocks, numbered from 1.
    private static func proseLines(of text: String) -> [(Int, String)] {
        var inFence = false
        var lines: [(Int, String)] = []
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if !inFence { lines.append((index + 1, line)) }
        }
        return lines
    }

    /// The line with its `code spans` removed.
    private static func withoutCodeSpans(_ line: String) -> String {
        var result = ""
        var inCode = false
        for character in line {
            if character == "`" {
                inCode.toggle()
            } else if !inCode {
                result.append(character)
            }
        }
        return result
    }
}
