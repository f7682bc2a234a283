import Foundation
import LayerModel
import OpenCoreGraphics

// A shape layer's items ("shapes"): paths (bezier, rectangle, ellipse, star), the paints that
// fill or stroke every path before them in their group (solid or gradient), trims, groups with
// their transforms. Drawn as Core Animation draws lottie-ios's trees: each group a layer with its
// transform, each paint a CAShapeLayer (a CAGradientLayer masked by one for gradients) whose path
// is the union of the paths before it, the items last in the list lowest.

indirect enum LottieShapeItem {
    case group(items: [LottieShapeItem], transform: LottieTransform)
    case path(LottieAnimatable<LottieBezier>)
    /// Rectangles and ellipses start where After Effects starts them (a rectangle at its top-right
    /// corner, an ellipse at its top) and run clockwise, or the other way when `reversed` ("d": 3):
    /// where a trim cuts them depends on it.
    case rectangle(size: LottieAnimatable<[Double]>, position: LottieAnimatable<[Double]>, roundness: LottieAnimatable<Double>,
                   reversed: Bool)
    case ellipse(size: LottieAnimatable<[Double]>, position: LottieAnimatable<[Double]>, reversed: Bool)
    case star(LottieStar)
    case paint(LottiePaint)
    case trim(start: LottieAnimatable<Double>, end: LottieAnimatable<Double>, offset: LottieAnimatable<Double>)
    case transform(LottieTransform)
    case repeater(LottieRepeater)
    /// Round corners ("rd"): the paths of its group rounded by the radius (LottieRoundCorners.swift).
    case roundCorners(LottieAnimatable<Double>)
    /// A path or star with its sharp corners rounded by `radius`.
    case rounded(LottieShapeItem, radius: LottieAnimatable<Double>)
    /// Zig-zag ("zz") and offset path ("op"), and geometry they remake (LottiePathModifier.swift).
    case zigZag(LottieZigZag)
    case offsetPath(LottieOffsetPath)
    case modified(LottieShapeItem, [LottiePathModifier])
    /// Read and not drawn (named in the import's warnings).
    case unsupported(String)

    static func parse(_ node: LottieNode) throws -> LottieShapeItem? {
        if node["hd"]?.bool() == true { return nil }
        let type = try node["ty"]?.string() ?? ""
        switch type {
        case "gr":
            let items = try (node["it"]?.array() ?? []).compactMap(parse)
            var transform = try LottieTransform(nil)
            var rest: [LottieShapeItem] = []
            for item in items {
                if case .transform(let t) = item { transform = t } else { rest.append(item) }
            }
            return .group(items: rest, transform: transform)
        case "sh":
            guard let ks = node["ks"] else { throw node.fail("a path needs \"ks\"") }
            return .path(try ks.animatable { try LottieBezier($0) })
        case "rc":
            return .rectangle(size: try node.numbersProperty("s", default: [0, 0]), position: try node.numbersProperty("p", default: [0, 0]),
                              roundness: try node.numberProperty("r", default: 0), reversed: try node["d"]?.number() == 3)
        case "el":
            return .ellipse(size: try node.numbersProperty("s", default: [0, 0]), position: try node.numbersProperty("p", default: [0, 0]),
                            reversed: try node["d"]?.number() == 3)
        case "sr": return .star(try LottieStar(node))
        case "fl", "st", "gf", "gs": return .paint(try LottiePaint(node, type: type))
        case "tm":
            return .trim(start: try node.numberProperty("s", default: 0), end: try node.numberProperty("e", default: 100),
                         offset: try node.numberProperty("o", default: 0))
        case "tr": return .transform(try LottieTransform(node))
        case "rp": return .repeater(try LottieRepeater(node))
        case "rd": return .roundCorners(try node.numberProperty("r", default: 0))
        case "zz": return .zigZag(try LottieZigZag(node))
        case "op": return .offsetPath(try LottieOffsetPath(node))
        case "mm": return nil // merge paths: the paths are combined in one layer anyway
        default: return .unsupported(type)
        }
    }

    /// Frames where the item's geometry has keyframes.
    var keyTimes: LottieKeyTimes {
        switch self {
        case .path(let p): p.keyTimes
        case .rectangle(let s, let p, let r, _): s.keyTimes + p.keyTimes + r.keyTimes
        case .ellipse(let s, let p, _): s.keyTimes + p.keyTimes
        case .star(let star): star.keyTimes
        case .group(let items, let transform): LottieKeyTimes(items.map(\.keyTimes)) + transform.keyTimes
        case .rounded(let item, let radius): item.keyTimes + radius.keyTimes
        case .modified(let item, let modifiers): item.keyTimes + LottieKeyTimes(modifiers.map(\.keyTimes))
        default: .none
        }
    }

    /// Adds the item's outline at `frame` (groups: every path in them, through their transforms).
    func addPath(at frame: Double, to path: CGMutablePath, transform: CGAffineTransform) {
        switch self {
        case .star(let star):
            // Lines, closed by the close (as the sample frames Apple drew match; the outline as
            // cubics lost one of TypeFace's).
            let outline = star.outline(at: frame)
            path.addLines(between: outline.vertices, transform: transform)
            path.closeSubpath()
        case .group(let items, let groupTransform):
            let m = groupTransform.matrix(at: frame).concatenating(transform)
            for item in items { item.addPath(at: frame, to: path, transform: m) }
        default:
            for outline in outlines(at: frame, transform: .identity) { outline.add(to: path, transform: transform) }
        }
    }

    /// The item's outlines at `frame` through `transform`, as bezier shapes.
    func outlines(at frame: Double, transform: CGAffineTransform) -> [LottieBezier] {
        switch self {
        case .path(let p):
            return [p.value(at: frame, interpolate: LottieBezier.mix).applying(transform)]
        case .rectangle(let sizeProperty, let positionProperty, let roundness, let reversed):
            let s = sizeProperty.value(at: frame, interpolate: LottieEasing.mix), p = positionProperty.value(at: frame, interpolate: LottieEasing.mix)
            guard s.count >= 2, p.count >= 2 else { return [] }
            let r = min(max(roundness.value(at: frame) { $0 + ($1 - $0) * $2 }, 0), min(abs(s[0]), abs(s[1])) / 2)
            return [LottieOutline.rectangle(center: CGPoint(x: p[0], y: p[1]), size: CGSize(width: s[0], height: s[1]), radius: r,
                                            reversed: reversed).applying(transform)]
        case .ellipse(let sizeProperty, let positionProperty, let reversed):
            let s = sizeProperty.value(at: frame, interpolate: LottieEasing.mix), p = positionProperty.value(at: frame, interpolate: LottieEasing.mix)
            guard s.count >= 2, p.count >= 2 else { return [] }
            return [LottieOutline.ellipse(center: CGPoint(x: p[0], y: p[1]), size: CGSize(width: s[0], height: s[1]), reversed: reversed)
                .applying(transform)]
        case .star(let star):
            return [star.outline(at: frame).applying(transform)]
        case .rounded(let item, let radius):
            let r = radius.value(at: frame) { $0 + ($1 - $0) * $2 }
            return item.outlines(at: frame, transform: .identity).map { $0.roundingCorners(radius: r).applying(transform) }
        case .modified(let item, let modifiers):
            var outlines = item.outlines(at: frame, transform: .identity)
            for modifier in modifiers { outlines = outlines.map { modifier.apply($0, at: frame) } }
            return outlines.map { $0.applying(transform) }
        case .group(let items, let groupTransform):
            let m = groupTransform.matrix(at: frame).concatenating(transform)
            return items.filter(\.isGeometry).flatMap { $0.outlines(at: frame, transform: m) }
        default:
            return []
        }
    }

    var isGeometry: Bool {
        switch self {
        case .path, .rectangle, .ellipse, .star, .group, .rounded, .modified: true
        default: false
        }
    }
}

