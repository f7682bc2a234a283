// The scene format's JSON reader: RFC 8259 values, mistakes reported with line and column,
// repeated keys and deep nesting refused, and no input that crashes it (fuzzed).
import Foundation
import SceneFormat
import Testing

private func read(_ text: String) throws(SceneError) -> JSONValue { try JSONReader.read(Data(text.utf8)) }

@Suite("JSON reader")
struct JSONReaderTests {
    @Test("values of every kind, members in document order, escapes and surrogate pairs")
    func values() throws {
        let value = try read(#"{"b": [1, -2.5e2, true, false, null], "a": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "c": {}}"#)
        guard case .object(let members) = value else { Issue.record("expected an object"); return }
        #expect(members.map(\.key) == ["b", "a", "c"])
        #expect(members[0].value == .array([.number(1), .number(-250), .bool(true), .bool(false), .null]))
        #expect(members[1].value == .string("x\"\\/\u{08}\u{0C}\n\r\té😀"))
        #expect(members[2].value == .object([]))
    }

    @Test("mistakes name their line and column and what was expected", arguments: [
        ("{\"a\": tru}", 1, 7, "found 'tru'"),
        ("{\"a\": 1,\n \"b\": }", 2, 7, "expected a value"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}'"),
        ("[1, 2", 1, 6, "end of the file"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "appears twice"),
        ("[01]", 1, 2, "do not start with 0"),
        ("[1e400]", 1, 2, "out of range"),
        ("[\"a\u{01}\"]", 1, 4, "control character"),
        ("[\"\\q\"]", 1, 3, "unknown escape"),
        ("[\"\\ud800\"]", 1, 9, "unpaired"),
        ("{} x", 1, 4, "after the document's end"),
        ("{a: 1}", 1, 2, "member name in double quotes"),
    ] as [(String, Int, Int, String)])
    func mistakes(text: String, line: Int, column: Int, words: String) {
        do {
            _ = try read(text)
            Issue.record("\(text) should not parse")
        } catch {
            guard case let .syntax(l, c, message) = error else { Issue.record("\(error)"); return }
            #expect(l == line && c == column && message.contains(words), "\(text): line \(l), column \(c): \(message)")
        }
    }

    @Test("nesting past the limit is an error, not a stack overflow")
    func nesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: SceneError.self) { try read(deep) }
        let fine = String(repeating: "[", count: JSONReader.maxNesting) + String(repeating: "]", count: JSONReader.maxNesting)
        #expect(throws: Never.self) { try read(fine) }
    }

    @Test("fuzz: 20,000 mutations of a scene document either read or fail with a syntax error")
    func fuzz() throws {
        let seed = Array(#"{"format": "openquartz-scene", "version": 1, "root": {"frame": [0, 0, 10.5e1, 20], "name": "a\u0041\n", "sublayers": [{"hidden": true}, null]}}"#.utf8)
        var rng = SplitMix(seed: 7)
        let alphabet = Array("{}[]\",:.-+eE0123456789tfnul\\ \n\u{7F}".utf8) + [0xC3, 0xA9, 0xFF, 0x00]
        var parsed = 0
        for _ in 0..<20_000 {
            var bytes = seed
            for _ in 0..<Int(rng.next() % 4) + 1 {
                let position = Int(rng.next() % UInt64(bytes.count + 1))
                switch rng.next() % 3 {
                case 0 where position < bytes.count: bytes.remove(at: position)
                case 1: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: position)
                default: if position < bytes.count { bytes[position] = alphabet[Int(rng.next() % UInt64(alphabet.count))] }
                }
            }
            do {
                _ = try JSONReader.read(Data(bytes))
                parsed += 1
            } catch {
                guard case .syntax = error else { Issue.record("a mutation failed with \(error)"); return }
            }
        }
        #expect(parsed > 100) // some mutations keep the document valid: the reader is not failing everything
    }
}

/// A small deterministic generator (SplitMix64), so fuzz failures reproduce.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
