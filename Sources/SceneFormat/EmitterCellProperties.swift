import Foundation
import OpenQuartzCore

/// One property a scene document may set on an emitter cell (`CAEmitterLayer`'s `emitterCells`,
/// and theirs): the JSON name (Core Animation's key), the kind, and how to write and read it.
/// The decoder, the encoder and the schema are made from this one table.
struct EmitterCellProperty: @unchecked Sendable {
    let name: String
    let kind: SceneValueKind
    let set: (CAEmitterCell, Any) -> Void
    let get: (CAEmitterCell) -> Any?
}

enum EmitterCellProperties {
    /// Cells in one document at most, and how deep sub-cells nest: particles grow with both.
    static let maxCells = 256
    static let maxDepth = 4

    private static func number(_ name: String, _ kind: SceneValueKind = .number) -> EmitterCellProperty {
        EmitterCellProperty(name: name, kind: kind, set: { $0.setValue(NSNumber(value: Double($1 as! CGFloat)), forKey: name) },
                            get: { numberOf($0.value(forKey: name)) })
    }

    private static func numberOf(_ value: Any?) -> CGFloat? {
        (value as? NSNumber).map { CGFloat($0.doubleValue) }
    }

    static let nonNegative = SceneValueKind.bounded(min: 0, max: 1e9, integral: false)
    static let filters = [CALayerContentsFilter.linear, .nearest, .trilinear].map(\.rawValue)

    static let all: [EmitterCellProperty] = [
        EmitterCellProperty(name: "name", kind: .string, set: { $0.name = $1 as? String }, get: { $0.name }),
        EmitterCellProperty(name: "enabled", kind: .bool, set: { $0.isEnabled = $1 as! Bool }, get: { $0.isEnabled }),
        number("birthRate", .bounded(min: 0, max: 1e6, integral: false)),
        number("lifetime", .bounded(min: 0, max: 1e4, integral: false)),
        number("lifetimeRange", .bounded(min: 0, max: 1e4, integral: false)),
        number("emissionLatitude"), number("emissionLongitude"), number("emissionRange"),
        number("velocity"), number("velocityRange"),
        number("xAcceleration"), number("yAcceleration"), number("zAcceleration"),
        number("scale"), number("scaleRange"), number("scaleSpeed"), number("spin"), number("spinRange"),
        EmitterCellProperty(name: "color", kind: .color, set: { $0.color = $1 as? CGColor },
                            get: { $0.color.map { $0 as Any } ?? SceneNull() }),
        number("redRange"), number("greenRange"), number("blueRange"), number("alphaRange"),
        number("redSpeed"), number("greenSpeed"), number("blueSpeed"), number("alphaSpeed"),
        EmitterCellProperty(name: "contents", kind: .image, set: { $0.contents = $1 as? CGImage },
                            get: { ($0.contents as? CGImage).map { $0 as Any } ?? SceneNull() }),
        EmitterCellProperty(name: "contentsRect", kind: .rect, set: { $0.contentsRect = $1 as! CGRect }, get: { $0.contentsRect }),
        number("contentsScale", .bounded(min: 0.01, max: 16, integral: false)),
        EmitterCellProperty(name: "minificationFilter", kind: .choice(filters), set: { $0.minificationFilter = $1 as! String },
                            get: { $0.minificationFilter }),
        EmitterCellProperty(name: "magnificationFilter", kind: .choice(filters), set: { $0.magnificationFilter = $1 as! String },
                            get: { $0.magnificationFilter }),
        number("minificationFilterBias", .bounded(min: -16, max: 16, integral: false)),
        // The cell's timing (CAMediaTiming): it emits while active.
        number("beginTime"), number("duration", nonNegative), number("speed"), number("timeOffset"),
        number("repeatCount", nonNegative), number("repeatDuration", nonNegative),
        EmitterCellProperty(name: "autoreverses", kind: .bool, set: { $0.autoreverses = $1 as! Bool }, get: { $0.autoreverses }),
    ]

    /// `[{...cell...}, ...]` as cells, every mistake recorded with its path.
    static func decode(_ json: JSONValue, at path: String, depth: Int = 1, _ ctx: inout DecodeContext) -> [CAEmitterCell]? {
        guard case .array(let items) = json else { ctx.expected(.emitterCells, at: path, got: json); return nil }
        guard depth <= maxDepth else {
            ctx.fail(path, "emitter cells nest at most \(maxDepth) deep")
            return nil
        }
        var cells: [CAEmitterCell] = []
        var failed = false
        for (index, item) in items.enumerated() {
            let here = "\(path)[\(index)]"
            guard let members = item.objectMembers else { ctx.expected(.emitterCells, at: here, got: item); failed = true; continue }
            ctx.emitterCellCount += 1
            guard ctx.emitterCellCount <= maxCells else {
                ctx.fail(here, "a document may hold at most \(maxCells) emitter cells")
                return nil
            }
            let cell = CAEmitterCell()
            for (key, value) in members {
                let at = "\(here).\(key)"
                if key == "emitterCells" {
                    if let sub = decode(value, at: at, depth: depth + 1, &ctx) { cell.emitterCells = sub } else { failed = true }
                    continue
                }
                guard let property = all.first(where: { $0.name == key }) else {
                    ctx.fail(at, "\"\(key)\" is not an emitter cell property"
                        + SceneValueCodec.didYouMean(key, among: all.map(\.name) + ["emitterCells"]))
                    failed = true
                    continue
                }
                guard let decoded = SceneValueCodec.decode(value, as: property.kind, at: at, &ctx) else { failed = true; continue }
                property.set(cell, decoded)
            }
            cells.append(cell)
        }
        return failed ? nil : cells
    }

    /// The cells as JSON objects, each property that differs from a new cell's.
    static func encode(_ cells: [CAEmitterCell], _ encoder: SceneEncoder) throws -> JSONValue {
        let fresh = CAEmitterCell()
        return .array(try cells.map { cell in
            var members: [(key: String, value: JSONValue)] = []
            for property in all {
                guard let json = try encoder.encode(property.get(cell), as: property.kind),
                      json != (try encoder.encode(property.get(fresh), as: property.kind)) else { continue }
                members.append((property.name, json))
            }
            if let sub = cell.emitterCells, !sub.isEmpty { members.append(("emitterCells", try encode(sub, encoder))) }
            return .object(members)
        })
    }

    /// The schema of one cell (`$defs.emitterCell`).
    static var schema: JSONValue {
        var properties = all.map { ($0.name, SceneSchema.schema(of: $0.kind)) }
        properties.append(("emitterCells", SceneSchema.schema(of: .emitterCells)))
        return SceneSchema.object([("type", .string("object")), ("properties", SceneSchema.object(properties)),
                                   ("additionalProperties", .bool(false))])
    }
}
