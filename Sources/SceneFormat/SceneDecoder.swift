import Foundation
import OpenQuartzCore

/// A change a transaction makes, decoded and bound to its layer.
enum SceneChange {
    case set(CALayer, [(LayerProperty, Any)])
    case add(CALayer, CAAnimation, key: String?)
    case remove(CALayer, key: String)
    case addSublayer(CALayer, parent: CALayer)
    case removeFromSuperlayer(CALayer)
}

/// A CATransaction as a document describes it: its settings, changes, nested transactions, and
/// the transaction its completion block runs.
final class SceneTransaction {
    var duration: Double?
    var timingFunction: CAMediaTimingFunction?
    var disableActions: Bool?
    var changes: [SceneChange] = []
    var nested: [SceneTransaction] = []
    var completion: SceneTransaction?
}

/// A decoded document: the layer tree and the transactions to run at their times.
struct DecodedScene {
    let root: CALayer
    let transactions: [(time: Double, transaction: SceneTransaction)]
}

/// Scene JSON into layers, animations and transactions, collecting every mistake with its path.
struct SceneDecoder {
    static let documentKeys = ["format", "version", "size", "scale", "time", "duration", "fps", "root", "transactions"]
    static let layerStructureKeys = ["class", "frame", "sublayers", "mask", "animations"]
    static let timingKeys = ["beginTime", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration",
                             "autoreverses", "fillMode", "timingFunction", "removedOnCompletion"]
    static let animationClasses = ["CABasicAnimation", "CAKeyframeAnimation", "CASpringAnimation", "CAAnimationGroup", "CATransition"]

    static func animationKeys(of className: String) -> [String] {
        let property = ["keyPath", "additive", "cumulative", "valueFunction"]
        switch className {
        case "CABasicAnimation": return ["class", "key"] + timingKeys + property + ["fromValue", "toValue", "byValue"]
        case "CASpringAnimation": return animationKeys(of: "CABasicAnimation") + ["mass", "stiffness", "damping", "initialVelocity", "allowsOverdamping"]
        case "CAKeyframeAnimation": return ["class", "key"] + timingKeys + property
            + ["values", "keyTimes", "timingFunctions", "calculationMode", "path", "rotationMode", "tensionValues", "continuityValues", "biasValues"]
        case "CAAnimationGroup": return ["class", "key"] + timingKeys + ["animations"]
        default: return ["class", "key"] + timingKeys + ["type", "subtype", "startProgress", "endProgress"]
        }
    }

    static let transactionKeys = ["time", "duration", "timingFunction", "disableActions", "changes", "transactions", "completion"]
    static let changeKeys = ["layer", "set", "add", "remove", "addSublayer", "removeFromSuperlayer"]

    var ctx: DecodeContext
    /// Layers by name, for transactions to refer to.
    private var named: [String: [CALayer]] = [:]

    init(assets: AssetFolder?, limits: SceneLimits) {
        ctx = DecodeContext(assets: assets, limits: limits)
    }

