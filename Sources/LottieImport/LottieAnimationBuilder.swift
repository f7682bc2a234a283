import Foundation
import LayerModel
import OpenCoreGraphics

// Lottie keyframes as Core Animation animations, built as lottie-ios's Core Animation engine
// builds them: one CAKeyframeAnimation per property over its keyframes' span (in the layer's
// local time, seconds = frames / frame rate), a cubic timing function per segment from the
// keyframes' easing handles (first dimension), holds as a value kept until just before the next
// keyframe (or a hair after it, where lottie-ios's discrete animations take the jump late:
// `jumpsLate`), and the first and last values filled before and after. A static value is set on
// the layer instead.

struct LottieAnimationBuilder {
    let frameRate: Double
    /// The layer's time in its composition: its keyframes at frame f happen at frame
    /// start + f * stretch of the composition (Lottie's st and sr).
    var start = 0.0
    var stretch = 1.0
    /// Inside a time-remapped precomposition: how this builder's frames follow the clock outside
    /// it (then `start` and `stretch` are not read; LottieTimeRemapping.swift).
    var remap: LottieTimeMap?
    /// The document's samples, shared by every builder made from this one.
    let budget: LottieSampleBudget
    /// The document's first and last frames (ip, op).
    var timeline: ClosedRange<Double> = 0...0

    init(frameRate: Double, budget: LottieSampleBudget) {
        self.frameRate = frameRate
        self.budget = budget
    }

    /// The builder for a layer starting at `start`, stretched by `stretch`, in this one's time.
    func retimed(start: Double, stretch: Double) -> LottieAnimationBuilder {
        var copy = self
        let stretch = stretch > 0 && stretch.isFinite ? stretch : 1
        if let remap {
            copy.remap = remap.mapped { ($0 - start) / stretch }
            return copy
        }
        copy.start = self.start + start * self.stretch
        copy.stretch = self.stretch * stretch
        return copy
    }

    /// The builder of a precomposition whose layer remaps its time: at this builder's frame f
    /// (between `frames`) its layers are at `remap`(f) seconds.
    func remapped(by remap: LottieAnimatable<Double>, frames: ClosedRange<Double>) -> LottieAnimationBuilder {
        var inner = LottieAnimationBuilder(frameRate: frameRate, budget: budget)
        inner.timeline = timeline
        let rate = frameRate
        let seconds = { (frame: Double) in remap.value(at: frame, interpolate: Double.mix) }
        if let outerMap = self.remap {
            inner.remap = outerMap.mapped { seconds($0) * rate }
        } else {
            let samples = LottieTimeMap.samples(frames)
            inner.remap = LottieTimeMap(outer: self, frames: samples, localFrames: samples.map { seconds($0) * rate })
        }
        return inner
    }

    /// The composition's seconds at a layer's frame.
    func seconds(_ frame: Double) -> Double { (start + frame * stretch) / frameRate }
    /// Frames between samples where a value is sampled (paths combined from several animated
    /// items, which Core Animation cannot ease as one).
    static let sampleStep = 1.0
    /// At most this many samples an animation: a 10,000-frame document is sampled coarser.
    static let maxSamples = 1200

    /// A keyframe animation of `keyPath` over Lottie keyframes, or the value set when static.
    func animate<Value: LottieInterpolatable>(_ layer: CALayer, _ keyPath: String, _ property: LottieAnimatable<Value>,
                                              _ convert: (Value) -> Any) {
        if !property.isAnimated {
            layer.setValue(convert(property.first), forKeyPath: keyPath)
            return
        }
        if let remap {
            guard budget.take(remap.frames.count, keyPath: keyPath, layerName: layer.name) else {
                layer.setValue(convert(property.first), forKeyPath: keyPath)
                return
            }
            remap.outer.sampled(layer, keyPath, keys: remap.keys,
                                remapped: remap.values(keyTimes: property.keyframes.map(\.time)) { convert(property.value(at: $0, interpolate: Value.mix)) })
            return
        }
        var times: [Double] = [], values: [Any] = [], functions: [CAMediaTimingFunction] = []
        let frames = property.keyframes
        let discrete = property.isDiscrete
        // A keyframe that a discrete animation reaches only after its frame: its jump a hair later.
        func late(_ i: Int) -> Bool { i > 0 && discrete && frames[i].time > frames[i - 1].time && jumpsLate(at: frames[i].time) }
        for (i, keyframe) in frames.enumerated() {
            times.append(keyframe.time + (late(i) ? LottieDiscreteClock.lateness : 0))
            values.append(convert(keyframe.value))
            guard i + 1 < frames.count else { break }
            let next = frames[i + 1]
            if keyframe.hold {
                // Kept until just before the next keyframe (or a hair after it), then a jump.
                let gap = next.time - keyframe.time
                times.append(late(i + 1) ? next.time + LottieDiscreteClock.lateness / 2 : next.time - min(1e-3, gap / 2))
                values.append(convert(keyframe.value))
                functions.append(CAMediaTimingFunction(name: .linear))
                functions.append(CAMediaTimingFunction(name: .linear))
            } else {
                let o = keyframe.outTangent ?? .zero, h = next.inTangent ?? CGPoint(x: 1, y: 1)
                functions.append(CAMediaTimingFunction(controlPoints: Float(min(max(o.x, 0), 1)), Float(o.y),
                                                       Float(min(max(h.x, 0), 1)), Float(h.y)))
            }
        }
        layer.setValue(convert(property.first), forKeyPath: keyPath)
        layer.add(animation(keyPath, times: times, values: values, functions: functions), forKey: keyPath)
    }

