import Foundation
import OpenCoreGraphics

// Path modifiers that remake outlines (zig-zag, offset path): each applies to the outlines above
// it in its group and in the groups inside it, in the order they stand, before the paints below
// them draw; a group's own modifiers apply before those of the groups around it. (Round corners
// and trims follow lottie-ios's rules instead: LottieRoundCorners.swift, LottieShapeRenderer.)

enum LottiePathModifier {
    case zigZag(LottieZigZag)
    case offset(LottieOffsetPath)

    var keyTimes: [Double] {
        switch self {
        case .zigZag(let z): z.keyTimes
        case .offset(let o): o.keyTimes
        }
    }

    func apply(_ outline: LottieBezier, at frame: Double) -> LottieBezier {
        switch self {
        case .zigZag(let z): z.apply(outline, at: frame)
        case .offset(let o): o.apply(outline, at: frame)
        }
    }
}

extension LottieShapeItem {
    /// The modifier this item is, if it is one.
    var pathModifier: LottiePathModifier? {
        switch self {
        case .zigZag(let z): .zigZag(z)
        case .offsetPath(let o): .offset(o)
        default: nil
        }
    }

    /// The item's outlines at `frame` through `transform`, as bezier shapes.
    func outlines(at frame: Double, transform: CGAffineTransform) -> [LottieBezier] {
        switch self {
        case .path(let p):
            return [p.value(at: frame, interpolate: LottieBezier.mix).applying(transform)]
        case .rectangle(let sizeProperty, let positionProperty, let roundness, let reversed):
            let s = sizeProperty.value(at: frame, interpolate: LottieEasing.mix), p = positionProperty.value(at: frame, interpolate: LottieEasing.mix)
            guard s.count >= 2, p.count >= 2 else { return [] }
            let r = min(max(roundness.value(at: frame) { $0 + ($1 - $0) * $2 }, 0), min(abs(s[0]), abs(s[1])) / 2)
            return [LottieOutline.rectangle(center: CGPoint(x: p[0], y: p[1]), size: CGSize(width: s[0], height: s[1]), radius: r,
                                            reversed: reversed).applying(transform)]
        case .ellipse(let sizeProperty, let positionProperty, let reversed):
            let s = sizeProperty.value(at: frame, interpolate: LottieEasing.mix), p = positionProperty.value(at: frame, interpolate: LottieEasing.mix)
            guard s.count >= 2, p.count >= 2 else { return [] }
            return [LottieOutline.ellipse(center: CGPoint(x: p[0], y: p[1]), size: CGSize(width: s[0], height: s[1]), reversed: reversed)
                .applying(transform)]
        case .star(let star):
            return [star.outline(at: frame).applying(transform)]
        case .rounded(let item, let radius):
            let r = radius.value(at: frame) { $0 + ($1 - $0) * $2 }
            return item.outlines(at: frame, transform: .identity).map { $0.roundingCorners(radius: r).applying(transform) }
        case .modified(let item, let modifiers):
            var outlines = item.outlines(at: frame, transform: .identity)
            for modifier in modifiers { outlines = outlines.map { modifier.apply($0, at: frame) } }
            return outlines.map { $0.applying(transform) }
        case .group(let items, let groupTransform):
            let m = groupTransform.matrix(at: frame).concatenating(transform)
            return items.filter(\.isGeometry).flatMap { $0.outlines(at: frame, transform: m) }
        default:
            return []
        }
    }

    /// The item with `modifiers` applied (none: as it is).
    func modified(by modifiers: [LottiePathModifier]) -> LottieShapeItem {
        modifiers.isEmpty ? self : .modified(self, modifiers)
    }
}
