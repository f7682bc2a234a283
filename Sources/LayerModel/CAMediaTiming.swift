import Foundation
import OpenCoreGraphics

/// What an animation shows outside its active interval.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Nothing outside the active interval (the default).
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    /// The final value after the end.
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// The first value before the start.
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    /// Both.
    public static let both = CAMediaTimingFillMode(rawValue: "both")

    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// A timeline nested in its parent's: layers and animations both have one.
///
/// Local time is `t = (t_parent - beginTime) * speed + timeOffset`, nested through the layer tree
/// and animation groups, so speeds multiply (3 x 0.5 x 4 = 6).
public protocol CAMediaTiming: AnyObject {
    /// When the timeline starts, in the parent's time. Default: 0.
    var beginTime: CFTimeInterval { get set }
    /// Length of one iteration in seconds. Default: 0 (animations then last 0.25 s).
    var duration: CFTimeInterval { get set }
    /// Local time per parent time. Default: 1.
    var speed: Float { get set }
    /// Added to local time. Default: 0.
    var timeOffset: CFTimeInterval { get set }
    /// Iterations, possibly fractional or `.infinity`. Default: 0 (one iteration).
    var repeatCount: Float { get set }
    /// Seconds to repeat for; wins over repeatCount when set. Default: 0.
    var repeatDuration: CFTimeInterval { get set }
    /// Play each iteration forwards then backwards. Default: false.
    var autoreverses: Bool { get set }
    /// What shows outside the active interval. Default: `.removed`.
    var fillMode: CAMediaTimingFillMode { get set }
}

/// Where in its timeline a timing object is at a parent time.
enum TimingState: Equatable {
    /// Outside the active interval and not filling: contributes nothing.
    case inactive
    /// Progress through the current iteration, 0...1 (before the timing function), and which
    /// iteration it is (0 first), for cumulative animations.
    case active(progress: Double, iteration: Int)
}

extension CAMediaTiming {
    /// Local time for a parent time, without repetition: `(t - beginTime) * speed + timeOffset`.
    func localTime(fromParent t: CFTimeInterval) -> CFTimeInterval {
        (t - beginTime) * CFTimeInterval(speed) + timeOffset
    }

    /// The parent time for a local time (the inverse of `localTime(fromParent:)`); with speed 0
    /// every parent time maps to the same local time, and `beginTime` is returned.
    func parentTime(fromLocal t: CFTimeInterval) -> CFTimeInterval {
        speed == 0 ? beginTime : (t - timeOffset) / CFTimeInterval(speed) + beginTime
    }

    /// One iteration's length (0 means the default 0.25 s).
    var effectiveDuration: CFTimeInterval { TimingParameters(self).effectiveDuration }

    /// The active duration in local time: iterations times the (auto-reversed) period.
    var activeDuration: CFTimeInterval { TimingParameters(self).activeDuration }

    /// The state at parent time `t`, per CAMediaTiming: active interval, fill modes, repetition,
    /// auto-reversal. `timeOffset` shifts where in the timeline playback starts, wrapping around.
    func timingState(atParentTime t: CFTimeInterval) -> TimingState {
        TimingParameters(self).state(atParentTime: t)
    }
}

/// A timeline's settings as one value: animations attached to a layer cannot change, so they keep
/// theirs in one of these instead of reading a dozen properties every frame.
struct TimingParameters {
    let beginTime: CFTimeInterval
    var duration: CFTimeInterval
    let speed: Float
    let timeOffset: CFTimeInterval
    let repeatCount: Float
    let repeatDuration: CFTimeInterval
    let autoreverses: Bool
    let fillMode: CAMediaTimingFillMode

    init(_ timing: some CAMediaTiming) {
        beginTime = timing.beginTime
        duration = timing.duration
        speed = timing.speed
        timeOffset = timing.timeOffset
        repeatCount = timing.repeatCount
        repeatDuration = timing.repeatDuration
        autoreverses = timing.autoreverses
        fillMode = timing.fillMode
    }

    var effectiveDuration: CFTimeInterval { duration > 0 && duration.isFinite ? duration : 0.25 }

    var activeDuration: CFTimeInterval {
        let period = effectiveDuration * (autoreverses ? 2 : 1)
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return repeatCount.isInfinite ? .infinity : CFTimeInterval(repeatCount) * period }
        return period
    }

    func state(atParentTime t: CFTimeInterval) -> TimingState {
        // Non-finite timing values make the timeline inactive (Core Animation's no-op), never a
        // NaN that would spread into the layer's values.
        guard t.isFinite, beginTime.isFinite, timeOffset.isFinite, speed.isFinite, !duration.isNaN,
              !repeatDuration.isNaN else { return .inactive }
        let elapsed = (t - beginTime) * CFTimeInterval(speed)
        let active = activeDuration
        var local: CFTimeInterval
        if elapsed < 0 {
            guard fillMode.fillsBackwards else { return .inactive }
            local = 0
        } else if elapsed >= active {
            guard fillMode.fillsForwards else { return .inactive }
            local = active
        } else {
            local = elapsed
        }
        let d = effectiveDuration
        let period = d * (autoreverses ? 2 : 1)
        var shifted = local + timeOffset
        var iteration = (shifted / period).rounded(.down)
        var inPeriod = shifted - iteration * period
        if local >= active && active.isFinite && inPeriod == 0 && shifted > 0 {
            // The end state is the end of the last iteration, not the start of the next.
            iteration -= 1
            inPeriod = period
        }
        shifted = inPeriod
        var progress = shifted / d
        if autoreverses && progress > 1 { progress = 2 - progress }
        return .active(progress: min(max(progress, 0), 1), iteration: Int(clampingPixels: iteration, .down, to: -1_000_000_000...1_000_000_000))
    }
}
