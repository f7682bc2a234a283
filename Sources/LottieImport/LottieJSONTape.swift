import Foundation

// A Lottie document's JSON read into one flat table: every value an entry that knows its parent
// and its key or index, so a value's JSON path is worked out only when something is wrong with
// it, and reading a member is a scan of a few entries rather than a cast of `Any`.
//
// Why our own reader: JSONSerialization reads about 5 MB a second on Linux and hands back
// NSNumbers and bridged dictionaries, and JSONDecoder into a JSON enum costs a generic decode per
// value; both are measured against this reader in docs/lottie.md ("Import"). Numbers are read
// correctly rounded, as strtod reads them (Clinger's fast path when exact, strtod otherwise);
// JSONSerialization on Linux reads some 16- and 17-digit numbers a few units in the last place
// off (0.45500001311302185 as 0.4550000131130217).

/// A JSON document read into a table of entries; `LottieNode` walks it.
public final class LottieJSONTape {
    enum Kind: UInt8 { case null, bool, number, string, array, object }

    struct Entry {
        var kind: Kind
        /// The containing entry (-1 for the root).
        var parent: Int32
        /// In an object the member's key (an index into `strings`), in an array the element's index.
        var slot: Int32
        /// A string's index into `strings`; a container's first child in `children`.
        var payload: Int32
        /// A container's number of children.
        var count: Int32
        /// A number's value; a bool's 0 or 1.
        var number: Double
    }

    let entries: [Entry]
    let strings: [String]
    /// Children of each container, contiguous per container (entry indices).
    let children: [Int32]
    /// How the root is named in paths ("$" for a document).
    let rootName: String

    /// Deepest nesting of arrays and objects read: the reader recurses, and a hostile file must
    /// not run it off its stack.
    public static let maxDepth = 512

