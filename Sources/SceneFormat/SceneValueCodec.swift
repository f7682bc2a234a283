import Foundation
import OpenQuartzCore

/// What decoding a document carries along: the mistakes found so far, where images are looked
/// up, and the images already read (one CGImage per file, so the GPU uploads each once).
struct DecodeContext {
    /// The first `maxListedIssues` mistakes; the rest are counted. A hostile document with
    /// 200,000 unknown keys is answered as fast as one with a single mistake.
    private(set) var issues: [SceneIssue] = []
    private(set) var unlistedIssues = 0
    static let maxListedIssues = 100
    /// Where images are read from (nil: a document with no folder, which may name no image).
    let assets: AssetFolder?
    let limits: SceneLimits
    var images: [String: CGImage] = [:]
    /// Image identifier -> the path the document named it by (for re-encoding).
    var imagePaths: [UInt64: String] = [:]
    var layerCount = 0
    var emitterCellCount = 0

    init(assets: AssetFolder?, limits: SceneLimits) {
        self.assets = assets
        self.limits = limits
    }

    /// Whether another mistake would still be listed (callers skip work on messages past that).
    var listsMore: Bool { issues.count < DecodeContext.maxListedIssues }
    /// Every mistake so far, listed or not.
    var issueCount: Int { issues.count + unlistedIssues }

    /// Records a mistake. The message is only formed for the mistakes listed; both are cut
    /// to a readable length (they can quote a document's strings, megabytes long).
    mutating func fail(_ path: String, _ message: @autoclosure () -> String) {
        guard listsMore else { unlistedIssues += 1; return }
        issues.append(SceneIssue(path: SceneIssue.shortened(path, to: 300), message: SceneIssue.shortened(message(), to: 600)))
    }

    /// Carries another context's mistakes on.
    mutating func take(_ other: DecodeContext) {
        for issue in other.issues { fail(issue.path, issue.message) }
        unlistedIssues += other.unlistedIssues
    }

    /// Every mistake, the unlisted ones summed up in a last line.
    var allIssues: [SceneIssue] {
        issues + (unlistedIssues > 0 ? [SceneIssue(path: "document", message:
            "\(unlistedIssues) more mistakes, not listed (the first \(DecodeContext.maxListedIssues) are)")] : [])
    }

    mutating func expected(_ kind: SceneValueKind, at path: String, got json: JSONValue) {
        fail(path, "expected \(kind.expectation), got \(json.kindName)")
    }
}

/// A decoded value that is explicitly null (a color or path set to none).
struct SceneNull {}

enum SceneValueCodec {
    static let namedColors: [String: (Double, Double, Double, Double)] = [
        "black": (0, 0, 0, 1), "white": (1, 1, 1, 1), "clear": (0, 0, 0, 0), "gray": (0.5, 0.5, 0.5, 1),
        "red": (1, 0, 0, 1), "green": (0, 1, 0, 1), "blue": (0, 0, 1, 1), "yellow": (1, 1, 0, 1),
        "cyan": (0, 1, 1, 1), "magenta": (1, 0, 1, 1), "orange": (1, 0.5, 0, 1), "purple": (0.5, 0, 0.5, 1),
        "brown": (0.6, 0.4, 0.2, 1),
    ]

    static let cornerNames: [(String, CACornerMask)] = [
        ("minXMinY", .layerMinXMinYCorner), ("maxXMinY", .layerMaxXMinYCorner),
        ("minXMaxY", .layerMinXMaxYCorner), ("maxXMaxY", .layerMaxXMaxYCorner),
    ]

