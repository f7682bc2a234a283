import Foundation
import OpenCoreGraphics

/// Told when an animation starts and stops.
public protocol CAAnimationDelegate: AnyObject {
    /// The animation's active interval began.
    func animationDidStart(_ anim: CAAnimation)
    /// The animation ended (`flag` true) or was removed before its end (`flag` false).
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    public func animationDidStart(_ anim: CAAnimation) {}
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The base of every animation: timing and lifecycle. Layers copy an animation when it is added,
/// so changing it afterwards changes nothing on screen, as in Core Animation.
open class CAAnimation: CAMediaTiming {
    /// Whether `object` is this animation: NSObject's identity equality, which CAAnimation
    /// inherits on Apple's platforms; `==` and `Hashable` go through it.
    open func isEqual(_ object: Any?) -> Bool { (object as AnyObject?) === self }

    /// NSObject's hash: the animation's identity.
    open var hash: Int { ObjectIdentifier(self).hashValue }

    /// Default: 0, which `add(_:forKey:)` replaces with the current time in the layer's time space.
    open var beginTime: CFTimeInterval = 0
    /// Default: 0, meaning 0.25 s.
    open var duration: CFTimeInterval = 0
    /// Default: 1.
    open var speed: Float = 1
    /// Default: 0.
    open var timeOffset: CFTimeInterval = 0
    /// Default: 0 (one iteration).
    open var repeatCount: Float = 0
    /// Default: 0.
    open var repeatDuration: CFTimeInterval = 0
    /// Default: false.
    open var autoreverses = false
    /// Default: `.removed`.
    open var fillMode: CAMediaTimingFillMode = .removed

    /// Pacing of each iteration. Default: nil (linear).
    /// This and the other values read every frame (the key path, a keyframe animation's values,
    /// mode and timing functions) are not checked for exclusivity at run time: a layer holds a
    /// copy made when the animation was added, which nothing writes afterwards, and the checks'
    /// bookkeeping on each read cost more than the reads.
    @exclusivity(unchecked) open var timingFunction: CAMediaTimingFunction?
    /// Remove the animation from its layer once it has ended. Default: true.
    open var isRemovedOnCompletion = true
    /// Told when the animation starts and stops; held strongly, as Core Animation does. Default: nil.
    open var delegate: CAAnimationDelegate?
    /// The frame rates the animation would like. A hint: frames here are made at the times a
    /// renderer is given. Default: `.default`.
    open var preferredFrameRateRange: CAFrameRateRange = .default

    /// The timing of the copy attached to a layer, fixed when it was added.
    var attachedTiming: TimingParameters?

    /// The length of one iteration as the animation runs: fixed when it was attached (a group's
    /// child without a duration spans the group's), else its own.
    var attachedDuration: CFTimeInterval { (attachedTiming ?? TimingParameters(self)).effectiveDuration }

    /// Where the animation is at `time` in its layer's time space.
    func timing(at time: CFTimeInterval) -> TimingState {
        (attachedTiming ?? TimingParameters(self)).state(atParentTime: time)
    }

    /// Values set for keys the class does not declare (`setValue(_:forKey:)`): how code tags an
    /// animation for its delegate. Copied with the animation.
    var customValues: [String: Any] = [:]

    /// The value of `key` before it is set: nil for every key (subclasses may answer for their own).
    open class func defaultValue(forKey key: String) -> Any? { nil }

    /// Whether the value of `key` is archived with the animation. Default: true.
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    /// Lifecycle bookkeeping of the copy attached to a layer.
    var didReportStart = false
    var didReportStop = false
    /// Completion blocks of the transactions this animation was added in.
    var completionGroups: [CompletionGroup] = []

    /// Tells the delegate and the waiting transactions that the animation stopped.
    func reportStop(finished: Bool) {
        delegate?.animationDidStop(self, finished: finished)
        let groups = completionGroups
        completionGroups = []
        for group in groups { group.animationStopped() }
    }

    public required init() {}

