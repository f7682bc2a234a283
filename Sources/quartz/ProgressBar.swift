import Foundation

/// A one-line progress bar on standard error, redrawn in place; nothing when disabled (standard
/// error is not a terminal, or the output is JSON).
final class ProgressBar {
    let total: Int
    let enabled: Bool
    private var lastDrawn = -1
    private var lastLabel = ""

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    /// `done` of `total` frames.
    func update(done: Int) {
        guard enabled, total > 0 else { return }
        let percent = done * 100 / total
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        draw(filled: done * 30 / total, label: "\(done)/\(total) frames")
    }

    /// A share of the work (0...1) and what is being done.
    func update(fraction: Double, label: String) {
        guard enabled else { return }
        let filled = Int(min(max(fraction, 0), 1) * 30)
        guard filled != lastDrawn || label != lastLabel else { return }
        (lastDrawn, lastLabel) = (filled, label)
        draw(filled: filled, label: label)
    }

    private func draw(filled: Int, label: String) {
        // \u{1B}[K clears what a longer label left.
        FileHandleShim.writeToStandardError("\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
            + "] " + label + "\u{1B}[K")
    }

    func clear() {
        guard enabled, lastDrawn >= 0 else { return }
        FileHandleShim.writeToStandardError("\r\u{1B}[K")
    }
}
