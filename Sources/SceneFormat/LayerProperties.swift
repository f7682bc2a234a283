import Compositor
import Foundation
import OpenQuartzCore

/// One property a scene document may set on a layer: its JSON name (Core Animation's key), the
/// kind of value, and how to write and read it. The one table the decoder, the encoder and the
/// JSON Schema are all made from, so they cannot disagree.
struct LayerProperty: @unchecked Sendable {
    let name: String
    let kind: SceneValueKind
    let set: (CALayer, Any) -> Void
    /// The value in the decoder's representation (CGFloat, String, CGColor, ...), nil for none.
    let get: (CALayer) -> Any?
}

/// The layer classes a document may name, and what each adds to CALayer's properties.
enum LayerClasses {
    static let names = ["CALayer", "CAShapeLayer", "CAGradientLayer", "CATextLayer", "CAReplicatorLayer",
                        "CATransformLayer", "CAScrollLayer", "CAEmitterLayer", "CATiledLayer"]

    static func make(_ name: String) -> CALayer? {
        switch name {
        case "CALayer": CALayer()
        case "CAShapeLayer": CAShapeLayer()
        case "CAGradientLayer": CAGradientLayer()
        case "CATextLayer": CATextLayer()
        case "CAReplicatorLayer": CAReplicatorLayer()
        case "CATransformLayer": CATransformLayer()
        case "CAScrollLayer": CAScrollLayer()
        case "CAEmitterLayer": CAEmitterLayer()
        // Its tiles are drawn by the document's "drawing".
        case "CATiledLayer": DocumentTiledLayer()
        default: nil
        }
    }

    static func name(of layer: CALayer) -> String {
        switch layer {
        case is CAShapeLayer: "CAShapeLayer"
        case is CAGradientLayer: "CAGradientLayer"
        case is CATextLayer: "CATextLayer"
        case is CAReplicatorLayer: "CAReplicatorLayer"
        case is CATransformLayer: "CATransformLayer"
        case is CAScrollLayer: "CAScrollLayer"
        case is CAEmitterLayer: "CAEmitterLayer"
        case is CATiledLayer: "CATiledLayer"
        default: "CALayer"
        }
    }

    /// Every property of the class, CALayer's first.
    static func properties(of className: String) -> [LayerProperty] {
        common + (specific[className] ?? [])
    }

    // MARK: The table

    private static func number<L: CALayer>(_ name: String, _ kp: ReferenceWritableKeyPath<L, CGFloat>,
                                           _ kind: SceneValueKind = .number) -> LayerProperty {
        LayerProperty(name: name, kind: kind, set: { ($0 as? L)?[keyPath: kp] = $1 as! CGFloat }, get: { ($0 as? L)?[keyPath: kp] })
    }

    private static func float<L: CALayer>(_ name: String, _ kp: ReferenceWritableKeyPath<L, Float>,
                                          _ kind: SceneValueKind = .number) -> LayerProperty {
        LayerProperty(name: name, kind: kind, set: { ($0 as? L)?[keyPath: kp] = Float($1 as! CGFloat) },
                      get: { ($0 as? L).map { CGFloat($0[keyPath: kp]) } })
    }

    private static func double<L: CALayer>(_ name: String, _ kp: ReferenceWritableKeyPath<L, Double>,
                                           _ kind: SceneValueKind = .number) -> LayerProperty {
        LayerProperty(name: name, kind: kind, set: { ($0 as? L)?[keyPath: kp] = Double($1 as! CGFloat) },
                      get: { ($0 as? L).map { CGFloat($0[keyPath: kp]) } })
    }

    private static func bool<L: CALayer>(_ name: String, _ kp: ReferenceWritableKeyPath<L, Bool>) -> LayerProperty {
        LayerProperty(name: name, kind: .bool, set: { ($0 as? L)?[keyPath: kp] = $1 as! Bool }, get: { ($0 as? L)?[keyPath: kp] })
    }

    private static func value<L: CALayer, V>(_ name: String, _ kind: SceneValueKind, _ kp: ReferenceWritableKeyPath<L, V>) -> LayerProperty {
        LayerProperty(name: name, kind: kind, set: { ($0 as? L)?[keyPath: kp] = $1 as! V }, get: { ($0 as? L)?[keyPath: kp] })
    }

    /// An optional value (a color or path) that null clears.
    private static func optional<L: CALayer, V>(_ name: String, _ kind: SceneValueKind, _ kp: ReferenceWritableKeyPath<L, V?>) -> LayerProperty {
        LayerProperty(name: name, kind: kind, set: { ($0 as? L)?[keyPath: kp] = $1 as? V },
                      get: { layer in (layer as? L).map { $0[keyPath: kp].map { $0 as Any } ?? SceneNull() } })
    }