    static let timingNames = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]

    /// The JSON value as a Swift value of `kind` (CGFloat, Bool, String, CGPoint, CGSize, CGRect,
    /// CGColor, [CGColor], [CGFloat], CATransform3D, CGPath, CGImage, CACornerMask,
    /// CAMediaTimingFunction, or SceneNull); nil after recording why it is not one.
    static func decode(_ json: JSONValue, as kind: SceneValueKind, at path: String, _ ctx: inout DecodeContext) -> Any? {
        switch kind {
        case .number:
            guard case .number(let n) = json else { ctx.expected(kind, at: path, got: json); return nil }
            return CGFloat(n)
        case let .bounded(min, max, integral):
            guard case .number(let n) = json, n >= min, n <= max, !integral || n == n.rounded() else {
                if case .number(let n) = json {
                    ctx.fail(path, "expected \(kind.expectation), got \(SceneValueKind.format(n))")
                } else { ctx.expected(kind, at: path, got: json) }
                return nil
            }
            return CGFloat(n)
        case .bool:
            guard case .bool(let b) = json else { ctx.expected(kind, at: path, got: json); return nil }
            return b
        case .string:
            guard case .string(let s) = json else { ctx.expected(kind, at: path, got: json); return nil }
            return s
        case .text:
            if case .string(let s) = json { return checkedText(s, at: path, &ctx) ? s : nil }
            return runs(json, at: path, &ctx)
        case .point, .size, .rect:
            let count = kind == .rect ? 4 : 2
            guard let numbers = numbers(json, count: count, kind: kind, at: path, &ctx) else { return nil }
            switch kind {
            case .point: return CGPoint(x: numbers[0], y: numbers[1])
            case .size: return CGSize(width: numbers[0], height: numbers[1])
            default: return CGRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            }
        case .color:
            if json == .null { return SceneNull() }
            return color(json, at: path, &ctx)
        case .colors:
            guard case .array(let items) = json else { ctx.expected(kind, at: path, got: json); return nil }
            let colors = items.enumerated().map { color($1, at: "\(path)[\($0)]", &ctx) }
            return colors.contains { $0 == nil } ? nil : colors.map { $0! }
        case .numbers:
            guard case .array(let items) = json else { ctx.expected(kind, at: path, got: json); return nil }
            var values: [CGFloat] = []
            for (i, item) in items.enumerated() {
                guard case .number(let n) = item else { ctx.expected(.number, at: "\(path)[\(i)]", got: item); return nil }
                values.append(CGFloat(n))
            }
            return values
        case .transform:
            return transform(json, at: path, &ctx)
        case .path:
            if json == .null { return SceneNull() }
            return self.path(json, at: path, &ctx)
        case .image:
            if json == .null { return SceneNull() }
            guard case .string(let file) = json else { ctx.expected(kind, at: path, got: json); return nil }
            return image(file, at: path, &ctx)
        case .choice(let options):
            guard case .string(let s) = json, options.contains(s) else {
                if case .string(let s) = json {
                    ctx.fail(path, "\"\(s)\" is not \(kind.expectation)" + didYouMean(s, among: options))
                } else { ctx.expected(kind, at: path, got: json) }
                return nil
            }
            return s
        case .corners:
            guard case .array(let items) = json else { ctx.expected(kind, at: path, got: json); return nil }
            var mask: CACornerMask = []
            for (i, item) in items.enumerated() {
                guard case .string(let name) = item, let corner = cornerNames.first(where: { $0.0 == name }) else {
                    ctx.fail("\(path)[\(i)]", "expected a corner name (\"minXMinY\", \"maxXMinY\", \"minXMaxY\", \"maxXMaxY\"), got "
                        + (item.stringValue.map { "\"\($0)\"" + didYouMean($0, among: cornerNames.map(\.0)) } ?? item.kindName))
                    return nil
                }
                mask.insert(corner.1)
            }
            return mask
        case .timingFunction:
            return timingFunction(json, at: path, &ctx)
        case .timingFunctions:
            guard case .array(let items) = json else { ctx.expected(kind, at: path, got: json); return nil }
            let functions = items.enumerated().map { timingFunction($1, at: "\(path)[\($0)]", &ctx) }
            return functions.contains { $0 == nil } ? nil : functions.map { $0! }
        case .emitterCells:
            return EmitterCellProperties.decode(json, at: path, &ctx)
        case .drawing:
            if json == .null { return SceneNull() }
            return SceneDrawingCodec.decode(json, at: path, &ctx)
        case .animatedValue, .animatedValues:
            ctx.fail(path, "internal: an animated value needs its key path's kind")
            return nil
        }
    }

    private static func numbers(_ json: JSONValue, count: Int, kind: SceneValueKind, at path: String,
                                _ ctx: inout DecodeContext) -> [CGFloat]? {
        guard case .array(let items) = json else { ctx.expected(kind, at: path, got: json); return nil }
        guard items.count == count else {
            ctx.fail(path, "expected \(kind.expectation): \(count) numbers, got \(items.count)")
            return nil
        }
        var values: [CGFloat] = []
        for (i, item) in items.enumerated() {
            guard case .number(let n) = item else { ctx.expected(.number, at: "\(path)[\(i)]", got: item); return nil }
            values.append(CGFloat(n))
        }
        return values
    }

    /// Styled runs as an attributed string: each run's font (by name, at its size) and color.
    /// Whether `text` is within the text limits (`SceneLimits.maxTextCharacters`, `maxTextLines`),
    /// after recording why not: layout costs grow with the text, and a layer draws no more.
    static func checkedText(_ text: String, at path: String, _ ctx: inout DecodeContext) -> Bool {
        let limits = ctx.limits
        var characters = 0, lines = 1
        for scalar in text.unicodeScalars {
            characters += 1
            if scalar == "\n" { lines += 1 }
        }
        if characters > limits.maxTextCharacters {
            ctx.fail(path, "the text has \(characters) characters, more than the limit of \(limits.maxTextCharacters)")
            return false
        }
        if lines > limits.maxTextLines {
            ctx.fail(path, "the text has \(lines) lines, more than the limit of \(limits.maxTextLines)")
            return false
        }
        return true
    }

    static func runs(_ json: JSONValue, at path: String, _ ctx: inout DecodeContext) -> NSAttributedString? {
        guard case .array(let items) = json else { ctx.expected(.text, at: path, got: json); return nil }
        let limits = ctx.limits
        guard items.count <= limits.maxTextRuns else {
            ctx.fail(path, "\(items.count) text runs, more than the limit of \(limits.maxTextRuns)")
            return nil
        }
        let whole = items.compactMap { $0["text"]?.stringValue }.joined()
        guard checkedText(whole, at: path, &ctx) else { return nil }
        let result = NSMutableAttributedString(string: "")
        for (i, item) in items.enumerated() {
            let at = "\(path)[\(i)]"
            guard case .object(let members) = item else { ctx.expected(.text, at: at, got: item); return nil }
            for member in members where !["text", "font", "fontSize", "color"].contains(member.key) {
                ctx.fail("\(at).\(member.key)", "unknown member of a text run" + didYouMean(member.key, among: ["text", "font", "fontSize", "color"]))
                return nil
            }
            guard case .string(let text)? = item["text"] else { ctx.fail(at, "a text run needs its \"text\""); return nil }
            var attributes: [NSAttributedString.Key: Any] = [:]
            let size = item["fontSize"].flatMap { decode($0, as: .bounded(min: 0, max: 10_000, integral: false), at: "\(at).fontSize", &ctx) as? CGFloat }
            if let name = item["font"] {
                guard case .string(let fontName) = name else { ctx.expected(.string, at: "\(at).font", got: name); return nil }
                attributes[.font] = CTFont(name: fontName, size: size ?? 12)
            } else if let size {
                attributes[.font] = CTFont(name: "Helvetica", size: size)
            }
            if let value = item["color"] {
                guard let color = color(value, at: "\(at).color", &ctx) else { return nil }
                attributes[.foregroundColor] = color
            }
            result.append(NSAttributedString(string: text, attributes: attributes))
        }
        return result
    }

    static func color(_ json: JSONValue, at path: String, _ ctx: inout DecodeContext) -> CGColor? {
        switch json {
        case .string(let text):
            if let named = namedColors[text] { return CGColor(red: named.0, green: named.1, blue: named.2, alpha: named.3) }
            var hex = Substring(text)
            guard hex.first == "#" else {
                ctx.fail(path, "\"\(text)\" is not a color: use \"#rrggbb\", \"#rrggbbaa\" or a name" + didYouMean(text, among: Array(namedColors.keys)))
                return nil
            }
            hex = hex.dropFirst()
            var digits = hex.compactMap(\.hexDigitValue).map(Double.init)
            guard digits.count == hex.count, [3, 4, 6, 8].contains(digits.count) else {
                ctx.fail(path, "\"\(text)\" is not a hex color: expected 3, 4, 6 or 8 hex digits after #")
                return nil
            }
            if digits.count <= 4 { digits = digits.flatMap { [$0, $0] } }
            var channels: [Double] = []
            for i in stride(from: 0, to: digits.count, by: 2) {
                let byte: Double = digits[i] * 16 + digits[i + 1]
                channels.append(byte / 255)
            }
            if channels.count == 3 { channels.append(1) }
            return CGColor(red: channels[0], green: channels[1], blue: channels[2], alpha: channels[3])
        case .array(let items):
            guard items.count == 3 || items.count == 4 else {
                ctx.fail(path, "expected a color [r, g, b] or [r, g, b, a]: 3 or 4 numbers, got \(items.count)")
                return nil
            }
            var channels: [Double] = []
            for (i, item) in items.enumerated() {
                guard case .number(let n) = item, n >= 0, n <= 1 else {
                    ctx.fail("\(path)[\(i)]", "expected a color channel from 0 to 1, got " + (item.numberValue.map { SceneValueKind.format($0) } ?? item.kindName))
                    return nil
                }
                channels.append(n)
            }
            return CGColor(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 1)
        default:
            ctx.expected(.color, at: path, got: json)
            return nil
        }
    }

    static func transform(_ json: JSONValue, at path: String, _ ctx: inout DecodeContext) -> CATransform3D? {
        guard case .array(let items) = json else { ctx.expected(.transform, at: path, got: json); return nil }
        if items.allSatisfy({ $0.numberValue != nil }) {
            guard items.count == 16 else {
                ctx.fail(path, "expected 16 numbers, got \(items.count)")
                return nil
            }
            return matrix(items.map { $0.numberValue! })
        }
        var result = CATransform3DIdentity
        for (i, item) in items.enumerated() {
            guard let operation = operation(item, at: "\(path)[\(i)]", &ctx) else { return nil }
            result = CATransform3DConcat(result, operation)
        }
        return result
    }

    static func matrix(_ m: [Double]) -> CATransform3D {
        CATransform3D(m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
                      m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
    }

    static let operationNames = ["translate", "scale", "rotate", "perspective", "matrix"]

    private static func operation(_ json: JSONValue, at path: String, _ ctx: inout DecodeContext) -> CATransform3D? {
        guard case .object(let members) = json, let first = members.first else {
            ctx.fail(path, "expected a transform operation such as {\"rotate\": 0.5} or a number, got \(json.kindName)")
            return nil
        }
        let allowed = first.key == "rotate" ? ["rotate", "axis"] : [first.key]
        for member in members where !allowed.contains(member.key) {
            ctx.fail("\(path).\(member.key)", "unknown member of a \"\(first.key)\" operation")
            return nil
        }
        func vector(_ value: JSONValue, _ name: String, defaultZ: Double) -> [Double]? {
            guard case .array(let items) = value, items.count == 2 || items.count == 3,
                  items.allSatisfy({ $0.numberValue != nil }) else {
                ctx.fail("\(path).\(name)", "expected [x, y] or [x, y, z], got \(value.kindName)")
                return nil
            }
            let v = items.map { $0.numberValue! }
            return v.count == 3 ? v : v + [defaultZ]
        }
        switch first.key {
        case "translate":
            guard let v = vector(first.value, "translate", defaultZ: 0) else { return nil }
            return CATransform3DMakeTranslation(v[0], v[1], v[2])
        case "scale":
            if let s = first.value.numberValue { return CATransform3DMakeScale(s, s, 1) }
            guard let v = vector(first.value, "scale", defaultZ: 1) else { return nil }
            return CATransform3DMakeScale(v[0], v[1], v[2])
        case "rotate":
            guard let angle = first.value.numberValue else {
                ctx.fail("\(path).rotate", "expected an angle in radians, got \(first.value.kindName)")
                return nil
            }
            var axis = [0.0, 0, 1]
            if let value = json["axis"] {
                guard case .array(let items) = value, items.count == 3, items.allSatisfy({ $0.numberValue != nil }) else {
                    ctx.fail("\(path).axis", "expected an axis [x, y, z], got \(value.kindName)")
                    return nil
                }
                axis = items.map { $0.numberValue! }
                guard axis.contains(where: { $0 != 0 }) else {
                    ctx.fail("\(path).axis", "the axis [0, 0, 0] has no direction")
                    return nil
                }
            }
            return CATransform3DMakeRotation(angle, axis[0], axis[1], axis[2])
        case "perspective":
            guard let d = first.value.numberValue, d > 0 else {
                ctx.fail("\(path).perspective", "expected a positive eye distance, got " + (first.value.numberValue.map { SceneValueKind.format($0) } ?? first.value.kindName))
                return nil
            }
            var t = CATransform3DIdentity
            t.m34 = -1 / d
            return t
        case "matrix":
            guard case .array(let items) = first.value, items.count == 16, items.allSatisfy({ $0.numberValue != nil }) else {
                let count = (first.value.arrayValue?.count).map { "\($0) items" } ?? first.value.kindName
                ctx.fail("\(path).matrix", "expected 16 numbers, got \(count)")
                return nil
            }
            return matrix(items.map { $0.numberValue! })
        default:
            ctx.fail(path, "unknown transform operation \"\(first.key)\"" + didYouMean(first.key, among: operationNames))
            return nil
        }
    }

    static func path(_ json: JSONValue, at path: String, _ ctx: inout DecodeContext) -> CGPath? {
        switch json {
        case .string(let data):
            do { return try SVGPathData.parse(data) } catch {
                ctx.fail(path, error.description)
                return nil
            }
        case .object(let members):
            guard let first = members.first else { ctx.expected(.path, at: path, got: json); return nil }
            let shapes = ["rect", "ellipse", "roundedRect"]
            guard shapes.contains(first.key) else {
                ctx.fail(path, "unknown shape \"\(first.key)\"" + didYouMean(first.key, among: shapes))
                return nil
            }
            for member in members.dropFirst() where !(first.key == "roundedRect" && member.key == "radius") {
                ctx.fail("\(path).\(member.key)", "unknown member of a \"\(first.key)\" shape")
                return nil
            }
            guard let r = decode(first.value, as: .rect, at: "\(path).\(first.key)", &ctx) as? CGRect else { return nil }
            switch first.key {
            case "rect": return CGPath(rect: r)
            case "ellipse": return CGPath(ellipseIn: r, transform: nil)
            default:
                guard let radius = json["radius"]?.numberValue, radius >= 0 else {
                    ctx.fail("\(path).radius", "a roundedRect needs a radius: a number from 0 up")
                    return nil
                }
                return CGPath(roundedRect: r, cornerWidth: radius, cornerHeight: radius)
            }
        default:
            ctx.expected(.path, at: path, got: json)
            return nil
        }
    }

    static func image(_ file: String, at path: String, _ ctx: inout DecodeContext) -> CGImage? {
        if let cached = ctx.images[file] { return cached }
        let shown = SceneIssue.quoted(file)
        guard let folder = ctx.assets else {
            ctx.fail(path, "images need a document read from a file, or an assets folder (\(shown) has no folder to be found in)")
            return nil
        }
        // One answer for a missing file, a path outside the folder and anything unreadable, so a
        // document cannot probe for files (AssetFolder).
        guard let (url, size) = folder.file(file) else {
            ctx.fail(path, "the image \(shown) is not a readable file inside the document's assets folder")
            return nil
        }
        let limits = ctx.limits
        guard size <= ctx.limits.maxImageBytes else {
            ctx.fail(path, "the image \(shown) is \(size) bytes, more than the limit of \(limits.maxImageBytes)")
            return nil
        }
        do {
            let data = try Data(contentsOf: url)
            let image = try ImageDecoder.decode(data, source: file)[0].image
            ctx.images[file] = image
            ctx.imagePaths[image.identifier] = file
            return image
        } catch {
            ctx.fail(path, "the image \(shown) could not be read: \(error)")
            return nil
        }
    }

    static func timingFunction(_ json: JSONValue, at path: String, _ ctx: inout DecodeContext) -> CAMediaTimingFunction? {
        if case .string(let name) = json {
            guard timingNames.contains(name) else {
                ctx.fail(path, "\"\(name)\" is not a timing function" + didYouMean(name, among: timingNames))
                return nil
            }
            return CAMediaTimingFunction(name: CAMediaTimingFunctionName(rawValue: name))
        }
        guard let points = numbers(json, count: 4, kind: .timingFunction, at: path, &ctx) else { return nil }
        guard points[0] >= 0, points[0] <= 1, points[2] >= 0, points[2] <= 1 else {
            ctx.fail(path, "a timing function's control point x values must lie in 0...1")
            return nil
        }
        return CAMediaTimingFunction(controlPoints: Float(points[0]), Float(points[1]), Float(points[2]), Float(points[3]))
    }

    /// ", did you mean \"x\"?" when one of `options` is a likely misspelling of `word`.
    /// Only options within reach are measured (an edit distance is at least the difference in
    /// length), so a long word costs nothing.
    static func didYouMean(_ word: String, among options: [String]) -> String {
        let length = word.count
        guard length <= 64 else { return "" }
        let lower = word.lowercased()
        let scored = options.lazy.filter { abs($0.count - length) <= max(2, $0.count / 3) }
            .map { ($0, editDistance(lower, $0.lowercased())) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, best.count / 3) else { return "" }
        return "; did you mean \"\(best)\"?"
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}

extension JSONValue {
    var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
    var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    var objectMembers: [(key: String, value: JSONValue)]? { if case .object(let m) = self { m } else { nil } }
}

extension SceneDocument {
    /// A colour written as a document writes one ("#rgb", "#rrggbb", "#rrggbbaa", or a name):
    /// what command-line options take. Throws the reason it is not one.
    public static func color(_ text: String) throws(SceneError) -> CGColor {
        var ctx = DecodeContext(assets: nil, limits: .standard)
        guard let color = SceneValueCodec.color(.string(text), at: "color", &ctx) else { throw SceneError.invalid(ctx.issues) }
        return color
    }
}
