import Foundation

/// A timer tied to the frames a renderer makes, headless: `CARenderer.renderFrames` fires every
/// link scheduled on the main run loop or the rendering thread's, before it builds each frame,
/// with that frame's time, so code that animates by display link renders the same frames
/// offline, every run.
///
/// Apple's `init(target:selector:)` needs the Objective-C runtime, which Linux has not; the
/// handler takes its place: `CADisplayLink { link in ... }` is `#selector(step(_:))`'s body.
public final class CADisplayLink: @unchecked Sendable {
    private let handler: (CADisplayLink) -> Void
    private let lock = NSLock()
    private var state = State()

    private struct State {
        var timestamp: CFTimeInterval = 0
        var targetTimestamp: CFTimeInterval = 0
        var duration: CFTimeInterval = 0
        var isPaused = false
        var preferredFramesPerSecond = 0
        var preferredFrameRateRange = CAFrameRateRange.default
        var frameInterval = 1
        var framesSinceFired = 0
        var lastFired: CFTimeInterval?
        var runLoops: [ObjectIdentifier] = []

        /// Calls a second asked for: the frame-rate range's when set, else preferredFramesPerSecond.
        var effectiveRate: Double? {
            if preferredFrameRateRange != .default {
                let preferred = preferredFrameRateRange.preferred.flatMap { $0 > 0 ? $0 : nil }
                let rate = Double(preferred ?? preferredFrameRateRange.maximum)
                return rate > 0 ? rate : nil
            }
            return preferredFramesPerSecond > 0 ? Double(preferredFramesPerSecond) : nil
        }
    }

    /// A link that calls `handler` before each frame, once scheduled with `add(to:forMode:)`.
    public init(handler: @escaping (CADisplayLink) -> Void) {
        self.handler = handler
    }

    /// The time of the frame being made (media time, seconds). Default: 0.
    public var timestamp: CFTimeInterval { lock.withLock { state.timestamp } }
    /// The time of the frame after it. Default: 0.
    public var targetTimestamp: CFTimeInterval { lock.withLock { state.targetTimestamp } }
    /// The time between frames (the renderer's 1 / fps). Default: 0.
    public var duration: CFTimeInterval { lock.withLock { state.duration } }

    /// A paused link is not fired. Default: false.
    public var isPaused: Bool {
        get { lock.withLock { state.isPaused } }
        set { lock.withLock { state.isPaused = newValue } }
    }

    /// At most this many calls a second, skipping frames in between; 0: every frame. Default: 0.
    public var preferredFramesPerSecond: Int {
        get { lock.withLock { state.preferredFramesPerSecond } }
        set { lock.withLock { state.preferredFramesPerSecond = max(newValue, 0) } }
    }

    /// The rates the link would like; when not `.default` it wins over
    /// `preferredFramesPerSecond`: calls come at most `preferred` (else `maximum`) times a second.
    /// Default: `.default`.
    public var preferredFrameRateRange: CAFrameRateRange {
        get { lock.withLock { state.preferredFrameRateRange } }
        set { lock.withLock { state.preferredFrameRateRange = newValue } }
    }

    /// Apple's older spelling of a rate: a call every `frameInterval` frames (values under 1 count
    /// as 1). Default: 1.
    @available(*, deprecated, message: "use preferredFramesPerSecond, as on Apple's platforms")
    public var frameInterval: Int {
        get { lock.withLock { state.frameInterval } }
        set { lock.withLock { state.frameInterval = max(newValue, 1) } }
    }

    /// Schedules the link: renderers fire links on the main run loop and on the run loop of the
    /// thread they render on. The mode is accepted and not distinguished.
    public func add(to runLoop: RunLoop, forMode mode: RunLoop.Mode) {
        let key = ObjectIdentifier(runLoop)
        lock.withLock { if !state.runLoops.contains(key) { state.runLoops.append(key) } }
        DisplayLinks.schedule(self)
    }

    /// Takes the link off `runLoop`; off every run loop, it is no longer fired.
    public func remove(from runLoop: RunLoop, forMode mode: RunLoop.Mode) {
        let key = ObjectIdentifier(runLoop)
        let none = lock.withLock { () -> Bool in
            state.runLoops.removeAll { $0 == key }
            return state.runLoops.isEmpty
        }
        if none { DisplayLinks.unschedule(self) }
    }

    /// Takes the link off every run loop for good (and releases it, as Apple's does).
    public func invalidate() {
        lock.withLock { state.runLoops = [] }
        DisplayLinks.unschedule(self)
    }

    /// Calls the handler for the frame at `time` when the link is scheduled on one of `runLoops`,
    /// not paused, and its preferred rate allows.
    fileprivate func fire(at time: CFTimeInterval, duration: CFTimeInterval, runLoops: [ObjectIdentifier]) {
        let due = lock.withLock { () -> Bool in
            guard !state.isPaused, state.runLoops.contains(where: runLoops.contains) else { return false }
            state.framesSinceFired += 1
            guard state.lastFired == nil || state.framesSinceFired >= state.frameInterval else { return false }
            if let rate = state.effectiveRate, let last = state.lastFired, time - last < 1 / rate - duration / 2 {
                return false
            }
            state.framesSinceFired = 0
            state.lastFired = time
            state.timestamp = time
            state.duration = duration
            state.targetTimestamp = time + duration
            return true
        }
        if due { handler(self) }
    }
}

/// The scheduled links, process-wide.
package enum DisplayLinks {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var scheduled: [CADisplayLink] = []

    static func schedule(_ link: CADisplayLink) {
        lock.withLock { if !scheduled.contains(where: { $0 === link }) { scheduled.append(link) } }
    }

    static func unschedule(_ link: CADisplayLink) {
        lock.withLock { scheduled.removeAll { $0 === link } }
    }

    /// Fires, in the order they were scheduled, the links on the main run loop or the current
    /// thread's, for the frame at `time` of a sequence `duration` apart: what a renderer does
    /// before it builds each frame.
    package static func fire(frameAt time: CFTimeInterval, duration: CFTimeInterval) {
        let links = lock.withLock { scheduled }
        guard !links.isEmpty else { return }
        let runLoops = [ObjectIdentifier(RunLoop.main), ObjectIdentifier(RunLoop.current)]
        for link in links { link.fire(at: time, duration: duration, runLoops: runLoops) }
    }
}