/// Rectangles and ellipses as bezier shapes, starting and running as After Effects draws them.
enum LottieOutline {
    /// The handle length of a quarter ellipse as a share of its radius.
    static let kappa = 0.5522847498

    static func ellipse(center c: CGPoint, size: CGSize, reversed: Bool) -> LottieBezier {
        let rx = size.width / 2, ry = size.height / 2, kx = rx * kappa, ky = ry * kappa
        // Top, right, bottom, left: clockwise on screen (y down).
        let vertices = [CGPoint(x: c.x, y: c.y - ry), CGPoint(x: c.x + rx, y: c.y), CGPoint(x: c.x, y: c.y + ry), CGPoint(x: c.x - rx, y: c.y)]
        let outs = [CGPoint(x: kx, y: 0), CGPoint(x: 0, y: ky), CGPoint(x: -kx, y: 0), CGPoint(x: 0, y: -ky)]
        let ins = outs.map { CGPoint(x: -$0.x, y: -$0.y) }
        return LottieBezier(vertices: vertices, inTangents: ins, outTangents: outs, closed: true).reversed(if: reversed)
    }

    static func rectangle(center c: CGPoint, size: CGSize, radius r: Double, reversed: Bool) -> LottieBezier {
        let left = c.x - size.width / 2, right = c.x + size.width / 2, top = c.y - size.height / 2, bottom = c.y + size.height / 2
        guard r > 0 else {
            let corners = [CGPoint(x: right, y: top), CGPoint(x: right, y: bottom), CGPoint(x: left, y: bottom), CGPoint(x: left, y: top)]
            return LottieBezier(vertices: corners, inTangents: Array(repeating: .zero, count: 4),
                                outTangents: Array(repeating: .zero, count: 4), closed: true).reversed(if: reversed)
        }
        let k = r * kappa
        // From the top-right corner's lower end, clockwise: each corner an arc, each side a line.
        let vertices = [CGPoint(x: right, y: top + r), CGPoint(x: right, y: bottom - r), CGPoint(x: right - r, y: bottom),
                        CGPoint(x: left + r, y: bottom), CGPoint(x: left, y: bottom - r), CGPoint(x: left, y: top + r),
                        CGPoint(x: left + r, y: top), CGPoint(x: right - r, y: top)]
        let outs = [CGPoint.zero, CGPoint(x: 0, y: k), .zero, CGPoint(x: -k, y: 0), .zero, CGPoint(x: 0, y: -k), .zero, CGPoint(x: k, y: 0)]
        let ins = [CGPoint(x: 0, y: -k), .zero, CGPoint(x: k, y: 0), .zero, CGPoint(x: 0, y: k), .zero, CGPoint(x: -k, y: 0), .zero]
        return LottieBezier(vertices: vertices, inTangents: ins, outTangents: outs, closed: true).reversed(if: reversed)
    }
}

