import Foundation
import OpenCoreGraphics

/// How a keyframe animation moves between its values.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Straight interpolation between neighbouring values (the default).
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
    /// Each value held until the next key time, no interpolation.
    public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
    /// Linear, with key times chosen for constant speed; keyTimes and timingFunctions are ignored.
    public static let paced = CAAnimationCalculationMode(rawValue: "paced")
    /// A Kochanek-Bartels spline through the values (tension, continuity, bias per value).
    public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
    /// The cubic spline, paced.
    public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")
}

/// Animates a property through a sequence of values (seed 000's flip book of GIF frames is a
/// discrete keyframe animation of `contents`).
open class CAKeyframeAnimation: CAPropertyAnimation {
    /// The values passed through. Default: nil.
    @exclusivity(unchecked) open var values: [Any]? { didSet { parsedLock.withLock { parsed = nil } } }
    /// `values` read as the kind of value the animated property holds (its kind, -1 without
    /// one), kept from frame to frame: reading hundreds of `Any` values every frame (a sampled
    /// Lottie track) cost more than the rest of the evaluation. Guarded by `parsedLock`: one
    /// animation may be evaluated by two renders at once.
    nonisolated(unsafe) private var parsed: (kind: Int, values: [AnimatableValue]?, decomposed: [DecomposedTransform3D?]?)?
    private let parsedLock = NSLock()
    /// The key path's accessor (`LayerKeyPaths.animationAccessor`), found at the first frame;
    /// guarded by `parsedLock`. Its typed paths read and write the property without boxing.
    nonisolated(unsafe) private var accessor: LayerKeyPaths.Accessor??
    /// When each value is reached, as fractions 0...1 of the duration, ascending. For `.discrete`
    /// there is one more key time than values (the last, 1, ends the last value). Default: nil
    /// (evenly spaced).
    open var keyTimes: [NSNumber]? {
        get { keyTimeList?.numbers }
        set { keyTimeList = newValue.map(KeyTimeList.init) }
    }
    /// `keyTimes` with their numbers read once rather than every frame, shared by copies and,
    /// through `setKeyTimes(_:)`, by every animation sampled at the same times (each read its own
    /// was 8% of importing a time-remapped Lottie file).
    private var keyTimeList: KeyTimeList?
    /// The key times that bound `segments` segments (see `KeyTimeBounds`).
    func keyTimeBounds(segments: Int, orCount: Bool = false) -> KeyTimeBounds {
        KeyTimeBounds(keyTimeList, segments: segments, orCount: orCount)
    }

    /// Sets `keyTimes` to a list many animations share.
    package func setKeyTimes(_ list: KeyTimeList) { keyTimeList = list }
    /// Pacing within each segment (one fewer than values). Default: nil (linear).
    @exclusivity(unchecked) open var timingFunctions: [CAMediaTimingFunction]?
    /// Default: `.linear`.
    @exclusivity(unchecked) open var calculationMode: CAAnimationCalculationMode = .linear
    /// Kochanek-Bartels parameters per value for the cubic modes. Default: nil (all 0: Catmull-Rom).
    open var tensionValues: [NSNumber]? { didSet { tensions = tensionValues?.map(\.doubleValue) } }
    open var continuityValues: [NSNumber]? { didSet { continuities = continuityValues?.map(\.doubleValue) } }
    open var biasValues: [NSNumber]? { didSet { biases = biasValues?.map(\.doubleValue) } }
    /// The three lists as numbers, read once rather than every frame.
    private(set) var tensions: [Double]?, continuities: [Double]?, biases: [Double]?
    /// A path for a point-valued property to follow; when set, `values` is ignored. Each element's
    /// end point is a keyframe. Default: nil.
    open var path: CGPath? {
        didSet { track = path.flatMap(PathTrack.init) }
    }
    /// Turn the layer along the path's tangent. Default: nil (no turning).
    open var rotationMode: CAAnimationRotationMode?

