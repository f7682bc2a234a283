import Foundation
import OpenCoreGraphics

// Key paths name animatable properties ("position.x", "transform.rotation.z"), as Core Animation's
// key-value coding extension does. Unknown keys are stored per layer, which is how custom
// animatable properties (seed 000's pie layer) live without an Objective-C runtime.

extension CALayer {
    /// The value at a key path such as "bounds.size.width" or "transform.scale.x".
    func keyValue(atPath keyPath: String) -> Any? {
        if let accessor = LayerKeyPaths.accessor(keyPath, of: self) { return accessor.get(self) }
        if let (base, component) = LayerKeyPaths.transformComponent(keyPath) {
            let t = base == "transform" ? transform : sublayerTransform
            return TransformComponents(t).value(component)
        }
        return storedValue(forKey: keyPath)
    }

    /// A key's stored value, or the class's default for it while none is set: what key-value
    /// coding answers for a key that is not CALayer's own (and what `@Animatable` reads).
    func storedValue(forKey key: String) -> Any? {
        state.customValues[key] ?? type(of: self).defaultValue(forKey: key)
    }

    /// Sets the value at a key path. A value of the wrong type for a property is ignored and
    /// `false` is returned (the method is discardable for Apple-style calls).
    @discardableResult
    func setKeyValue(_ value: Any?, atPath keyPath: String) -> Bool {
        if let accessor = LayerKeyPaths.accessor(keyPath, of: self) { return accessor.set(self, value) }
        if let (base, component) = LayerKeyPaths.transformComponent(keyPath) {
            var components = TransformComponents(base == "transform" ? transform : sublayerTransform)
            guard let value, components.set(component, to: value) else { return false }
            if base == "transform" { transform = components.transform } else { sublayerTransform = components.transform }
            return true
        }
        setCustomValue(value, forKey: keyPath)
        return true
    }

    /// Sets a key that is not one of the layer's properties. Custom keys behave like Core
    /// Animation's @dynamic properties: the change looks up and runs an action, and marks the
    /// layer for redrawing when the class says so.
    func setCustomValue(_ value: Any?, forKey key: String) {
        propertyWillChange(key)
        customValues[key] = value
        propertyDidChange(key)
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
    }
}

/// The typed accessors behind the key paths.
enum LayerKeyPaths {
    /// A class, not a struct: an animation holds its property's accessor and reads it each
    /// frame, and a copy of four closures retained and released each of their contexts (1.5% of
    /// a Lottie glyph's frame). Made and filled in once, before any table or animation holds it.
    final class Accessor {
        let get: (CALayer) -> Any?
        let set: (CALayer, Any?) -> Bool
        /// Typed fast paths for animation, which runs every frame: no boxing into Any and no
        /// dynamic casts (those cost microseconds per call).
        var read: ((CALayer) -> AnimatableValue?)?
        var write: ((CALayer, AnimatableValue) -> Void)?

        init(get: @escaping (CALayer) -> Any?, set: @escaping (CALayer, Any?) -> Bool) {
            self.get = get
            self.set = set
        }
    }

    /// The accessor an animation of `keyPath` keeps: the property's own, or for a component of a
    /// transform ("transform.rotation.z") one made for it, whose typed paths decompose the
    /// transform once a read or write instead of parsing the key path and boxing each value.
    static func animationAccessor(_ keyPath: String) -> Accessor? {
        if let accessor = accessors[keyPath] { return accessor }
        if let shaped = shapeAccessors[keyPath] { return forShapeLayers(shaped, keyPath) }
        guard let (base, component) = transformComponent(keyPath) else { return nil }
        let sublayer = base != "transform"
        func components(_ layer: CALayer) -> TransformComponents { TransformComponents(sublayer ? layer.sublayerTransform : layer.transform) }
        let accessor = Accessor(get: { components($0).value(component) }, set: { layer, value in layer.setKeyValue(value, atPath: keyPath) })
        accessor.read = { AnimatableValue(components($0).value(component)) }
        accessor.write = { layer, value in
            var parts = components(layer)
            guard parts.set(component, to: value.anyValue(like: parts.value(component))) else { return }
            if sublayer { layer.sublayerTransform = parts.transform } else { layer.transform = parts.transform }
        }
        return accessor
    }