extension LottieBezier {
    /// The same outline run the other way (its first vertex kept first).
    func reversed(if condition: Bool) -> LottieBezier {
        guard condition, vertices.count > 1 else { return self }
        let order = [0] + Array((1..<vertices.count).reversed())
        return LottieBezier(vertices: order.map { vertices[$0] }, inTangents: order.map { outTangents[$0] },
                            outTangents: order.map { inTangents[$0] }, closed: closed)
    }
}

/// Polygons and stars ("sr"): points around a centre at the outer radius (and, for a star, the
/// inner radius between them), the first straight up turned by the rotation.
struct LottieStar {
    var isStar: Bool
    var points, outerRadius, innerRadius, rotation: LottieAnimatable<Double>
    var position: LottieAnimatable<[Double]>
    /// Whether a point is rounded (`os`, `is` not 0), which is read and not drawn: drawn as
    /// lottie-ios builds it (handles along the points' circle, 0.25 or 0.47829 of radius x
    /// roundness), TypeFace's polygons (`os` -10) matched Apple's frames worse (F at 25% fell to
    /// 98.46% of pixels, L at 25% stayed under the bar at 98.48%).
    var isRounded: Bool

    init(_ node: LottieNode) throws {
        isStar = (try node["sy"]?.number() ?? 1) == 1
        points = try node.numberProperty("pt", default: 5)
        outerRadius = try node.numberProperty("or", default: 0)
        innerRadius = try node.numberProperty("ir", default: 0)
        rotation = try node.numberProperty("r", default: 0)
        position = try node.numbersProperty("p", default: [0, 0])
        let roundness = [try node.numberProperty("os", default: 0)] + (isStar ? [try node.numberProperty("is", default: 0)] : [])
        isRounded = roundness.contains { $0.keyframes.contains { $0.value != 0 } }
    }

