// The README and docs/ point at each other and at the code: every relative link and every anchor
// must resolve, so moving a section or renaming a file cannot strand a reader.
import Foundation
import Testing

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The Markdown files a reader is sent to: the README, docs/, and the READMEs beside the code.
private func markdownFiles() throws -> [URL] {
    let docs = root.appendingPathComponent("docs")
    let inDocs = try FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "md" }
    let besideCode = ["Shaders/README.md", "Sources/CEGL/README.md"].map { root.appendingPathComponent($0) }
    return ([root.appendingPathComponent("README.md")] + inDocs + besideCode).sorted { $0.path < $1.path }
}

@Suite("Documentation links")
struct DocumentationLinkTests {
    @Test("every relative link and anchor in the README and docs/ resolves")
    func linksResolve() throws {
        var checked = 0
        for file in try markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for link in MarkdownLinks.links(in: text, of: file) {
                checked += 1
                if let problem = MarkdownLinks.problem(with: link) { Issue.record(Comment(rawValue: problem)) }
            }
        }
        #expect(checked >= 20, "only \(checked) links found: the README should lead to every page of docs/")
    }

    @Test("the README is a front door: both commands first, at most ~200 lines, every page of docs/ linked")
    func readmeIsAFrontDoor() throws {
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        #expect(lines.count <= 210, "README.md has \(lines.count) lines")
        let firstCommands = lines.filter { $0.hasPrefix("make ") }.prefix(2).map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        #expect(firstCommands == ["make demo", "make test"])
        let linked = Set(MarkdownLinks.links(in: text, of: root.appendingPathComponent("README.md")).map { $0.target.split(separator: "#").first.map(String.init) ?? "" })
        for page in try markdownFiles() where page.deletingLastPathComponent().lastPathComponent == "docs" {
            #expect(linked.contains("docs/\(page.lastPathComponent)"), "README.md does not link docs/\(page.lastPathComponent)")
        }
    }

    @Test("the checker finds a missing file, a missing anchor and skips code and the web")
    func checkerFindsBrokenLinks() throws {
        let file = root.appendingPathComponent("README.md")
        let text = """
            # Title
            ## A `code` heading (with punctuation)
            [ok](#title) [ok](#a-code-heading-with-punctuation) [ok](docs/design.md#where-to-make-a-change)
            [gone](docs/no-such-page.md) [bad anchor](docs/design.md#no-such-heading) [web](https://example.com)
            `[not a link](nowhere.md)`
            ```
            [not a link either](nowhere.md)
            # not a heading
            ```
            """
        let links = MarkdownLinks.links(in: text, of: file)
        #expect(links.map(\.target) == ["#title", "#a-code-heading-with-punctuation", "docs/design.md#where-to-make-a-change",
                                        "docs/no-such-page.md", "docs/design.md#no-such-heading"])
        #expect(MarkdownLinks.anchors(in: text) == ["title", "a-code-heading-with-punctuation"])
        // Anchors of the constructed text are checked against the real README: only the other links count here.
        let problems = links.dropFirst(2).compactMap(MarkdownLinks.problem(with:))
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.first?.contains("does not exist") == true)
        #expect(problems.last?.contains("has no heading #no-such-heading") == true)
    }
}
