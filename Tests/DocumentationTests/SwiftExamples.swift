import Foundation

/// The Swift examples of a Markdown page, and the Swift file that compiles them as written: the
/// page's ```swift blocks in order, as the body of one function (a later block may use what an
/// earlier one made, as a reader running them would), with the imports each block opens with
/// gathered at the top. A block right after `<!-- not compiled: REASON -->` is left out, and says why.
struct SwiftExamples {
    struct Block {
        let line: Int
        let code: [String]
        /// Why the block is not compiled, or nil.
        let notCompiled: String?
    }

    static let notCompiledMark = "<!-- not compiled:"

    /// The ```swift blocks of `text`, their indentation (inside list items) removed.
    static func blocks(in text: String) -> [Block] {
        let lines = text.components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let opening = lines[index].trimmingCharacters(in: .whitespaces)
            guard opening == "```swift" else {
                index += 1
                continue
            }
            let indent = lines[index].prefix { $0 == " " }.count
            let previous = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                .trimmingCharacters(in: .whitespaces)
            let reason = previous.flatMap { $0.hasPrefix(notCompiledMark) ? String($0.dropFirst(notCompiledMark.count).dropLast(3)).trimmingCharacters(in: .whitespaces) : nil }
            var code: [String] = []
            index += 1
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                code.append(String(lines[index].dropFirst(min(indent, lines[index].prefix { $0 == " " }.count))))
                index += 1
            }
            blocks.append(Block(line: index - code.count, code: code, notCompiled: reason))
            index += 1
        }
        return blocks
    }

    /// The leading lines of a block that import modules (`import X`, and `#if canImport` chains
    /// around imports), and the rest.
    static func splitImports(_ code: [String]) -> (imports: [String], body: [String]) {
        var count = 0
        for line in code {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let isImport = trimmed.hasPrefix("import ") || trimmed.hasPrefix("@testable import ")
                || trimmed.hasPrefix("#if canImport(") || trimmed == "#else" || trimmed == "#endif"
            guard isImport else { break }
            count += 1
        }
        return (Array(code[..<count]), Array(code[count...]))
    }

    /// The Swift source compiling `pages` (name for the function, Markdown text), in order.
    static func source(of pages: [(name: String, text: String)]) -> String {
        var imports: [[String]] = []
        var functions: [String] = []
        for page in pages {
            let compiled = blocks(in: page.text).filter { $0.notCompiled == nil }
            guard !compiled.isEmpty else { continue }
            var body: [String] = []
            for (number, block) in compiled.enumerated() {
                let (head, rest) = splitImports(block.code)
                if !head.isEmpty, !imports.contains(head) { imports.append(head) }
                // Numbered, not by line: prose edited above an example must not make this file stale.
                body.append("    // example \(number + 1)")
                body += rest.map { $0.isEmpty ? "" : "    " + $0 }
            }
            functions.append("func \(page.name)() throws {\n" + body.joined(separator: "\n") + "\n}")
        }
        let header = """
            // Generated from the ```swift blocks of the README and docs/ by DocumentationExampleTests,
            // which fails when this file and the pages differ (DOC_EXAMPLES_RECORD=1 swift test --filter
            // DocumentationExample rewrites it): each page's examples as one function, so building the
            // tests compiles every example as it is written. Not run: they write files of their own.
            """
        return ([header] + imports.map { $0.joined(separator: "\n") } + functions).joined(separator: "\n\n") + "\n"
    }
}