    var keyTimes: LottieKeyTimes {
        LottieKeyTimes([points, outerRadius, innerRadius, rotation].map(\.keyTimes)) + position.keyTimes
    }

    /// The outline at `frame`: straight edges between the points, closed.
    func outline(at frame: Double) -> LottieBezier {
        func number(_ property: LottieAnimatable<Double>) -> Double { property.value(at: frame) { $0 + ($1 - $0) * $2 } }
        let p = position.value(at: frame, interpolate: LottieEasing.mix)
        let center = CGPoint(x: p.count > 0 ? p[0] : 0, y: p.count > 1 ? p[1] : 0)
        let count = min(max(Int(number(points).rounded()), 2), 1000) * (isStar ? 2 : 1)
        let outer = number(outerRadius), inner = number(innerRadius), turn = number(rotation) * .pi / 180
        let vertices = (0..<count).map { i -> CGPoint in
            let angle = -Double.pi / 2 + turn + Double(i) * 2 * .pi / Double(count)
            let radius = isStar && i % 2 == 1 ? inner : outer
            return CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
        }
        let none = Array(repeating: CGPoint.zero, count: vertices.count)
        return LottieBezier(vertices: vertices, inTangents: none, outTangents: none, closed: true)
    }
}

/// A fill or stroke, solid or gradient.
struct LottiePaint {
    enum Kind { case fill, stroke }
    var kind: Kind
    var color: LottieAnimatable<[Double]>
    var opacity: LottieAnimatable<Double>
    var evenOdd = false
    var width = LottieAnimatable(constant: 1.0)
    var cap: CAShapeLayerLineCap = .round
    var join: CAShapeLayerLineJoin = .round
    var miterLimit = 4.0
    /// Dash and gap lengths at their first keyframe (Core Animation's `lineDashPattern` does not
    /// animate; `dashesAnimated` says when a file animates them); the offset animates.
    var dashes: [Double] = []
    var dashesAnimated = false
    var dashOffset = LottieAnimatable(constant: 0.0)
    /// A gradient: linear (1) or radial (2), its end points and its stops.
    var gradientType: Int?
    /// A radial gradient with a highlight (not drawn: see `init`).
    var hasHighlight = false
    var start = LottieAnimatable(constant: [0.0, 0.0])
    var end = LottieAnimatable(constant: [0.0, 0.0])
    var stopCount = 0
    var stops = LottieAnimatable(constant: [Double]())

    init(_ node: LottieNode, type: String) throws {
        kind = type == "fl" || type == "gf" ? .fill : .stroke
        color = try node.numbersProperty("c", default: [0, 0, 0, 1]).asColor()
        opacity = try node.numberProperty("o", default: 100)
        evenOdd = (try node["r"]?.number()) == 2
        if kind == .stroke {
            width = try node.numberProperty("w", default: 1)
            cap = [1: .butt, 2: .round, 3: .square][Int(try node["lc"]?.number() ?? 2)] ?? .round
            join = [1: .miter, 2: .round, 3: .bevel][Int(try node["lj"]?.number() ?? 2)] ?? .round
            miterLimit = try node["ml"]?.number() ?? 4
            for dash in try node["d"]?.array() ?? [] {
                let value = try dash["v"].map { try $0.animatable { try $0.numbers().first ?? 0 } } ?? LottieAnimatable(constant: 0)
                if try dash["n"]?.string() == "o" {
                    dashOffset = value
                } else {
                    dashes.append(value.first)
                    dashesAnimated = dashesAnimated || value.isAnimated
                }
            }
        }
        if type == "gf" || type == "gs" {
            gradientType = Int(try node["t"]?.number() ?? 1)
            start = try node.numbersProperty("s", default: [0, 0])
            end = try node.numbersProperty("e", default: [0, 0])
            guard let g = node["g"] else { throw node.fail("a gradient needs \"g\"") }
            stopCount = Int(try g["p"]?.number() ?? 0)
            // A radial gradient's highlight moves its focus off the centre: Core Animation's
            // radial gradient has no focus (lottie-ios's Core Animation engine leaves it out too).
            if let h = node["h"] { hasHighlight = try h.animatable { try $0.numbers().first ?? 0 }.keyframes.contains { $0.value != 0 } }
            stops = try g["k"].map { try $0.animatable { try $0.numbers() } } ?? LottieAnimatable(constant: [])
        }
    }

