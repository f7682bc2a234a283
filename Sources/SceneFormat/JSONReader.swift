import Foundation

/// Reads JSON text (RFC 8259) into a `JSONValue`. Our own rather than Foundation's
/// JSONSerialization, which says only "around character N" for a mistake, lets a repeated key
/// silently win, and cannot tell `true` from `1`: scene documents are written by hand, and their
/// errors must say where. Nesting is limited before it can exhaust the stack.
public struct JSONReader {
    /// Deepest nesting of arrays and objects read.
    public static let maxNesting = 200

    private let bytes: [UInt8]
    private var index = 0

    init(_ data: Data) { bytes = [UInt8](data) }

    /// The value that is the whole text.
    public static func read(_ data: Data) throws(SceneError) -> JSONValue {
        var reader = JSONReader(data)
        // A UTF-8 byte order mark is tolerated, as most editors may write one.
        if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw reader.error("unexpected text after the document's end") }
        return value
    }

    private func error(_ message: String, at position: Int? = nil) -> SceneError {
        let end = min(position ?? index, bytes.count)
        var line = 1, column = 1
        for byte in bytes[..<end] {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return SceneError.syntax(line: line, column: column, message: message)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private var describedNext: String {
        guard index < bytes.count else { return "the end of the file" }
        let byte = bytes[index]
        return byte >= 0x21 && byte < 0x7F ? "'\(Character(UnicodeScalar(byte)))'" : String(format: "byte 0x%02X", byte)
    }

    private mutating func value(depth: Int) throws(SceneError) -> JSONValue {
        guard index < bytes.count else { throw error("expected a value, found the end of the file") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a value, found \(describedNext)")
        }
    }

    private mutating func literal(_ word: String) throws(SceneError) {
        var end = index
        while end < bytes.count, end - index < 40,
              (bytes[end] >= UInt8(ascii: "a") && bytes[end] <= UInt8(ascii: "z")) || (bytes[end] >= UInt8(ascii: "A") && bytes[end] <= UInt8(ascii: "Z")) {
            end += 1
        }
        let found = String(decoding: bytes[index..<end], as: UTF8.self)
        guard found == word else {
            throw error("expected a value (true, false, null, a number, a string, an array or an object), found '\(found)'")
        }
        index = end
    }

    private mutating func object(depth: Int) throws(SceneError) -> JSONValue {
        guard depth <= JSONReader.maxNesting else { throw error("nesting deeper than \(JSONReader.maxNesting) levels") }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        var seen = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes, found \(describedNext)")
            }
            let keyStart = index
            let key = try string()
            guard seen.insert(key).inserted else { throw error("the key \"\(key)\" appears twice in this object", at: keyStart) }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after \"\(key)\", found \(describedNext)")
            }
            index += 1
            skipWhitespace()
            members.append((key, try value(depth: depth)))
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or '}', found the end of the file") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected ',' or '}' after the value of \"\(key)\", found \(describedNext)")
        }
    }

    private mutating func array(depth: Int) throws(SceneError) -> JSONValue {
        guard depth <= JSONReader.maxNesting else { throw error("nesting deeper than \(JSONReader.maxNesting) levels") }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or ']', found the end of the file") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("expected ',' or ']' in an array, found \(describedNext)")
        }
    }

    private mutating func number() throws(SceneError) -> Double {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard digits() > 0 else { throw error("expected digits in a number") }
        if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 {
            throw error("numbers do not start with 0", at: integerStart)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("expected digits after the decimal point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("expected digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("the number \(text) is out of range", at: start) }
        return value
    }

    private mutating func string() throws(SceneError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index // start of a run of plain bytes, decoded together
        func flush(_ end: Int) throws(SceneError) {
            guard end > run else { return }
            guard let text = String(validating: bytes[run..<end], as: UTF8.self) else {
                throw error("a string holds bytes that are not UTF-8", at: run)
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw error("a string is not closed before the end of the file") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flush(index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("a control character (0x\(String(byte, radix: 16))) in a string; write it escaped") }
            if byte != UInt8(ascii: "\\") { index += 1; continue }
            try flush(index)
            index += 1
            guard index < bytes.count else { throw error("a string is not closed before the end of the file") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    // A high surrogate must be followed by an escaped low one.
                    guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("an unpaired UTF-16 surrogate in a \\u escape")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("an unpaired UTF-16 surrogate in a \\u escape") }
                    code = 0x10000 + (code - 0xD800) << 10 + (low - 0xDC00)
                }
                guard let scalar = UnicodeScalar(code) else { throw error("an unpaired UTF-16 surrogate in a \\u escape") }
                scalars.append(scalar)
            default:
                throw error("unknown escape '\\\(Character(UnicodeScalar(escape)))' in a string", at: index - 2)
            }
            run = index
        }
    }

    private mutating func hex4() throws(SceneError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("expected four hex digits after \\u") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(UnicodeScalar(bytes[index])).hexDigitValue else {
                throw error("expected four hex digits after \\u")
            }
            code = code * 16 + UInt32(digit)
            index += 1
        }
        return code
    }
}
