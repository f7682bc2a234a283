// The Lottie importer's own JSON reader: the same values JSONSerialization reads on every file
// of ../shared/lottie (every string; every number, which JSONSerialization on Linux reads a few
// units in the last place off for some 16- and 17-digit numbers), numbers as strtod reads them
// (correctly rounded), and bad JSON refused with its line and column.
import Foundation
import LottieImport
import Testing

@Suite("Lottie's JSON reader")
struct LottieJSONTapeTests {
    /// Where two readings part, as a path, or nil when they agree (numbers to `ulps` units in the
    /// last place).
    static func difference(_ a: Any, _ b: Any, path: String = "$", ulps: UInt64 = 0) -> String? {
        switch (a, b) {
        case let (x as [String: Any], y as [String: Any]):
            guard Set(x.keys) == Set(y.keys) else { return "\(path): keys \(x.keys.sorted()) and \(y.keys.sorted())" }
            for key in x.keys.sorted() {
                if let d = difference(x[key]!, y[key]!, path: "\(path).\(key)", ulps: ulps) { return d }
            }
            return nil
        case let (x as [Any], y as [Any]):
            guard x.count == y.count else { return "\(path): \(x.count) and \(y.count) elements" }
            for i in x.indices {
                if let d = difference(x[i], y[i], path: "\(path)[\(i)]", ulps: ulps) { return d }
            }
            return nil
        case let (x as String, y as String):
            return x == y ? nil : "\(path): \"\(x)\" and \"\(y)\""
        case (is NSNull, is NSNull):
            return nil
        case let (x as Bool, y as NSNumber) where !(b is String):
            return x == y.boolValue ? nil : "\(path): \(x) and \(y)"
        case let (x as Double, y as NSNumber) where !(b is String):
            let (p, q) = (x.bitPattern, y.doubleValue.bitPattern)
            return (p > q ? p - q : q - p) <= ulps ? nil : "\(path): \(x) and \(y.doubleValue)"
        default:
            return "\(path): \(type(of: a)) and \(type(of: b))"
        }
    }

    /// How far JSONSerialization's numbers stray on Linux, in units in the last place (seen: 3,
    /// 0.45500001311302185 read as 0.4550000131130217); strtod's are the exact reference.
    static let foundationError: UInt64 = 8