    /// Records an issue for each member of `object` not among `known`.
    mutating func checkKeys(_ members: [(key: String, value: JSONValue)], known: [String], at path: String, what: String,
                            elsewhere: (String) -> String? = { _ in nil }) {
        let knownSet = Set(known)
        for member in members where !knownSet.contains(member.key) {
            // Past the mistakes listed, each is only counted: no search for where it belongs.
            guard ctx.listsMore else { ctx.fail(path, ""); continue }
            let key = SceneIssue.shortened(member.key)
            if let owner = elsewhere(member.key) {
                ctx.fail(join(path, key), "\"\(key)\" is a property of \(owner), not of \(what)")
            } else {
                ctx.fail(join(path, key), "unknown property of \(what)" + SceneValueCodec.didYouMean(member.key, among: known))
            }
        }
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    // MARK: Layers

    mutating func layer(_ json: JSONValue, at path: String, depth: Int) -> CALayer? {
        guard case .object(let members) = json else { ctx.fail(path, "expected a layer object, got \(json.kindName)"); return nil }
        let limits = ctx.limits
        ctx.layerCount += 1
        if ctx.layerCount == ctx.limits.maxLayers + 1 {
            ctx.fail(path, "the document has more than \(limits.maxLayers) layers, the limit")
        }
        guard ctx.layerCount <= ctx.limits.maxLayers else { return nil }
        guard depth <= ctx.limits.maxDepth else {
            ctx.fail(path, "layers nest deeper than \(limits.maxDepth) levels, the limit")
            return nil
        }
        var className = "CALayer"
        if let value = json["class"] {
            if case .string(let name) = value, LayerClasses.names.contains(name) {
                className = name
            } else {
                ctx.fail(join(path, "class"), (value.stringValue.map { "\"\($0)\" is not a layer class" } ?? "expected a layer class name, got \(value.kindName)")
                    + "; expected one of " + LayerClasses.names.joined(separator: ", ")
                    + (value.stringValue.map { SceneValueCodec.didYouMean($0, among: LayerClasses.names) } ?? ""))
            }
        }
        let layer = LayerClasses.make(className)!
        let properties = LayerClasses.properties(of: className)
        checkKeys(members, known: properties.map(\.name) + SceneDecoder.layerStructureKeys, at: path, what: "a \(className)",
                  elsewhere: { key in LayerClasses.names.first { LayerClasses.properties(of: $0).contains { $0.name == key } } })
        if json["frame"] != nil, json["bounds"] != nil || json["position"] != nil {
            ctx.fail(join(path, "frame"), "give either frame or bounds and position, not both")
        }
        // The anchor point first, then the frame (placed by it, before any transform), then the rest.
        let ordered = properties.sorted { ($0.name.hasPrefix("anchorPoint") ? 0 : 1) < ($1.name.hasPrefix("anchorPoint") ? 0 : 1) }
        var frameApplied = false
        for property in ordered {
            if !frameApplied, !property.name.hasPrefix("anchorPoint") {
                frameApplied = true
                if let frame = json["frame"], let rect = SceneValueCodec.decode(frame, as: .rect, at: join(path, "frame"), &ctx) as? CGRect {
                    layer.frame = rect
                }
            }
            guard let value = json[property.name] else { continue }
            let at = join(path, property.name)
            if let decoded = SceneValueCodec.decode(value, as: property.kind, at: at, &ctx) {
                property.set(layer, decoded)
            }
        }
        if let name = layer.name { named[name, default: []].append(layer) }
        if let mask = json["mask"] {
            if mask != .null, let maskLayer = self.layer(mask, at: join(path, "mask"), depth: depth + 1) { layer.mask = maskLayer }
        }
        if let sublayers = json["sublayers"] {
            if case .array(let items) = sublayers {
                for (i, item) in items.enumerated() {
                    if let sublayer = self.layer(item, at: "\(join(path, "sublayers"))[\(i)]", depth: depth + 1) { layer.addSublayer(sublayer) }
                }
            } else {
                ctx.fail(join(path, "sublayers"), "expected an array of layers, got \(sublayers.kindName)")
            }
        }
        if let animations = json["animations"] {
            if case .array(let items) = animations {
                for (i, item) in items.enumerated() {
                    let at = "\(join(path, "animations"))[\(i)]"
                    if let (animation, key) = animation(item, className: className, at: at, inGroup: false) {
                        MediaClock.$scoped.withValue(0) { layer.add(animation, forKey: key) }
                    }
                }
            } else {
                ctx.fail(join(path, "animations"), "expected an array of animations, got \(animations.kindName)")
            }
        }
        return layer
    }

    // MARK: Animations

    mutating func animation(_ json: JSONValue, className: String, at path: String, inGroup: Bool) -> (CAAnimation, String?)? {
        guard case .object(let members) = json else { ctx.fail(path, "expected an animation object, got \(json.kindName)"); return nil }
        var kind = "CABasicAnimation"
        if let value = json["class"] {
            guard case .string(let name) = value, SceneDecoder.animationClasses.contains(name) else {
                ctx.fail(join(path, "class"), "expected one of " + SceneDecoder.animationClasses.joined(separator: ", ")
                    + (value.stringValue.map { SceneValueCodec.didYouMean($0, among: SceneDecoder.animationClasses) } ?? ""))
                return nil
            }
            kind = name
        }
        checkKeys(members, known: SceneDecoder.animationKeys(of: kind), at: path, what: "a \(kind)")
        let issuesBefore = ctx.issueCount
        let animation: CAAnimation
        switch kind {
        case "CABasicAnimation": animation = CABasicAnimation()
        case "CASpringAnimation": animation = CASpringAnimation()
        case "CAKeyframeAnimation": animation = CAKeyframeAnimation()
        case "CAAnimationGroup": animation = CAAnimationGroup()
        default: animation = CATransition()
        }
        func number(_ key: String, _ kind: SceneValueKind = .number) -> Double? {
            json[key].flatMap { SceneValueCodec.decode($0, as: kind, at: join(path, key), &ctx) as? CGFloat }.map(Double.init)
        }
        func flag(_ key: String) -> Bool? { json[key].flatMap { SceneValueCodec.decode($0, as: .bool, at: join(path, key), &ctx) as? Bool } }
        let time = SceneValueKind.bounded(min: -1e6, max: 1e6, integral: false)
        let positive = SceneValueKind.bounded(min: 0, max: 1e6, integral: false)
        if let v = number("beginTime", time) { animation.beginTime = v }
        if let v = number("duration", positive) { animation.duration = v }
        if let v = number("speed", time) { animation.speed = Float(v) }
        if let v = number("timeOffset", time) { animation.timeOffset = v }
        if let v = number("repeatCount", .bounded(min: 0, max: .greatestFiniteMagnitude, integral: false)) { animation.repeatCount = Float(v) }
        if let v = number("repeatDuration", positive) { animation.repeatDuration = v }
        if let v = flag("autoreverses") { animation.autoreverses = v }
        if let v = flag("removedOnCompletion") { animation.isRemovedOnCompletion = v }
        if let value = json["fillMode"],
           let mode = SceneValueCodec.decode(value, as: .choice(["removed", "forwards", "backwards", "both"]), at: join(path, "fillMode"), &ctx) as? String {
            animation.fillMode = CAMediaTimingFillMode(rawValue: mode)
        }
        if let value = json["timingFunction"] {
            animation.timingFunction = SceneValueCodec.decode(value, as: .timingFunction, at: join(path, "timingFunction"), &ctx) as? CAMediaTimingFunction
        }

        if let property = animation as? CAPropertyAnimation {
            var valueKind: SceneValueKind?
            if let value = json["keyPath"] {
                if case .string(let keyPath) = value {
                    valueKind = LayerClasses.animatedKind(keyPath: keyPath, className: className)
                    if valueKind == nil {
                        let animatable = LayerClasses.properties(of: className).filter(\.kind.isAnimatable).map(\.name)
                        ctx.fail(join(path, "keyPath"), "\"\(keyPath)\" is not an animatable key path of a \(className)"
                            + SceneValueCodec.didYouMean(keyPath, among: animatable + ["position.x", "position.y", "transform.rotation.z",
                                                                                       "transform.scale", "transform.translation.x"]))
                    }
                    property.keyPath = keyPath
                } else { ctx.expected(.string, at: join(path, "keyPath"), got: value) }
            } else {
                ctx.fail(path, "a \(kind) needs a keyPath")
            }
            if let v = flag("additive") { property.isAdditive = v }
            if let v = flag("cumulative") { property.isCumulative = v }
            if let value = json["valueFunction"],
               let name = SceneValueCodec.decode(value, as: .choice(["rotateX", "rotateY", "rotateZ", "scale", "scaleX", "scaleY", "scaleZ",
                                                                     "translate", "translateX", "translateY", "translateZ"]),
                                                 at: join(path, "valueFunction"), &ctx) as? String {
                property.valueFunction = CAValueFunction(name: CAValueFunctionName(rawValue: name))
            }
            // With a value function, values are its numbers, whatever the key path.
            if property.valueFunction != nil { valueKind = .number }
            if let valueKind {
                if let basic = animation as? CABasicAnimation {
                    for key in ["fromValue", "toValue", "byValue"] {
                        guard let value = json[key], let decoded = SceneValueCodec.decode(value, as: valueKind, at: join(path, key), &ctx) else { continue }
                        let swiftValue = decoded is SceneNull ? nil : decoded
                        switch key {
                        case "fromValue": basic.fromValue = swiftValue
                        case "toValue": basic.toValue = swiftValue
                        default: basic.byValue = swiftValue
                        }
                    }
                }
                if let keyframe = animation as? CAKeyframeAnimation, let value = json["values"] {
                    if case .array(let items) = value {
                        let decoded = items.enumerated().map { SceneValueCodec.decode($1, as: valueKind, at: "\(join(path, "values"))[\($0)]", &ctx) }
                        if !decoded.contains(where: { $0 == nil }) { keyframe.values = decoded.map { $0! } }
                    } else { ctx.fail(join(path, "values"), "expected an array of values, got \(value.kindName)") }
                }
            }
            if let spring = animation as? CASpringAnimation {
                let stiff = SceneValueKind.bounded(min: 1e-6, max: 1e9, integral: false)
                if let v = number("mass", stiff) { spring.mass = CGFloat(v) }
                if let v = number("stiffness", stiff) { spring.stiffness = CGFloat(v) }
                if let v = number("damping", .bounded(min: 0, max: 1e9, integral: false)) { spring.damping = CGFloat(v) }
                if let v = number("initialVelocity") { spring.initialVelocity = CGFloat(v) }
                if let v = flag("allowsOverdamping") { spring.allowsOverdamping = v }
            }
            if let keyframe = animation as? CAKeyframeAnimation {
                if let value = json["keyTimes"] {
                    keyframe.keyTimes = (SceneValueCodec.decode(value, as: .numbers, at: join(path, "keyTimes"), &ctx) as? [CGFloat])?.map { NSNumber(value: Double($0)) }
                }
                if let value = json["timingFunctions"] {
                    keyframe.timingFunctions = SceneValueCodec.decode(value, as: .timingFunctions, at: join(path, "timingFunctions"), &ctx) as? [CAMediaTimingFunction]
                }
                if let value = json["calculationMode"],
                   let mode = SceneValueCodec.decode(value, as: .choice(["linear", "discrete", "paced", "cubic", "cubicPaced"]),
                                                     at: join(path, "calculationMode"), &ctx) as? String {
                    keyframe.calculationMode = CAAnimationCalculationMode(rawValue: mode)
                }
                if let value = json["path"] { keyframe.path = SceneValueCodec.decode(value, as: .path, at: join(path, "path"), &ctx) as? CGPath }
                if let value = json["rotationMode"],
                   let mode = SceneValueCodec.decode(value, as: .choice(["auto", "autoReverse"]), at: join(path, "rotationMode"), &ctx) as? String {
                    keyframe.rotationMode = CAAnimationRotationMode(rawValue: mode)
                }
                for key in ["tensionValues", "continuityValues", "biasValues"] {
                    guard let value = json[key], let numbers = SceneValueCodec.decode(value, as: .numbers, at: join(path, key), &ctx) as? [CGFloat] else { continue }
                    let doubles = numbers.map { NSNumber(value: Double($0)) }
                    switch key {
                    case "tensionValues": keyframe.tensionValues = doubles
                    case "continuityValues": keyframe.continuityValues = doubles
                    default: keyframe.biasValues = doubles
                    }
                }
            }
        }
        if let group = animation as? CAAnimationGroup, let value = json["animations"] {
            if case .array(let items) = value {
                group.animations = items.enumerated().compactMap { i, item in
                    self.animation(item, className: className, at: "\(join(path, "animations"))[\(i)]", inGroup: true)?.0
                }
            } else { ctx.fail(join(path, "animations"), "expected an array of animations, got \(value.kindName)") }
        }
        if let transition = animation as? CATransition {
            if let value = json["type"],
               let type = SceneValueCodec.decode(value, as: .choice(["fade", "moveIn", "push", "reveal"]), at: join(path, "type"), &ctx) as? String {
                transition.type = CATransitionType(rawValue: type)
            }
            if let value = json["subtype"],
               let subtype = SceneValueCodec.decode(value, as: .choice(["fromLeft", "fromRight", "fromTop", "fromBottom"]), at: join(path, "subtype"), &ctx) as? String {
                transition.subtype = CATransitionSubtype(rawValue: subtype)
            }
            if let v = number("startProgress", LayerClasses.unit) { transition.startProgress = Float(v) }
            if let v = number("endProgress", LayerClasses.unit) { transition.endProgress = Float(v) }
        }
        var key: String? = (animation as? CAPropertyAnimation)?.keyPath
        if animation is CATransition { key = "transition" }
        if let value = json["key"] {
            if case .string(let k) = value { key = k } else { ctx.expected(.string, at: join(path, "key"), got: value) }
        }
        return ctx.issueCount == issuesBefore ? (animation, key) : nil
    }

    // MARK: Transactions

    mutating func transaction(_ json: JSONValue, at path: String, timed: Bool) -> (Double, SceneTransaction)? {
        guard case .object(let members) = json else { ctx.fail(path, "expected a transaction object, got \(json.kindName)"); return nil }
        checkKeys(members, known: SceneDecoder.transactionKeys.filter { timed || $0 != "time" }, at: path, what: "a transaction")
        let result = SceneTransaction()
        var time = 0.0
        if timed {
            if let value = json["time"],
               let t = SceneValueCodec.decode(value, as: .bounded(min: 0, max: ctx.limits.maxDuration, integral: false), at: join(path, "time"), &ctx) as? CGFloat {
                time = Double(t)
            } else if json["time"] == nil {
                ctx.fail(path, "a transaction needs a time (seconds from the start)")
            }
        }
        if let value = json["duration"] {
            result.duration = (SceneValueCodec.decode(value, as: .bounded(min: 0, max: 1e6, integral: false), at: join(path, "duration"), &ctx) as? CGFloat).map(Double.init)
        }
        if let value = json["timingFunction"] {
            result.timingFunction = SceneValueCodec.decode(value, as: .timingFunction, at: join(path, "timingFunction"), &ctx) as? CAMediaTimingFunction
        }
        if let value = json["disableActions"] {
            result.disableActions = SceneValueCodec.decode(value, as: .bool, at: join(path, "disableActions"), &ctx) as? Bool
        }
        if let value = json["changes"] {
            if case .array(let items) = value {
                for (i, item) in items.enumerated() {
                    if let change = change(item, at: "\(join(path, "changes"))[\(i)]") { result.changes.append(change) }
                }
            } else { ctx.fail(join(path, "changes"), "expected an array of changes, got \(value.kindName)") }
        }
        if let value = json["transactions"] {
            if case .array(let items) = value {
                for (i, item) in items.enumerated() {
                    if let (_, inner) = transaction(item, at: "\(join(path, "transactions"))[\(i)]", timed: false) { result.nested.append(inner) }
                }
            } else { ctx.fail(join(path, "transactions"), "expected an array of nested transactions, got \(value.kindName)") }
        }
        if let value = json["completion"], let (_, inner) = transaction(value, at: join(path, "completion"), timed: false) {
            result.completion = inner
        }
        return (time, result)
    }

    /// The one layer called `name`.
    mutating func namedLayer(_ json: JSONValue?, at path: String) -> CALayer? {
        guard case .string(let name)? = json else {
            ctx.fail(join(path, "layer"), json == nil ? "a change names its layer (\"layer\": \"name\")" : "expected a layer name, got \(json!.kindName)")
            return nil
        }
        guard let layers = named[name] else {
            ctx.fail(join(path, "layer"), "no layer is named \"\(name)\"" + SceneValueCodec.didYouMean(name, among: Array(named.keys)))
            return nil
        }
        guard layers.count == 1 else {
            ctx.fail(join(path, "layer"), "\(layers.count) layers are named \"\(name)\"; a change needs a unique name")
            return nil
        }
        return layers[0]
    }

    mutating func change(_ json: JSONValue, at path: String) -> SceneChange? {
        guard case .object(let members) = json else { ctx.fail(path, "expected a change object, got \(json.kindName)"); return nil }
        checkKeys(members, known: SceneDecoder.changeKeys, at: path, what: "a change")
        let actions = members.map(\.key).filter { $0 != "layer" && SceneDecoder.changeKeys.contains($0) }
        guard actions.count == 1 else {
            ctx.fail(path, "a change does exactly one of set, add, remove, addSublayer, removeFromSuperlayer"
                + (actions.isEmpty ? "" : " (this one: \(actions.joined(separator: ", ")))"))
            return nil
        }
        guard let layer = namedLayer(json["layer"], at: path) else { return nil }
        let className = LayerClasses.name(of: layer)
        switch actions[0] {
        case "set":
            guard case .object(let values)? = json["set"] else { ctx.fail(join(path, "set"), "expected an object of property values"); return nil }
            let properties = LayerClasses.properties(of: className)
            checkKeys(values, known: properties.map(\.name), at: join(path, "set"), what: "a \(className)")
            var assignments: [(LayerProperty, Any)] = []
            for (key, value) in values {
                guard let property = properties.first(where: { $0.name == key }),
                      let decoded = SceneValueCodec.decode(value, as: property.kind, at: join(join(path, "set"), key), &ctx) else { continue }
                assignments.append((property, decoded))
            }
            return .set(layer, assignments)
        case "add":
            guard let (animation, key) = animation(json["add"]!, className: className, at: join(path, "add"), inGroup: false) else { return nil }
            return .add(layer, animation, key: key)
        case "remove":
            guard case .string(let key)? = json["remove"] else { ctx.fail(join(path, "remove"), "expected an animation key"); return nil }
            return .remove(layer, key: key)
        case "addSublayer":
            guard let sublayer = self.layer(json["addSublayer"]!, at: join(path, "addSublayer"), depth: 1) else { return nil }
            return .addSublayer(sublayer, parent: layer)
        default:
            guard json["removeFromSuperlayer"] == .bool(true) else {
                ctx.fail(join(path, "removeFromSuperlayer"), "expected true")
                return nil
            }
            return .removeFromSuperlayer(layer)
        }
    }
}