    /// The animatable value at `keyPath`, by the typed path where there is one.
    static func animatableValue(of layer: CALayer, at keyPath: String, accessor: Accessor?) -> AnimatableValue? {
        if let read = accessor?.read { return read(layer) }
        return layer.value(forKeyPath: keyPath).flatMap(AnimatableValue.init)
    }

    /// Sets an animated value at `keyPath`, by the typed path where there is one.
    static func setAnimatableValue(_ value: AnimatableValue, of layer: CALayer, at keyPath: String, accessor: Accessor?) {
        if let write = accessor?.write {
            write(layer, value)
        } else {
            setAnimatableValueByKey(value, of: layer, at: keyPath)
        }
    }

    /// Sets an animated value through key-value coding. Only numbers take the spelling the
    /// property stores (CGFloat, Float, Int, lists of them); other kinds are stored as they are,
    /// so their property is not read back first.
    static func setAnimatableValueByKey(_ value: AnimatableValue, of layer: CALayer, at keyPath: String) {
        let template: Any? = switch value {
        case .number, .numbers: layer.value(forKeyPath: keyPath)
        default: nil
        }
        layer.setValue(value.anyValue(like: template), forKeyPath: keyPath)
    }

    static func number(_ v: Any?) -> CGFloat? { numberValue(v).map { CGFloat($0) } }

    /// A property holding an object or collection that may be nil: nil clears it, a value of type
    /// T sets it, anything else is refused.
    static func object<T>(_ get: @escaping (CALayer) -> T?, _ set: @escaping (CALayer, T?) -> Void) -> Accessor {
        Accessor(get: { get($0) }, set: { layer, value in
            guard value == nil || value is T else { return false }
            set(layer, value as? T)
            return true
        })
    }

    static func make<T>(_ get: @escaping (CALayer) -> T, _ set: @escaping (CALayer, T) -> Void,
                                convert: @escaping (Any?) -> T?) -> Accessor {
        Accessor(get: { get($0) }, set: { layer, value in
            guard let typed = convert(value) else { return false }
            set(layer, typed)
            return true
        })
    }

    /// An accessor with typed animation paths: `wrap` and `unwrap` move between T and the value.
    static func typed<T>(_ get: @escaping (CALayer) -> T, _ set: @escaping (CALayer, T) -> Void,
                                 convert: @escaping (Any?) -> T?, wrap: @escaping (T) -> AnimatableValue?,
                                 unwrap: @escaping (AnimatableValue) -> T?) -> Accessor {
        let accessor = make(get, set, convert: convert)
        accessor.read = { wrap(get($0)) }
        accessor.write = { layer, value in if let typed = unwrap(value) { set(layer, typed) } }
        return accessor
    }

    static func scalar(_ get: @escaping (CALayer) -> CGFloat, _ set: @escaping (CALayer, CGFloat) -> Void) -> Accessor {
        typed(get, set, convert: number, wrap: { .number(Double($0)) },
              unwrap: { if case .number(let v) = $0 { CGFloat(v) } else { nil } })
    }

    static func point(_ get: @escaping (CALayer) -> CGPoint, _ set: @escaping (CALayer, CGPoint) -> Void) -> Accessor {
        typed(get, set, convert: BoxedGeometry.point, wrap: { .point($0) },
              unwrap: { if case .point(let v) = $0 { v } else { nil } })
    }

    static func rect(_ get: @escaping (CALayer) -> CGRect, _ set: @escaping (CALayer, CGRect) -> Void) -> Accessor {
        typed(get, set, convert: BoxedGeometry.rect, wrap: { .rect($0) },
              unwrap: { if case .rect(let v) = $0 { v } else { nil } })
    }

