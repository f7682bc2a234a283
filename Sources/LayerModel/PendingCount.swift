import Foundation

/// How many layers are marked as needing a pass before the next frame, process-wide: a frame
/// whose tree has none skips that pass's walk (one more walk of every layer, every frame, for
/// nothing; a Lottie frame walked its model twice and its presentation once to display nothing).
final class PendingCount: @unchecked Sendable {
    /// Layers marked by setNeedsLayout() and not laid out yet.
    static let layout = PendingCount()
    /// Layers marked by setNeedsDisplay() and not displayed yet.
    static let display = PendingCount()

    private let lock = NSLock()
    private var marked = 0

    func mark() { lock.withLock { marked += 1 } }
    func unmark() { lock.withLock { marked -= 1 } }
    var anyPending: Bool { lock.withLock { marked > 0 } }
}
