import Foundation

/// Declares a custom layer property the Swift way: stored through key-value coding, so it is copied
/// into presentation layers, animatable by key path, runs its action when set (as Core Animation's
/// `@dynamic` properties do) and can ask for a redraw:
///
///     final class PieLayer: CALayer {
///         @Animatable("part", needsDisplay: true) var part: Double = 0
///     }
///
/// Inside animations and presentation layers the property reads the animated value.
@propertyWrapper
public struct Animatable<Value> {
    public let key: String
    public let defaultValue: Value
    public let needsDisplay: Bool

    public init(wrappedValue: Value, _ key: String, needsDisplay: Bool = false) {
        self.key = key
        defaultValue = wrappedValue
        self.needsDisplay = needsDisplay
    }

    @available(*, unavailable, message: "@Animatable is for properties of CALayer subclasses")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    public static subscript<Layer: CALayer>(_enclosingInstance layer: Layer,
                                            wrapped wrappedKeyPath: ReferenceWritableKeyPath<Layer, Value>,
                                            storage storageKeyPath: ReferenceWritableKeyPath<Layer, Animatable<Value>>) -> Value {
        get {
            let wrapper = layer[keyPath: storageKeyPath]
            // The stored value, without first asking whether the key is one of CALayer's own (a
            // renderer reads a shape layer's every property each frame). As on Apple's
            // platforms, the property's getter does not go through key-value coding.
            return coerceKeyValue(layer.storedValue(forKey: wrapper.key), to: Value.self) ?? wrapper.defaultValue
        }
        set {
            let wrapper = layer[keyPath: storageKeyPath]
            layer.setValue(keyValueStored(newValue), forKey: wrapper.key)
            if wrapper.needsDisplay { layer.setNeedsDisplay() }
        }
    }
}