    private static func choice<L: CALayer, R: RawRepresentable<String>>(_ name: String, _ options: [R],
                                                                        _ kp: ReferenceWritableKeyPath<L, R>) -> LayerProperty {
        LayerProperty(name: name, kind: .choice(options.map(\.rawValue)),
                      set: { ($0 as? L)?[keyPath: kp] = R(rawValue: $1 as! String)! }, get: { ($0 as? L)?[keyPath: kp].rawValue })
    }

    static let unit = SceneValueKind.bounded(min: 0, max: 1, integral: false)
    static let nonNegative = SceneValueKind.bounded(min: 0, max: 1e9, integral: false)

    static let common: [LayerProperty] = [
        optional("name", .string, \CALayer.name),
        value("bounds", .rect, \CALayer.bounds),
        value("position", .point, \CALayer.position),
        number("zPosition", \CALayer.zPosition),
        value("anchorPoint", .point, \CALayer.anchorPoint),
        number("anchorPointZ", \CALayer.anchorPointZ),
        value("transform", .transform, \CALayer.transform),
        value("sublayerTransform", .transform, \CALayer.sublayerTransform),
        bool("hidden", \CALayer.isHidden),
        float("opacity", \CALayer.opacity, unit),
        optional("backgroundColor", .color, \CALayer.backgroundColor),
        number("cornerRadius", \CALayer.cornerRadius, nonNegative),
        value("maskedCorners", .corners, \CALayer.maskedCorners),
        choice("cornerCurve", [CALayerCornerCurve.circular, .continuous], \CALayer.cornerCurve),
        number("borderWidth", \CALayer.borderWidth, nonNegative),
        optional("borderColor", .color, \CALayer.borderColor),
        bool("masksToBounds", \CALayer.masksToBounds),
        bool("doubleSided", \CALayer.isDoubleSided),
        bool("allowsGroupOpacity", \CALayer.allowsGroupOpacity),
        // Core Image's composite-operation names, as code for Apple's platforms sets them.
        LayerProperty(name: "compositingFilter", kind: .choice(BlendMode.acceptedCompositingFilterNames),
                      set: { $0.compositingFilter = $1 as! String }, get: { $0.compositingFilter as? String }),
        LayerProperty(name: "contents", kind: .image, set: { $0.contents = $1 as? CGImage },
                      get: { ($0.contents as? CGImage).map { $0 as Any } ?? SceneNull() }),
        value("contentsRect", .rect, \CALayer.contentsRect),
        choice("contentsGravity", CALayerContentsGravity.allCases, \CALayer.contentsGravity),
        number("contentsScale", \CALayer.contentsScale, .bounded(min: 0.01, max: 16, integral: false)),
        value("contentsCenter", .rect, \CALayer.contentsCenter),
        choice("minificationFilter", [CALayerContentsFilter.linear, .nearest, .trilinear], \CALayer.minificationFilter),
        choice("magnificationFilter", [CALayerContentsFilter.linear, .nearest, .trilinear], \CALayer.magnificationFilter),
        float("minificationFilterBias", \CALayer.minificationFilterBias, .bounded(min: -16, max: 16, integral: false)),
        bool("geometryFlipped", \CALayer.isGeometryFlipped),
        bool("allowsEdgeAntialiasing", \CALayer.allowsEdgeAntialiasing),
        LayerProperty(name: "edgeAntialiasingMask", kind: .bounded(min: 0, max: 15, integral: true),
                      set: { $0.edgeAntialiasingMask = CAEdgeAntialiasingMask(rawValue: UInt32($1 as! CGFloat)) },
                      get: { CGFloat($0.edgeAntialiasingMask.rawValue) }),
        optional("shadowColor", .color, \CALayer.shadowColor),
        float("shadowOpacity", \CALayer.shadowOpacity, unit),
        value("shadowOffset", .size, \CALayer.shadowOffset),
        number("shadowRadius", \CALayer.shadowRadius, nonNegative),
        optional("shadowPath", .path, \CALayer.shadowPath),
        bool("shouldRasterize", \CALayer.shouldRasterize),
        number("rasterizationScale", \CALayer.rasterizationScale, .bounded(min: 0.01, max: 16, integral: false)),
        bool("needsDisplayOnBoundsChange", \CALayer.needsDisplayOnBoundsChange),
        // The layer's own timing (CAMediaTiming), which its animations and sublayers inherit.
        double("beginTime", \CALayer.beginTime),
        double("timeOffset", \CALayer.timeOffset),
        float("speed", \CALayer.speed),
    ]

