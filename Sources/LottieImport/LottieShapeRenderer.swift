import Foundation
import LayerModel
import OpenCoreGraphics

// A shape layer's items as layers: groups as layers with their transforms and opacity; each
// paint a CAShapeLayer (or a CAGradientLayer masked by one) whose path is the union of the
// geometry before it in its group, trimmed by the trim before it; the list's last items lowest.

struct LottieShapeRenderer {
    let document: LottieDocument
    let builder: LottieAnimationBuilder
    let path: String

    /// A trim: start and end in percent of the path, offset in degrees of the whole length.
    typealias TrimItem = (start: LottieAnimatable<Double>, end: LottieAnimatable<Double>, offset: LottieAnimatable<Double>)
    /// Trims in the order lottie-ios looks for one.
    typealias Trim = [TrimItem]

    /// Half the side of a gradient layer: lottie-ios pads gradients this far so that they cover
    /// whatever their shape reaches (drawn from their formula, the size costs nothing).
    static let gradientReach = 10_000.0

    /// Draws `items` into `container`. `inherited` are the trims of the list around this group
    /// when that list draws no geometry of its own; `levelTrims` are more of this list's own (the
    /// items below a repeater, when the items above it are drawn).
    func render(_ items: [LottieShapeItem], into container: CALayer, trim inherited: Trim?, levelTrims: Trim = [],
                roundCorners inheritedRadius: LottieAnimatable<Double>? = nil, modifiers inheritedModifiers: [LottiePathModifier] = []) {
        // One trim trims every stroke of the group, wherever it stands in the list, as lottie-ios's
        // Core Animation engine applies trims: the first that changes anything (a start or end
        // other than a still 0 and 100; an offset alone does not count) among the group's own,
        // then those of the list around it. Trims are not chained: chaining an outer trim of 0-100
        // offset by -45 degrees moved issue_1979's check mark away from Apple's.
        let own: Trim = items.compactMap { item in
            if case .trim(let s, let e, let o) = item { return (s, e, o) }
            return nil
        } + levelTrims
        let trim = (own + (inherited ?? [])).first { !Self.leavesWhole($0) }
        // The list's own trims reach the groups inside only where it draws no geometry itself.
        let passedOn: Trim? = items.contains { item in
            if case .group = item { return false }
            return item.isGeometry
        } ? nil : own
        // Round corners, like a trim, apply to the whole group and the groups inside it.
        let radius = LottieShapeItem.roundCorners(in: items, inherited: inheritedRadius)
        /// The zig-zags and offsets below item `i` (up to `end`), then those around the group.
        func modifiers(after i: Int, upTo end: Int) -> [LottiePathModifier] {
            (i + 1 < end ? items[(i + 1)..<end].compactMap(\.pathModifier) : []) + inheritedModifiers
        }
        for i in items.indices.reversed() {
            switch items[i] {
            case .group(let sub, let transform):
                let group = CALayer()
                group.bounds = container.bounds
                transform.apply(to: group, with: builder)
                builder.animate(group, "opacity", transform.opacity) { NSNumber(value: min(max($0 / 100, 0), 1)) }
                render(sub, into: group, trim: passedOn, roundCorners: radius, modifiers: modifiers(after: i, upTo: items.count))
                container.addSublayer(group)
            case .repeater(let repeater):
                // Everything above it in the group, copied; the items below it are drawn already.
                let trimsBelow: Trim = items[(i + 1)...].compactMap { item in
                    if case .trim(let s, let e, let o) = item { return (s, e, o) }
                    return nil
                }
                let content = CALayer()
                content.bounds = container.bounds
                render(Array(items[..<i]), into: content, trim: inherited, levelTrims: trimsBelow, roundCorners: radius,
                       modifiers: modifiers(after: i, upTo: items.count))
                container.addSublayer(repeater.replicate(content, in: container.bounds, builder: builder, document: document, path: path))
                return
            case .paint(let paint):
                let geometry = items.indices.prefix(i).filter { items[$0].isGeometry }
                    .map { items[$0].rounded(by: radius).modified(by: modifiers(after: $0, upTo: i)) }
                guard !geometry.isEmpty else { continue }
                // A trimmed stroke over several paths trims each path on its own, as lottie-ios
                // draws it: a layer a path wherever a trim applies ("each path has to be trimmed
                // separately"), the first path lowest.
                if trim != nil, paint.kind == .stroke, geometry.count > 1 {
                    for item in geometry {
                        container.addSublayer(layer(for: paint, geometry: [item], trim: trim, bounds: container.bounds))
                    }
                    continue
                }
                container.addSublayer(layer(for: paint, geometry: geometry, trim: trim, bounds: container.bounds))
            case .unsupported(let type):
                document.warn("\(path).shapes: \"\(type)\" items are not drawn")
            case .star(let star) where star.isRounded:
                document.warn("\(path).shapes: a star's or polygon's roundness (os, is) is not drawn")
            default: break
            }
        }
    }

