import Foundation
import OpenQuartzCore

/// A layer tree (and the animations attached to it, by key) written as a scene document, with
/// every property that differs from its class's default. Numbers keep full precision and colors
/// are written as component arrays, so decoding the document gives back a tree that renders
/// identically. Images are named by `imagePath`, which may write them out.
public struct SceneEncoder {
    /// Names the file an image is found in, relative to where the document will be.
    public var imagePath: (CGImage) throws -> String

    public init(imagePath: @escaping (CGImage) throws -> String) {
        self.imagePath = imagePath
    }

    /// The document for `root`, shown in an area of `size` points at `scale`.
    public func document(root: CALayer, size: CGSize, scale: CGFloat = 1, duration: Double = 0) throws -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("format", .string(SceneDocument.format)), ("version", .number(Double(SceneDocument.version))),
            ("size", .array([.number(Double(size.width)), .number(Double(size.height))])),
        ]
        if scale != 1 { members.append(("scale", .number(Double(scale)))) }
        if duration > 0 { members.append(("duration", .number(duration))) }
        members.append(("root", try layer(root, at: "root")))
        return .object(members)
    }

    /// The document's text.
    public func text(root: CALayer, size: CGSize, scale: CGFloat = 1, duration: Double = 0) throws -> String {
        try document(root: root, size: size, scale: scale, duration: duration).serialized() + "\n"
    }

    func layer(_ layer: CALayer, at path: String) throws -> JSONValue {
        let className = LayerClasses.name(of: layer)
        try SceneEncoder.checkStatable(layer, at: path)
        let defaults = LayerClasses.make(className)!
        var members: [(key: String, value: JSONValue)] = []
        if className != "CALayer" { members.append(("class", .string(className))) }
        // The content classes' drawing follows from their properties and is redrawn; any other
        // drawing (a delegate's, a subclass's) is kept as the image it made.
        let redrawn = [ObjectIdentifier(CAShapeLayer.self), ObjectIdentifier(CATextLayer.self), ObjectIdentifier(CAGradientLayer.self)]
            .contains(ObjectIdentifier(type(of: layer)))
        // Custom drawing is kept as its image, drawn now if it has not been yet.
        if !redrawn { layer.displayIfNeeded() }
        for property in LayerClasses.properties(of: className) {
            if property.name == "contents", layer.contentsAreDrawn, redrawn { continue }
            let value = try encode(property.get(layer), as: property.kind)
            guard let value, value != (try encode(property.get(defaults), as: property.kind)) else { continue }
            members.append((property.name, value))
        }
        if let mask = layer.mask { members.append(("mask", try self.layer(mask, at: "\(path).mask"))) }
        if let sublayers = layer.sublayers, !sublayers.isEmpty {
            members.append(("sublayers", .array(try sublayers.enumerated().map { try self.layer($1, at: "\(path).sublayers[\($0)]") })))
        }
        // Animations of key paths the document cannot name (a subclass's own properties) are left
        // out: their effect is in the drawn image.
        let animations = try (layer.animationKeys() ?? []).compactMap { key -> JSONValue? in
            guard let animation = layer.animation(forKey: key), SceneEncoder.isExpressible(animation, className: className) else { return nil }
            return try self.animation(animation, key: key, className: className)
        }
        if !animations.isEmpty { members.append(("animations", .array(animations))) }
        return .object(members)
    }

    /// Throws where the layer's content is drawn by code a document cannot state and that cannot
    /// be kept as an image: a tiled layer (a subclass's `draw(in:)` or a delegate's drawing),
    /// whose whole content at full resolution may be gigabytes. Other drawn layers are kept as
    /// the image they draw.
    static func checkStatable(_ layer: CALayer, at path: String) throws {
        guard layer is CATiledLayer else { return }
        let byDocument = type(of: layer) == DocumentTiledLayer.self || type(of: layer) == CATiledLayer.self
        guard !byDocument || layer.delegate != nil else { return }
        let who = byDocument ? "its delegate" : "\(type(of: layer))'s draw(in:)"
        throw SceneError.unrepresentable(SceneIssue(path: path, message:
            "a CATiledLayer drawn by \(who) cannot be written: a document states a tiled layer's content as its "
            + "\"drawing\" (fills, strokes, images, text, repeats), and code cannot be kept as one image of it "
            + "(\(SceneValueKind.format(Double(layer.bounds.width))) x \(SceneValueKind.format(Double(layer.bounds.height))) points)"))
    }

    func animation(_ animation: CAAnimation, key: String?, className: String) throws -> JSONValue {
        let defaults = type(of: animation).init()
        var members: [(key: String, value: JSONValue)] = []
        let kind: String = switch animation {
        case is CASpringAnimation: "CASpringAnimation"
        case is CABasicAnimation: "CABasicAnimation"
        case is CAKeyframeAnimation: "CAKeyframeAnimation"
        case is CAAnimationGroup: "CAAnimationGroup"
        default: "CATransition"
        }
        members.append(("class", .string(kind)))
        if let key { members.append(("key", .string(key))) }
        func number(_ name: String, _ value: Double, _ base: Double) {
            if value != base { members.append((name, .number(value))) }
        }
        func flag(_ name: String, _ value: Bool, _ base: Bool) {
            if value != base { members.append((name, .bool(value))) }
        }
        number("beginTime", animation.beginTime, defaults.beginTime)
        number("duration", animation.duration, defaults.duration)
        number("speed", Double(animation.speed), Double(defaults.speed))
        number("timeOffset", animation.timeOffset, defaults.timeOffset)
        number("repeatCount", Double(animation.repeatCount), Double(defaults.repeatCount))
        number("repeatDuration", animation.repeatDuration, defaults.repeatDuration)
        flag("autoreverses", animation.autoreverses, defaults.autoreverses)
        flag("removedOnCompletion", animation.isRemovedOnCompletion, defaults.isRemovedOnCompletion)
        if animation.fillMode != defaults.fillMode { members.append(("fillMode", .string(animation.fillMode.rawValue))) }
        if let function = animation.timingFunction { members.append(("timingFunction", timing(function))) }
        if let property = animation as? CAPropertyAnimation, let keyPath = property.keyPath {
            members.append(("keyPath", .string(keyPath)))
            flag("additive", property.isAdditive, false)
            flag("cumulative", property.isCumulative, false)
            if let function = property.valueFunction { members.append(("valueFunction", .string(function.name.rawValue))) }
            let valueKind = property.valueFunction != nil ? .number : LayerClasses.animatedKind(keyPath: keyPath, className: className)
            if let valueKind, let basic = property as? CABasicAnimation {
                for (name, value) in [("fromValue", basic.fromValue), ("toValue", basic.toValue), ("byValue", basic.byValue)] {
                    if let value, let json = try encode(value, as: valueKind) { members.append((name, json)) }
                }
            }
            if let spring = property as? CASpringAnimation {
                number("mass", Double(spring.mass), 1)
                number("stiffness", Double(spring.stiffness), 100)
                number("damping", Double(spring.damping), 10)
                number("initialVelocity", Double(spring.initialVelocity), 0)
                flag("allowsOverdamping", spring.allowsOverdamping, false)
            }
            if let keyframe = property as? CAKeyframeAnimation {
                if let valueKind, let values = keyframe.values {
                    members.append(("values", .array(try values.map { try encode($0, as: valueKind) ?? .null })))
                }
                if let times = keyframe.keyTimes { members.append(("keyTimes", .array(times.map { .number($0.doubleValue) }))) }
                if let functions = keyframe.timingFunctions { members.append(("timingFunctions", .array(functions.map(timing)))) }
                if keyframe.calculationMode != .linear { members.append(("calculationMode", .string(keyframe.calculationMode.rawValue))) }
                if let path = keyframe.path { members.append(("path", .string(SceneEncoder.pathData(path)))) }
                if let mode = keyframe.rotationMode { members.append(("rotationMode", .string(mode.rawValue))) }
                for (name, values) in [("tensionValues", keyframe.tensionValues), ("continuityValues", keyframe.continuityValues),
                                       ("biasValues", keyframe.biasValues)] {
                    if let values { members.append((name, .array(values.map { .number($0.doubleValue) }))) }
                }
            }
        }
        if let group = animation as? CAAnimationGroup, let animations = group.animations {
            members.append(("animations", .array(try animations.map { try self.animation($0, key: nil, className: className) })))
        }
        if let transition = animation as? CATransition {
            members.append(("type", .string(transition.type.rawValue)))
            if let subtype = transition.subtype { members.append(("subtype", .string(subtype.rawValue))) }
            number("startProgress", Double(transition.startProgress), 0)
            number("endProgress", Double(transition.endProgress), 1)
        }
        return .object(members)
    }

    static func isExpressible(_ animation: CAAnimation, className: String) -> Bool {
        if let group = animation as? CAAnimationGroup { return (group.animations ?? []).allSatisfy { isExpressible($0, className: className) } }
        guard let property = animation as? CAPropertyAnimation else { return true }
        guard let keyPath = property.keyPath else { return false }
        return property.valueFunction != nil || LayerClasses.animatedKind(keyPath: keyPath, className: className) != nil
    }

    func timing(_ function: CAMediaTimingFunction) -> JSONValue {
        let p = function.controlPoints
        return .array([p.0, p.1, p.2, p.3].map { .number(Double($0)) })
    }

    /// A value of `kind` as JSON (nil when there is nothing to write).
    func encode(_ value: Any?, as kind: SceneValueKind) throws -> JSONValue? {
        guard let value else { return nil }
        if value is SceneNull { return .null }
        switch kind {
        case .number, .bounded:
            if let n = value as? CGFloat { return .number(Double(n)) }
            if let n = value as? Double { return .number(n) }
            if let n = value as? Float { return .number(Double(n)) }
            if let n = value as? Int { return .number(Double(n)) }
            if let n = value as? NSNumber { return .number(n.doubleValue) }
            return nil
        case .bool: return (value as? Bool).map { .bool($0) }
        case .text:
            if let text = value as? String { return .string(text) }
            guard let attributed = value as? NSAttributedString else { return nil }
            var runs: [JSONValue] = []
            let whole = attributed.string as NSString
            attributed.enumerateAttributes(in: NSRange(location: 0, length: attributed.length), options: []) { attributes, range, _ in
                var members: [(key: String, value: JSONValue)] = [("text", .string(whole.substring(with: range)))]
                if let font = attributes[.font] as? CTFont {
                    members.append(("font", .string(font.requestedName)))
                    members.append(("fontSize", .number(Double(font.pointSize))))
                }
                if let color = attributes[.foregroundColor] as? CGColor,
                   let json = try? encode(color, as: .color) { members.append(("color", json)) }
                runs.append(.object(members))
            }
            return .array(runs)
        case .string, .choice: return (value as? String).map { .string($0) }
        case .point:
            guard let p = value as? CGPoint else { return nil }
            return .array([.number(Double(p.x)), .number(Double(p.y))])
        case .size:
            guard let s = value as? CGSize else { return nil }
            return .array([.number(Double(s.width)), .number(Double(s.height))])
        case .rect:
            guard let r = value as? CGRect else { return nil }
            return .array([r.origin.x, r.origin.y, r.size.width, r.size.height].map { .number(Double($0)) })
        case .color:
            guard let c = value as? CGColor else { return nil }
            return .array([c.rgba.red, c.rgba.green, c.rgba.blue, c.rgba.alpha].map { .number(Double($0)) })
        case .colors:
            guard let colors = value as? [CGColor] else { return nil }
            return .array(try colors.map { try encode($0, as: .color) ?? .null })
        case .numbers:
            guard let numbers = value as? [CGFloat] else { return nil }
            return .array(numbers.map { .number(Double($0)) })
        case .transform:
            guard let t = value as? CATransform3D else { return nil }
            return .array([t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
                .map { .number(Double($0)) })
        case .path:
            return (value as? CGPath).map { .string(SceneEncoder.pathData($0)) }
        case .image:
            guard let image = value as? CGImage else { return nil }
            return .string(try imagePath(image))
        case .corners:
            guard let mask = value as? CACornerMask else { return nil }
            return .array(SceneValueCodec.cornerNames.filter { mask.contains($0.1) }.map { .string($0.0) })
        case .timingFunction:
            return (value as? CAMediaTimingFunction).map(timing)
        case .timingFunctions:
            return (value as? [CAMediaTimingFunction]).map { .array($0.map(timing)) }
        case .emitterCells:
            guard let cells = value as? [CAEmitterCell] else { return nil }
            return try EmitterCellProperties.encode(cells, self)
        case .drawing:
            if value is SceneNull { return .null }
            return try (value as? SceneDrawing).map { try SceneDrawingCodec.encode($0, self) }
        case .animatedValue, .animatedValues:
            return nil
        }
    }

    /// SVG path data with every coordinate at full precision.
    static func pathData(_ path: CGPath) -> String {
        func n(_ v: CGFloat) -> String { SceneValueKind.format(Double(v)) }
        func p(_ point: CGPoint) -> String { "\(n(point.x)) \(n(point.y))" }
        return path.elements.map { element in
            switch element {
            case .move(let a): "M \(p(a))"
            case .line(let a): "L \(p(a))"
            case let .quad(c, e): "Q \(p(c)) \(p(e))"
            case let .cubic(c1, c2, e): "C \(p(c1)) \(p(c2)) \(p(e))"
            case .close: "Z"
            }
        }.joined(separator: " ")
    }
}
