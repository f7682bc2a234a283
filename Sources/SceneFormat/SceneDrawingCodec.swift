import Foundation
import OpenQuartzCore

/// A `SceneDrawing` in a document (a tiled layer's `"drawing"`): an array of items, each an
/// object named by its one kind key:
///
///     {"fill": path, "color": c, "fillRule": "nonZero" | "evenOdd"}
///     {"stroke": path, "color": c, "lineWidth": 1, "lineCap": "butt", "lineJoin": "miter",
///      "miterLimit": 10, "lineDashPattern": [4, 2], "lineDashPhase": 0}
///     {"image": "file.png", "rect": [x, y, w, h]}
///     {"text": "Harbour", "at": [x, y], "font": "Helvetica", "fontSize": 12, "color": c}
///     {"repeat": [columns, rows], "step": [dx, dy], "drawing": [...]}
///
/// Colors default to black, as Core Graphics' do; the stroke keys are CAShapeLayer's. The
/// decoder, the encoder and the schema are made here from one list of keys per kind.
enum SceneDrawingCodec {
    /// How deep repeated groups nest: a repeat inside a repeat ... four deep (the top drawing is
    /// depth 0), as docs/cli.md says.
    static let maxDepth = 4

    static let kinds = ["fill", "stroke", "image", "text", "repeat"]
    static let strokeKeys = ["color", "lineWidth", "lineCap", "lineJoin", "miterLimit", "lineDashPattern", "lineDashPhase"]
    static let keys: [String: [String]] = [
        "fill": ["color", "fillRule"],
        "stroke": strokeKeys,
        "image": ["rect"],
        "text": ["at", "font", "fontSize", "color"],
        "repeat": ["step", "drawing"],
    ]
    static let required: [String: [String]] = ["image": ["rect"], "text": ["at"], "repeat": ["step", "drawing"]]

    static let caps: [(String, CGLineCap)] = [("butt", .butt), ("round", .round), ("square", .square)]
    static let joins: [(String, CGLineJoin)] = [("miter", .miter), ("round", .round), ("bevel", .bevel)]
    static let rules: [(String, CGPathFillRule)] = [("nonZero", .winding), ("evenOdd", .evenOdd)]
    static let count = SceneValueKind.bounded(min: 1, max: 1_000_000, integral: true)
    static let fontSize = SceneValueKind.bounded(min: 0, max: 10_000, integral: false)

    // MARK: Decoding

    /// `[{...}, ...]` as a drawing within the document's limits, every mistake recorded with its path.
    static func decode(_ json: JSONValue, at path: String, _ ctx: inout DecodeContext) -> SceneDrawing? {
        guard let drawing = decode(json, at: path, depth: 0, &ctx) else { return nil }
        let limit = ctx.limits.maxDrawingItems
        guard drawing.expandedCount <= limit else {
            let count = drawing.expandedCount == Int.max ? "more than \(Int.max)" : "\(drawing.expandedCount)"
            ctx.fail(path, "the drawing makes \(count) items with its repeats, more than the limit of \(limit)")
            return nil
        }
        return drawing
    }

    private static func decode(_ json: JSONValue, at path: String, depth: Int, _ ctx: inout DecodeContext) -> SceneDrawing? {
        guard case .array(let entries) = json else { ctx.expected(.drawing, at: path, got: json); return nil }
        guard depth <= maxDepth else {
            ctx.fail(path, "repeated drawings nest at most \(maxDepth) deep")
            return nil
        }
        var items: [SceneDrawing.Item] = []
        var failed = false
        for (index, entry) in entries.enumerated() {
            if let item = self.item(entry, at: "\(path)[\(index)]", depth: depth, &ctx) { items.append(item) } else { failed = true }
        }
        return failed ? nil : SceneDrawing(items)
    }