    /// The outline a paint draws, as its layer's path, animated where its parts move, drawn round
    /// `rounds` times (a trim whose offset carries its end past the path's goes on round again).
    private func animatePath(_ layer: CAShapeLayer, _ geometry: [LottieShapeItem], rounds: Int = 1) {
        if geometry.count == 1, case .path(let bezier) = geometry[0] {
            // One bezier path: its own keyframes, eased as the file says.
            builder.animate(layer, "path", bezier) { value -> CGPath in
                let path = CGMutablePath()
                for _ in 0..<rounds { value.add(to: path) }
                return path
            }
            return
        }
        if geometry.count == 1, case .rounded(.path(let bezier), let radius) = geometry[0], !radius.isAnimated {
            // One bezier path with still round corners: each keyframe rounded, eased between as
            // the file says (as lottie-ios animates it: Core Animation blends the rounded paths).
            builder.animate(layer, "path", bezier.map { $0.roundingCorners(radius: radius.first) }) { value -> CGPath in
                let path = CGMutablePath()
                for _ in 0..<rounds { value.add(to: path) }
                return path
            }
            return
        }
        builder.sampled(layer, "path", times: LottieKeyTimes(geometry.map(\.keyTimes))) { frame -> CGPath in
            let path = CGMutablePath()
            for _ in 0..<rounds {
                for item in geometry { item.addPath(at: frame, to: path, transform: .identity) }
            }
            return path
        }
    }

