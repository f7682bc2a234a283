import Foundation

// CALayer and CAAnimation are NSObject subclasses on Apple's platforms, so code written there puts
// them in sets, keys dictionaries by them and compares them with `==`, all by identity unless a
// subclass overrides `isEqual(_:)`. Without the Objective-C runtime they are plain classes here;
// these conformances give them NSObject's behaviour through the `isEqual(_:)` and `hash` their
// class bodies declare (open there, so subclasses can override them as on Apple).

extension CALayer: Hashable {
    public static func == (lhs: CALayer, rhs: CALayer) -> Bool { lhs.isEqual(rhs) }
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

extension CAAnimation: Hashable {
    public static func == (lhs: CAAnimation, rhs: CAAnimation) -> Bool { lhs.isEqual(rhs) }
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
