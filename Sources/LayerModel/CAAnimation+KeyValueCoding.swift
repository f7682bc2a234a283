import Foundation
import OpenCoreGraphics

// Key-value coding on animations, as Apple's CAAnimation is a key-value container: every declared
// property by its Objective-C key ("duration", "removedOnCompletion", "fromValue", ...), and any
// other key stored with the animation (how code tags an animation to tell it apart in
// `animationDidStop(_:finished:)`). Numbers may come as NSNumber of any type; a value of the
// wrong type for a declared key is ignored.

extension CAAnimation {
    /// The value of a declared property, or what was set for a key of one's own (then
    /// `defaultValue(forKey:)` until set).
    func keyValue(forKey key: String) -> Any? {
        if let accessor = AnimationKeys.accessor(key, of: self) { return accessor.get(self) }
        return customValues[key] ?? type(of: self).defaultValue(forKey: key)
    }

    /// Sets a declared property (a value of the wrong type is ignored), or stores the value.
    func setKeyValue(_ value: Any?, forKey key: String) {
        if let accessor = AnimationKeys.accessor(key, of: self) {
            _ = accessor.set(self, value)
        } else {
            customValues[key] = value
        }
    }
}

/// The declared keys of the animation classes and their accessors.
enum AnimationKeys {
    struct Accessor {
        let get: (CAAnimation) -> Any?
        let set: (CAAnimation, Any?) -> Bool
    }

    static func accessor(_ key: String, of animation: CAAnimation) -> Accessor? {
        if let found = common[key] { return found }
        if animation is CAPropertyAnimation, let found = property[key] { return found }
        if animation is CABasicAnimation, let found = basic[key] { return found }
        if animation is CASpringAnimation, let found = spring[key] { return found }
        if animation is CAKeyframeAnimation, let found = keyframe[key] { return found }
        if animation is CAAnimationGroup, let found = group[key] { return found }
        if animation is CATransition, let found = transition[key] { return found }
        return nil
    }

    /// A property of class `A` whose value converts with `convert` (nil: refused).
    private static func key<A: CAAnimation, T>(_ path: ReferenceWritableKeyPath<A, T>, _ convert: @escaping (Any?) -> T?) -> Accessor {
        Accessor(get: { ($0 as? A)?[keyPath: path] }, set: { animation, value in
            guard let typed = animation as? A, let converted = convert(value) else { return false }
            typed[keyPath: path] = converted
            return true
        })
    }

    private static func double<A: CAAnimation>(_ path: ReferenceWritableKeyPath<A, Double>) -> Accessor { key(path) { numberValue($0) } }
    private static func cgFloat<A: CAAnimation>(_ path: ReferenceWritableKeyPath<A, CGFloat>) -> Accessor {
        key(path) { numberValue($0).map { CGFloat($0) } }
    }
    private static func float<A: CAAnimation>(_ path: ReferenceWritableKeyPath<A, Float>) -> Accessor { key(path) { numberValue($0).map(Float.init) } }
    private static func bool<A: CAAnimation>(_ path: ReferenceWritableKeyPath<A, Bool>) -> Accessor {
        key(path) { ($0 as? Bool) ?? numberValue($0).map { $0 != 0 } }
    }
    /// An optional property: nil clears it, anything else converts with `convert` (nil: refused).
    private static func optional<A: CAAnimation, T>(_ path: ReferenceWritableKeyPath<A, T?>,
                                                  _ convert: @escaping (Any) -> T? = { $0 as? T }) -> Accessor {
        Accessor(get: { ($0 as? A)?[keyPath: path] as Any? }, set: { animation, value in
            guard let typed = animation as? A else { return false }
            guard let value else {
                typed[keyPath: path] = nil
                return true
            }
            guard let converted = convert(value) else { return false }
            typed[keyPath: path] = converted
            return true
        })
    }

    /// A list of numbers in any spelling, or nil when one of them is not a number.
    private static func numbers(_ value: Any) -> [Double]? { numberList(value) }

    private static func named<A: CAAnimation, R: RawRepresentable<String>>(_ path: ReferenceWritableKeyPath<A, R>) -> Accessor {
        key(path) { value in
            if let named = value as? R { return named }
            return (value as? String).flatMap { R(rawValue: $0) }
        }
    }

