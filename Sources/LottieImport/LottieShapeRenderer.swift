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

    /// Trims in the order they apply: each trims what the ones before it left.
    typealias Trim = [(start: LottieAnimatable<Double>, end: LottieAnimatable<Double>, offset: LottieAnimatable<Double>)]

    /// Half the side of a gradient layer: lottie-ios pads gradients this far so that they cover
    /// whatever their shape reaches (drawn from their formula, the size costs nothing).
    static let gradientReach = 10_000.0

    func render(_ items: [LottieShapeItem], into container: CALayer, trim inherited: Trim?, roundCorners inheritedRadius: LottieAnimatable<Double>? = nil,
                modifiers inheritedModifiers: [LottiePathModifier] = []) {
        // A trim trims every stroke of its group and the groups inside, wherever it stands in
        // the list (as lottie-ios applies it), after the trims of the groups around it.
        let own: Trim = items.compactMap { item in
            if case .trim(let s, let e, let o) = item { return (s, e, o) }
            return nil
        }
        let chain = (inherited ?? []) + own
        let trim: Trim? = chain.isEmpty ? nil : chain
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
                render(sub, into: group, trim: trim, roundCorners: radius, modifiers: modifiers(after: i, upTo: items.count))
                container.addSublayer(group)
            case .repeater(let repeater):
                // Everything above it in the group, copied; the items below it are drawn already.
                let trimsBelow: Trim = items[(i + 1)...].compactMap { item in
                    if case .trim(let s, let e, let o) = item { return (s, e, o) }
                    return nil
                }
                let content = CALayer()
                content.bounds = container.bounds
                render(Array(items[..<i]), into: content, trim: (inherited ?? []) + trimsBelow, roundCorners: radius,
                       modifiers: modifiers(after: i, upTo: items.count))
                container.addSublayer(repeater.replicate(content, in: container.bounds, builder: builder, document: document, path: path))
                return
            case .paint(let paint):
                let geometry = items.indices.prefix(i).filter { items[$0].isGeometry }
                    .map { items[$0].rounded(by: radius).modified(by: modifiers(after: $0, upTo: i)) }
                guard !geometry.isEmpty else { continue }
                container.addSublayer(layer(for: paint, geometry: geometry, trim: trim, bounds: container.bounds))
            case .unsupported(let type):
                document.warn("\(path).shapes: \"\(type)\" items are not drawn")
            case .star(let star) where star.isRounded:
                document.warn("\(path).shapes: a star's or polygon's roundness (os, is) is not drawn")
            default: break
            }
        }
    }

    /// The outline a paint draws, as its layer's path, animated where its parts move; `twice`
    /// draws it round twice (a trim that wraps past the end goes on into the second round).
    private func animatePath(_ layer: CAShapeLayer, _ geometry: [LottieShapeItem], twice: Bool = false) {
        let rounds = twice ? 2 : 1
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

    private func layer(for paint: LottiePaint, geometry: [LottieShapeItem], trim: Trim?, bounds: CGRect) -> CALayer {
        let shape = CAShapeLayer()
        shape.frame = bounds
        let wraps = paint.kind == .stroke && trim.map(trimWraps) == true
        animatePath(shape, geometry, twice: wraps)
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
            if let trim { applyTrim(trim, to: shape, overTwoRounds: wraps) }
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

    /// The trim's ends at `frame` as fractions of the path, the start in 0..<1 and the end up
    /// to 2 where the offset carries the stretch past the path's end.
    private func trimEnds(_ trims: Trim, _ frame: Double) -> (Double, Double) {
        let mixed: (Double, Double, Double) -> Double = { $0 + ($1 - $0) * $2 }
        // Each trim keeps a stretch of what the ones before it kept.
        var low = 0.0, high = 1.0
        for trim in trims {
            let span = high - low
            let shift = trim.offset.value(at: frame, interpolate: mixed) / 360
            var a = min(max(trim.start.value(at: frame, interpolate: mixed) / 100, 0), 1)
            var b = min(max(trim.end.value(at: frame, interpolate: mixed) / 100, 0), 1)
            if a > b { swap(&a, &b) }
            (low, high) = (low + (a + shift) * span, low + (b + shift) * span)
        }
        let turns = low.rounded(.down)
        return (low - turns, high - turns)
    }

    private func trimTimes(_ trims: Trim) -> LottieKeyTimes {
        LottieKeyTimes(trims.map { $0.start.keyTimes + $0.end.keyTimes + $0.offset.keyTimes })
    }

    /// Whether the trim's stretch passes the path's end at any of its frames (then the path is
    /// drawn round twice and the stretch taken on the doubled path, as lottie-ios does).
    private func trimWraps(_ trim: Trim) -> Bool {
        let times = trimTimes(trim).times
        guard let first = times.min(), let last = times.max(), last > first else { return trimEnds(trim, times.first ?? 0).1 > 1 + 1e-9 }
        return stride(from: first, through: last, by: max(1, (last - first) / 400)).contains { trimEnds(trim, $0).1 > 1 + 1e-9 }
    }

    /// A lone trim without an offset whose start stays on one side of its end at every
    /// keyframe: its two ends as keyframes of their own (start first), which Core Animation can
    /// ease exactly. Nil where the trim needs its ends worked out frame by frame.
    private func plainEnds(_ trims: Trim) -> (LottieAnimatable<Double>, LottieAnimatable<Double>)? {
        guard trims.count == 1, let trim = trims.first, trim.offset.keyframes.allSatisfy({ $0.value == 0 }) else { return nil }
        let mixed: (Double, Double, Double) -> Double = { $0 + ($1 - $0) * $2 }
        let times = Set(trim.start.keyframes.map(\.time) + trim.end.keyframes.map(\.time))
        let pairs = times.map { (trim.start.value(at: $0, interpolate: mixed), trim.end.value(at: $0, interpolate: mixed)) }
        if pairs.allSatisfy({ $0.0 <= $0.1 }) { return (trim.start, trim.end) }
        if pairs.allSatisfy({ $0.0 >= $0.1 }) { return (trim.end, trim.start) }
        return nil
    }

    /// Lottie's trim (start and end in percent, offset in degrees of the whole length) as the
    /// stroke's start and end (halved on a path drawn round twice).
    private func applyTrim(_ trim: Trim, to shape: CAShapeLayer, overTwoRounds: Bool) {
        if !overTwoRounds, let (start, end) = plainEnds(trim) {
            // Eased by the keyframes' own timing functions, as lottie-ios animates strokeStart
            // and strokeEnd: exact between frames, and no samples to make.
            let fraction = { (percent: Double) in NSNumber(value: min(max(percent / 100, 0), 1)) }
            builder.animate(shape, "strokeStart", start, fraction)
            builder.animate(shape, "strokeEnd", end, fraction)
            return
        }
        let times = trimTimes(trim)
        func ends(_ frame: Double) -> (Double, Double) {
            let (a, b) = trimEnds(trim, frame)
            return overTwoRounds ? (a / 2, b / 2) : (a, min(b, 1))
        }
        builder.sampled(shape, "strokeStart", times: times) { NSNumber(value: ends($0).0) }
        builder.sampled(shape, "strokeEnd", times: times) { NSNumber(value: ends($0).1) }
    }
}