    static func transform(_ get: @escaping (CALayer) -> CATransform3D,
                                  _ set: @escaping (CALayer, CATransform3D) -> Void) -> Accessor {
        typed(get, set, convert: CATransform3D.unboxed, wrap: { .transform($0) },
              unwrap: { if case .transform(let v) = $0 { v } else { nil } })
    }

    nonisolated(unsafe) static let accessors: [String: Accessor] = [
        "position": point({ $0.position }, { $0.position = $1 }),
        "position.x": scalar({ $0.position.x }, { $0.position.x = $1 }),
        "position.y": scalar({ $0.position.y }, { $0.position.y = $1 }),
        "zPosition": scalar({ $0.zPosition }, { $0.zPosition = $1 }),
        "anchorPoint": point({ $0.anchorPoint }, { $0.anchorPoint = $1 }),
        "anchorPoint.x": scalar({ $0.anchorPoint.x }, { $0.anchorPoint.x = $1 }),
        "anchorPoint.y": scalar({ $0.anchorPoint.y }, { $0.anchorPoint.y = $1 }),
        "anchorPointZ": scalar({ $0.anchorPointZ }, { $0.anchorPointZ = $1 }),
        "bounds": rect({ $0.bounds }, { $0.bounds = $1 }),
        "bounds.origin": point({ $0.bounds.origin }, { $0.bounds.origin = $1 }),
        "bounds.origin.x": scalar({ $0.bounds.origin.x }, { $0.bounds.origin.x = $1 }),
        "bounds.origin.y": scalar({ $0.bounds.origin.y }, { $0.bounds.origin.y = $1 }),
        "bounds.size": typed({ $0.bounds.size }, { $0.bounds.size = $1 }, convert: BoxedGeometry.size, wrap: { .size($0) },
                             unwrap: { if case .size(let v) = $0 { v } else { nil } }),
        "bounds.size.width": scalar({ $0.bounds.size.width }, { $0.bounds.size.width = $1 }),
        "bounds.size.height": scalar({ $0.bounds.size.height }, { $0.bounds.size.height = $1 }),
        "opacity": scalar({ CGFloat($0.opacity) }, { $0.opacity = Float($1) }),
        "backgroundColor": typed({ $0.backgroundColor }, { $0.backgroundColor = $1 }, convert: { $0 as? CGColor },
                                 wrap: { $0.map { .color($0) } }, unwrap: { if case .color(let v) = $0 { v } else { nil } }),
        "contentsRect": rect({ $0.contentsRect }, { $0.contentsRect = $1 }),
        "cornerRadius": scalar({ $0.cornerRadius }, { $0.cornerRadius = $1 }),
        "shadowOpacity": scalar({ CGFloat($0.shadowOpacity) }, { $0.shadowOpacity = Float($1) }),
        "shadowRadius": scalar({ $0.shadowRadius }, { $0.shadowRadius = $1 }),
        "shadowOffset": typed({ $0.shadowOffset }, { $0.shadowOffset = $1 }, convert: BoxedGeometry.size, wrap: { .size($0) },
                              unwrap: { if case .size(let v) = $0 { v } else { nil } }),
        "shadowColor": typed({ $0.shadowColor }, { $0.shadowColor = $1 }, convert: { $0 as? CGColor },
                             wrap: { $0.map { .color($0) } }, unwrap: { if case .color(let v) = $0 { v } else { nil } }),
        "shadowPath": object({ $0.shadowPath }, { $0.shadowPath = $1 }),
        "borderWidth": scalar({ $0.borderWidth }, { $0.borderWidth = $1 }),
        "borderColor": typed({ $0.borderColor }, { $0.borderColor = $1 }, convert: { $0 as? CGColor },
                             wrap: { $0.map { .color($0) } }, unwrap: { if case .color(let v) = $0 { v } else { nil } }),
        "contentsScale": scalar({ $0.contentsScale }, { $0.contentsScale = $1 }),
        "contentsCenter": rect({ $0.contentsCenter }, { $0.contentsCenter = $1 }),
        "contents": Accessor(get: { $0.contents }, set: { $0.contents = $1; return true }),
        "hidden": flag({ $0.isHidden }, { $0.isHidden = $1 }),
        "mask": object({ $0.mask }, { $0.mask = $1 }),
        "masksToBounds": flag({ $0.masksToBounds }, { $0.masksToBounds = $1 }),
        "shouldRasterize": flag({ $0.shouldRasterize }, { $0.shouldRasterize = $1 }),
        "rasterizationScale": scalar({ $0.rasterizationScale }, { $0.rasterizationScale = $1 }),
        "doubleSided": flag({ $0.isDoubleSided }, { $0.isDoubleSided = $1 }),
        "transform": transform({ $0.transform }, { $0.transform = $1 }),
        "sublayerTransform": transform({ $0.sublayerTransform }, { $0.sublayerTransform = $1 }),
        // The rest of CALayer's declared properties, by Apple's keys (Bool ones without "is").
        "frame": make({ $0.frame }, { $0.frame = $1 }, convert: BoxedGeometry.rect),
        "name": object({ $0.name }, { $0.name = $1 }),
        "contentsGravity": named({ $0.contentsGravity }, { $0.contentsGravity = $1 }),
        "cornerCurve": named({ $0.cornerCurve }, { $0.cornerCurve = $1 }),
        "contentsFormat": named({ $0.contentsFormat }, { $0.contentsFormat = $1 }),
        "minificationFilter": named({ $0.minificationFilter }, { $0.minificationFilter = $1 }),
        "magnificationFilter": named({ $0.magnificationFilter }, { $0.magnificationFilter = $1 }),
        "minificationFilterBias": scalar({ CGFloat($0.minificationFilterBias) }, { $0.minificationFilterBias = Float($1) }),
        "geometryFlipped": flag({ $0.isGeometryFlipped }, { $0.isGeometryFlipped = $1 }),
        "allowsEdgeAntialiasing": flag({ $0.allowsEdgeAntialiasing }, { $0.allowsEdgeAntialiasing = $1 }),
        "edgeAntialiasingMask": make({ $0.edgeAntialiasingMask }, { $0.edgeAntialiasingMask = $1 }, convert: { value in
            (value as? CAEdgeAntialiasingMask) ?? number(value).map { CAEdgeAntialiasingMask(rawValue: UInt32(max(0, min($0, 15)))) }
        }),
        "fillMode": named({ $0.fillMode }, { $0.fillMode = $1 }),
        "maskedCorners": make({ $0.maskedCorners }, { $0.maskedCorners = $1 }, convert: { value in
            (value as? CACornerMask) ?? number(value).map { CACornerMask(rawValue: UInt(max(0, min($0, 15)))) }
        }),
        "beginTime": scalar({ CGFloat($0.beginTime) }, { $0.beginTime = Double($1) }),
        "duration": scalar({ CGFloat($0.duration) }, { $0.duration = Double($1) }),
        "speed": scalar({ CGFloat($0.speed) }, { $0.speed = Float($1) }),
        "timeOffset": scalar({ CGFloat($0.timeOffset) }, { $0.timeOffset = Double($1) }),
        "repeatCount": scalar({ CGFloat($0.repeatCount) }, { $0.repeatCount = Float($1) }),
        "repeatDuration": scalar({ CGFloat($0.repeatDuration) }, { $0.repeatDuration = Double($1) }),
        "autoreverses": flag({ $0.autoreverses }, { $0.autoreverses = $1 }),
        "allowsGroupOpacity": flag({ $0.allowsGroupOpacity }, { $0.allowsGroupOpacity = $1 }),
        "needsDisplayOnBoundsChange": flag({ $0.needsDisplayOnBoundsChange }, { $0.needsDisplayOnBoundsChange = $1 }),
        "opaque": flag({ $0.isOpaque }, { $0.isOpaque = $1 }),
        "drawsAsynchronously": flag({ $0.drawsAsynchronously }, { $0.drawsAsynchronously = $1 }),
        "compositingFilter": Accessor(get: { $0.compositingFilter }, set: { $0.compositingFilter = $1; return true }),
        "filters": object({ $0.filters }, { $0.filters = $1 }),
        "backgroundFilters": object({ $0.backgroundFilters }, { $0.backgroundFilters = $1 }),
        "wantsExtendedDynamicRangeContent": flag({ $0.wantsExtendedDynamicRangeContent }, { $0.wantsExtendedDynamicRangeContent = $1 }),
        "toneMapMode": named({ $0.toneMapMode }, { $0.toneMapMode = $1 }),
        "contentsHeadroom": scalar({ $0.contentsHeadroom }, { $0.contentsHeadroom = $1 }),
        "preferredDynamicRange": named({ $0.preferredDynamicRange }, { $0.preferredDynamicRange = $1 }),
        "sublayers": object({ $0.sublayers }, { $0.sublayers = $1 }),
        "superlayer": Accessor(get: { $0.superlayer }, set: { _, _ in false }),
        "delegate": object({ $0.delegate }, { $0.delegate = $1 }),
        "actions": object({ $0.actions }, { $0.actions = $1 }),
        "style": object({ $0.style }, { $0.style = $1 }),
    ]