    private func layer(for paint: LottiePaint, geometry: [LottieShapeItem], trim: TrimItem?, bounds: CGRect) -> CALayer {
        let shape = CAShapeLayer()
        shape.frame = bounds
        let trimOrder: TrimOrder = trim.map { order(of: $0) } ?? .asGiven
        let rounds: (rounds: Int, before: Int) = paint.kind == .stroke ? trim.map { trimRounds($0, order: trimOrder) } ?? (1, 0) : (1, 0)
        animatePath(shape, geometry, rounds: rounds.rounds)
        shape.fillRule = paint.evenOdd ? .evenOdd : .nonZero
        let isGradient = paint.gradientType != nil
        switch paint.kind {
        case .fill:
            if isGradient { shape.fillColor = .black } else { builder.animate(shape, "fillColor", paint.color, lottieOpaqueColor) }
            shape.strokeColor = nil
        case .stroke:
            shape.fillColor = nil
            if isGradient { shape.strokeColor = .black } else { builder.animate(shape, "strokeColor", paint.color, lottieOpaqueColor) }
            builder.animate(shape, "lineWidth", paint.width) { NSNumber(value: max($0, 0)) }
            shape.lineCap = paint.cap
            shape.lineJoin = paint.join
            shape.miterLimit = paint.miterLimit
            if !paint.dashes.isEmpty, paint.dashes.contains(where: { $0 > 0 }) {
                shape.lineDashPattern = paint.dashes.map { NSNumber(value: max($0, 0)) }
                builder.animate(shape, "lineDashPhase", paint.dashOffset) { NSNumber(value: $0) }
                if paint.dashesAnimated { document.warn("\(path).d: animated dash lengths are drawn at their first values (the offset animates)") }
            }
            if let trim { applyTrim(trim, order: trimOrder, to: shape, rounds: rounds) }
        }
        if paint.gradientType == 2, paint.hasHighlight {
            document.warn("\(path): a radial gradient's highlight is not drawn (Core Animation's radial gradients have no focus)")
        }
        guard let type = paint.gradientType else {
            builder.animate(shape, "opacity", paint.opacity) { NSNumber(value: min(max($0 / 100, 0), 1)) }
            return shape
        }
        // A gradient: a padded CAGradientLayer showing through the shape; opacity stops are a
        // second gradient of the same geometry masking the colours (a layer around them then
        // carries the shape).
        let reach = Self.gradientReach
        func gradientLayer(_ stops: @escaping ([Double]) -> (colors: [CGColor], locations: [NSNumber])) -> CAGradientLayer {
            let gradient = CAGradientLayer()
            gradient.frame = CGRect(x: -reach, y: -reach, width: 2 * reach, height: 2 * reach)
            gradient.type = type == 2 ? .radial : .axial
            builder.animate(gradient, "colors", paint.stops) { stops($0).colors }
            builder.animate(gradient, "locations", paint.stops) { stops($0).locations }
            func unit(_ v: [Double]) -> CGPoint {
                CGPoint(x: ((v.count > 0 ? v[0] : 0) + reach) / (2 * reach), y: ((v.count > 1 ? v[1] : 0) + reach) / (2 * reach))
            }
            builder.animate(gradient, "startPoint", paint.start) { NSValue(point: unit($0)) }
            if type == 2 {
                // Radial: Core Animation's end point gives the radius along each axis.
                builder.sampled(gradient, "endPoint", times: paint.start.keyTimes + paint.end.keyTimes) { frame in
                    let s = paint.start.value(at: frame, interpolate: LottieEasing.mix), e = paint.end.value(at: frame, interpolate: LottieEasing.mix)
                    let r = hypot((e.count > 0 ? e[0] : 0) - (s.count > 0 ? s[0] : 0), (e.count > 1 ? e[1] : 0) - (s.count > 1 ? s[1] : 0))
                    return NSValue(point: unit([(s.count > 0 ? s[0] : 0) + r, (s.count > 1 ? s[1] : 0) + r]))
                }
            } else {
                builder.animate(gradient, "endPoint", paint.end) { NSValue(point: unit($0)) }
            }
            return gradient
        }
        let colors = gradientLayer(paint.gradient)
        var gradient: CALayer = colors
        if paint.hasOpacityStops {
            let alphas = gradientLayer(paint.opacityGradient)
            colors.frame = CGRect(origin: .zero, size: colors.bounds.size)
            alphas.frame = colors.bounds
            colors.mask = alphas
            let holder = CALayer()
            holder.frame = CGRect(x: -reach, y: -reach, width: 2 * reach, height: 2 * reach)
            holder.addSublayer(colors)
            gradient = holder
        }
        builder.animate(gradient, "opacity", paint.opacity) { NSNumber(value: min(max($0 / 100, 0), 1)) }
        // The mask covers the whole gradient, its own coordinates the shape's (its bounds'
        // origin at the gradient's corner), so the path lies inside it wherever it reaches.
        shape.frame = gradient.bounds
        shape.bounds.origin = CGPoint(x: -reach, y: -reach)
        gradient.mask = shape
        return gradient
    }

    /// Whether a trim leaves the path whole as lottie-ios sees it: a still start of 0 and end of
    /// 100, whatever its offset.
    static func leavesWhole(_ trim: TrimItem) -> Bool {
        !trim.start.isAnimated && trim.start.first == 0 && !trim.end.isAnimated && trim.end.first == 100
    }

