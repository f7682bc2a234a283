import Foundation

/// Which directions a scroll layer scrolls in.
public struct CAScrollLayerScrollMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none = CAScrollLayerScrollMode(rawValue: "none")
    public static let vertically = CAScrollLayerScrollMode(rawValue: "vertically")
    public static let horizontally = CAScrollLayerScrollMode(rawValue: "horizontally")
    /// Both directions (the default).
    public static let both = CAScrollLayerScrollMode(rawValue: "both")
}

/// A layer that shows part of its sublayers by moving its bounds origin (seed 000's scroll
/// layer). It clips to its bounds, as a scroller must.
open class CAScrollLayer: CALayer {
    /// Default: `.both`.
    @Animatable("scrollMode") open var scrollMode: CAScrollLayerScrollMode = .both

    public override init() {
        super.init()
        masksToBounds = true
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    public override init(layer: Any) { super.init(layer: layer) }

    override class func libraryCopy(of layer: CALayer) -> CALayer { CAScrollLayer(layer: layer) }

    open override class func defaultValue(forKey key: String) -> Any? {
        key == "scrollMode" ? CAScrollLayerScrollMode.both.rawValue : super.defaultValue(forKey: key)
    }

    /// Moves the bounds origin to `point`, in the directions `scrollMode` allows.
    open func scroll(to point: CGPoint) {
        guard point.x.isFinite, point.y.isFinite else { return }
        var origin = bounds.origin
        if scrollMode == .both || scrollMode == .horizontally { origin.x = point.x }
        if scrollMode == .both || scrollMode == .vertically { origin.y = point.y }
        bounds.origin = origin
    }

    /// Scrolls the least distance that shows `r` (its top left when it does not fit).
    open func scroll(to r: CGRect) {
        let b = bounds
        var origin = b.origin
        if r.maxX > b.maxX { origin.x = r.maxX - b.width }
        if r.minX < origin.x { origin.x = r.minX }
        if r.maxY > b.maxY { origin.y = r.maxY - b.height }
        if r.minY < origin.y { origin.y = r.minY }
        scroll(to: origin)
    }
}

extension CALayer {
    /// Scrolls the nearest scroll layer at or above this one so that `p` (in this layer's space)
    /// is at its top left.
    func scrollNearestScrollLayer(toPoint p: CGPoint) {
        guard let scroller = nearestScrollLayer else { return }
        scroller.scroll(to: scroller.convert(p, from: self))
    }

    /// Scrolls the nearest scroll layer at or above this one so that `r` (in this layer's space)
    /// is visible.
    func scrollNearestScrollLayer(toShow r: CGRect) {
        guard let scroller = nearestScrollLayer else { return }
        scroller.scroll(to: scroller.convert(r, from: self))
    }

    private var nearestScrollLayer: CAScrollLayer? {
        var layer: CALayer? = self
        while let current = layer {
            if let scroller = current as? CAScrollLayer { return scroller }
            layer = current.superlayer
        }
        return nil
    }
}
