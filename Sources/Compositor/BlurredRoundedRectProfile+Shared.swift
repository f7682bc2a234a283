import Foundation

// Profiles kept across frames and renderers for the CPU reference: a turning card's shadow keeps
// its shape (half sizes, corner, sigma) while its map changes every frame, so its grid is made
// once (128 x 128 closed forms, a millisecond or two) and read by every frame after.
extension BlurredRoundedRectProfile {
    /// The profile of `key` from a process-wide cache (at most `sharedCapacity`, the least
    /// recently used dropped first), made on first use; nil where the shape keeps the closed form.
    public static func shared(_ key: Key) -> BlurredRoundedRectProfile? {
        SharedProfiles.instance.profile(for: key)
    }

    /// Profiles kept at most: 64 (each at most 64 KB).
    public static let sharedCapacity = 64
}

private final class SharedProfiles: @unchecked Sendable {
    static let instance = SharedProfiles()
    private let lock = NSLock()
    private var entries: [BlurredRoundedRectProfile.Key: (profile: BlurredRoundedRectProfile?, lastUsed: Int)] = [:]
    private var clock = 0

    func profile(for key: BlurredRoundedRectProfile.Key) -> BlurredRoundedRectProfile? {
        lock.lock()
        clock += 1
        if let entry = entries[key] {
            entries[key]?.lastUsed = clock
            lock.unlock()
            return entry.profile
        }
        lock.unlock()
        // Made outside the lock: other threads' shadows need not wait for it.
        let made = BlurredRoundedRectProfile(key)
        lock.lock()
        defer { lock.unlock() }
        if entries.count >= BlurredRoundedRectProfile.sharedCapacity,
           let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            entries[oldest.key] = nil
        }
        entries[key] = (made, clock)
        return made
    }
}