    /// The prepared path.
    private var track: PathTrack?

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone)
        if let copy = copy as? CAKeyframeAnimation {
            copy.values = values
            copy.keyTimeList = keyTimeList
            copy.timingFunctions = timingFunctions
            copy.calculationMode = calculationMode
            copy.tensionValues = tensionValues
            copy.continuityValues = continuityValues
            copy.biasValues = biasValues
            copy.path = path
            copy.rotationMode = rotationMode
        }
        return copy
    }

    override func apply(to layer: CALayer, atLayerTime time: CFTimeInterval) {
        guard let path = keyPath, case .active(let progress, let iteration) = timing(at: time) else { return }
        let fraction = paced(progress)
        if let track {
            applyPath(track, fraction: fraction, iteration: iteration, to: layer, keyPath: path)
            return
        }
        guard let raw = values, !raw.isEmpty else { return }
        if path == "contents", calculationMode != .discrete, raw.count > 1 {
            applyContentsCrossFade(raw, fraction: fraction, to: layer)
            return
        }
        let accessor = parsedLock.withLock { self.accessor } ?? {
            let found = LayerKeyPaths.animationAccessor(path)
            parsedLock.withLock { self.accessor = .some(found) }
            return found
        }()
        if calculationMode == .discrete {
            // Values that are not interpolable (images, booleans) still switch discretely. On
            // the library's classes, which do not override key-value coding, through the key
            // path's accessor, as setValue(_:forKeyPath:) would reach it, without looking the key
            // path up again (every Lottie layer's visibility, every frame).
            let value = raw[discreteIndex(fraction, count: raw.count)]
            if let accessor, CALayer.isAllState(type(of: layer)) {
                _ = accessor.set(layer, value)
            } else {
                layer.setValue(value, forKeyPath: path)
            }
            return
        }
        // The property's present value says what the values are read as, and an additive
        // animation adds to it. Once the values are read like a value the property holds, only
        // an additive animation reads it again: a property keeps its kind, and reading a shape's
        // path back through key-value coding every frame was a third of the keyframes' cost.
        let cached = parsedLock.withLock { self.parsed }
        var current: AnimatableValue?
        let read: [AnimatableValue]?
        var decomposed: [DecomposedTransform3D?]?
        if let cached, cached.kind >= 0, let values = cached.values, !isAdditive {
            (read, decomposed) = (values, cached.decomposed)
        } else {
            current = LayerKeyPaths.animatableValue(of: layer, at: path, accessor: accessor)
            let kind = current?.kind ?? -1
            if let cached, cached.kind == kind {
                (read, decomposed) = (cached.values, cached.decomposed)
            } else {
                let values = raw.compactMap { value in current.map { AnimatableValue(value, like: $0) } ?? AnimatableValue(value) }
                read = values.count == raw.count ? values : nil
                decomposed = read.flatMap(Self.decompositions)
                parsedLock.withLock { self.parsed = (kind, read, decomposed) }
            }
        }
        guard let parsed = read else {
            // One value the property cannot take skips the animation, with a word on why.
            if let index = raw.indices.first(where: { i in (current.map { AnimatableValue(raw[i], like: $0) } ?? AnimatableValue(raw[i])) == nil }) {
                reportUnusable("values[\(index)]", raw[index], expected: current)
            }
            return
        }
        guard var value = self.value(of: parsed, at: fraction, decomposed: decomposed) else { return }
        // Cumulative: each repetition goes on from where the last ended, a whole run of the
        // values (last minus first) further per repetition, as a basic animation's goes on by
        // (to - from).
        if isCumulative, iteration > 0, parsed.count > 1, let step = parsed[parsed.count - 1].adding(parsed[0].scaled(by: -1)),
           let accumulated = value.adding(step.scaled(by: Double(iteration))) {
            value = accumulated
        }
        if isAdditive, let base = current, let sum = base.adding(value) { value = sum }
        LayerKeyPaths.setAnimatableValue(value, of: layer, at: path, accessor: accessor)
    }

    /// Images do not interpolate: between two keyframes the later image shows over the earlier
    /// one, cross-faded by the progress through the segment (a flip book in linear mode dissolves
    /// from frame to frame, as in Core Animation).
    private func applyContentsCrossFade(_ raw: [Any], fraction f: Double, to layer: CALayer) {
        let segments = raw.count - 1
        let times = keyTimeBounds(segments: segments)
        let i = times.segment(of: f, last: segments - 1)
        let span = times[i + 1] - times[i]
        var s = span > 0 ? min(max((f - times[i]) / span, 0), 1) : 1
        if let functions = timingFunctions, i < functions.count { s = functions[i].evaluate(s) }
        guard let from = raw[i] as? CGImage, let to = raw[i + 1] as? CGImage else { return }
        layer.contents = to
        layer.contentsCrossFade = from === to || s >= 1 ? nil : ContentsCrossFade(from: from, fraction: s)
    }

    private func discreteIndex(_ f: Double, count: Int) -> Int {
        keyTimeBounds(segments: count, orCount: true).lastReached(by: f, count: count)
    }

    /// Each transform of `values` decomposed, made once (nil when not every value is a
    /// transform): a transform keyframe animation blends two of them every frame, and decomposing
    /// both each time was most of a Lottie layer's transform in a frame.
    private static func decompositions(_ values: [AnimatableValue]) -> [DecomposedTransform3D?]? {
        var result: [DecomposedTransform3D?] = []
        result.reserveCapacity(values.count)
        for value in values {
            guard case .transform(let t) = value else { return nil }
            result.append(DecomposedTransform3D(t))
        }
        return result
    }

    /// The value at paced fraction `f` through `values` (`decomposed`: their decompositions,
    /// when they are transforms).
    func value(of values: [AnimatableValue], at f: Double, decomposed: [DecomposedTransform3D?]? = nil) -> AnimatableValue? {
        guard values.count > 1 else { return values.first }
        let segments = values.count - 1
        // The key times: where paced, the values' distances worked out for the frame.
        let times: KeyTimeBounds
        switch calculationMode {
        case .paced, .cubicPaced:
            let lengths = (0..<segments).map { values[$0].distance(to: values[$0 + 1]) }
            let total = lengths.reduce(0, +)
            var sum = 0.0
            let paced: [Double] = [0] + lengths.map { sum += $0; return total > 0 ? sum / total : 0 }
            times = total == 0 ? KeyTimeBounds(nil, segments: segments) : KeyTimeBounds(times: paced)
        default:
            times = keyTimeBounds(segments: segments)
        }
        // The segment holding f, and how far through it.
        let i = times.segment(of: f, last: segments - 1)
        let span = times[i + 1] - times[i]
        var s = span > 0 ? min(max((f - times[i]) / span, 0), 1) : 1
        if calculationMode == .linear || calculationMode == .cubic, let functions = timingFunctions, i < functions.count {
            s = functions[i].evaluate(s)
        }
        if calculationMode == .cubic || calculationMode == .cubicPaced, let spline = hermite(values, segment: i, s: s) {
            return spline
        }
        // Two transforms blend through their decompositions (CATransform3D.interpolated(to:
        // fraction:), with the ones made once).
        if let decomposed, i + 1 < decomposed.count, let a = decomposed[i], let b = decomposed[i + 1] {
            return .transform(a.interpolated(to: b, fraction: s).recomposed)
        }
        return values[i].interpolated(to: values[i + 1], fraction: s)
    }

    /// Kochanek-Bartels: Hermite segments whose tangents blend the neighbouring chords by tension,
    /// continuity and bias; all zero gives Catmull-Rom. The ends use their own value as the missing
    /// neighbour. nil for values without components (transforms).
    private func hermite(_ values: [AnimatableValue], segment i: Int, s: Double) -> AnimatableValue? {
        guard let points = values.map(\.components) as? [[Double]] else { return nil }
        func parameter(_ array: [Double]?, _ k: Int) -> Double { array.flatMap { k < $0.count ? $0[k] : nil } ?? 0 }
        func chord(_ a: Int, _ b: Int) -> [Double] {
            let from = points[max(min(a, points.count - 1), 0)], to = points[max(min(b, points.count - 1), 0)]
            return zip(to, from).map { $0 - $1 }
        }
        func tangent(at k: Int, outgoing: Bool) -> [Double] {
            let t = parameter(tensions, k), c = parameter(continuities, k), b = parameter(biases, k)
            let incoming = chord(k - 1, k), leaving = chord(k, k + 1)
            let wIn = (1 - t) * (1 + b) * (outgoing ? 1 - c : 1 + c) / 2
            let wOut = (1 - t) * (1 - b) * (outgoing ? 1 + c : 1 - c) / 2
            return zip(incoming, leaving).map { wIn * $0 + wOut * $1 }
        }
        let p0 = points[i], p1 = points[i + 1]
        let m0 = tangent(at: i, outgoing: true), m1 = tangent(at: i + 1, outgoing: false)
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        let result = (0..<p0.count).map { h00 * p0[$0] + h10 * m0[$0] + h01 * p1[$0] + h11 * m1[$0] }
        return values[i].withComponents(result)
    }
}
