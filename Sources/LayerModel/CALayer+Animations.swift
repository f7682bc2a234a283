import Foundation

// Animations attached to layers, the layer's time space, and presentation layers: the model tree
// plus every animation evaluated at one time. Frames are evaluated at the time a renderer is given;
// nothing here reads the clock except `add(_:forKey:)` and `presentation()`, as in Core Animation.

extension CALayer {
    /// Attaches a copy of `anim` under `key` (replacing, and stopping, one already there). A
    /// `beginTime` of 0 becomes the current media time in this layer's time space; a property
    /// animation without `keyPath` animates the key.
    func attachAnimation(_ anim: CAAnimation, forKey key: String?) {
        withModelLock {
            let copy = anim.duplicate()
            if copy.beginTime == 0 { copy.beginTime = convertTime(CACurrentMediaTime(), from: nil) }
            if let transition = copy as? CATransition { transition.oldTree = committedStateTree() }
            copy.attachedTiming = TimingParameters(copy)
            (copy as? CAAnimationGroup)?.attachChildTimings()
            // A transition without a key goes under kCATransition, as add(_:forKey:) documents.
            let key = key ?? (copy is CATransition ? kCATransition : "animation-\(ObjectIdentifier(copy).hashValue)")
            if let property = copy as? CAPropertyAnimation, property.keyPath == nil { property.keyPath = key }
            removeAnimation(forKey: key)
            attachedAnimations.append((key, copy))
            CATransaction.register(copy)
        }
    }

    /// A copy of the animation attached under `key`: a running animation cannot be changed, so
    /// changing what this returns changes nothing on screen.
    func attachedAnimation(forKey key: String) -> CAAnimation? {
        attachedAnimations.first { $0.key == key }?.animation.duplicate()
    }

    /// Detaches the animation under `key`; its delegate hears it stopped unfinished.
    func detachAnimation(forKey key: String) {
        withModelLock {
            guard let index = attachedAnimations.firstIndex(where: { $0.key == key }) else { return }
            let removed = attachedAnimations.remove(at: index).animation
            if !removed.didReportStop {
                removed.didReportStop = true
                removed.reportStop(finished: false)
            }
        }
    }

    /// Detaches every animation.
    func detachAllAnimations() {
        withModelLock {
            for key in attachedAnimations.map(\.key) { removeAnimation(forKey: key) }
        }
    }

    // MARK: Time spaces

    /// The layer and its superlayers, root first.
    private var ancestry: [CALayer] {
        var chain: [CALayer] = []
        var layer: CALayer? = self
        while let current = layer {
            chain.append(current)
            layer = current.superlayer
        }
        return chain.reversed()
    }

    /// This layer's local time at media time `t`, through every superlayer's time space.
    public func layerTime(atMediaTime t: CFTimeInterval) -> CFTimeInterval {
        ancestry.reduce(t) { $1.localTime(fromParent: $0) }
    }

    /// The media time at which this layer's local time is `t`.
    public func mediaTime(atLayerTime t: CFTimeInterval) -> CFTimeInterval {
        ancestry.reversed().reduce(t) { $1.parentTime(fromLocal: $0) }
    }

    /// Converts `t` from the time space of `layer` (nil: media time) into this layer's.
    func convertedTime(_ t: CFTimeInterval, from layer: CALayer?) -> CFTimeInterval {
        layerTime(atMediaTime: layer?.mediaTime(atLayerTime: t) ?? t)
    }

    /// Converts `t` from this layer's time space into that of `layer` (nil: media time).
    func convertedTime(_ t: CFTimeInterval, to layer: CALayer?) -> CFTimeInterval {
        let media = mediaTime(atLayerTime: t)
        return layer?.layerTime(atMediaTime: media) ?? media
    }

    // MARK: Presentation

    /// The layer as it appears now (`CACurrentMediaTime()`), with its animations applied; its
    /// sublayers are presentation layers too.
    func presentationNow() -> CALayer {
        presentationTree(atMediaTime: CACurrentMediaTime(), rootTime: layerTime(atMediaTime: CACurrentMediaTime()))
    }