    /// A Bool property, also set from a number (0 is false), as Objective-C's BOOL keys are.
    static func flag(_ get: @escaping (CALayer) -> Bool, _ set: @escaping (CALayer, Bool) -> Void) -> Accessor {
        make(get, set, convert: { value in (value as? Bool) ?? number(value).map { $0 != 0 } })
    }

    /// A property named by a string constant (gravity, corner curve, ...), also set from its name.
    static func named<R: RawRepresentable<String>>(_ get: @escaping (CALayer) -> R,
                                                          _ set: @escaping (CALayer, R) -> Void) -> Accessor {
        make(get, set, convert: { value in (value as? R) ?? (value as? String).flatMap { R(rawValue: $0) } })
    }

    /// A layer with every property at its default, for `defaultValue(forKey:)`. Never changed.
    nonisolated(unsafe) static let defaults = CALayer()

    /// ("transform" or "sublayerTransform", component) for paths like "transform.rotation.z".
    static func transformComponent(_ keyPath: String) -> (String, String)? { transformComponents[keyPath] }

    /// Every such path, looked up whole: every key-value read and write of a key that is not
    /// CALayer's own (a shape layer's path, its stroke's ends) asks first whether it names one.
    private static let transformComponents: [String: (String, String)] = Dictionary(uniqueKeysWithValues:
        ["transform", "sublayerTransform"].flatMap { base in TransformComponents.names.map { ("\(base).\($0)", (base, $0)) } })
}

