import Foundation

/// Adopted by a layer subclass whose presentation layers should be of its own class, as Apple's
/// are: then `presentation()` returns one (not nil) and a renderer's copies call its overrides.
///
/// Apple's runtime makes presentation layers by calling `init(layer:)` on the layer's class.
/// Swift can call an initializer on a class value only when the initializer is `required`, and
/// a required `init(layer:)` would break the two most common ways ported subclasses are written
/// (`override init(layer:)`, and initializers of their own with no `init(layer:)` at all). So
/// `init(layer:)` is not required, and a subclass that wants its own class presented says so:
///
///     final class ProgressLayer: CALayer, LayerPresentationCopying { ... }
///
/// A final class conforms as it is; a non-final one declares `required override init(layer: Any)`.
/// Without it, presentation copies are of the nearest library class (CALayer, CAShapeLayer, ...)
/// with every property value, custom `@Animatable` ones included, and content drawn by an
/// overridden `draw(in:)` is still drawn by the layer's own class (see `presentationCopy(of:)`).
public protocol LayerPresentationCopying: CALayer {
    init(layer: Any)
}

extension CALayer {
    /// A copy of `layer` for presentation: of its own class when that class can be made from its
    /// class value, else of the nearest library class.
    static func presentationCopy(of layer: CALayer) -> CALayer {
        if let copying = type(of: layer) as? any LayerPresentationCopying.Type { return copying.init(layer: layer) }
        return type(of: layer).libraryCopy(of: layer)
    }

}
