import Foundation

// Lottie's animatable values: a static value or keyframes, each with a time (frames), a value
// (numbers, or a bezier shape), easing handles (per dimension; Core Animation takes the first,
// as lottie-ios does), hold, and for positions spatial tangents.

/// One keyframe of an animatable value.
struct LottieKeyframe<Value> {
    var time: Double
    var value: Value
    /// Held until the next keyframe.
    var hold: Bool
    /// The easing handle leaving this keyframe, and the one arriving at it (first dimension; the
    /// file keeps the arriving one on the keyframe before, as "i").
    var outTangent: CGPoint?
    var inTangent: CGPoint?
    /// Spatial tangents of a position keyframe (relative to its value): leaving it, and arriving
    /// at it (the keyframe before's "ti").
    var spatialOut: CGPoint?
    var spatialIn: CGPoint?
}

/// An animatable value: one or more keyframes; one means static.
struct LottieAnimatable<Value> {
    var keyframes: [LottieKeyframe<Value>]
    /// The expression attached, which is not evaluated.
    var expression: String?

    var isAnimated: Bool { keyframes.count > 1 }
    var first: Value { keyframes[0].value }

    init(constant value: Value) { keyframes = [LottieKeyframe(time: 0, value: value, hold: false)] }
    init(keyframes: [LottieKeyframe<Value>], expression: String? = nil) {
        self.keyframes = keyframes
        self.expression = expression
    }

    func map<Other>(_ transform: (Value) throws -> Other) rethrows -> LottieAnimatable<Other> {
        try LottieAnimatable<Other>(keyframes: keyframes.map {
            LottieKeyframe(time: $0.time, value: try transform($0.value), hold: $0.hold, outTangent: $0.outTangent,
                           inTangent: $0.inTangent, spatialOut: $0.spatialOut, spatialIn: $0.spatialIn)
        }, expression: expression)
    }
}

extension LottieNode {
    /// The property `{ "a": 0|1, "k": ... }` read with `read` for each value.
    func animatable<Value>(_ read: (LottieNode) throws -> Value) throws -> LottieAnimatable<Value> {
        let expression = try optionalString("x")
        guard let k = self["k"] else { throw fail("an animatable property needs \"k\"") }
        // Keyframes are an array of objects with "t"; anything else is the static value.
        let nodes = k.elements
        if let firstItem = nodes.first, firstItem.isObject, firstItem["t"] != nil {
            var frames: [LottieKeyframe<Value>] = []
            var pendingIn: CGPoint?, pendingSpatialIn: CGPoint?
            for (i, node) in nodes.enumerated() {
                let time = try node["t"]?.number() ?? 0
                // Old exports give a keyframe's end value as "e" on the keyframe before; the last
                // keyframe may carry only a time.
                let valueNode = node["s"] ?? (i > 0 ? nodes[i - 1]["e"] : nil)
                guard let valueNode else {
                    if let last = frames.last {
                        frames.append(LottieKeyframe(time: time, value: last.value, hold: false,
                                                     inTangent: pendingIn, spatialIn: pendingSpatialIn))
                        continue
                    }
                    throw node.fail("a keyframe needs a value \"s\"")
                }
                let value = try read(valueNode)
                func handle(_ key: String) throws -> CGPoint? {
                    guard let h = node[key], let x = h["x"], let y = h["y"] else { return nil }
                    return CGPoint(x: try x.numbers().first ?? 0, y: try y.numbers().first ?? 0)
                }
                func spatial(_ key: String) throws -> CGPoint? {
                    guard let t = node[key] else { return nil }
                    let v = try t.numbers()
                    return v.count >= 2 ? CGPoint(x: v[0], y: v[1]) : nil
                }
                // A keyframe object holds both handles of the segment that leaves it: "o" and "to"
                // out of this keyframe, "i" and "ti" into the next (as After Effects exports them
                // and lottie-ios reads them), so the in handles are kept for the next keyframe.
                frames.append(LottieKeyframe(time: time, value: value, hold: (try node["h"]?.number() ?? 0) == 1,
                                             outTangent: try handle("o"), inTangent: pendingIn,
                                             spatialOut: try spatial("to"), spatialIn: pendingSpatialIn))
                pendingIn = try handle("i")
                pendingSpatialIn = try spatial("ti")
            }
            guard !frames.isEmpty else { throw k.fail("no keyframes") }
            for i in 1..<max(frames.count, 1) where frames[i].time < frames[i - 1].time {
                throw nodes[i].fail("keyframe times must not decrease")
            }
            return LottieAnimatable(keyframes: frames, expression: expression)
        }
        return LottieAnimatable(keyframes: [LottieKeyframe(time: 0, value: try read(k), hold: false)], expression: expression)
    }

