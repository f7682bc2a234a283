import Foundation
import OpenCoreGraphics

/// Something a layer runs when one of its properties changes (or it enters or leaves a tree):
/// animations are actions that add themselves to the layer.
public protocol CAAction: AnyObject {
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

extension CAAnimation: CAAction {
    /// Adds the animation to the layer under the event's key.
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        (anObject as? CALayer)?.add(self, forKey: event)
    }
}

/// Core Animation's "no action" value: returned from any step of the action search it stops the
/// search, and the change happens without animation.
extension NSNull: CAAction {
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

/// A layer's delegate: a source of actions and of drawn content.
public protocol CALayerDelegate: AnyObject {
    /// The action for `event` on `layer`: nil to go on searching, `NSNull()` for none.
    func action(for layer: CALayer, forKey event: String) -> CAAction?
    /// Draws the layer's content (y down, in the layer's bounds space). Default: nothing.
    func draw(_ layer: CALayer, in ctx: CGContext)
    /// Gives the layer its content some other way (setting `contents`). Default: draws it with a
    /// backing store and `draw(_:in:)`.
    func display(_ layer: CALayer)
    /// Lays out the layer's sublayers, when the layer's `layoutSublayers()` is not overridden
    /// (its bounds changed, sublayers came or went, or `setNeedsLayout()` was called). Default: nothing.
    func layoutSublayers(of layer: CALayer)
    /// Told just before the layer's backing store is drawn, to set it up (`contentsFormat`,
    /// `contentsScale`). Default: nothing.
    func layerWillDraw(_ layer: CALayer)
}

extension CALayerDelegate {
    public func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
    public func draw(_ layer: CALayer, in ctx: CGContext) {}
    public func display(_ layer: CALayer) { layer.drawBackingStore() }
    public func layoutSublayers(of layer: CALayer) {}
    public func layerWillDraw(_ layer: CALayer) {}
}

/// Events that are not property names.
public let kCAOnOrderIn = "onOrderIn"
public let kCAOnOrderOut = "onOrderOut"
