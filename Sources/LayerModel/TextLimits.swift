import Foundation

/// How much text one `CATextLayer` lays out and draws. Text comes from users and documents; a
/// string of millions of characters would cost minutes and gigabytes of glyph outlines. Past a
/// limit the layer draws what fits within it and says so once on standard error; scene documents
/// refuse such text outright (`SceneLimits.maxTextCharacters`). Settable for the whole process.
public struct TextLimits: Sendable, Equatable {
    /// Characters (Unicode scalars) of one layer's string. Default: 100,000.
    public var maxCharacters = 100_000
    /// Lines (newlines + 1) of one layer's string. Default: 10,000.
    public var maxLines = 10_000
    /// Attribute runs of one attributed string (each shaped on its own). Default: 10,000.
    public var maxRuns = 10_000

    public init() {}

    // An NSLock, not Synchronization's Mutex, which the thread sanitizer does not see (MediaClock).
    private static let lock = NSLock()
    nonisolated(unsafe) private static var shared = TextLimits()
    nonisolated(unsafe) private static var noted = Set<String>()

    /// The limits in force.
    public static var current: TextLimits {
        get { lock.withLock { shared } }
        set { lock.withLock { shared = newValue } }
    }

    /// Writes `message` on standard error, once per process for each message.
    static func note(_ message: String) {
        guard lock.withLock({ noted.insert(message).inserted }) else { return }
        FileHandle.standardError.write(Data("OpenQuartz: a CATextLayer's text has \(message)\n".utf8))
    }
}
