import Foundation

/// A JSON value as read from a scene document, with where it started (for error messages) and
/// its object members in document order (so errors and re-encoded documents follow the text).
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.number(x), .number(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// What a person would call this kind of value in an error message.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array(let items): "an array of \(items.count)"
        case .object: "an object"
        }
    }

    /// The member named `key` of an object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

extension JSONValue {
    /// Compact JSON text with members in order; numbers that are whole print without a fraction.
    public func serialized(indent: String? = "  ", level: Int = 0) -> String {
        let pad = indent.map { String(repeating: $0, count: level + 1) } ?? ""
        let close = indent.map { String(repeating: $0, count: level) } ?? ""
        let newline = indent == nil ? "" : "\n"
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n):
            if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
            return "\(n)"
        case .string(let s): return JSONValue.quoted(s)
        case .array(let items):
            if items.isEmpty { return "[]" }
            // Short arrays of scalars (points, colors, matrices) stay on one line.
            if items.allSatisfy({ if case .array = $0 { false } else if case .object = $0 { false } else { true } }) {
                return "[" + items.map { $0.serialized(indent: nil) }.joined(separator: ", ") + "]"
            }
            return "[" + newline + items.map { pad + $0.serialized(indent: indent, level: level + 1) }
                .joined(separator: "," + newline) + newline + close + "]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            let separator = indent == nil ? ":" : ": "
            return "{" + newline + members.map { pad + JSONValue.quoted($0.key) + separator + $0.value.serialized(indent: indent, level: level + 1) }
                .joined(separator: "," + newline) + newline + close + "}"
        }
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