    static let specific: [String: [LayerProperty]] = [
        "CAShapeLayer": [
            optional("path", .path, \CAShapeLayer.path),
            optional("fillColor", .color, \CAShapeLayer.fillColor),
            choice("fillRule", [CAShapeLayerFillRule.nonZero, .evenOdd], \CAShapeLayer.fillRule),
            optional("strokeColor", .color, \CAShapeLayer.strokeColor),
            number("lineWidth", \CAShapeLayer.lineWidth, nonNegative),
            number("miterLimit", \CAShapeLayer.miterLimit, nonNegative),
            choice("lineCap", [CAShapeLayerLineCap.butt, .round, .square], \CAShapeLayer.lineCap),
            choice("lineJoin", [CAShapeLayerLineJoin.miter, .round, .bevel], \CAShapeLayer.lineJoin),
            LayerProperty(name: "lineDashPattern", kind: .numbers,
                          set: { ($0 as? CAShapeLayer)?.lineDashPattern = ($1 as? [CGFloat])?.map { NSNumber(value: Double($0)) } },
                          get: { ($0 as? CAShapeLayer).map { $0.lineDashPattern.map { $0.map { CGFloat($0.doubleValue) } as Any } ?? SceneNull() } }),
            number("lineDashPhase", \CAShapeLayer.lineDashPhase),
            number("strokeStart", \CAShapeLayer.strokeStart, unit),
            number("strokeEnd", \CAShapeLayer.strokeEnd, unit),
        ],
        "CAGradientLayer": [
            LayerProperty(name: "colors", kind: .colors, set: { ($0 as? CAGradientLayer)?.colors = $1 as? [CGColor] },
                          get: { ($0 as? CAGradientLayer).map { ($0.colors as? [CGColor]).map { $0 as Any } ?? SceneNull() } }),
            LayerProperty(name: "locations", kind: .numbers,
                          set: { ($0 as? CAGradientLayer)?.locations = ($1 as? [CGFloat])?.map { NSNumber(value: Double($0)) } },
                          get: { ($0 as? CAGradientLayer).map { $0.locations.map { $0.map { CGFloat($0.doubleValue) } as Any } ?? SceneNull() } }),
            value("startPoint", .point, \CAGradientLayer.startPoint),
            value("endPoint", .point, \CAGradientLayer.endPoint),
            choice("type", [CAGradientLayerType.axial, .radial, .conic], \CAGradientLayer.type),
        ],
        "CATextLayer": [
            LayerProperty(name: "string", kind: .text, set: { ($0 as? CATextLayer)?.string = $1 is SceneNull ? nil : $1 },
                          get: { ($0 as? CATextLayer).map { $0.string ?? SceneNull() } }),
            LayerProperty(name: "font", kind: .string, set: { ($0 as? CATextLayer)?.font = $1 as? String },
                          get: { ($0 as? CATextLayer).map { ($0.font as? String).map { $0 as Any } ?? SceneNull() } }),
            number("fontSize", \CATextLayer.fontSize, .bounded(min: 0, max: 10_000, integral: false)),
            optional("foregroundColor", .color, \CATextLayer.foregroundColor),
            bool("wrapped", \CATextLayer.isWrapped),
            choice("alignmentMode", [CATextLayerAlignmentMode.natural, .left, .right, .center, .justified], \CATextLayer.alignmentMode),
            choice("truncationMode", [CATextLayerTruncationMode.none, .start, .middle, .end], \CATextLayer.truncationMode),
        ],
        "CAReplicatorLayer": [
            LayerProperty(name: "instanceCount", kind: .bounded(min: 0, max: 10_000, integral: true),
                          set: { ($0 as? CAReplicatorLayer)?.instanceCount = Int($1 as! CGFloat) },
                          get: { ($0 as? CAReplicatorLayer).map { CGFloat($0.instanceCount) } }),
            value("instanceTransform", .transform, \CAReplicatorLayer.instanceTransform),
            double("instanceDelay", \CAReplicatorLayer.instanceDelay),
            optional("instanceColor", .color, \CAReplicatorLayer.instanceColor),
            float("instanceRedOffset", \CAReplicatorLayer.instanceRedOffset),
            float("instanceGreenOffset", \CAReplicatorLayer.instanceGreenOffset),
            float("instanceBlueOffset", \CAReplicatorLayer.instanceBlueOffset),
            float("instanceAlphaOffset", \CAReplicatorLayer.instanceAlphaOffset),
            bool("preservesDepth", \CAReplicatorLayer.preservesDepth),
        ],
        "CAScrollLayer": [
            choice("scrollMode", [CAScrollLayerScrollMode.none, .vertically, .horizontally, .both], \CAScrollLayer.scrollMode),
        ],
        "CAEmitterLayer": [
            LayerProperty(name: "emitterCells", kind: .emitterCells, set: { ($0 as? CAEmitterLayer)?.emitterCells = $1 as? [CAEmitterCell] },
                          get: { ($0 as? CAEmitterLayer)?.emitterCells }),
            float("birthRate", \CAEmitterLayer.birthRate, nonNegative),
            float("lifetime", \CAEmitterLayer.lifetime, nonNegative),
            value("emitterPosition", .point, \CAEmitterLayer.emitterPosition),
            number("emitterZPosition", \CAEmitterLayer.emitterZPosition),
            value("emitterSize", .size, \CAEmitterLayer.emitterSize),
            number("emitterDepth", \CAEmitterLayer.emitterDepth),
            choice("emitterShape", [CAEmitterLayerEmitterShape.point, .line, .rectangle, .cuboid, .circle, .sphere], \CAEmitterLayer.emitterShape),
            choice("emitterMode", [CAEmitterLayerEmitterMode.points, .outline, .surface, .volume], \CAEmitterLayer.emitterMode),
            choice("renderMode", [CAEmitterLayerRenderMode.unordered, .oldestFirst, .oldestLast, .backToFront, .additive], \CAEmitterLayer.renderMode),
            bool("preservesDepth", \CAEmitterLayer.preservesDepth),
            float("velocity", \CAEmitterLayer.velocity),
            float("scale", \CAEmitterLayer.scale),
            float("spin", \CAEmitterLayer.spin),
            LayerProperty(name: "seed", kind: .bounded(min: 0, max: Double(UInt32.max), integral: true),
                          set: { ($0 as? CAEmitterLayer)?.seed = UInt32($1 as! CGFloat) },
                          get: { ($0 as? CAEmitterLayer).map { CGFloat($0.seed) } }),
        ],
        "CATiledLayer": [
            value("tileSize", .size, \CATiledLayer.tileSize),
            LayerProperty(name: "levelsOfDetail", kind: .bounded(min: 1, max: 31, integral: true),
                          set: { ($0 as? CATiledLayer)?.levelsOfDetail = Int($1 as! CGFloat) },
                          get: { ($0 as? CATiledLayer).map { CGFloat($0.levelsOfDetail) } }),
            LayerProperty(name: "levelsOfDetailBias", kind: .bounded(min: 0, max: 16, integral: true),
                          set: { ($0 as? CATiledLayer)?.levelsOfDetailBias = Int($1 as! CGFloat) },
                          get: { ($0 as? CATiledLayer).map { CGFloat($0.levelsOfDetailBias) } }),
            // What each tile draws, where an app's tiled layer draws in code (SceneDrawingCodec).
            LayerProperty(name: "drawing", kind: .drawing, set: { ($0 as? DocumentTiledLayer)?.drawing = $1 as? SceneDrawing },
                          get: { ($0 as? DocumentTiledLayer).map { $0.drawing.map { $0 as Any } ?? SceneNull() } }),
        ],
    ]

