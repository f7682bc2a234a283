import Foundation
import OpenCoreGraphics

// A shape layer's keys ("path", "lineWidth", "strokeEnd", ...) by key-value coding and for
// animations: typed accessors of its state (ShapeLayerState), as CALayer's own keys have. On any
// other layer the same names are custom keys, stored by name as every unknown key is.

extension LayerKeyPaths {
    /// The accessor of `keyPath` on `layer`: CALayer's own, or a shape layer's.
    static func accessor(_ keyPath: String, of layer: CALayer) -> Accessor? {
        if let accessor = accessors[keyPath] { return accessor }
        return layer is CAShapeLayer ? shapeAccessors[keyPath] : nil
    }

    /// A shape accessor for an animation, which may be applied to a layer of any class: on a
    /// shape layer the typed one, on any other the key's custom value.
    static func forShapeLayers(_ shaped: Accessor, _ keyPath: String) -> Accessor {
        let accessor = Accessor(get: { $0 is CAShapeLayer ? shaped.get($0) : $0.storedValue(forKey: keyPath) },
                                set: { layer, value in
                                    guard layer is CAShapeLayer else {
                                        layer.setCustomValue(value, forKey: keyPath)
                                        return true
                                    }
                                    return shaped.set(layer, value)
                                })
        accessor.read = { layer in
            layer is CAShapeLayer ? shaped.read?(layer) : layer.value(forKeyPath: keyPath).flatMap(AnimatableValue.init)
        }
        accessor.write = { layer, value in
            guard layer is CAShapeLayer, let write = shaped.write else {
                return setAnimatableValueByKey(value, of: layer, at: keyPath)
            }
            write(layer, value)
        }
        return accessor
    }

    /// A colour that may be nil (a fill or stroke of none), animated as a colour.
    private static func color(_ get: @escaping (CAShapeLayer) -> CGColor?, _ set: @escaping (CAShapeLayer, CGColor?) -> Void) -> Accessor {
        let accessor = object({ get($0 as! CAShapeLayer) }, { set($0 as! CAShapeLayer, $1) })
        accessor.read = { get($0 as! CAShapeLayer).map { .color($0) } }
        accessor.write = { layer, value in if case .color(let c) = value { set(layer as! CAShapeLayer, c) } }
        return accessor
    }

    private static func shapeScalar(_ get: @escaping (CAShapeLayer) -> CGFloat, _ set: @escaping (CAShapeLayer, CGFloat) -> Void) -> Accessor {
        scalar({ get($0 as! CAShapeLayer) }, { set($0 as! CAShapeLayer, $1) })
    }

    /// A string constant (cap, join, fill rule): read as its name, as Apple's keys hold NSString;
    /// set from the constant or its name.
    private static func shapeNamed<R: RawRepresentable<String>>(_ get: @escaping (CAShapeLayer) -> R,
                                                                 _ set: @escaping (CAShapeLayer, R) -> Void) -> Accessor {
        let typed = named({ get($0 as! CAShapeLayer) }, { set($0 as! CAShapeLayer, $1) })
        return Accessor(get: { get($0 as! CAShapeLayer).rawValue }, set: typed.set)
    }

    /// Typed accessors of CAShapeLayer's keys (`accessor(_:of:)` hands them out for shape layers).
    nonisolated(unsafe) static let shapeAccessors: [String: Accessor] = {
        let path = object({ ($0 as! CAShapeLayer).path }, { ($0 as! CAShapeLayer).path = $1 })
        path.read = { ($0 as! CAShapeLayer).path.map { .path($0) } }
        path.write = { layer, value in if case .path(let p) = value { (layer as! CAShapeLayer).path = p } }
        let dashes = Accessor(get: { ($0 as! CAShapeLayer).lineDashPattern }, set: { layer, value in
            guard let value else {
                (layer as! CAShapeLayer).lineDashPattern = nil
                return true
            }
            guard let numbers = numberList(value) else { return false }
            (layer as! CAShapeLayer).lineDashPattern = numbers.map { NSNumber(value: $0) }
            return true
        })
        dashes.read = { ($0 as! CAShapeLayer).lineDashPattern.map { .numbers($0.map(\.doubleValue)) } }
        dashes.write = { layer, value in
            if case .numbers(let n) = value { (layer as! CAShapeLayer).lineDashPattern = n.map { NSNumber(value: $0) } }
        }
        return [
            "path": path,
            "fillColor": color({ $0.fillColor }, { $0.fillColor = $1 }),
            "fillRule": shapeNamed({ $0.fillRule }, { $0.fillRule = $1 }),
            "strokeColor": color({ $0.strokeColor }, { $0.strokeColor = $1 }),
            "lineWidth": shapeScalar({ $0.lineWidth }, { $0.lineWidth = $1 }),
            "miterLimit": shapeScalar({ $0.miterLimit }, { $0.miterLimit = $1 }),
            "lineCap": shapeNamed({ $0.lineCap }, { $0.lineCap = $1 }),
            "lineJoin": shapeNamed({ $0.lineJoin }, { $0.lineJoin = $1 }),
            "lineDashPattern": dashes,
            "lineDashPhase": shapeScalar({ $0.lineDashPhase }, { $0.lineDashPhase = $1 }),
            "strokeStart": shapeScalar({ $0.strokeStart }, { $0.strokeStart = $1 }),
            "strokeEnd": shapeScalar({ $0.strokeEnd }, { $0.strokeEnd = $1 }),
        ]
    }()
}