    func numbersProperty(_ key: String, default value: [Double]) throws -> LottieAnimatable<[Double]> {
        guard let node = self[key] else { return LottieAnimatable(constant: value) }
        return try node.animatable { try $0.numbers() }
    }

    func numberProperty(_ key: String, default value: Double) throws -> LottieAnimatable<Double> {
        guard let node = self[key] else { return LottieAnimatable(constant: value) }
        return try node.animatable { try $0.numbers().first ?? value }
    }
}

/// The frames where a value worked out from keyframes changes course, for sampling it: every
/// keyframe's time, and where a keyframe holds, the frame its value gives way to the next one's.
/// A sample on each side of such a jump keeps the held value whole up to it, where samples a
/// frame apart, linear between them, would slide it to the next over the frame before
/// (TypeFace's hold-keyframed particles sat a quarter of the way to their next places).
struct LottieKeyTimes {
    var times: [Double] = []
    var jumps: [Double] = []
    /// Of `jumps`, those of values whose every keyframe holds (lottie-ios makes each such value
    /// one discrete CAKeyframeAnimation, whose key times it rounds to Float).
    var discreteJumps: [Double] = []
    /// Frames between keyframes where the easing bends too fast for samples a frame apart,
    /// linear between them, to follow it (`LottieEasing.finerSamples`).
    var refinements: [Double] = []

    static let none = LottieKeyTimes()

    static func + (a: LottieKeyTimes, b: LottieKeyTimes) -> LottieKeyTimes { LottieKeyTimes([a, b]) }
}

extension LottieKeyTimes {
    /// The frames of all of `parts` (an extension's initializer, so the memberwise one stays).
    init(_ parts: [LottieKeyTimes]) {
        self.init(times: parts.flatMap(\.times), jumps: parts.flatMap(\.jumps), discreteJumps: parts.flatMap(\.discreteJumps),
                  refinements: parts.flatMap(\.refinements))
    }
}

extension LottieAnimatable {
    /// Its keyframes' times, the frames where a held value jumps, and finer samples where an
    /// easing bends fast.
    var keyTimes: LottieKeyTimes {
        var jumps: [Double] = [], refinements: [Double] = []
        for (a, b) in zip(keyframes, keyframes.dropFirst()) where b.time > a.time {
            if a.hold {
                jumps.append(b.time)
                continue
            }
            let o = a.outTangent ?? .zero, i = b.inTangent ?? CGPoint(x: 1, y: 1)
            refinements += LottieEasing.finerSamples(from: a.time, to: b.time, Double(o.x), Double(o.y), Double(i.x), Double(i.y))
        }
        return LottieKeyTimes(times: keyframes.map(\.time), jumps: jumps, discreteJumps: isDiscrete ? jumps : [],
                              refinements: refinements)
    }

    /// Every keyframe holds, the last too: lottie-ios animates it as one discrete animation.
    var isDiscrete: Bool { keyframes.count > 1 && keyframes.allSatisfy(\.hold) }
}

extension LottieAnimatable {
    /// The value at `frame`: eased between keyframes by their handles (Core Animation's cubic
    /// timing curve on the first dimension), held where a keyframe holds, clamped outside.
    func value(at frame: Double, interpolate: (Value, Value, Double) -> Value) -> Value {
        guard let last = keyframes.last else { fatalError("no keyframes") }
        if frame <= keyframes[0].time || keyframes.count == 1 { return keyframes[0].value }
        if frame >= last.time { return heldLate(at: frame, after: keyframes.count - 1) ?? last.value }
        // The last keyframe at or before `frame`, by bisection (keyframes come in time order):
        // sampling an animation walks its keyframes once per sample, and a scan from the first
        // made building a long animation quadratic (17% of importing issue_2330).
        var i = 0, high = keyframes.count - 2
        while i < high {
            let middle = (i + high + 1) / 2
            if keyframes[middle].time <= frame { i = middle } else { high = middle - 1 }
        }
        if let held = heldLate(at: frame, after: i) { return held }
        let a = keyframes[i], b = keyframes[i + 1]
        if a.hold || b.time <= a.time { return a.value }
        let t = (frame - a.time) / (b.time - a.time)
        let o = a.outTangent ?? .zero, inHandle = b.inTangent ?? CGPoint(x: 1, y: 1)
        let eased = LottieEasing.solve(t, Double(o.x), Double(o.y), Double(inHandle.x), Double(inHandle.y))
        return interpolate(a.value, b.value, eased)
    }
}