    nonisolated(unsafe) static let common: [String: Accessor] = [
        "beginTime": double(\CAAnimation.beginTime),
        "duration": double(\CAAnimation.duration),
        "speed": float(\CAAnimation.speed),
        "timeOffset": double(\CAAnimation.timeOffset),
        "repeatCount": float(\CAAnimation.repeatCount),
        "repeatDuration": double(\CAAnimation.repeatDuration),
        "autoreverses": bool(\CAAnimation.autoreverses),
        "fillMode": named(\CAAnimation.fillMode),
        "timingFunction": optional(\CAAnimation.timingFunction),
        "removedOnCompletion": bool(\CAAnimation.isRemovedOnCompletion),
        "delegate": optional(\CAAnimation.delegate),
        "preferredFrameRateRange": key(\CAAnimation.preferredFrameRateRange) { $0 as? CAFrameRateRange },
    ]
    nonisolated(unsafe) static let property: [String: Accessor] = [
        "keyPath": optional(\CAPropertyAnimation.keyPath),
        "additive": bool(\CAPropertyAnimation.isAdditive),
        "cumulative": bool(\CAPropertyAnimation.isCumulative),
        "valueFunction": optional(\CAPropertyAnimation.valueFunction),
    ]
    nonisolated(unsafe) static let basic: [String: Accessor] = [
        "fromValue": Accessor(get: { ($0 as? CABasicAnimation)?.fromValue }, set: { ($0 as? CABasicAnimation)?.fromValue = $1; return true }),
        "toValue": Accessor(get: { ($0 as? CABasicAnimation)?.toValue }, set: { ($0 as? CABasicAnimation)?.toValue = $1; return true }),
        "byValue": Accessor(get: { ($0 as? CABasicAnimation)?.byValue }, set: { ($0 as? CABasicAnimation)?.byValue = $1; return true }),
    ]
    nonisolated(unsafe) static let spring: [String: Accessor] = [
        "mass": cgFloat(\CASpringAnimation.mass),
        "stiffness": cgFloat(\CASpringAnimation.stiffness),
        "damping": cgFloat(\CASpringAnimation.damping),
        "initialVelocity": cgFloat(\CASpringAnimation.initialVelocity),
        "allowsOverdamping": bool(\CASpringAnimation.allowsOverdamping),
        "settlingDuration": Accessor(get: { ($0 as? CASpringAnimation)?.settlingDuration }, set: { _, _ in false }),
        "perceptualDuration": Accessor(get: { ($0 as? CASpringAnimation)?.perceptualDuration }, set: { _, _ in false }),
        "bounce": Accessor(get: { ($0 as? CASpringAnimation)?.bounce }, set: { _, _ in false }),
    ]
    nonisolated(unsafe) static let keyframe: [String: Accessor] = [
        "values": optional(\CAKeyframeAnimation.values),
        "path": optional(\CAKeyframeAnimation.path),
        "keyTimes": optional(\CAKeyframeAnimation.keyTimes) { numbers($0)?.map { NSNumber(value: $0) } },
        "timingFunctions": optional(\CAKeyframeAnimation.timingFunctions),
        "calculationMode": named(\CAKeyframeAnimation.calculationMode),
        "rotationMode": optional(\CAKeyframeAnimation.rotationMode) { value in
            (value as? CAAnimationRotationMode) ?? (value as? String).map { CAAnimationRotationMode(rawValue: $0) }
        },
        "tensionValues": optional(\CAKeyframeAnimation.tensionValues) { numbers($0)?.map { NSNumber(value: $0) } },
        "continuityValues": optional(\CAKeyframeAnimation.continuityValues) { numbers($0)?.map { NSNumber(value: $0) } },
        "biasValues": optional(\CAKeyframeAnimation.biasValues) { numbers($0)?.map { NSNumber(value: $0) } },
    ]
    nonisolated(unsafe) static let group: [String: Accessor] = [
        "animations": optional(\CAAnimationGroup.animations),
    ]
    nonisolated(unsafe) static let transition: [String: Accessor] = [
        "type": named(\CATransition.type),
        "subtype": optional(\CATransition.subtype) { value in
            (value as? CATransitionSubtype) ?? (value as? String).map { CATransitionSubtype(rawValue: $0) }
        },
        "startProgress": float(\CATransition.startProgress),
        "endProgress": float(\CATransition.endProgress),
        "filter": Accessor(get: { ($0 as? CATransition)?.filter }, set: { ($0 as? CATransition)?.filter = $1; return true }),
    ]

    /// Every declared key, for tests and tools.
    static var allKeys: Set<String> {
        Set([common, property, basic, spring, keyframe, group, transition].flatMap(\.keys))
    }
}