    /// Reads `data` as one JSON value; a mistake is named by line and column.
    public init(data: Data, rootName: String = "$") throws {
        self.rootName = rootName
        var parser = Parser(rootName: rootName)
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            try parser.parseDocument(raw.bindMemory(to: UInt8.self))
        }
        (entries, strings, children) = (parser.entries, parser.strings, parser.children)
    }

    /// Whether the root is an object with a member `key`.
    public func rootHasMember(_ key: String) -> Bool { LottieNode(tape: self, index: 0)[key] != nil }

    /// The document as JSONSerialization's types ([String: Any], [Any], Double, String, Bool,
    /// NSNull), for a caller that reads members the importer does not.
    public func jsonObject() -> Any { object(at: 0) }

    private func object(at index: Int32) -> Any {
        let e = entries[Int(index)]
        var list: ArraySlice<Int32> { children[Int(e.payload)..<Int(e.payload + e.count)] }
        switch e.kind {
        case .null: return NSNull()
        case .bool: return e.number != 0
        case .number: return e.number
        case .string: return strings[Int(e.payload)]
        case .array: return list.map { object(at: $0) }
        case .object:
            return Dictionary(list.map { (strings[Int(entries[Int($0)].slot)], object(at: $0)) }) { $1 }
        }
    }

    /// The JSON path of entry `index` ("$.layers[3].ks").
    func path(of index: Int32) -> String {
        var components: [String] = []
        var i = index
        while i > 0 {
            let entry = entries[Int(i)]
            let parent = entries[Int(entry.parent)]
            components.append(parent.kind == .object ? "." + strings[Int(entry.slot)] : "[\(entry.slot)]")
            i = entry.parent
        }
        return rootName + components.reversed().joined()
    }

    /// Recursive descent over the bytes into the tables it then hands to the tape (its own
    /// arrays, so appending needs no access checks through a class); containers gather their
    /// children on one shared stack.
    private struct Parser {
        let rootName: String
        var entries: [Entry] = []
        var strings: [String] = []
        var children: [Int32] = []
        var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var at = 0
        var pending: [Int32] = []
        /// Keys seen, so each distinct key is one String shared by every member that names it;
        /// keys of up to eight bytes (nearly all of Lottie's) are looked up by their bytes.
        var shortKeys: [UInt64: Int32] = [:]
        var keys: [String: Int32] = [:]
        var scratch: [UInt8] = []
        /// 10^0 ... 10^22, each exact (5^22 < 2^53), so each product with one is rounded once.
        let powersOfTen: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { v, _ in v * 10 } }

        init(rootName: String) { self.rootName = rootName }

        mutating func append(_ entry: Entry) {
            entries.append(entry)
        }

        mutating func appendString(_ s: String) -> Int32 {
            strings.append(s)
            return Int32(strings.count - 1)
        }

        mutating func setChildren(of container: Int32, from base: Int) {
            entries[Int(container)].payload = Int32(children.count)
            entries[Int(container)].count = Int32(pending.count - base)
            children.append(contentsOf: pending[base...])
            pending.removeLast(pending.count - base)
        }

        mutating func parseDocument(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            self.bytes = bytes
            // Lottie files hold a value every 5-6 bytes.
            entries.reserveCapacity(bytes.count / 4)
            children.reserveCapacity(bytes.count / 4)
            skipSpace()
            try value(parent: -1, slot: 0, depth: 0)
            skipSpace()
            if at < bytes.count { throw fail("unexpected text after the JSON value") }
        }

        func fail(_ reason: String) -> LottieError {
            var line = 1, column = 1
            for i in 0..<min(at, bytes.count) {
                if bytes[i] == 0x0A { line += 1; column = 1 } else { column += 1 }
            }
            return LottieError(path: rootName, reason: "not JSON: \(reason) at line \(line), column \(column)")
        }

        mutating func skipSpace() {
            while at < bytes.count {
                switch bytes[at] {
                case 0x20, 0x0A, 0x0D, 0x09: at += 1
                default: return
                }
            }
        }

        mutating func value(parent: Int32, slot: Int32, depth: Int) throws {
            guard at < bytes.count else { throw fail("the text ends where a value should be") }
            switch bytes[at] {
            case UInt8(ascii: "{"):
                try container(object: true, parent: parent, slot: slot, depth: depth)
            case UInt8(ascii: "["):
                try container(object: false, parent: parent, slot: slot, depth: depth)
            case UInt8(ascii: "\""):
                let s = try string()
                append(Entry(kind: .string, parent: parent, slot: slot, payload: appendString(s), count: 0, number: 0))
            case UInt8(ascii: "t"):
                try literal("true")
                append(Entry(kind: .bool, parent: parent, slot: slot, payload: 0, count: 0, number: 1))
            case UInt8(ascii: "f"):
                try literal("false")
                append(Entry(kind: .bool, parent: parent, slot: slot, payload: 0, count: 0, number: 0))
            case UInt8(ascii: "n"):
                try literal("null")
                append(Entry(kind: .null, parent: parent, slot: slot, payload: 0, count: 0, number: 0))
            default:
                let n = try number()
                append(Entry(kind: .number, parent: parent, slot: slot, payload: 0, count: 0, number: n))
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let count = word.utf8CodeUnitCount
            guard at + count <= bytes.count else { throw fail("unexpected text") }
            for i in 0..<count where bytes[at + i] != word.utf8Start[i] { throw fail("unexpected text") }
            at += count
        }

        mutating func container(object: Bool, parent: Int32, slot: Int32, depth: Int) throws {
            guard depth < LottieJSONTape.maxDepth else { throw fail("arrays and objects nested deeper than \(LottieJSONTape.maxDepth)") }
            let me = Int32(entries.count)
            append(Entry(kind: object ? .object : .array, parent: parent, slot: slot, payload: 0, count: 0, number: 0))
            let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let base = pending.count
            at += 1
            skipSpace()
            if at < bytes.count, bytes[at] == close {
                at += 1
                setChildren(of: me, from: base)
                return
            }
            var index: Int32 = 0
            while true {
                var childSlot = index
                if object {
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
                    childSlot = try key()
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
                    at += 1
                    skipSpace()
                }
                pending.append(Int32(entries.count))
                try value(parent: me, slot: childSlot, depth: depth + 1)
                index += 1
                skipSpace()
                guard at < bytes.count else { throw fail("the text ends inside \(object ? "an object" : "an array")") }
                if bytes[at] == UInt8(ascii: ",") {
                    at += 1
                    skipSpace()
                } else if bytes[at] == close {
                    at += 1
                    break
                } else {
                    throw fail(object ? "expected ',' or '}'" : "expected ',' or ']'")
                }
            }
            setChildren(of: me, from: base)
        }

        mutating func key() throws -> Int32 {
            // A short key without escapes: its bytes, packed into a number, find it.
            var packed: UInt64 = 0, length = 0
            while at + 1 + length < bytes.count, length < 8 {
                let c = bytes[at + 1 + length]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 || c >= 0x80 { break }
                packed |= UInt64(c) << (8 * UInt64(length))
                length += 1
            }
            if at + 1 + length < bytes.count, bytes[at + 1 + length] == UInt8(ascii: "\"") {
                if let known = shortKeys[packed] {
                    at += length + 2
                    return known
                }
                let index = appendString(try string())
                shortKeys[packed] = index
                return index
            }
            let s = try string()
            if let known = keys[s] { return known }
            let index = appendString(s)
            keys[s] = index
            return index
        }

        /// A string starting at its opening quote; escapes decoded, UTF-8 checked.
        mutating func string() throws -> String {
            at += 1
            let start = at
            while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\"), bytes[at] >= 0x20 { at += 1 }
            guard at < bytes.count else { throw fail("the text ends inside a string") }
            if bytes[at] == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<at])
                at += 1
                guard let s = String(validating: run, as: UTF8.self) else { throw fail("a string is not UTF-8") }
                return s
            }
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<at]))
            while true {
                guard at < bytes.count else { throw fail("the text ends inside a string") }
                let c = bytes[at]
                if c == UInt8(ascii: "\"") { at += 1; break }
                if c < 0x20 { throw fail("a control character inside a string") }
                if c != UInt8(ascii: "\\") { scratch.append(c); at += 1; continue }
                at += 1
                guard at < bytes.count else { throw fail("the text ends inside a string") }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(e)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") {
                        at += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone UTF-16 surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw fail("a lone UTF-16 surrogate in a \\u escape") }
                    UTF8.encode(u) { scratch.append($0) }
                default: throw fail("an unknown escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            }
            guard let s = String(validating: scratch, as: UTF8.self) else { throw fail("a string is not UTF-8") }
            return s
        }

        mutating func hex4() throws -> UInt32 {
            guard at + 4 <= bytes.count else { throw fail("a \\u escape needs four hex digits") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[at]
                let digit: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
                default: throw fail("a \\u escape needs four hex digits")
                }
                v = v << 4 | digit
                at += 1
            }
            return v
        }

        /// A number in JSON's grammar, to the nearest double.
        mutating func number() throws -> Double {
            let start = at
            var negative = false
            if bytes[at] == UInt8(ascii: "-") { negative = true; at += 1 }
            // Up to 19 significant digits go into the mantissa; further ones only move the exponent.
            var mantissa: UInt64 = 0, digits = 0, exponent = 0
            func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }
            guard at < bytes.count, isDigit(bytes[at]) else { throw fail("unexpected text") }
            if bytes[at] == UInt8(ascii: "0"), at + 1 < bytes.count, isDigit(bytes[at + 1]) { throw fail("a number with a leading zero") }
            while at < bytes.count, isDigit(bytes[at]) {
                if digits < 19 {
                    mantissa = mantissa * 10 + UInt64(bytes[at] &- UInt8(ascii: "0"))
                    if mantissa != 0 { digits += 1 }
                } else {
                    exponent += 1
                }
                at += 1
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                at += 1
                guard at < bytes.count, isDigit(bytes[at]) else { throw fail("a number needs digits after '.'") }
                while at < bytes.count, isDigit(bytes[at]) {
                    if digits < 19 {
                        mantissa = mantissa * 10 + UInt64(bytes[at] &- UInt8(ascii: "0"))
                        exponent -= 1
                        if mantissa != 0 { digits += 1 }
                    }
                    at += 1
                }
            }
            var explicitExponent = 0
            if at < bytes.count, bytes[at] | 0x20 == UInt8(ascii: "e") {
                at += 1
                var exponentNegative = false
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
                    exponentNegative = bytes[at] == UInt8(ascii: "-")
                    at += 1
                }
                guard at < bytes.count, isDigit(bytes[at]) else { throw fail("a number needs digits in its exponent") }
                while at < bytes.count, isDigit(bytes[at]) {
                    if explicitExponent < 100_000 { explicitExponent = explicitExponent * 10 + Int(bytes[at] - UInt8(ascii: "0")) }
                    at += 1
                }
                if exponentNegative { explicitExponent = -explicitExponent }
            }
            exponent += explicitExponent
            // Clinger's fast path: an integer mantissa below 2^53 and a power of ten that a double
            // holds exactly give the correctly rounded value in one operation.
            // A mantissa cut short is at least 10^18, so it never takes this path.
            // A zero is +0 whatever its sign, as JSONSerialization reads "-0".
            if mantissa == 0 { return 0 }
            if mantissa < (1 << 53), (-22...22).contains(exponent) {
                var v = Double(mantissa)
                if exponent < 0 { v /= powersOfTen[-exponent] } else { v *= powersOfTen[exponent] }
                return negative ? -v : v
            }
            // Anything else through strtod, which rounds correctly.
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<at]))
            scratch.append(0)
            let v = scratch.withUnsafeBufferPointer { strtod(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), nil) }
            guard v.isFinite else { throw fail("a number too large for a double") }
            return v
        }
    }
}