extension LottieAnimatable {
    /// The value before keyframe `index` where `frame` is just past it and, on the clock values
    /// are read on, a discrete value takes that jump late (`LottieDiscreteClock`).
    private func heldLate(at frame: Double, after index: Int) -> Value? {
        guard index > 0, keyframes[0].hold, let clock = LottieDiscreteClock.current else { return nil }
        let jump = keyframes[index].time
        guard frame < jump + LottieDiscreteClock.lateness, keyframes[index - 1].time < jump, isDiscrete,
              clock.jumpsLate(at: jump) else { return nil }
        return keyframes[index - 1].value
    }
}

/// The cubic timing curve through (0, 0), (x1, y1), (x2, y2), (1, 1): y at x.
enum LottieEasing {
    static func solve(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        let x1 = min(max(x1, 0), 1), x2 = min(max(x2, 0), 1)
        func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
        }
        // Newton's method from t = x, as WebKit's and Chromium's timing curves solve it, to
        // within 1e-14 of x (a few steps where bisection took 48: 15% of building issue_2330);
        // bisection where the slope is too flat for it (a handle on the x axis near an end).
        let cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx
        var t = x
        for _ in 0..<8 {
            let error = ((ax * t + bx) * t + cx) * t - x
            if abs(error) < 1e-14 { return bezier(t, y1, y2) }
            let slope = (3 * ax * t + 2 * bx) * t + cx
            if abs(slope) < 1e-6 { break }
            t -= error / slope
            if !(0...1).contains(t) { break }
        }
        var low = 0.0, high = 1.0
        for _ in 0..<48 {
            let middle = (low + high) / 2
            if bezier(middle, x1, x2) < x { low = middle } else { high = middle }
        }
        return bezier((low + high) / 2, y1, y2)
    }

    /// How far (in parts of a segment's change) samples drawn linear between them may stray
    /// from the eased curve: a thousandth, a tenth of a point on a 100-point move.
    static let sampleTolerance = 1e-3

    /// Frames strictly inside the segment from frame `a` to frame `b`, eased by the curve
    /// (x1, y1, x2, y2), where the sampler needs samples closer than a frame: linear between
    /// samples h frames apart strays from a curve bending at c (parts a frame squared) by up to
    /// h * h * c / 8, so the grid is the halving of a frame (down to an eighth) that keeps that
    /// within `sampleTolerance`. Empty where a frame apart follows the curve (every linear
    /// easing). Core Animation eases each keyframe exactly, as lottie-ios asks it to; samples a
    /// frame apart missed TypeFace D's and L's strokes and issue_1877's check mark between frames.
    static func finerSamples(from a: Double, to b: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> [Double] {
        let span = b - a
        guard span > 1e-6, span.isFinite, !(x1 == y1 && x2 == y2) else { return [] }
        // The curve's bend, from second differences of 32 probes across the segment.
        let probes = 32
        var eased = [Double](repeating: 0, count: probes + 1)
        for k in 0...probes { eased[k] = solve(Double(k) / Double(probes), x1, y1, x2, y2) }
        var bend = 0.0
        for k in 1..<probes { bend = max(bend, abs(eased[k + 1] - 2 * eased[k] + eased[k - 1])) }
        let probeStep = span / Double(probes)
        let curvature = bend / (probeStep * probeStep)
        guard curvature > 8 * sampleTolerance else { return [] }
        var step = 1.0
        while step > 0.125, step * step * curvature / 8 > sampleTolerance { step /= 2 }
        guard step < 1 else { return [] }
        let count = Int((span / step).rounded(.up))
        guard count > 1, count <= 4096 else { return [] }
        return (1..<count).map { a + Double($0) * step }.filter { $0 < b }
    }

    static func mix(_ a: [Double], _ b: [Double], _ t: Double) -> [Double] {
        (0..<max(a.count, b.count)).map { i in
            let x = i < a.count ? a[i] : (b.count > i ? b[i] : 0), y = i < b.count ? b[i] : x
            return x + (y - x) * t
        }
    }
}
