import Foundation

/// How many layers are marked as needing layout, process-wide: a frame whose tree has none skips
/// the layout walk (one more walk of every layer, every frame, for nothing).
enum LayoutPass {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var marked = 0

    static func mark() { lock.withLock { marked += 1 } }
    static func unmark() { lock.withLock { marked -= 1 } }
    static var anyPending: Bool { lock.withLock { marked > 0 } }
}