    /// The trim's ends at `frame` in percent of the path, before lottie-ios moves them into the
    /// rounds of a repeated path: start before end (swapped throughout when the start is at or
    /// past the end at every keyframe, else frame by frame), both moved along by the offset (a
    /// degree is 1/3.6 percent).
    private func trimEnds(_ trim: TrimItem, _ frame: Double, order: TrimOrder) -> (Double, Double) {
        var a = trim.start.value(at: frame, interpolate: Double.mix), b = trim.end.value(at: frame, interpolate: Double.mix)
        switch order {
        case .asGiven: break
        case .swapped: swap(&a, &b)
        case .perFrame: if a > b { swap(&a, &b) }
        }
        let shift = trim.offset.value(at: frame, interpolate: Double.mix) / 3.6
        return (a + shift, b + shift)
    }

    /// How lottie-ios orders a trim's start and end for Core Animation, which draws nothing where
    /// strokeStart passes strokeEnd.
    enum TrimOrder { case asGiven, swapped, perFrame }

    private func order(of trim: TrimItem) -> TrimOrder {
        let pairs = Set(trim.start.keyframes.map(\.time) + trim.end.keyframes.map(\.time))
            .map { (trim.start.value(at: $0, interpolate: Double.mix), trim.end.value(at: $0, interpolate: Double.mix)) }
        if pairs.allSatisfy({ $0.0 <= $0.1 }) { return .asGiven }
        if pairs.allSatisfy({ $0.0 >= $0.1 }) { return .swapped }
        return .perFrame
    }

    private func trimTimes(_ trim: TrimItem) -> LottieKeyTimes {
        trim.start.keyTimes + trim.end.keyTimes + trim.offset.keyTimes
    }

    /// Most rounds a trim's path is drawn: an offset of thousands of degrees would otherwise cost
    /// a path as many times longer.
    static let maxTrimRounds = 16

    /// The repeated path a trim with an offset is taken on, as lottie-ios makes it: round as many
    /// times as the furthest end reaches past the path's end (in hundreds, rounded up), and as
    /// many more as the lowest start reaches before its start, with both ends moved on by those.
    private func trimRounds(_ trim: TrimItem, order: TrimOrder) -> (rounds: Int, before: Int) {
        guard trim.offset.keyframes.contains(where: { $0.value != 0 }) else { return (1, 0) }
        let times = trimTimes(trim).times
        let first = times.min() ?? 0, last = times.max() ?? 0
        let frames = last > first ? Array(stride(from: first, through: last, by: max(1, (last - first) / 400))) + times : [first]
        let ends = frames.map { trimEnds(trim, $0, order: order) }
        let lowest = ends.map(\.0).min() ?? 0, furthest = ends.map(\.1).max() ?? 100
        guard lowest.isFinite, furthest.isFinite else { return (1, 0) }
        // Clamped before they become integers: an offset of 1e300 degrees is a number too.
        let limit = Double(Self.maxTrimRounds)
        let before = Int(min(max(0, -(lowest / 100).rounded(.down)), limit))
        let after = Int(min(max(0, (furthest / 100).rounded(.up)), limit))
        return (max(1, min(before + after, Self.maxTrimRounds)), before)
    }

    /// Lottie's trim as the stroke's start and end on the path drawn round `rounds.rounds` times.
    private func applyTrim(_ trim: TrimItem, order: TrimOrder, to shape: CAShapeLayer, rounds: (rounds: Int, before: Int)) {
        let fraction = { (percent: Double) in
            NSNumber(value: min(max((percent + 100 * Double(rounds.before)) / 100 / Double(rounds.rounds), 0), 1))
        }
        if !trim.offset.keyframes.contains(where: { $0.value != 0 }), order != .perFrame {
            // Eased by the keyframes' own timing functions, as lottie-ios animates strokeStart
            // and strokeEnd: exact between frames, and no samples to make.
            let (start, end) = order == .swapped ? (trim.end, trim.start) : (trim.start, trim.end)
            builder.animate(shape, "strokeStart", start, fraction)
            builder.animate(shape, "strokeEnd", end, fraction)
            return
        }
        let times = trimTimes(trim)
        builder.sampled(shape, "strokeStart", times: times) { fraction(trimEnds(trim, $0, order: order).0) }
        builder.sampled(shape, "strokeEnd", times: times) { fraction(trimEnds(trim, $0, order: order).1) }
    }
}