    /// A copy with the same settings, as NSCopying's: subclasses override it, call super and copy
    /// their own. The zone is ignored (as it is on Apple's platforms).
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = type(of: self).init()
        copy.beginTime = beginTime
        copy.duration = duration
        copy.speed = speed
        copy.timeOffset = timeOffset
        copy.repeatCount = repeatCount
        copy.repeatDuration = repeatDuration
        copy.autoreverses = autoreverses
        copy.fillMode = fillMode
        copy.timingFunction = timingFunction
        copy.isRemovedOnCompletion = isRemovedOnCompletion
        copy.delegate = delegate
        copy.customValues = customValues
        copy.preferredFrameRateRange = preferredFrameRateRange
        return copy
    }

    /// A copy, as NSObject's `copy()`: `copy(with: nil)`.
    public func copy() -> Any { copy(with: nil) }

    /// The copy as an animation (what layers attach and hand out).
    func duplicate() -> CAAnimation {
        guard let copy = copy(with: nil) as? CAAnimation else {
            preconditionFailure("\(type(of: self)).copy(with:) must return an animation")
        }
        return copy
    }

    /// The value of a declared property by its Objective-C key ("duration",
    /// "removedOnCompletion", "fromValue", ...), or what was set for a key of one's own.
    open func value(forKey key: String) -> Any? { keyValue(forKey: key) }
    /// Sets a declared property (a value of the wrong type is ignored), or stores the value: how
    /// code tags an animation for `animationDidStop(_:finished:)`.
    open func setValue(_ value: Any?, forKey key: String) { setKeyValue(value, forKey: key) }
    /// As `value(forKey:)`: animations have no nested key paths of their own.
    open func value(forKeyPath keyPath: String) -> Any? { keyValue(forKey: keyPath) }
    /// As `setValue(_:forKey:)`.
    open func setValue(_ value: Any?, forKeyPath keyPath: String) { setKeyValue(value, forKey: keyPath) }

    /// Whether the animation changes a key path for which `test` holds: its own, or one of its
    /// children's in a group (asked every frame, so nothing is allocated).
    func animatesKey(where test: (String) -> Bool) -> Bool { false }

    /// Applies the animation's effect on `layer` (a presentation copy) at `time` in the layer's
    /// time space. The base class animates nothing.
    func apply(to layer: CALayer, atLayerTime time: CFTimeInterval) {}

    /// Paced progress 0...1 for a linear progress.
    func paced(_ progress: Double) -> Double { timingFunction?.evaluate(progress) ?? progress }
}

/// An animation of one property, named by a key path.
open class CAPropertyAnimation: CAAnimation {
    /// The animated property, e.g. "position", "transform.rotation.z". Default: nil (the key the
    /// animation is added under is used).
    @exclusivity(unchecked) open var keyPath: String?

    override func animatesKey(where test: (String) -> Bool) -> Bool { keyPath.map(test) ?? false }

    /// Add the animated value to the layer's current value. Default: false.
    open var isAdditive = false
    /// Each repetition continues from where the previous ended. Default: false.
    open var isCumulative = false
    /// Turns animated numbers into transforms. Default: nil.
    open var valueFunction: CAValueFunction?

    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone)
        if let copy = copy as? CAPropertyAnimation {
            copy.keyPath = keyPath
            copy.isAdditive = isAdditive
            copy.isCumulative = isCumulative
            copy.valueFunction = valueFunction
        }
        return copy
    }

    /// Set once the animation has said it cannot use one of its values.
    private var reportedUnusableValue = false

    /// Says once, on standard error, that the animation's `role` ("fromValue", "values[2]") holds
    /// `value`, which is not a value of the animated property's kind (`expected`, when the
    /// property has a value to compare with); the caller then skips the whole animation rather
    /// than apply the values it could read.
    func reportUnusable(_ role: String, _ value: Any, expected: AnimatableValue?) {
        guard !reportedUnusableValue else { return }
        reportedUnusableValue = true
        let want = expected.map { "the property holds \($0.kindName)" } ?? "no animated property takes one"
        let message = "OpenQuartz: \(type(of: self)) on \"\(keyPath ?? "")\": its \(role) is \(AnimatableValue.describe(value)), "
            + "but \(want); the animation is skipped\n"
        FileHandle.standardError.write(Data(message.utf8))
    }
}

/// Interpolates one property between two values: see `CABasicAnimation.range(current:)` for how
/// fromValue, byValue and toValue combine (seed 000, Tabelle 6.6).
open class CABasicAnimation: CAPropertyAnimation {
    /// Default: nil.
    open var fromValue: Any? { didSet { parsed = nil; isDiscrete = nil } }
    /// Default: nil.
    open var toValue: Any? { didSet { parsed = nil; isDiscrete = nil } }
    /// Default: nil.
    open var byValue: Any? { didSet { parsed = nil; isDiscrete = nil } }

