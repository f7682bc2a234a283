import Foundation

/// Runs several animations together in the group's time: children's begin times count from the
/// group's start, and the group's duration cuts them short (seed 000: a 4 s child in a 1 s group
/// gets a quarter of the way).
open class CAAnimationGroup: CAAnimation {
    /// The children. Default: nil.
    open var animations: [CAAnimation]?

    /// Set while this group is being copied: meeting it again means the group contains itself.
    private var isBeingCopied = false

    open override func copy(with zone: NSZone? = nil) -> Any {
        // A group that contains itself, directly or not, would copy forever: the cycle is cut
        // where it closes (that child becomes an animation without effect), Core Animation's no-op.
        guard !isBeingCopied else { return CAAnimation() }
        isBeingCopied = true
        defer { isBeingCopied = false }
        let copy = super.copy(with: zone)
        (copy as? CAAnimationGroup)?.animations = animations?.map { $0.duplicate() }
        return copy
    }

    override func animatesKey(where test: (String) -> Bool) -> Bool {
        animations?.contains { $0.animatesKey(where: test) } ?? false
    }

    /// Fixes the children's timing as the group's is fixed when it is attached: a child without
    /// a duration of its own spans the group's (as Core Animation's children do), at any depth.
    func attachChildTimings() {
        for child in animations ?? [] {
            var timing = TimingParameters(child)
            if !(child.duration > 0) { timing.duration = attachedDuration }
            child.attachedTiming = timing
            (child as? CAAnimationGroup)?.attachChildTimings()
        }
    }

    override func apply(to layer: CALayer, atLayerTime time: CFTimeInterval) {
        guard case .active(let progress, _) = timing(at: time) else { return }
        let groupTime = paced(progress) * attachedDuration
        for child in animations ?? [] {
            if let property = child as? CAPropertyAnimation, property.keyPath == nil { continue }
            child.apply(to: layer, atLayerTime: groupTime)
        }
    }

}