    /// A value worked out at any frame, animated through samples between `start` and `end` (the
    /// frames where its parts change), linear between them but for held values, which jump.
    func sampled(_ layer: CALayer, _ keyPath: String, times keyTimes: LottieKeyTimes, _ value: (Double) -> Any) {
        if let remap {
            guard budget.take(remap.frames.count, keyPath: keyPath, layerName: layer.name) else {
                layer.setValue(value(remap.localFrames[0]), forKeyPath: keyPath)
                return
            }
            remap.outer.sampled(layer, keyPath, keys: remap.keys, remapped: remap.values(keyTimes: keyTimes.times, value))
            return
        }
        let sorted = Array(Set(keyTimes.times)).sorted()
        guard let start = sorted.first, let end = sorted.last, end > start else {
            layer.setValue(value(sorted.first ?? 0), forKeyPath: keyPath)
            return
        }
        let step = max(Self.sampleStep, (end - start) / Double(Self.maxSamples))
        var times: [Double] = []
        var t = start
        while t < end {
            times.append(t)
            t += step
        }
        // Held values kept whole up to their jumps: a sample a hair before each. Finer samples
        // where an easing bends fast, unless they would pass the animation's share.
        let held = keyTimes.jumps.map { $0 - 1e-3 }.filter { $0 > start }
        let finer = keyTimes.refinements.count + times.count <= Self.maxSamples ? keyTimes.refinements : []
        // Jumps of discrete values that Core Animation takes a hair after their frame: a sample
        // there takes the new value (values read on this clock keep the old one at the frame).
        let clock = discreteClock
        let late = keyTimes.discreteJumps.filter { clock?.jumpsLate(at: $0) ?? false }
        times = Array(Set(times + sorted + held + finer + late.map { $0 + LottieDiscreteClock.lateness })).sorted()
        guard budget.take(times.count, keyPath: keyPath, layerName: layer.name) else {
            layer.setValue(value(start), forKeyPath: keyPath)
            return
        }
        sampled(layer, keyPath, times: times, values: LottieDiscreteClock.$current.withValue(clock) { times.map(value) })
    }

    /// Remapped samples at the frames of `keys`, or their one value set when every sample shows it.
    private func sampled(_ layer: CALayer, _ keyPath: String, keys: LottieSampleKeys, remapped: (values: [Any], constant: Bool),
                         discrete: Bool = false) {
        if remapped.constant, let value = remapped.values.first {
            layer.setValue(value, forKeyPath: keyPath)
        } else {
            sampled(layer, keyPath, times: keys.frames, values: remapped.values, discrete: discrete, keys: keys)
        }
    }

    /// `values` at `times` (frames of this builder's clock, ascending), linear between them, or
    /// each kept until the next when `discrete`; `keys` when the caller has made the key times.
    private func sampled(_ layer: CALayer, _ keyPath: String, times: [Double], values: [Any], discrete: Bool = false,
                         keys: LottieSampleKeys? = nil) {
        guard let first = values.first else { return }
        layer.setValue(first, forKeyPath: keyPath)
        guard times.count > 1, let start = times.first, let end = times.last, end > start else { return }
        let made = animation(keyPath, times: times, values: values,
                             functions: keys?.linearFunctions ?? Array(repeating: CAMediaTimingFunction(name: .linear), count: times.count - 1),
                             keyTimes: keys?.keyTimes)
        if discrete { made.calculationMode = .discrete }
        layer.add(made, forKey: keyPath)
    }