    /// from/to/by read as values of the animated property's kind, once: parsing an `Any` is a
    /// dynamic cast, too slow to repeat every frame.
    private var parsed: ParsedValues?

    private struct ParsedValues {
        let from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?
        /// The range when it does not depend on the property's current value.
        let fixed: (from: AnimatableValue, to: AnimatableValue)?
        /// A value was set that the property cannot take: the animation does nothing.
        var unusable = false
    }
    /// The key path's accessor, resolved at the first frame.
    private var accessor: LayerKeyPaths.Accessor??
    /// Whether the values do not interpolate (see applyDiscrete), decided at the first frame.
    private var isDiscrete: Bool?

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone)
        if let copy = copy as? CABasicAnimation {
            copy.fromValue = fromValue
            copy.toValue = toValue
            copy.byValue = byValue
        }
        return copy
    }

    /// Images do not interpolate: a `contents` animation shows the end image over the start image,
    /// cross-faded by the animation's progress.
    private func applyContentsCrossFade(to layer: CALayer, fraction: Double) {
        let current = layer.contents as? CGImage
        guard let from = (fromValue as? CGImage) ?? current, let to = (toValue as? CGImage) ?? current else { return }
        layer.contents = to
        layer.contentsCrossFade = from === to ? nil : ContentsCrossFade(from: from, fraction: min(max(fraction, 0), 1))
    }

    /// Values that do not interpolate (flags, layers): `hidden` fades, the layer drawn at an
    /// opacity going from 1 to 0 (or 0 to 1) and hidden only at the end; any other flag takes the
    /// new value as the animation starts, and layers (mask, sublayers) show the model's current
    /// ones (so a change shows at once, and the animation still runs its time for its delegate).
    /// Our choice where Apple documents none; docs/api.md says so. False when the values
    /// interpolate: decided once per animation (a property's type does not change), so the
    /// interpolating ones pay nothing per frame.
    func applyDiscrete(to layer: CALayer, keyPath path: String, fraction: Double) -> Bool {
        if isDiscrete == false { return false }
        let current = layer.value(forKeyPath: path)
        if isDiscrete == nil {
            // By the value's own type: on Linux an NSNumber of 0 or 1 also answers `is Bool`.
            func discrete(_ v: Any?) -> Bool { v.map { type(of: $0) == Bool.self || $0 is CALayer || $0 is [CALayer] } ?? false }
            isDiscrete = discrete(current) || discrete(fromValue) || discrete(toValue)
            if isDiscrete == false { return false }
        }
        // Layers (a mask, the sublayers): the presentation tree already shows the model's
        // current ones, each as its own presentation copy, which a model layer put in their
        // place would undo.
        if current is CALayer || current is [CALayer] || path == "mask" || path == "sublayers" { return true }
        let from = fromValue ?? current, to = toValue ?? current
        if path == "hidden", let wasHidden = flag(from), let hides = flag(to), wasHidden != hides {
            layer.isHidden = false
            layer.opacity *= Float(hides ? 1 - fraction : fraction)
            return true
        }
        layer.setValue(to, forKeyPath: path)
        return true
    }

    private func flag(_ v: Any?) -> Bool? { (v as? Bool) ?? numberValue(v).map { $0 != 0 } }

    /// Start and end for a property whose present value is `current`:
    ///
    /// | set            | from          | to            |
    /// |----------------|---------------|---------------|
    /// | from, to       | from          | to            |
    /// | from, by       | from          | from + by     |
    /// | by, to         | to - by       | to            |
    /// | from           | from          | current       |
    /// | to             | current       | to            |
    /// | by             | current       | current + by  |
    /// | none           | current       | current       |
    func range(current: AnimatableValue) -> (from: AnimatableValue, to: AnimatableValue)? {
        if let fixed = parsed?.fixed { return fixed }
        if parsed?.unusable == true { return nil }
        if parsed == nil {
            let from = fromValue.flatMap { AnimatableValue($0, like: current) }
            let to = toValue.flatMap { AnimatableValue($0, like: current) }
            let by = byValue.flatMap { AnimatableValue($0, like: current) }
            // A value that cannot be read is never half-applied (the others animating without it).
            for (role, raw, read) in [("fromValue", fromValue, from), ("toValue", toValue, to), ("byValue", byValue, by)]
            where raw != nil && read == nil {
                reportUnusable(role, raw!, expected: current)
                parsed = ParsedValues(from: nil, to: nil, by: nil, fixed: nil, unusable: true)
                return nil
            }
            var fixed: (AnimatableValue, AnimatableValue)?
            switch (from, by, to) {
            case let (f?, _, t?): fixed = (f, t)
            case let (f?, b?, nil): fixed = f.adding(b).map { (f, $0) }
            case let (nil, b?, t?): fixed = t.adding(b.scaled(by: -1)).map { ($0, t) }
            default: fixed = nil
            }
            parsed = ParsedValues(from: from, to: to, by: by, fixed: fixed)
            if let fixed { return fixed }
        }
        guard let values = parsed else { return nil }
        let (from, to, by) = (values.from, values.to, values.by)
        switch (from, by, to) {
        case let (f?, _, t?): return (f, t)
        case let (f?, b?, nil): return f.adding(b).map { (f, $0) }
        case let (nil, b?, t?): return t.adding(b.scaled(by: -1)).map { ($0, t) }
        case let (f?, nil, nil): return (f, current)
        case let (nil, nil, t?): return (current, t)
        case let (nil, b?, nil): return current.adding(b).map { (current, $0) }
        default: return (current, current)
        }
    }

    override func apply(to layer: CALayer, atLayerTime time: CFTimeInterval) {
        guard let path = keyPath, case .active(let progress, let iteration) = timing(at: time) else { return }
        let fraction = paced(progress)
        if let function = valueFunction {
            // One number per axis: three for `.scale` and `.translate` (a single number counts for
            // all three), one for the others.
            let vector = { (v: Any?) -> [Double]? in
                if let n = (v as? NumberConvertible)?.doubleValue { return [n, n, n] }
                guard let list = v as? [Any], list.count == 3 else { return nil }
                let numbers = list.compactMap(numberValue)
                return numbers.count == 3 ? numbers : nil
            }
            guard let from = vector(fromValue) ?? (fromValue == nil ? [0, 0, 0] : nil),
                  let to = vector(toValue) ?? vector(byValue).map({ by in zip(from, by).map { $0 + $1 } })
            else { return }
            let value = zip(from, to).map { f, t in
                f + (t - f) * fraction + (isCumulative ? Double(iteration) * (t - f) : 0)
            }
            var transform = function.transform(for: value)
            if isAdditive, let base = CATransform3D.unboxed(layer.value(forKeyPath: path)) {
                transform = CATransform3DConcat(transform, base)
            }
            layer.setValue(transform, forKeyPath: path)
            return
        }
        if path == "contents" {
            applyContentsCrossFade(to: layer, fraction: fraction)
            return
        }
        if applyDiscrete(to: layer, keyPath: path, fraction: fraction) { return }
        let accessor = self.accessor ?? LayerKeyPaths.animationAccessor(path)
        self.accessor = accessor
        // The property's present value matters only to an additive animation or one whose range
        // depends on it; a range of two given values is read once and the property not at all.
        let from: AnimatableValue, to: AnimatableValue
        var current: AnimatableValue?
        if !isAdditive, let fixed = parsed?.fixed {
            (from, to) = fixed
        } else {
            // A property without a value (a nil colour) animates from the zero of the given values' kind.
            guard let present = LayerKeyPaths.animatableValue(of: layer, at: path, accessor: accessor)
                    ?? [fromValue, toValue, byValue].lazy.compactMap({ $0.flatMap(AnimatableValue.init) }).first?.zero,
                  let range = range(current: isAdditive ? present.zero : present)
            else { return }
            (from, to) = range
            current = present
        }
        guard var value = from.interpolated(to: to, fraction: fraction) else { return }
        if isCumulative, iteration > 0, let step = to.adding(from.scaled(by: -1)),
           let accumulated = value.adding(step.scaled(by: Double(iteration))) {
            value = accumulated
        }
        if isAdditive, let current, let sum = current.adding(value) { value = sum }
        LayerKeyPaths.setAnimatableValue(value, of: layer, at: path, accessor: accessor)
    }
}