    /// A copy of this subtree with every animation evaluated at media time `t`: what a frame at
    /// `t` draws. Built without recursion, so deep trees are safe.
    public func presentationTree(atMediaTime t: CFTimeInterval) -> CALayer {
        presentationTree(atMediaTime: t, rootTime: layerTime(atMediaTime: t))
    }

    /// The presentation tree at `t`, refreshing the copies `cache` kept from the previous call
    /// instead of allocating new ones where it can: what a renderer does every frame. Trees it
    /// returned before are changed by it, so only their user (the renderer) may call it.
    ///
    /// `drawnOnly` leaves out what no renderer draws: the sublayers and mask of a layer hidden at
    /// `t` (its copy is there, with none). A Lottie document hides each of its layers outside its
    /// frames; presenting their subtrees anyway cost TypeFace's letters a quarter of their
    /// evaluation.
    public func presentationTree(atMediaTime t: CFTimeInterval, reusing cache: PresentationCache,
                                 drawnOnly: Bool) -> CALayer {
        presentationTree(atMediaTime: t, rootTime: layerTime(atMediaTime: t), cache: cache, drawnOnly: drawnOnly)
    }

    /// `presentationTree(atMediaTime:reusing:drawnOnly:)` with every layer's subtree.
    public func presentationTree(atMediaTime t: CFTimeInterval, reusing cache: PresentationCache) -> CALayer {
        presentationTree(atMediaTime: t, reusing: cache, drawnOnly: false)
    }

    private func presentationTree(atMediaTime t: CFTimeInterval, rootTime: CFTimeInterval,
                                  cache: PresentationCache? = nil, drawnOnly: Bool = false) -> CALayer {
        // This frame's copies in the order they are made, for the next frame.
        var made: [CALayer] = []
        made.reserveCapacity(cache?.ordered.count ?? 0)
        // The replicators met on the way (their delayed instances are presented after the tree).
        var replicators: [CAReplicatorLayer] = []
        func present(_ layer: CALayer, time: CFTimeInterval) -> CALayer {
            let copy: CALayer
            // Plain layers, and the library classes whose every property is in `state`, are all
            // state; another subclass may keep more, so it always gets a new copy.
            let allState = CALayer.isAllState(type(of: layer))
            if let cache, allState, let previous = cache.previousCopy(of: layer, at: made.count),
               previous.modelLayer === layer, type(of: previous) == type(of: layer) {
                // A copy whose state neither it nor its model has written since it was
                // assigned, and which no animation writes now, holds the model's state already:
                // assigning it again retained and released each of its references (a tenth of a
                // Lottie glyph's evaluation, most of whose layers are still).
                let current = (model: layer.stateWrites, copy: previous.stateWrites)
                if !layer.attachedAnimations.isEmpty || previous.refreshedAt.map({ $0 != current }) ?? true {
                    previous.state = layer.state
                    previous.refreshedAt = (layer.stateWrites, previous.stateWrites)
                }
                previous.transitionFrame = nil
                previous.contentsCrossFade = nil
                // The old sublayer and mask copies leave it; those this frame keeps are linked
                // again as they are placed (the superlayer link must not outlive its layer).
                for sublayer in previous.storedSublayers { previous.unlinkIfChild(sublayer) }
                if let mask = previous.storedMask { previous.unlinkIfChild(mask) }
                previous.storedSublayers.removeAll(keepingCapacity: true)
                previous.storedMask = nil
                copy = previous
            } else {
                copy = CALayer.presentationCopy(of: layer)
                copy.modelLayer = layer
            }
            if cache != nil { made.append(copy) }
            if !allState, let replicator = copy as? CAReplicatorLayer { replicators.append(replicator) }
            // An emitter's particles are a function of its time (CAEmitterLayer+Particles).
            (copy as? CAEmitterLayer)?.presentedLayerTime = time
            for (_, animation) in layer.attachedAnimations { animation.apply(to: copy, atLayerTime: time) }
            if copy.needsPresentationRedraw(model: layer) {
                // Animated custom properties show by redrawing the copy with its values (the
                // delegate draws for it, as for the model).
                copy.drawPresentationBackingStore(model: layer)
            }
            return copy
        }
        defer { cache?.keep(made) }
        let root = copySubtree(rootTime: rootTime, children: \.storedSublayers, descendsInto: { !drawnOnly || !$0.isHidden },
                               present: present)
        CALayer.presentDelayedInstances(of: replicators, atMediaTime: t)
        return root
    }