    /// Shown from frame `inFrame` until `outFrame` (Lottie's ip and op, in this builder's
    /// frames), hidden before and after.
    func visibility(_ layer: CALayer, from inFrame: Double, to outFrame: Double) {
        guard outFrame > inFrame else { layer.isHidden = true; return }
        if let remap {
            guard budget.take(remap.frames.count, keyPath: "hidden", layerName: layer.name) else { return }
            let hidden = remap.localFrames.map { !($0 >= inFrame - 1e-4 && $0 < outFrame) }
            // Shown or hidden throughout: set, not animated. (Made `[Any]` element by element:
            // casting the whole `[Bool]` went through the runtime's generic cast, 3% of
            // importing issue_2330.)
            remap.outer.sampled(layer, "hidden", keys: remap.keys, remapped: (hidden.map { $0 as Any }, !hidden.contains(!hidden[0])),
                                discrete: true)
            return
        }
        let start = inFrame - 1, end = outFrame + 1, span = end - start
        let animation = CAKeyframeAnimation(keyPath: "hidden")
        animation.values = [true, false, true]
        // Shown from a hair before the in frame, so that rounding in the time conversions never
        // hides a layer at its first frame.
        animation.keyTimes = [0, NSNumber(value: (inFrame - 1e-4 - start) / span), NSNumber(value: (outFrame - start) / span), 1]
        animation.calculationMode = .discrete
        configure(animation, start: start, end: end)
        layer.add(animation, forKey: "hidden")
    }

    /// lottie-ios's clock for this builder's discrete values; none inside a time remap, which
    /// lottie-ios samples frame by frame.
    var discreteClock: LottieDiscreteClock? {
        remap == nil ? LottieDiscreteClock(timeline: timeline, frameRate: frameRate, start: start, stretch: stretch) : nil
    }

    func jumpsLate(at frame: Double) -> Bool { discreteClock?.jumpsLate(at: frame) ?? false }

    private func animation(_ keyPath: String, times: [Double], values: [Any], functions: [CAMediaTimingFunction],
                           keyTimes: CAKeyframeAnimation.KeyTimeList? = nil) -> CAKeyframeAnimation {
        let animation = CAKeyframeAnimation(keyPath: keyPath)
        let start = times[0], end = times[times.count - 1], span = end - start
        animation.values = values
        if let keyTimes {
            animation.setKeyTimes(keyTimes)
        } else {
            animation.keyTimes = times.map { NSNumber(value: span > 0 ? ($0 - start) / span : 0) }
        }
        animation.timingFunctions = functions
        configure(animation, start: start, end: end)
        return animation
    }

    private func configure(_ animation: CAAnimation, start: Double, end: Double) {
        animation.duration = max(seconds(end) - seconds(start), 1e-6)
        // A begin time of exactly 0 would mean "now" when added; a hair before it means frame 0.
        let begin = seconds(start)
        animation.beginTime = begin == 0 ? -Double.leastNonzeroMagnitude : begin
        animation.fillMode = .both
        animation.isRemovedOnCompletion = false
    }
}

/// lottie-ios's clock for values whose every keyframe holds. lottie-ios makes such a value one
/// discrete CAKeyframeAnimation over the paused timeline (the document's frames and one more),
/// its key times the keyframes' progress rounded to Float; Core Animation compares them with the
/// frame's progress in Double, so where the rounding went up, the jump comes after its frame.
/// Measured on Apple's frames (pixels over 8/255): `TypeFace/H` at 25% now matches; `TypeFace/O`
/// and `TypeFace/H` at 50% and `issue_1902` at 25-75% come 1.1-4.6 times closer; the same rule
/// with the frame's progress in Float too moved none of them. A value with a keyframe that does
/// not hold becomes segments with Double key times, which jump at their frames. Layers' in and
/// out points (Double key times) are left as they were: the rule changed no frame there, and in
/// Float it hid `issue_1744`'s layer at 100%.
struct LottieDiscreteClock: Sendable {
    /// The document's first and last frames (ip, op).
    let timeline: ClosedRange<Double>
    let frameRate: Double
    /// The builder's frame f is the composition's start + f x stretch.
    let start: Double
    let stretch: Double

    /// How long after its frame a late jump is taken, in frames.
    static let lateness = 2e-4

    /// The clock values are read on while an animation is sampled.
    @TaskLocal static var current: LottieDiscreteClock?

    /// Whether, shown at exactly `frame` (the builder's), a jump there still shows the value before.
    func jumpsLate(at frame: Double) -> Bool {
        let first = timeline.lowerBound, last = timeline.upperBound
        let duration = (last + 1 - first) / frameRate
        let global = start + frame * stretch
        let keyTime = Double(Float((global - first) / (duration * frameRate)))
        return (global - first) / frameRate / duration < keyTime
    }
}
