import Foundation
import OpenCoreGraphics

/// One mistake in a scene document: where (a JSON path such as `root.sublayers[2].transform`) and
/// what was expected.
public struct SceneIssue: Equatable, Sendable, CustomStringConvertible {
    public let path: String
    public let message: String

    /// Control characters a hostile document puts in a key or a string are kept out of both:
    /// they show as escapes (`ShownText`), so a message stays one line a terminal prints as is.
    public init(path: String, message: String) {
        self.path = ShownText.needsEscaping(path) ? ShownText.escaped(path, limit: .max) : path
        self.message = ShownText.needsEscaping(message) ? ShownText.escaped(message, limit: .max) : message
    }

    public var description: String { "\(path): \(message)" }

    /// `text` in quotes for a message, cut to its first 60 characters when longer: a document's
    /// own strings (keys, names, paths) can be megabytes long, and an error must stay readable.
    static func quoted(_ text: String) -> String {
        "\"" + shortened(text) + "\""
    }

    /// `text`, or its first `limit - 4` characters and its length when it is longer than `limit`.
    static func shortened(_ text: String, to limit: Int = 64) -> String {
        guard text.utf8.count > limit else { return text }
        return "\(text.prefix(limit - 4))… (\(text.count) characters)"
    }
}

/// Why a scene document could not be used. A document with mistakes reports all of them at once.
public enum SceneError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not JSON.
    case syntax(line: Int, column: Int, message: String)
    /// The JSON does not describe a scene: every mistake found.
    case invalid([SceneIssue])
    /// The file could not be read, or is larger than the limit.
    case unreadable(path: String, reason: String)
    /// Writing a document: the layer at the path holds what a document cannot state (a tiled
    /// layer drawn by code), and writing it would lose it.
    case unrepresentable(SceneIssue)

    public var description: String {
        switch self {
        case let .syntax(line, column, message): "line \(line), column \(column): \(ShownText.escaped(message, limit: .max))"
        case .invalid(let issues): issues.map(\.description).joined(separator: "\n")
        case let .unreadable(path, reason): "\(path): \(reason)"
        case .unrepresentable(let issue): issue.description
        }
    }

    /// Each mistake on a line of its own, prefixed with the file's name.
    public func lines(file: String) -> [String] {
        switch self {
        case let .syntax(line, column, message): ["\(file):\(line):\(column): \(ShownText.escaped(message, limit: .max))"]
        case .invalid(let issues): issues.map { "\(file): \($0)" }
        case .unreadable, .unrepresentable: [description]
        }
    }
}