    /// Whether a layer of `type` keeps nothing beyond `state` (and what a presentation copy resets):
    /// a copy of one can be refreshed by assigning `state`. Lottie's trees are shape layers under
    /// transform and plain layers, a new copy of each every frame before (TypeFace's letters
    /// spent a fifth of a frame allocating and freeing them).
    static func isAllState(_ type: CALayer.Type) -> Bool {
        type == CALayer.self || type == CAShapeLayer.self || type == CATransformLayer.self || type == CAGradientLayer.self
    }

    /// Gives every replicator copy of a presentation tree (`copies`) whose instances are delayed
    /// the presentations of its sublayers at the earlier times its instances show (see
    /// CAReplicatorLayer.delayedInstances).
    private static func presentDelayedInstances(of copies: [CAReplicatorLayer], atMediaTime t: CFTimeInterval) {
        for copy in copies {
            guard let model = copy.modelLayer as? CAReplicatorLayer,
                  model.instanceDelay != 0, model.instanceDelay.isFinite, copy.instanceCount > 1,
                  model.storedSublayers.contains(where: \.hasAnimationsInSubtree) else { continue }
            let count = min(copy.instanceCount, CAReplicatorLayer.maxInstances)
            copy.delayedInstances = (1..<count).map { i in
                model.storedSublayers.map { sublayer in
                    let presented = sublayer.presentationTree(atMediaTime: t - Double(i) * model.instanceDelay)
                    presented.superlayer = copy
                    return presented
                }
            }
        }
    }

    /// Copies this subtree without recursion (deep trees are safe): `present` makes each layer's
    /// copy at its local time, `children` says which sublayers a layer's copy gets, and
    /// `descendsInto` whether a copy gets its mask and sublayers at all.
    func copySubtree(rootTime: CFTimeInterval, children: (CALayer) -> [CALayer],
                     descendsInto: (CALayer) -> Bool = { _ in true },
                     present: (CALayer, CFTimeInterval) -> CALayer) -> CALayer {
        let root = present(self, rootTime)
        var enteredMasks: Set<ObjectIdentifier> = []
        var pending: [(model: CALayer, copy: CALayer, time: CFTimeInterval)] = [(self, root, rootTime)]
        while let (model, copy, time) = pending.popLast() {
            guard descendsInto(copy) else { continue }
            // The mask is presented like a sublayer, in the masked layer's time, with the masked
            // layer's copy as its superlayer, as the model's mask has; a mask cycle is cut where
            // it closes (see walkTree).
            if let mask = model.usableMask(entered: &enteredMasks) {
                let maskTime = mask.localTime(fromParent: time)
                let maskCopy = present(mask, maskTime)
                copy.storedMask = maskCopy
                if mask.superlayer === model { maskCopy.superlayer = copy }
                pending.append((mask, maskCopy, maskTime))
            }
            for sublayer in children(model) {
                let sublayerTime = sublayer.localTime(fromParent: time)
                let sublayerCopy = present(sublayer, sublayerTime)
                sublayerCopy.superlayer = copy
                copy.storedSublayers.append(sublayerCopy)
                pending.append((sublayer, sublayerCopy, sublayerTime))
            }
        }
        return root
    }

    /// True when this layer or a descendant changes with time: an animation is attached, or it
    /// is an emitter with cells (its particles are a function of time).
    public var hasAnimationsInSubtree: Bool {
        var found = false
        walkTree { if !$0.attachedAnimations.isEmpty || $0.emitsParticles { found = true } }
        return found
    }

