import Foundation
import OpenCoreGraphics

/// The kinds of transition.
public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The new content fades in as the old fades out (the default).
    public static let fade = CATransitionType(rawValue: "fade")
    /// The new content slides in over the old.
    public static let moveIn = CATransitionType(rawValue: "moveIn")
    /// The new content pushes the old out.
    public static let push = CATransitionType(rawValue: "push")
    /// The old content slides out, revealing the new.
    public static let reveal = CATransitionType(rawValue: "reveal")
}

/// The side the motion comes from.
public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let fromLeft = CATransitionSubtype(rawValue: "fromLeft")
    public static let fromRight = CATransitionSubtype(rawValue: "fromRight")
    public static let fromTop = CATransitionSubtype(rawValue: "fromTop")
    public static let fromBottom = CATransitionSubtype(rawValue: "fromBottom")
}

/// The key transitions are usually added under.
public let kCATransition = "transition"

/// Animates a change of a layer's whole subtree: while it runs, the subtree as it was at the last
/// commit (the last frame or `CATransaction.flush()`) and as it is now both render, faded or moved
/// as `type` and `subtype` say, clipped to the layer's bounds.
///
/// Change the layer and add the transition in the same transaction, in either order, as with Core
/// Animation.
open class CATransition: CAAnimation {
    /// Default: `.fade`.
    open var type: CATransitionType = .fade
    /// Default: nil (from the left).
    open var subtype: CATransitionSubtype?
    /// Where in the effect the transition starts and ends, 0...1. Defaults: 0 and 1.
    open var startProgress: Float = 0
    open var endProgress: Float = 1
    /// A Core Image filter for the transition, macOS's alternative to `type`. Accepted and
    /// kept; Core Image does not exist here, so `type` draws the transition. Default: nil.
    open var filter: Any?

    /// The subtree as it was before the change, captured when the transition is added.
    var oldTree: CALayer?

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone)
        if let copy = copy as? CATransition {
            copy.type = type
            copy.subtype = subtype
            copy.startProgress = startProgress
            copy.endProgress = endProgress
            copy.filter = filter
            copy.oldTree = oldTree
        }
        return copy
    }

    override func apply(to layer: CALayer, atLayerTime time: CFTimeInterval) {
        guard let oldTree, case .active(let progress, _) = timing(at: time) else { return }
        let start = Double(min(max(startProgress, 0), 1)), end = Double(min(max(endProgress, 0), 1))
        layer.transitionFrame = TransitionFrame(oldTree: oldTree, progress: start + (end - start) * paced(progress),
                                                type: type, subtype: subtype ?? .fromLeft)
    }
}

/// A transition at one moment, as the compositor draws it.
public struct TransitionFrame {
    /// The subtree before the change (its root stands for the layer).
    public let oldTree: CALayer
    /// 0 shows only the old subtree, 1 only the new.
    public let progress: Double
    public let type: CATransitionType
    public let subtype: CATransitionSubtype

    /// Where the motion comes from, as a unit vector in the layer's space (y down).
    public var direction: (x: Double, y: Double) {
        switch subtype {
        case .fromRight: (1, 0)
        case .fromTop: (0, -1)
        case .fromBottom: (0, 1)
        default: (-1, 0)
        }
    }
}

/// A `contents` animation between two images at one moment: `contents` weighted by `fraction`
/// over `from` weighted by 1 - `fraction`.
public struct ContentsCrossFade {
    public let from: CGImage
    public let fraction: Double
}