    private static func item(_ json: JSONValue, at path: String, depth: Int, _ ctx: inout DecodeContext) -> SceneDrawing.Item? {
        guard case .object(let members) = json else {
            ctx.fail(path, "expected a drawing item (an object with one of " + kinds.map { "\"\($0)\"" }.joined(separator: ", ")
                + "), got \(json.kindName)")
            return nil
        }
        let present = kinds.filter { json[$0] != nil }
        guard present.count == 1, let kind = present.first else {
            ctx.fail(path, present.isEmpty
                ? "a drawing item needs one of " + kinds.map { "\"\($0)\"" }.joined(separator: ", ")
                    + (members.first.map { SceneValueCodec.didYouMean($0.key, among: kinds) } ?? "")
                : "a drawing item is one of " + present.map { "\"\($0)\"" }.joined(separator: " or ") + ", not both")
            return nil
        }
        let known = [kind] + keys[kind]!
        var failed = false
        for member in members where !known.contains(member.key) {
            let key = SceneIssue.shortened(member.key)
            let owner = kinds.first { keys[$0]!.contains(member.key) }
            ctx.fail("\(path).\(key)", owner.map { "\"\(key)\" belongs to a \"\($0)\" item, not a \"\(kind)\" item" }
                ?? "unknown member of a \"\(kind)\" item" + SceneValueCodec.didYouMean(member.key, among: known))
            failed = true
        }
        for key in required[kind] ?? [] where json[key] == nil {
            ctx.fail(path, "a \"\(kind)\" item needs its \"\(key)\"")
            failed = true
        }
        func value(_ key: String, _ kind: SceneValueKind) -> Any? {
            guard let member = json[key] else { return nil }
            let decoded = SceneValueCodec.decode(member, as: kind, at: "\(path).\(key)", &ctx)
            if decoded == nil { failed = true }
            if decoded is SceneNull {
                ctx.fail("\(path).\(key)", "a drawing item's \"\(key)\" cannot be none: expected a value, got null")
                failed = true
                return nil
            }
            return decoded
        }
        func named<T>(_ key: String, _ options: [(String, T)]) -> T? {
            (value(key, .choice(options.map(\.0))) as? String).flatMap { name in options.first { $0.0 == name }?.1 }
        }
        let color = value("color", .color) as? CGColor ?? CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let result: SceneDrawing.Item?
        switch kind {
        case "fill":
            let shape = value("fill", .path) as? CGPath
            let rule = named("fillRule", rules) ?? .winding
            result = shape.map { .fill($0, color: color, rule: rule) }
        case "stroke":
            let shape = value("stroke", .path) as? CGPath
            var style = SceneDrawing.Stroke()
            if let v = value("lineWidth", LayerClasses.nonNegative) as? CGFloat { style.lineWidth = v }
            if let v = named("lineCap", caps) { style.lineCap = v }
            if let v = named("lineJoin", joins) { style.lineJoin = v }
            if let v = value("miterLimit", LayerClasses.nonNegative) as? CGFloat { style.miterLimit = v }
            if let v = value("lineDashPattern", .numbers) as? [CGFloat] {
                if v.contains(where: { !$0.isFinite || $0 < 0 }) || (!v.isEmpty && v.allSatisfy { $0 == 0 }) {
                    ctx.fail("\(path).lineDashPattern", "dash lengths are numbers of at least 0, not all 0")
                    failed = true
                }
                style.lineDashPattern = v
            }
            if let v = value("lineDashPhase", .number) as? CGFloat { style.lineDashPhase = v }
            result = shape.map { .stroke($0, color: color, style: style) }
        case "image":
            let image = value("image", .image) as? CGImage
            let rect = value("rect", .rect) as? CGRect
            result = image.flatMap { image in rect.map { .image(image, in: $0) } }
        case "text":
            var string: String?
            if case .string(let text)? = json["text"] {
                if SceneValueCodec.checkedText(text, at: "\(path).text", &ctx) { string = text } else { failed = true }
            } else {
                ctx.expected(.string, at: "\(path).text", got: json["text"]!)
                failed = true
            }
            let at = value("at", .point) as? CGPoint
            let font = value("font", .string) as? String ?? "Helvetica"
            let size = value("fontSize", fontSize) as? CGFloat ?? 12
            result = string.flatMap { string in at.map { .text(string, at: $0, font: font, fontSize: size, color: color) } }
        default:
            var grid: (Int, Int)?
            if case .array(let counts)? = json["repeat"], counts.count == 2 {
                let c = SceneValueCodec.decode(counts[0], as: count, at: "\(path).repeat[0]", &ctx) as? CGFloat
                let r = SceneValueCodec.decode(counts[1], as: count, at: "\(path).repeat[1]", &ctx) as? CGFloat
                if let c, let r { grid = (Int(c), Int(r)) } else { failed = true }
            } else {
                ctx.fail("\(path).repeat", "expected [columns, rows], whole numbers from 1 to 1000000, got \(json["repeat"]!.kindName)")
                failed = true
            }
            let step = value("step", .size) as? CGSize
            let drawing = json["drawing"].flatMap { decode($0, at: "\(path).drawing", depth: depth + 1, &ctx) }
            if json["drawing"] != nil, drawing == nil { failed = true }
            if let grid, let step, let drawing {
                result = .repeated(drawing, columns: grid.0, rows: grid.1, step: step)
            } else {
                result = nil
            }
        }
        return failed ? nil : result
    }