    /// An emitter layer with cells.
    var emitsParticles: Bool { (self as? CAEmitterLayer)?.emitterCells?.isEmpty == false }

    // MARK: Lifecycle

    /// Moves the subtree's animations to media time `t`: tells delegates of starts and ends and
    /// removes finished animations that are removed on completion. Returns the media time of the
    /// next change: `t` while something animates, a later start time, or infinity.
    @discardableResult
    public func advanceAnimations(toMediaTime t: CFTimeInterval) -> CFTimeInterval {
        var next = CFTimeInterval.infinity
        var started: [CAAnimation] = [], stopped: [CAAnimation] = []
        walkTree(layerTime(atMediaTime: t), child: { time, layer in layer.localTime(fromParent: time) }) { layer, time in
            // An emitter's particles move on every frame.
            if layer.emitsParticles { next = min(next, t) }
            // Read first, and the list written only where an animation ends and goes (a removeAll
            // wrote every animated layer's list back every frame, exclusivity checks and all).
            let attached = layer.attachedAnimations
            guard !attached.isEmpty else { return }
            var ended: Set<ObjectIdentifier> = []
            for entry in attached {
                let animation = entry.animation
                // The settings it was attached with (they cannot change since), read once.
                let timing = animation.attachedTiming ?? TimingParameters(animation)
                let elapsed = (time - timing.beginTime) * CFTimeInterval(timing.speed)
                if !elapsed.isFinite { continue } // non-finite timing: inert, never starts or ends
                if elapsed < 0 {
                    next = min(next, layer.mediaTime(atLayerTime: timing.beginTime))
                    continue
                }
                if !animation.didReportStart {
                    animation.didReportStart = true
                    started.append(animation)
                }
                if elapsed < timing.activeDuration {
                    next = min(next, t)
                    continue
                }
                if animation.isRemovedOnCompletion || !animation.didReportStop {
                    if !animation.didReportStop { stopped.append(animation) }
                    animation.didReportStop = true
                }
                if animation.isRemovedOnCompletion { ended.insert(ObjectIdentifier(animation)) }
            }
            if !ended.isEmpty { layer.attachedAnimations.removeAll { ended.contains(ObjectIdentifier($0.animation)) } }
        }
        for animation in started { animation.delegate?.animationDidStart(animation) }
        for animation in stopped { animation.reportStop(finished: true) }
        return next
    }
}

/// Presentation copies kept between frames by a renderer (see
/// `CALayer.presentationTree(atMediaTime:reusing:)`), so an animated frame need not allocate a
/// layer per model layer.
public final class PresentationCache {
    /// The last frame's copies in the order they were made: the walk's order, the same from
    /// frame to frame while the tree is, so a layer's copy is found where the walk stands. (A
    /// table by layer, filled and searched for every layer, was a twentieth of a Lottie glyph's
    /// frame.)
    private(set) var ordered: [CALayer] = []
    /// The same copies by model layer, made only in a frame whose walk strays from the last's.
    private var byModel: [ObjectIdentifier: CALayer]?

    public init() {}

    /// The copy the last frame made of `layer`, if it made one: the one made at `position` in
    /// the walk when it is `layer`'s, else looked up.
    func previousCopy(of layer: CALayer, at position: Int) -> CALayer? {
        if position < ordered.count, ordered[position].modelLayer === layer { return ordered[position] }
        if byModel == nil {
            var table: [ObjectIdentifier: CALayer] = [:]
            table.reserveCapacity(ordered.count)
            for copy in ordered {
                if let model = copy.modelLayer { table[ObjectIdentifier(model)] = copy }
            }
            byModel = table
        }
        return byModel?[ObjectIdentifier(layer)]
    }

    /// Keeps this frame's copies for the next.
    func keep(_ copies: [CALayer]) {
        ordered = copies
        byModel = nil
    }
}
