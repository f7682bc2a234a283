import Foundation

// Implicit animation: a change of an animatable property looks up an action before the value
// changes (so `action(forKey:)` still sees the old value, as seed 000 relies on) and runs it after.

extension CALayer {
    /// Sets an animatable property the way every one of its setters does: the action is looked up
    /// with the old value in place and run with the new one.
    /// Every change holds the transaction lock, as a renderer does while it reads the tree: a
    /// layer may be changed on one thread while another renders it.
    func change<Value>(_ key: String, _ field: WritableKeyPath<LayerState, Value>, to newValue: Value) {
        withModelLock {
            propertyWillChange(key)
            state[keyPath: field] = newValue
            propertyDidChange(key)
        }
    }

    /// Runs `body` holding `CATransaction.lock()` (recursive: changes made by actions and
    /// delegates inside it take it again).
    func withModelLock<T>(_ body: () throws -> T) rethrows -> T {
        try CATransaction.withLock(body)
    }

    func propertyWillChange(_ key: String) {
        recordCommittedValue(forKey: key)
        guard isLive, modelLayer == nil, !CATransaction.disableActions(), let action = action(forKey: key) else { return }
        pendingActions[key] = (action, presentedValue(forKeyPath: key))
    }

    func propertyDidChange(_ key: String) {
        guard modelLayer == nil else { return }
        CATransaction.noteChange()
        guard let (action, presented) = pendingActions.removeValue(forKey: key) else { return }
        run(action, forKey: key, previousValue: presented)
    }

    /// Runs an action; a basic animation with none of from/by/to set animates from the value shown
    /// before the change to the new one (the table's last row: previous to current presentation).
    private func run(_ action: CAAction, forKey key: String, previousValue: Any?) {
        if let basic = action as? CABasicAnimation, basic.fromValue == nil, basic.toValue == nil, basic.byValue == nil,
           let copy = basic.duplicate() as? CABasicAnimation {
            copy.fromValue = previousValue
            copy.run(forKey: key, object: self, arguments: nil)
        } else {
            action.run(forKey: key, object: self, arguments: nil)
        }
    }

    /// Runs the action for a non-property event (kCAOnOrderIn, kCAOnOrderOut, "sublayers"), if
    /// the layer is in a rendered tree (`live`: whether it is, where the layer itself cannot
    /// know yet, as one just inserted into a rendered tree).
    func runAction(forEvent event: String, live: Bool? = nil) {
        guard live ?? isLive, modelLayer == nil, !CATransaction.disableActions(), let action = action(forKey: event) else { return }
        action.run(forKey: event, object: self, arguments: nil)
    }

    /// The value at `keyPath` as it shows now, with running animations applied.
    func presentedValue(forKeyPath keyPath: String) -> Any? {
        guard !attachedAnimations.isEmpty else { return value(forKeyPath: keyPath) }
        let copy = CALayer.presentationCopy(of: self)
        copy.modelLayer = self
        let time = layerTime(atMediaTime: CACurrentMediaTime())
        for (_, animation) in attachedAnimations { animation.apply(to: copy, atLayerTime: time) }
        return copy.value(forKeyPath: keyPath)
    }

    /// Keeps the value `key` had at the last commit, the first time it changes after it.
    func recordCommittedValue(forKey key: String) {
        guard isLive, modelLayer == nil, committedValues[key] == nil else { return }
        let old: Any? = key == "sublayers" ? storedSublayers : value(forKeyPath: key)
        committedValues.updateValue(old, forKey: key)
        TransactionStack.current.changedLayers.append(self)
    }

    /// The subtree as it was at the last commit, as presentation layers at the current time: the
    /// old state a transition shows.
    func committedStateTree() -> CALayer {
        let time = layerTime(atMediaTime: CACurrentMediaTime())
        func snapshot(_ layer: CALayer, time: CFTimeInterval) -> CALayer {
            let copy = CALayer.presentationCopy(of: layer)
            copy.modelLayer = layer
            for (_, animation) in layer.attachedAnimations where !(animation is CATransition) {
                animation.apply(to: copy, atLayerTime: time)
            }
            for (key, value) in layer.committedValues where key != "sublayers" {
                copy.setValue(value, forKeyPath: key)
            }
            return copy
        }
        let tree = copySubtree(rootTime: time, children: { $0.committedValues["sublayers"].flatMap { $0 as? [CALayer] } ?? $0.storedSublayers },
                               present: snapshot)
        // The snapshot is kept by a transition attached to this layer: pointing back at the model
        // layers would make a cycle that leaks the whole tree (found by the scene-document fuzzer).
        tree.walkTree { $0.modelLayer = nil }
        return tree
    }

    /// Marks the subtree as drawn: from now on its property changes animate implicitly.
    public func markLive() {
        walkTree { $0.isLive = true }
    }
}

/// The action search of `CALayer.action(forKey:)`.
enum ActionLookup {
    /// Properties whose changes animate by default with a basic animation: Apple's table of
    /// animatable layer properties ("default implied CABasicAnimation"). `doubleSided` is
    /// animatable without a default action there, so it has none here either.
    static let implicitlyAnimated: Set<String> = [
        "bounds", "position", "zPosition", "anchorPoint", "anchorPointZ", "transform", "sublayerTransform",
        "opacity", "backgroundColor", "contentsRect", "contentsCenter", "cornerRadius", "borderWidth", "borderColor",
        "shadowOpacity", "shadowRadius", "shadowOffset", "shadowColor", "shadowPath",
        "hidden", "masksToBounds", "mask", "filters", "sublayers",
    ]

    /// Properties whose default action is a fade transition, Apple's "default implied
    /// CATransition": the filters over what is behind, which cannot interpolate. New contents
    /// cross-fade too (Apple's table gives them a basic animation, which cross-fades images).
    static let fadingKeys: Set<String> = ["contents", "backgroundFilters", "compositingFilter"]

    static func action(for layer: CALayer, forKey key: String) -> CAAction? {
        func answer(_ action: CAAction) -> CAAction? { action is NSNull ? nil : action }
        if let action = layer.delegate?.action(for: layer, forKey: key) { return answer(action) }
        if let action = layer.actions?[key] { return answer(action) }
        var style = layer.style
        var depth = 0
        while let dictionary = style, depth < 64 {
            if let action = (dictionary["actions"] as? [String: CAAction])?[key] { return answer(action) }
            style = dictionary["style"] as? [String: Any]
            depth += 1
        }
        if let action = type(of: layer).defaultAction(forKey: key) { return answer(action) }
        if type(of: layer).implicitlyAnimatedKeys.contains(key) { return implicitAnimation(forKey: key) }
        if fadingKeys.contains(key) {
            // New contents cross-fade, as in Core Animation.
            let fade = CATransition()
            fade.duration = CATransaction.animationDuration()
            fade.timingFunction = CATransaction.animationTimingFunction()
            return fade
        }
        guard implicitlyAnimated.contains(key) else { return nil }
        return implicitAnimation(forKey: key)
    }

    static func implicitAnimation(forKey key: String) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: key)
        animation.duration = CATransaction.animationDuration()
        animation.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
        return animation
    }
}