    /// The kind of value an animation of `keyPath` on a layer of `className` carries: a
    /// property's own kind, or a number for its components ("position.x",
    /// "transform.rotation.z"), a point or size for "bounds.origin" and "bounds.size".
    static func animatedKind(keyPath: String, className: String) -> SceneValueKind? {
        if let property = properties(of: className).first(where: { $0.name == keyPath }) {
            return property.kind.isAnimatable ? property.kind : nil
        }
        // A cell's property through the emitter: "emitterCells.spark.birthRate" (and deeper).
        if className == "CAEmitterLayer", keyPath.hasPrefix("emitterCells."),
           let last = keyPath.split(separator: ".").last,
           let property = EmitterCellProperties.all.first(where: { $0.name == last }) {
            switch property.kind {
            case .number, .bounded: return .number
            case .color, .rect: return property.kind
            default: return nil
            }
        }
        switch keyPath {
        case "position.x", "position.y", "anchorPoint.x", "anchorPoint.y", "bounds.origin.x", "bounds.origin.y",
             "bounds.size.width", "bounds.size.height": return .number
        case "bounds.origin": return .point
        case "bounds.size": return .size
        default: break
        }
        for base in ["transform", "sublayerTransform"] where keyPath.hasPrefix(base + ".") {
            let component = keyPath.dropFirst(base.count + 1)
            if component == "translation" { return .size }
            if ["rotation", "rotation.x", "rotation.y", "rotation.z", "scale", "scale.x", "scale.y", "scale.z",
                "translation.x", "translation.y", "translation.z"].contains(String(component)) { return .number }
        }
        return nil
    }
}
