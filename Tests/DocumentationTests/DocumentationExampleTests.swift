// Every Swift example in the README and docs/ compiles as written, `import QuartzCore` and all:
// the build compiles DocumentationExamples.swift, and this test holds that file equal to what the
// pages say, so an example edited on a page without compiling fails here.
import Foundation
import Testing

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
private let generated = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("DocumentationExamples.swift")

/// The pages with Swift examples, each with the name of the function compiling its examples.
private func pages() throws -> [(name: String, text: String)] {
    let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
        .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    return try (["README.md"] + docs).map { path in
        let words = path.dropLast(3).split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        let name = words.enumerated().map { $0.offset == 0 ? $0.element.lowercased() : $0.element.capitalized }.joined() + "Examples"
        return (name, try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
    }
}

@Suite("Documentation examples")
struct DocumentationExampleTests {
    @Test("DocumentationExamples.swift holds every Swift example of the README and docs/ as written")
    func examplesAreCompiled() throws {
        let expected = SwiftExamples.source(of: try pages())
        if ProcessInfo.processInfo.environment["DOC_EXAMPLES_RECORD"] == "1" {
            try expected.write(to: generated, atomically: true, encoding: .utf8)
        }
        let compiled = try String(contentsOf: generated, encoding: .utf8)
        #expect(compiled == expected, """
            the pages' Swift examples changed: DOC_EXAMPLES_RECORD=1 swift test --filter DocumentationExample, \
            then build to compile them
            """)
    }

    @Test("every example left out says why")
    func leftOutExamplesSayWhy() throws {
        var compiled = 0
        for page in try pages() {
            for block in SwiftExamples.blocks(in: page.text) {
                if let reason = block.notCompiled {
                    #expect(reason.count >= 10, "\(page.name) line \(block.line): say why the example is not compiled")
                } else {
                    compiled += 1
                }
            }
        }
        #expect(compiled >= 3, "only \(compiled) examples are compiled (the README has two, docs/api.md one)")
    }

    @Test("blocks, their imports and the not-compiled mark are read as meant")
    func extraction() {
        let text = """
            Some prose.
            ```swift
            #if canImport(QuartzCore)
            import QuartzCore
            #else
            import OpenQuartzCore
            #endif

            let layer = CALayer()
            ```
            <!-- not compiled: uses the reader's own module -->
               ```swift
               import Badges
               badge()
               ```
            ```json
            {}
            ```
            """
        let blocks = SwiftExamples.blocks(in: text)
        #expect(blocks.count == 2)
        #expect(blocks.first?.notCompiled == nil)
        #expect(blocks.last?.notCompiled == "uses the reader's own module")
        #expect(blocks.last?.code == ["import Badges", "badge()"])
        let split = SwiftExamples.splitImports(blocks[0].code)
        #expect(split.imports.count == 5 && split.body == ["", "let layer = CALayer()"])
        let source = SwiftExamples.source(of: [(name: "pageExamples", text: text)])
        #expect(source.contains("import QuartzCore\n#else") && source.contains("func pageExamples() throws {")
                && source.contains("    let layer = CALayer()") && !source.contains("Badges"))
    }
}