/// A transform as translation, scale and rotation angles (rotation = Rx · Ry · Rz in row-vector
/// order, applied after the scale), the pieces the "transform.*" key paths read and write. The
/// perspective column is kept as it is. Mirroring (negative scale) is not represented: writing a
/// component of a mirrored transform unmirrors it.
struct TransformComponents {
    static let names: Set<String> = ["rotation", "rotation.x", "rotation.y", "rotation.z", "scale", "scale.x", "scale.y",
                                     "scale.z", "translation", "translation.x", "translation.y", "translation.z"]
    // Vectors of Double (CGFloat's storage on every platform), not arrays: animating
    // "transform.rotation.z" decomposes a transform every frame, and arrays made that eight
    // allocations a layer.
    var translation: SIMD3<Double>
    var scale: SIMD3<Double>
    var rotation: SIMD3<Double>
    var perspective: SIMD4<Double>

    init(_ t: CATransform3D) {
        translation = [Double(t.m41), Double(t.m42), Double(t.m43)]
        perspective = [Double(t.m14), Double(t.m24), Double(t.m34), Double(t.m44)]
        let rows: [SIMD3<Double>] = [[Double(t.m11), Double(t.m12), Double(t.m13)], [Double(t.m21), Double(t.m22), Double(t.m23)],
                                     [Double(t.m31), Double(t.m32), Double(t.m33)]]
        // Each row's length, then the row divided by it (a zero row is kept as it is).
        func length(_ r: SIMD3<Double>) -> Double { (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]).squareRoot() }
        func unit(_ r: SIMD3<Double>, _ s: Double) -> SIMD3<Double> { s == 0 ? r : [r[0] / s, r[1] / s, r[2] / s] }
        scale = [length(rows[0]), length(rows[1]), length(rows[2])]
        let r0 = unit(rows[0], scale[0]), r1 = unit(rows[1], scale[1]), r2 = unit(rows[2], scale[2])
        rotation = [atan2(r1[2], r2[2]), atan2(-r0[2], (r1[2] * r1[2] + r2[2] * r2[2]).squareRoot()), atan2(r0[1], r0[0])]
    }

    var transform: CATransform3D {
        var m = CATransform3DMakeScale(CGFloat(scale[0]), CGFloat(scale[1]), CGFloat(scale[2]))
        m = CATransform3DConcat(m, CATransform3DMakeRotation(CGFloat(rotation[0]), 1, 0, 0))
        m = CATransform3DConcat(m, CATransform3DMakeRotation(CGFloat(rotation[1]), 0, 1, 0))
        m = CATransform3DConcat(m, CATransform3DMakeRotation(CGFloat(rotation[2]), 0, 0, 1))
        m.m41 = CGFloat(translation[0]); m.m42 = CGFloat(translation[1]); m.m43 = CGFloat(translation[2])
        m.m14 = CGFloat(perspective[0]); m.m24 = CGFloat(perspective[1]); m.m34 = CGFloat(perspective[2]); m.m44 = CGFloat(perspective[3])
        return m
    }

    /// The component's value as the key path reads it: a CGFloat, or a CGSize for "translation".
    func value(_ component: String) -> Any {
        switch component {
        case "rotation", "rotation.z": CGFloat(rotation[2])
        case "rotation.x": CGFloat(rotation[0])
        case "rotation.y": CGFloat(rotation[1])
        case "scale": CGFloat((scale[0] + scale[1] + scale[2]) / 3)
        case "scale.x": CGFloat(scale[0])
        case "scale.y": CGFloat(scale[1])
        case "scale.z": CGFloat(scale[2])
        case "translation": CGSize(width: CGFloat(translation[0]), height: CGFloat(translation[1]))
        case "translation.x": CGFloat(translation[0])
        case "translation.y": CGFloat(translation[1])
        default: CGFloat(translation[2])
        }
    }

    mutating func set(_ component: String, to value: Any) -> Bool {
        if component == "translation" {
            // A size, as Apple documents it, or a point, which Core Animation takes as well.
            guard let size = BoxedGeometry.size(value) ?? BoxedGeometry.point(value).map({ CGSize(width: $0.x, height: $0.y) })
            else { return false }
            translation[0] = Double(size.width)
            translation[1] = Double(size.height)
            return true
        }
        guard let v = numberValue(value) else { return false }
        switch component {
        case "rotation", "rotation.z": rotation[2] = v
        case "rotation.x": rotation[0] = v
        case "rotation.y": rotation[1] = v
        case "scale": scale = SIMD3(repeating: v)
        case "scale.x": scale[0] = v
        case "scale.y": scale[1] = v
        case "scale.z": scale[2] = v
        case "translation.x": translation[0] = v
        case "translation.y": translation[1] = v
        default: translation[2] = v
        }
        return true
    }
}
