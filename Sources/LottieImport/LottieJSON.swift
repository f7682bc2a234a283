import Foundation

// A read-only walk over a Lottie document's JSON that knows where it is: every value read
// carries its JSON path, so bad input is refused with the place and the problem named
// ("layers[3].ks.p.k: expected a number, found a string").

/// Why a Lottie document cannot be read.
public struct LottieError: Error, CustomStringConvertible, Equatable {
    /// The JSON path of the value at fault ("$" for the document).
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}

/// A JSON value and its path in the document.
struct LottieNode {
    let value: Any
    let path: String

    init(_ value: Any, path: String = "$") {
        self.value = value
        self.path = path
    }

    func fail(_ reason: String) -> LottieError { LottieError(path: path, reason: reason) }

    /// The member `key`, or nil when absent or null.
    subscript(key: String) -> LottieNode? {
        guard let object = value as? [String: Any], let member = object[key], !(member is NSNull) else { return nil }
        return LottieNode(member, path: "\(path).\(key)")
    }

    var isObject: Bool { value is [String: Any] }

    func array() throws -> [LottieNode] {
        guard let items = value as? [Any] else { throw fail("expected an array, found \(kind)") }
        return items.enumerated().map { LottieNode($1, path: "\(path)[\($0)]") }
    }

    func number() throws -> Double {
        // JSONSerialization reads numbers as NSNumber; a Bool is an NSNumber too, taken as 0 or 1.
        if let n = value as? NSNumber {
            let d = n.doubleValue
            guard d.isFinite else { throw fail("expected a finite number") }
            return d
        }
        // A one-element array where a number is meant ("k": [12]) is common in exported files.
        if let items = value as? [Any], items.count == 1, let n = items[0] as? NSNumber, n.doubleValue.isFinite { return n.doubleValue }
        throw fail("expected a number, found \(kind)")
    }

    func numbers() throws -> [Double] {
        if let n = value as? NSNumber, n.doubleValue.isFinite { return [n.doubleValue] }
        return try array().map { try $0.number() }
    }

    func string() throws -> String {
        guard let s = value as? String else { throw fail("expected a string, found \(kind)") }
        return s
    }

    func bool() -> Bool { (value as? NSNumber)?.boolValue ?? false }

    func optionalNumber(_ key: String) throws -> Double? { try self[key]?.number() }
    func optionalString(_ key: String) throws -> String? { try self[key]?.string() }

    private var kind: String {
        switch value {
        case is String: "a string"
        case is NSNumber: "a number"
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        default: "null"
        }
    }
}
