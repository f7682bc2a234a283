import Foundation

/// The JSON Schema (draft 2020-12) of scene documents, made from the same tables the decoder
/// reads with, so the two cannot drift apart. `quartz schema` prints it; the repository keeps a
/// copy (SceneFormat/scene.schema.json) that a test holds equal to this.
public enum SceneSchema {
    public static var text: String { document.serialized() + "\n" }

    static func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(members.map { (key: $0.0, value: $0.1) }) }
    static func ref(_ name: String) -> JSONValue { object([("$ref", .string("#/$defs/\(name)"))]) }
    static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
    static func numberArray(_ count: Int, _ description: String) -> JSONValue {
        object([("description", .string(description)), ("type", .string("array")), ("items", object([("type", .string("number"))])),
                ("minItems", .number(Double(count))), ("maxItems", .number(Double(count)))])
    }

    /// The schema of one value kind.
    static func schema(of kind: SceneValueKind) -> JSONValue {
        switch kind {
        case .number: return object([("type", .string("number"))])
        case let .bounded(min, max, integral):
            return object([("type", .string(integral ? "integer" : "number")), ("minimum", .number(min)), ("maximum", .number(max))])
        case .bool: return object([("type", .string("boolean"))])
        case .string: return object([("type", .string("string"))])
        case .text:
            let run = object([("type", .string("object")), ("required", strings(["text"])), ("additionalProperties", .bool(false)),
                              ("properties", object([("text", object([("type", .string("string"))])), ("font", object([("type", .string("string"))])),
                                                     ("fontSize", object([("type", .string("number")), ("minimum", .number(0))])),
                                                     ("color", ref("color"))]))])
            return object([("anyOf", .array([object([("type", .array([.string("string"), .string("null")]))]),
                                             object([("type", .string("array")), ("items", run)])]))])
        case .point: return ref("point")
        case .size: return ref("size")
        case .rect: return ref("rect")
        case .color: return ref("color")
        case .colors: return object([("type", .string("array")), ("items", ref("color"))])
        case .numbers: return object([("type", .string("array")), ("items", object([("type", .string("number"))]))])
        case .transform: return ref("transform")
        case .path: return ref("path")
        case .image: return object([("type", .array([.string("string"), .string("null")])), ("description", .string("an image file (PNG, JPEG, GIF) relative to the document"))])
        case .choice(let options): return object([("enum", strings(options))])
        case .corners: return object([("type", .string("array")), ("items", object([("enum", strings(SceneValueCodec.cornerNames.map(\.0)))]))])
        case .timingFunction: return ref("timingFunction")
        case .timingFunctions: return object([("type", .string("array")), ("items", ref("timingFunction"))])
        case .emitterCells: return object([("type", .string("array")), ("items", ref("emitterCell"))])
        case .drawing: return object([("type", .array([.string("array"), .string("null")])), ("items", ref("drawingItem"))])
        case .animatedValue, .animatedValues: return object([:].map { ($0, $1) })
        }
    }

    static func properties(_ list: [LayerProperty]) -> [(String, JSONValue)] { list.map { ($0.name, schema(of: $0.kind)) } }

    static var layer: JSONValue {
        var common = properties(LayerClasses.common)
        common.insert(("class", object([("enum", strings(LayerClasses.names))])), at: 0)
        common += [("frame", ref("rect")), ("sublayers", object([("type", .string("array")), ("items", ref("layer"))])),
                   ("mask", object([("anyOf", .array([ref("layer"), object([("type", .string("null"))])]))])),
                   ("animations", object([("type", .string("array")), ("items", ref("animation"))]))]
        let specific: [JSONValue] = LayerClasses.names.compactMap { name in
            guard let list = LayerClasses.specific[name] else { return nil }
            return object([("if", object([("properties", object([("class", object([("const", .string(name))]))])), ("required", strings(["class"]))])),
                           ("then", object([("properties", object(properties(list)))]))])
        }
        return object([("type", .string("object")), ("properties", object(common)), ("allOf", .array(specific)),
                       ("unevaluatedProperties", .bool(false))])
    }

    static var animation: JSONValue {
        let timing: [(String, JSONValue)] = [
            ("class", object([("enum", strings(SceneDecoder.animationClasses))])), ("key", object([("type", .string("string"))])),
            ("beginTime", schema(of: .number)), ("duration", object([("type", .string("number")), ("minimum", .number(0))])),
            ("speed", schema(of: .number)), ("timeOffset", schema(of: .number)),
            ("repeatCount", object([("type", .string("number")), ("minimum", .number(0))])),
            ("repeatDuration", object([("type", .string("number")), ("minimum", .number(0))])),
            ("autoreverses", schema(of: .bool)), ("fillMode", object([("enum", strings(["removed", "forwards", "backwards", "both"]))])),
            ("timingFunction", ref("timingFunction")), ("removedOnCompletion", schema(of: .bool)),
        ]
        let propertyKeys: [(String, JSONValue)] = [
            ("keyPath", object([("type", .string("string"))])), ("additive", schema(of: .bool)), ("cumulative", schema(of: .bool)),
            ("valueFunction", object([("enum", strings(["rotateX", "rotateY", "rotateZ", "scale", "scaleX", "scaleY", "scaleZ",
                                                        "translate", "translateX", "translateY", "translateZ"]))])),
        ]
        let value = object([("description", .string("a value of the animated key path's type"))])
        let basic: [(String, JSONValue)] = [("fromValue", value), ("toValue", value), ("byValue", value)]
        let positive = object([("type", .string("number")), ("exclusiveMinimum", .number(0))])
        let byClass: [(String, [(String, JSONValue)])] = [
            ("CABasicAnimation", propertyKeys + basic),
            ("CASpringAnimation", propertyKeys + basic + [("mass", positive), ("stiffness", positive),
                                                          ("damping", object([("type", .string("number")), ("minimum", .number(0))])),
                                                          ("initialVelocity", schema(of: .number)), ("allowsOverdamping", schema(of: .bool))]),
            ("CAKeyframeAnimation", propertyKeys + [
                ("values", object([("type", .string("array"))])), ("keyTimes", schema(of: .numbers)),
                ("timingFunctions", schema(of: .timingFunctions)),
                ("calculationMode", object([("enum", strings(["linear", "discrete", "paced", "cubic", "cubicPaced"]))])),
                ("path", ref("path")), ("rotationMode", object([("enum", strings(["auto", "autoReverse"]))])),
                ("tensionValues", schema(of: .numbers)), ("continuityValues", schema(of: .numbers)), ("biasValues", schema(of: .numbers))]),
            ("CAAnimationGroup", [("animations", object([("type", .string("array")), ("items", ref("animation"))]))]),
            ("CATransition", [("type", object([("enum", strings(["fade", "moveIn", "push", "reveal"]))])),
                              ("subtype", object([("enum", strings(["fromLeft", "fromRight", "fromTop", "fromBottom"]))])),
                              ("startProgress", schema(of: LayerClasses.unit)), ("endProgress", schema(of: LayerClasses.unit))]),
        ]
        // Without a class, an animation is a CABasicAnimation.
        let branches: [JSONValue] = byClass.map { name, members in
            let condition = name == "CABasicAnimation"
                ? object([("anyOf", .array([object([("not", object([("required", strings(["class"]))]))]),
                                            object([("properties", object([("class", object([("const", .string(name))]))]))])]))])
                : object([("properties", object([("class", object([("const", .string(name))]))])), ("required", strings(["class"]))])
            return object([("if", condition), ("then", object([("properties", object(members))]))])
        }
        return object([("type", .string("object")), ("properties", object(timing)), ("allOf", .array(branches)),
                       ("unevaluatedProperties", .bool(false))])
    }

    static var transaction: JSONValue {
        object([("type", .string("object")), ("properties", object([
            ("time", object([("type", .string("number")), ("minimum", .number(0))])),
            ("duration", object([("type", .string("number")), ("minimum", .number(0))])),
            ("timingFunction", ref("timingFunction")), ("disableActions", schema(of: .bool)),
            ("changes", object([("type", .string("array")), ("items", ref("change"))])),
            ("transactions", object([("type", .string("array")), ("items", ref("transaction"))])),
            ("completion", ref("transaction")),
        ])), ("additionalProperties", .bool(false))])
    }

    static var change: JSONValue {
        let actions = ["set", "add", "remove", "addSublayer", "removeFromSuperlayer"]
        return object([("type", .string("object")), ("required", strings(["layer"])), ("properties", object([
            ("layer", object([("type", .string("string")), ("description", .string("the name of the layer changed"))])),
            ("set", object([("type", .string("object")), ("description", .string("property values, as in a layer object"))])),
            ("add", ref("animation")), ("remove", object([("type", .string("string"))])), ("addSublayer", ref("layer")),
            ("removeFromSuperlayer", object([("const", .bool(true))])),
        ])), ("additionalProperties", .bool(false)),
        ("oneOf", .array(actions.map { object([("required", strings([$0]))]) }))])
    }

    static var document: JSONValue {
        let shape: (String) -> JSONValue = { name in
            var members: [(String, JSONValue)] = [(name, ref("rect"))]
            if name == "roundedRect" { members.append(("radius", object([("type", .string("number")), ("minimum", .number(0))]))) }
            return object([("type", .string("object")), ("properties", object(members)), ("required", strings(name == "roundedRect" ? [name, "radius"] : [name])),
                           ("additionalProperties", .bool(false))])
        }
        let operation: (String, JSONValue) -> JSONValue = { name, value in
            var members: [(String, JSONValue)] = [(name, value)]
            if name == "rotate" { members.append(("axis", numberArray(3, "the rotation axis"))) }
            return object([("type", .string("object")), ("properties", object(members)), ("required", strings([name])),
                           ("additionalProperties", .bool(false))])
        }
        let vector = object([("type", .string("array")), ("items", object([("type", .string("number"))])),
                             ("minItems", .number(2)), ("maxItems", .number(3))])
        let defs: [(String, JSONValue)] = [
            ("point", numberArray(2, "[x, y]")),
            ("size", numberArray(2, "[width, height]")),
            ("rect", numberArray(4, "[x, y, width, height]")),
            ("color", object([("anyOf", .array([
                object([("type", .string("string")), ("pattern", .string("^#([0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$"))]),
                object([("enum", strings(SceneValueCodec.namedColors.keys.sorted()))]),
                object([("type", .string("array")), ("items", object([("type", .string("number")), ("minimum", .number(0)), ("maximum", .number(1))])),
                        ("minItems", .number(3)), ("maxItems", .number(4))]),
                object([("type", .string("null"))]),
            ]))])),
            ("transform", object([("anyOf", .array([
                numberArray(16, "the matrix, row by row"),
                object([("type", .string("array")), ("items", object([("oneOf", .array([
                    operation("translate", vector),
                    operation("scale", object([("anyOf", .array([object([("type", .string("number"))]), vector]))])),
                    operation("rotate", object([("type", .string("number"))])),
                    operation("perspective", object([("type", .string("number")), ("exclusiveMinimum", .number(0))])),
                    operation("matrix", numberArray(16, "a matrix, row by row")),
                ]))]))]),
            ]))])),
            ("path", object([("anyOf", .array([
                object([("type", .string("string")), ("description", .string("SVG path data"))]),
                shape("rect"), shape("ellipse"), shape("roundedRect"), object([("type", .string("null"))]),
            ]))])),
            ("timingFunction", object([("anyOf", .array([object([("enum", strings(SceneValueCodec.timingNames))]), numberArray(4, "[c1x, c1y, c2x, c2y]")]))])),
            ("layer", layer),
            ("emitterCell", EmitterCellProperties.schema),
            ("drawingItem", SceneDrawingCodec.schema),
            ("animation", animation),
            ("transaction", transaction),
            ("change", change),
        ]
        return object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("title", .string("OpenQuartz scene document")),
            ("description", .string("A layer tree with animations and timed transactions, rendered by `quartz render` and `quartz animate`.")),
            ("type", .string("object")),
            ("required", strings(["version", "root"])),
            ("properties", object([
                ("format", object([("const", .string(SceneDocument.format))])),
                ("version", object([("const", .number(Double(SceneDocument.version)))])),
                ("size", ref("size")), ("scale", object([("type", .string("number")), ("exclusiveMinimum", .number(0)), ("maximum", .number(16))])),
                ("time", object([("type", .string("number")), ("minimum", .number(0))])),
                ("duration", object([("type", .string("number")), ("minimum", .number(0))])),
                ("fps", object([("type", .string("number")), ("exclusiveMinimum", .number(0)), ("maximum", .number(240))])),
                ("root", ref("layer")),
                ("transactions", object([("type", .string("array")), ("items", object([("allOf", .array([ref("transaction"),
                    object([("required", strings(["time"]))])]))]))])),
            ])),
            ("additionalProperties", .bool(false)),
            ("$defs", object(defs)),
        ])
    }
}