    /// Gradient colours and locations from Lottie's flat stops: `stopCount` colour stops
    /// (position, r, g, b), opaque; the opacity stops that may follow are `opacityGradient`'s.
    func gradient(_ flat: [Double]) -> (colors: [CGColor], locations: [NSNumber]) {
        let count = min(stopCount, flat.count / 4)
        let stops = (0..<count).map { flat[$0 * 4] }
        return (stops.indices.map { i in deviceColor(flat[i * 4 + 1], flat[i * 4 + 2], flat[i * 4 + 3], 1) },
                stops.map { NSNumber(value: $0) })
    }

    /// Whether any keyframe's stops carry opacity stops (position, alpha) after the colours.
    var hasOpacityStops: Bool { stops.keyframes.contains { $0.value.count >= stopCount * 4 + 2 } }

    /// The opacity stops at their own positions, as white of their alpha: a gradient that masks
    /// the colours, as lottie-ios masks them (the two sets of stops need not line up).
    func opacityGradient(_ flat: [Double]) -> (colors: [CGColor], locations: [NSNumber]) {
        let alphas = stride(from: min(stopCount, flat.count / 4) * 4, to: flat.count - 1, by: 2).map { (flat[$0], flat[$0 + 1]) }
        guard !alphas.isEmpty else { return ([deviceColor(1, 1, 1, 1)], [0]) }
        return (alphas.map { deviceColor(1, 1, 1, min(max($0.1, 0), 1)) }, alphas.map { NSNumber(value: $0.0) })
    }
}

/// A paint's colour: its alpha is not read (Lottie gives a paint's transparency as its opacity,
/// and Apple's frames of lottie-ios's trees show paints whose colour's alpha is 0 opaque).
func lottieOpaqueColor(_ v: [Double]) -> CGColor { lottieColor(Array(v.prefix(3)) + [1]) }

/// The colour of a Lottie colour value (0...1 components, alpha optional; see `asColor()` for
/// files that give 0...255), each component clamped as a colour between keyframes that ease
/// past their ends is.
func lottieColor(_ v: [Double]) -> CGColor {
    func component(_ i: Int, _ fallback: Double) -> Double { i < v.count ? min(max(v[i], 0), 1) : fallback }
    return deviceColor(component(0, 0), component(1, 0), component(2, 0), component(3, 1))
}

/// A colour in device RGB, as lottie-ios makes every colour of a document.
func deviceColor(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double) -> CGColor {
    CGColor(colorSpace: CGColorSpaceCreateDeviceRGB(), components: [red, green, blue, alpha])!
}

extension LottieAnimatable where Value == [Double] {
    /// The colour keyframes in 0...1: very old exports give 0...255 components, told apart by
    /// the keyframes themselves (a value between keyframes may ease past 1 in either kind).
    func asColor() -> LottieAnimatable<[Double]> {
        guard keyframes.contains(where: { $0.value.prefix(3).contains { $0 > 1 } }) else { return self }
        return map { v in v.enumerated().map { $0.offset < 3 ? $0.element / 255 : $0.element } }
    }
}
