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
        guard let object = value as? [String: Any], let member = object[key], type(of: member) != NSNull.self else { return nil }
        return LottieNode(member, path: "\(path).\(key)")
    }

    /// The value as a number, tested without casting a Swift array or dictionary to a class:
    /// such a cast (`is NSNull`, `as? NSNumber`) first bridges the whole collection, every
    /// element boxed, which made reading a 700 KB file's nested arrays take a second.
    private var nsNumber: NSNumber? {
        if value is [Any] || value is [String: Any] || value is String { return nil }
        return value as? NSNumber
    }

    var isObject: Bool { value is [String: Any] }

    func array() throws -> [LottieNode] {
        guard let items = value as? [Any] else { throw fail("expected an array, found \(kind)") }
        return items.enumerated().map { LottieNode($1, path: "\(path)[\($0)]") }
    }

    func number() throws -> Double {
        // JSONSerialization reads numbers as NSNumber; a Bool is an NSNumber too, taken as 0 or 1.
        if let n = nsNumber {
            let d = n.doubleValue
            guard d.isFinite else { throw fail("expected a finite number") }
            return d
        }
        // A one-element array where a number is meant ("k": [12]) is common in exported files.
        if let items = value as? [Any], items.count == 1, let n = LottieNode(items[0]).nsNumber, n.doubleValue.isFinite { return n.doubleValue }
        throw fail("expected a number, found \(kind)")
    }

    func numbers() throws -> [Double] {
        if let n = nsNumber, n.doubleValue.isFinite { return [n.doubleValue] }
        return try array().map { try $0.number() }
    }

    func string() throws -> String {
        guard let s = value as? String else { throw fail("expected a string, found \(kind)") }
        return s
    }

    func bool() -> Bool { nsNumber?.boolValue ?? false }

    func optionalNumber(_ key: String) throws -> Double? { try self[key]?.number() }
    func optionalString(_ key: String) throws -> String? { try self[key]?.string() }

    private var kind: String {
        switch value {
        case is String: "a string"
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        case is NSNumber: "a number"
        default: "null"
        }
    }
}