    @Test("every file of ../shared/lottie reads as JSONSerialization reads it (numbers within its error)")
    func sameAsFoundation() throws {
        let folder = LottieSampleTests.folder.appendingPathComponent("samples")
        let files = FileManager.default.enumerator(atPath: folder.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }
        #expect(files.count > 50)
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            let ours = try LottieJSONTape(data: data).jsonObject()
            let foundation = try JSONSerialization.jsonObject(with: data)
            let difference = Self.difference(ours, foundation, ulps: Self.foundationError)
            #expect(difference == nil, "\(file): \(difference ?? "")")
        }
    }

    @Test("numbers are read as strtod reads them, to the bit: random digits, lengths and exponents")
    func numbersCorrectlyRounded() throws {
        var generator = SystemRandomNumberGenerator()
        var texts: [String] = ["0.8392156862745098", "0.12941176470588237", "9007199254740993", "2.2250738585072011e-308",
                               "4.9406564584124654e-324", "1.7976931348623157e308", "123456789012345678901234567890e-10"]
        for _ in 0..<5000 {
            let digits = (0..<Int.random(in: 1...25, using: &generator)).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            let point = Int.random(in: 0...digits.count, using: &generator)
            var text = point == 0 || point == digits.count ? digits : String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            text = String(text.drop { $0 == "0" })
            if text.isEmpty || text.hasPrefix(".") { text = "0" + text }
            if text.hasSuffix(".") { text += "0" }
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -340...280, using: &generator))" }
            texts.append((Bool.random(using: &generator) ? "-" : "") + text)
        }
        let read = try #require(try LottieJSONTape(data: Data("[\(texts.joined(separator: ","))]".utf8)).jsonObject() as? [Double])
        for (text, value) in zip(texts, read) {
            let expected = Double(text)!
            #expect(value.bitPattern == expected.bitPattern || (value == 0 && expected == 0), "\(text): \(value), strtod \(expected)")
        }
    }

    @Test("escapes, numbers at the edges of the fast path, a repeated member (the last wins)")
    func values() throws {
        let json = #"""
        {"s": "a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00", "n": [0, -0, 1e22, 1e23, 123456789012345678901234, 0.1, 2.5e-308,
          9007199254740993, 0.30000000000000004, 1.7976931348623157e308, 5e-324, -12.5E+2], "d": 1, "d": 2,
         "t": true, "f": false, "z": null, "o": {}, "a": []}
        """#
        let data = Data(json.utf8)
        let ours = try LottieJSONTape(data: data).jsonObject()
        let difference = Self.difference(ours, try JSONSerialization.jsonObject(with: data), ulps: Self.foundationError)
        #expect(difference == nil, "\(difference ?? "")")
        let object = try #require(ours as? [String: Any])
        let numbers = ["0", "-0", "1e22", "1e23", "123456789012345678901234", "0.1", "2.5e-308", "9007199254740993",
                       "0.30000000000000004", "1.7976931348623157e308", "5e-324", "-12.5E+2"].map { Double($0)! }
        #expect((object["n"] as? [Double])?.map(\.bitPattern) == numbers.map { $0 == 0 ? 0 : $0.bitPattern })
        #expect(object["s"] as? String == "a\"b\\c/d\u{8}\u{c}\n\r\t\u{e9}\u{1F600}")
        #expect(object["d"] as? Double == 2)
    }

    @Test("bad JSON is refused with what is wrong and its line and column", arguments: [
        ("{\"a\": 1,\n \"b\": }", "line 2, column 7"),
        ("{\"a\": [1, 2}", "expected ',' or ']'"),
        ("{\"a\": 01}", "a number with a leading zero"),
        ("{\"a\": 1.}", "digits after '.'"),
        ("{\"a\": 1e}", "digits in its exponent"),
        ("{\"a\": 1e999}", "too large for a double"),
        ("{\"a\": \"\\x\"}", "unknown escape"),
        ("{\"a\": \"\\ud800\"}", "lone UTF-16 surrogate"),
        ("{\"a\": \"\\u12\"}", "four hex digits"),
        ("{\"a\": \"tab\there\"}", "control character"),
        ("{\"a\": tru}", "unexpected text"),
        ("{\"a\": 1} x", "after the JSON value"),
        ("{\"a\": \"open", "ends inside a string"),
        ("{a: 1}", "member name in quotes"),
        ("", "ends where a value should be"),
    ])
    func refused(_ json: String, _ expected: String) {
        do {
            _ = try LottieJSONTape(data: Data(json.utf8))
            Issue.record("\(json) was read")
        } catch {
            #expect("\(error)".contains("not JSON") && "\(error)".contains(expected), "\(json): \(error)")
        }
    }

    @Test("bytes that are not UTF-8 inside a string are refused")
    func notUTF8() {
        var data = Data("{\"a\": \"".utf8)
        data.append(contentsOf: [0xC3, 0x28])
        data.append(contentsOf: Data("\"}".utf8))
        #expect(throws: LottieError.self) { try LottieJSONTape(data: data) }
    }

    @Test("nesting up to the limit reads; one deeper is refused by name, not by running off the stack")
    func depth() throws {
        let limit = LottieJSONTape.maxDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        _ = try LottieJSONTape(data: Data(deepest.utf8))
        let deeper = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        do {
            _ = try LottieJSONTape(data: Data(deeper.utf8))
            Issue.record("nesting past the limit was read")
        } catch {
            #expect("\(error)".contains("nested deeper than \(limit)"), "\(error)")
        }
        // A hostile file's million brackets stop at the limit too.
        #expect(throws: LottieError.self) { try LottieJSONTape(data: Data(String(repeating: "[", count: 1_000_000).utf8)) }
    }
}
