import Foundation
import OpenCoreGraphics

// Path modifiers that remake outlines (zig-zag, offset path): each applies to the outlines above
// it in its group and in the groups inside it, in the order they stand, before the paints below
// them draw; a group's own modifiers apply before those of the groups around it. (Round corners
// and trims follow lottie-ios's rules instead: LottieRoundCorners.swift, LottieShapeRenderer.)

enum LottiePathModifier {
    case zigZag(LottieZigZag)
    case offset(LottieOffsetPath)

    var keyTimes: LottieKeyTimes {
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

    /// The item with `modifiers` applied (none: as it is).
    func modified(by modifiers: [LottiePathModifier]) -> LottieShapeItem {
        modifiers.isEmpty ? self : .modified(self, modifiers)
    }
}
