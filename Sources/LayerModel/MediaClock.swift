import Foundation

/// Seconds, as Core Animation counts time. (Foundation on Linux has no CoreFoundation time types.)
public typealias CFTimeInterval = Double

/// The clock behind `CACurrentMediaTime()`.
///
/// By default it reads the system's monotonic clock, as Apple's does. Offline rendering and tests
/// set it (`CARenderer.beginFrame(atTime:)` does), after which it reads exactly what was set until
/// set again or returned to the system clock. Nothing in the render path reads the clock: frames are
/// evaluated at the time they are given.
///
/// A setting holds for the whole process and, above that, for the thread that made it: code that
/// calls `beginFrame(atTime: 10)` and then adds an animation on the same thread has it begin at 10
/// even when a renderer on another thread set the clock in between (two renderers in one process,
/// tests running in parallel). Other threads read the latest setting of any thread.
public enum MediaClock {
    // Guarded by `lock`, an NSLock (a pthread mutex, which the thread sanitizer sees): with
    // Synchronization's Mutex it reported two renders setting the clock at once as a data race.
    nonisolated(unsafe) private static var manualTime: CFTimeInterval?
    private static let lock = NSLock()

    /// Makes `CACurrentMediaTime()` return `t` from now on.
    public static func set(_ t: CFTimeInterval) {
        lock.withLock { manualTime = t }
        Thread.current.threadDictionary[threadKey] = t
    }

    /// Returns `CACurrentMediaTime()` to the system's monotonic clock.
    public static func useSystemClock() {
        lock.withLock { manualTime = nil }
        Thread.current.threadDictionary.removeObject(forKey: threadKey)
    }

    /// Where a thread keeps its own setting (a thread's dictionary is read and written by that
    /// thread only).
    private static let threadKey = "OpenQuartz.MediaClock.time"

    /// A reading that wins over the others within `MediaClock.$scoped.withValue(t) { ... }`: for
    /// code (tests, parallel renders) that must not share one process-wide setting.
    @TaskLocal public static var scoped: CFTimeInterval?

    /// The clock's reading in seconds.
    public static var now: CFTimeInterval {
        if let t = scoped { return t }
        if let t = Thread.current.threadDictionary[threadKey] as? CFTimeInterval { return t }
        if let t = lock.withLock({ manualTime }) { return t }
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return CFTimeInterval(spec.tv_sec) + CFTimeInterval(spec.tv_nsec) / 1e9
    }
}

/// The current media time in seconds: the system's monotonic clock, or the time a renderer or a
/// test set with `MediaClock.set(_:)`.
public func CACurrentMediaTime() -> CFTimeInterval { MediaClock.now }