    // MARK: Encoding

    static func encode(_ drawing: SceneDrawing, _ encoder: SceneEncoder) throws -> JSONValue {
        let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        func color(_ c: CGColor) throws -> [(key: String, value: JSONValue)] {
            c.rgba == black.rgba ? [] : [("color", try encoder.encode(c, as: .color)!)]
        }
        func number(_ v: CGFloat) -> JSONValue { .number(Double(v)) }
        return .array(try drawing.items.map { item in
            var members: [(key: String, value: JSONValue)]
            switch item {
            case let .fill(path, c, rule):
                members = [("fill", .string(SceneEncoder.pathData(path)))] + (try color(c))
                if rule == .evenOdd { members.append(("fillRule", .string("evenOdd"))) }
            case let .stroke(path, c, style):
                members = [("stroke", .string(SceneEncoder.pathData(path)))] + (try color(c))
                let base = SceneDrawing.Stroke()
                if style.lineWidth != base.lineWidth { members.append(("lineWidth", number(style.lineWidth))) }
                if style.lineCap != base.lineCap { members.append(("lineCap", .string(caps.first { $0.1 == style.lineCap }!.0))) }
                if style.lineJoin != base.lineJoin { members.append(("lineJoin", .string(joins.first { $0.1 == style.lineJoin }!.0))) }
                if style.miterLimit != base.miterLimit { members.append(("miterLimit", number(style.miterLimit))) }
                if let dashes = style.lineDashPattern { members.append(("lineDashPattern", .array(dashes.map(number)))) }
                if style.lineDashPhase != 0 { members.append(("lineDashPhase", number(style.lineDashPhase))) }
            case let .image(image, rect):
                members = [("image", try encoder.encode(image, as: .image)!), ("rect", try encoder.encode(rect, as: .rect)!)]
            case let .text(string, at, font, size, c):
                members = [("text", .string(string)), ("at", try encoder.encode(at, as: .point)!)]
                if font != "Helvetica" { members.append(("font", .string(font))) }
                if size != 12 { members.append(("fontSize", number(size))) }
                members += try color(c)
            case let .repeated(sub, columns, rows, step):
                members = [("repeat", .array([.number(Double(columns)), .number(Double(rows))])),
                           ("step", try encoder.encode(step, as: .size)!), ("drawing", try encode(sub, encoder))]
            }
            return .object(members)
        })
    }

    // MARK: Schema

    /// The schema of one item (`$defs.drawingItem`): one branch per kind.
    static var schema: JSONValue {
        func property(_ key: String) -> JSONValue {
            switch key {
            case "fill", "stroke": SceneSchema.ref("path")
            case "image": SceneSchema.object([("type", .string("string")), ("description", .string("an image file (PNG, JPEG, GIF) relative to the document"))])
            case "text", "font": SceneSchema.schema(of: .string)
            case "color": SceneSchema.ref("color")
            case "fillRule": SceneSchema.object([("enum", SceneSchema.strings(rules.map(\.0)))])
            case "lineCap": SceneSchema.object([("enum", SceneSchema.strings(caps.map(\.0)))])
            case "lineJoin": SceneSchema.object([("enum", SceneSchema.strings(joins.map(\.0)))])
            case "lineWidth", "miterLimit": SceneSchema.schema(of: LayerClasses.nonNegative)
            case "lineDashPattern": SceneSchema.object([("type", .string("array")), ("items", SceneSchema.object([("type", .string("number")), ("minimum", .number(0))]))])
            case "lineDashPhase": SceneSchema.schema(of: .number)
            case "rect": SceneSchema.ref("rect")
            case "at": SceneSchema.ref("point")
            case "step": SceneSchema.ref("size")
            case "fontSize": SceneSchema.schema(of: fontSize)
            case "repeat": SceneSchema.object([("description", .string("[columns, rows]")), ("type", .string("array")),
                                              ("items", SceneSchema.schema(of: count)), ("minItems", .number(2)), ("maxItems", .number(2))])
            default: SceneSchema.schema(of: .drawing)
            }
        }
        let branches: [JSONValue] = kinds.map { kind in
            let known = [kind] + keys[kind]!
            return SceneSchema.object([("type", .string("object")), ("properties", SceneSchema.object(known.map { ($0, property($0)) })),
                                       ("required", SceneSchema.strings([kind] + (required[kind] ?? []))), ("additionalProperties", .bool(false))])
        }
        return SceneSchema.object([("oneOf", .array(branches))])
    }
}
