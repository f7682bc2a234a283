import Foundation

// A read-only walk over a Lottie document's JSON that knows where it is: every value read can
// name its JSON path, so bad input is refused with the place and the problem named
// ("layers[3].ks.p.k: expected a number, found a string").

/// Why a Lottie document cannot be read.
public struct LottieError: Error, CustomStringConvertible, Equatable {
    /// The JSON path of the value at fault ("$" for the document).
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}

/// A JSON value of a document read into a `LottieJSONTape`; its path is worked out when asked.
struct LottieNode {
    let tape: LottieJSONTape
    let index: Int32

    init(tape: LottieJSONTape, index: Int32 = 0) {
        self.tape = tape
        self.index = index
    }

    private var entry: LottieJSONTape.Entry { tape.entries[Int(index)] }

    /// The JSON path ("$.layers[3].ks.p"), for errors and warnings.
    var path: String { tape.path(of: index) }

    func fail(_ reason: String) -> LottieError { LottieError(path: path, reason: reason) }

    /// The member `key`, or nil when absent or null (the last of several with that name, as a
    /// dictionary would keep it).
    subscript(key: String) -> LottieNode? {
        let e = entry
        guard e.kind == .object else { return nil }
        var c = Int(e.payload) + Int(e.count) - 1
        while c >= Int(e.payload) {
            let child = tape.children[c]
            let member = tape.entries[Int(child)]
            if tape.strings[Int(member.slot)] == key { return member.kind == .null ? nil : LottieNode(tape: tape, index: child) }
            c -= 1
        }
        return nil
    }

    var isObject: Bool { entry.kind == .object }
    var isArray: Bool { entry.kind == .array }

    /// The elements of an array (none for anything else).
    var elements: [LottieNode] {
        let e = entry
        guard e.kind == .array else { return [] }
        return tape.children[Int(e.payload)..<Int(e.payload + e.count)].map { LottieNode(tape: tape, index: $0) }
    }

    /// The one element of a one-element array, else nil.
    var onlyElement: LottieNode? {
        let e = entry
        guard e.kind == .array, e.count == 1 else { return nil }
        return LottieNode(tape: tape, index: tape.children[Int(e.payload)])
    }

    func array() throws -> [LottieNode] {
        guard isArray else { throw fail("expected an array, found \(kind)") }
        return elements
    }

    /// A number, or a bool as 0 or 1 (as JSONSerialization's NSNumber read them).
    private var scalar: Double? {
        let e = entry
        return e.kind == .number || e.kind == .bool ? e.number : nil
    }

    func number() throws -> Double {
        if let d = scalar { return d }
        // A one-element array where a number is meant ("k": [12]) is common in exported files.
        if let d = onlyElement?.scalar { return d }
        throw fail("expected a number, found \(kind)")
    }

    func numbers() throws -> [Double] {
        if let d = scalar { return [d] }
        let e = entry
        guard e.kind == .array else { throw fail("expected an array, found \(kind)") }
        var values: [Double] = []
        values.reserveCapacity(Int(e.count))
        for child in tape.children[Int(e.payload)..<Int(e.payload + e.count)] {
            let element = tape.entries[Int(child)]
            guard element.kind == .number || element.kind == .bool else {
                // Nested one-element arrays and the error's path go the slow way.
                values.append(try LottieNode(tape: tape, index: child).number())
                continue
            }
            values.append(element.number)
        }
        return values
    }

    func string() throws -> String {
        let e = entry
        guard e.kind == .string else { throw fail("expected a string, found \(kind)") }
        return tape.strings[Int(e.payload)]
    }

    func bool() -> Bool { (scalar ?? 0) != 0 }

    func optionalNumber(_ key: String) throws -> Double? { try self[key]?.number() }
    func optionalString(_ key: String) throws -> String? { try self[key]?.string() }

    private var kind: String {
        switch entry.kind {
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        case .number, .bool: "a number"
        case .null: "null"
        }
    }
}
