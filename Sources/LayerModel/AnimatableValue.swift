import Foundation
import OpenCoreGraphics

/// A number in any of Swift's and Foundation's spellings.
public protocol NumberConvertible {
    var doubleValue: Double { get }
}
extension Double: NumberConvertible { public var doubleValue: Double { self } }
extension Float: NumberConvertible { public var doubleValue: Double { Double(self) } }
extension CGFloat: NumberConvertible { public var doubleValue: Double { Double(self) } }
extension Int: NumberConvertible { public var doubleValue: Double { Double(self) } }
extension NSNumber: NumberConvertible {}

/// `value` as a number when it is one in any spelling (Swift's numeric types, NSNumber), else nil:
/// what key-value coding and animations read numbers with.
func numberValue(_ value: Any?) -> Double? {
    switch value {
    case let n as NumberConvertible: n.doubleValue
    case let n as NSNumber: n.doubleValue
    default: nil
    }
}

/// The value types animations interpolate, with the arithmetic the from/by/to table needs.
enum AnimatableValue {
    case number(Double)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    case color(CGColor)
    /// Boxed: a 128-byte payload would make every value of every kind that large to copy.
    indirect case transform(CATransform3D)
    case numbers([Double])
    /// A list of colours (a gradient's `colors`), interpolated colour by colour; lists of
    /// different lengths do not blend.
    case colors([CGColor])
    /// A path interpolates point by point with paths of the same elements (Core Animation's rule:
    /// paths with different element lists do not blend; they switch at the end).
    case path(CGPath)

    /// `any` in any spelling Apple's API takes it in: a Swift value, an NSNumber of any numeric
    /// type, or an NSValue boxing a point, size, rect, transform or affine transform.
    init?(_ any: Any) {
        // The types properties store, tried first by their exact type: a failed cast to a
        // protocol (NumberConvertible, BinaryInteger) looks the type's conformances up, and
        // every animated value of every frame is read through here.
        switch any {
        case let v as Double: self = .number(v); return
        case let v as CGFloat: self = .number(Double(v)); return
        case let v as CGPoint: self = .point(v); return
        case let v as CGSize: self = .size(v); return
        case let v as CGRect: self = .rect(v); return
        case let v as CATransform3D: self = .transform(v); return
        // Classes: a cast to one checks the class, with no conformance lookup (a shape layer's
        // animated path and colours came after four failed protocol casts every frame).
        case let v as CGColor: self = .color(v); return
        case let v as CGPath: self = .path(v); return
        default: break
        }
        switch any {
        case let v as NumberConvertible: self = .number(v.doubleValue)
        case let v as NSNumber: self = .number(v.doubleValue)
        case let v as any BinaryInteger: self = .number(Double(v))
        case let v as any BinaryFloatingPoint: self = .number(Double(v))
        case let v as [NumberConvertible]: self = .numbers(v.map(\.doubleValue))
        case let v as [CGColor]: self = .colors(v)
        case let v as [Any]:
            let numbers = v.compactMap { AnimatableValue($0).flatMap { if case .number(let n) = $0 { n } else { nil } } }
            guard numbers.count == v.count else { return nil }
            self = .numbers(numbers)
        default:
            if let v = BoxedGeometry.point(any) {
                self = .point(v)
            } else if let v = BoxedGeometry.size(any) {
                self = .size(v)
            } else if let v = BoxedGeometry.rect(any) {
                self = .rect(v)
            } else if let v = CATransform3D.unboxed(any) {
                self = .transform(v)
            } else if let v = BoxedGeometry.affineTransform(any) {
                self = .transform(CATransform3DMakeAffineTransform(v))
            } else {
                return nil
            }
        }
    }

    /// `any` read as the same kind as `template`, or nil when it is not. A point and a size are
    /// both a pair of numbers to Core Animation, which takes either where the other is stored
    /// (lottie-ios animates `transform.translation`, a size, with points), so each is read as
    /// the other here; an empty list is a list of either kind.
    init?(_ any: Any, like template: AnimatableValue) {
        guard let value = AnimatableValue(any) else { return nil }
        switch (value, template) {
        case _ where value.kind == template.kind: self = value
        case (.point(let p), .size): self = .size(CGSize(width: p.x, height: p.y))
        case (.size(let s), .point): self = .point(CGPoint(x: s.width, y: s.height))
        case (.numbers([]), .colors): self = .colors([])
        default: return nil
        }
    }

    /// What kind of value this is, for messages: "a number", "a point", ...
    var kindName: String {
        switch self {
        case .number: "a number"
        case .point: "a point (CGPoint)"
        case .size: "a size (CGSize)"
        case .rect: "a rectangle (CGRect)"
        case .color: "a colour (CGColor)"
        case .transform: "a transform (CATransform3D)"
        case .numbers: "an array of numbers"
        case .colors: "an array of colours (CGColor)"
        case .path: "a path (CGPath)"
        }
    }

    /// A value's type for messages, with what an NSValue boxes ("an NSValue boxing {CGSize=dd}").
    static func describe(_ value: Any) -> String {
        if let boxed = value as? NSValue, !(boxed is NSNumber) {
            return "an NSValue boxing \(BoxedGeometry.encoding(of: boxed))"
        }
        if let read = AnimatableValue(value) { return "\(read.kindName) (\(type(of: value)))" }
        return "a \(type(of: value))"
    }

    /// Which case this is (what `init(_:like:)` matches on).
    var kind: Int {
        switch self {
        case .number: 0
        case .point: 1
        case .size: 2
        case .rect: 3
        case .color: 4
        case .transform: 5
        case .numbers: 6
        case .path: 7
        case .colors: 8
        }
    }

    /// The value as the property it came from stores it.
    var anyValue: Any {
        switch self {
        case .number(let v): v
        case .point(let v): v
        case .size(let v): v
        case .rect(let v): v
        case .color(let v): v
        case .transform(let v): v
        case .numbers(let v): v
        case .colors(let v): v
        case .path(let v): v
        }
    }

    /// The value as the same Swift type as `template` (a CGFloat stays a CGFloat), so custom
    /// properties read back what they stored.
    func anyValue(like template: Any?) -> Any {
        switch (self, template) {
        case (.number(let v), is CGFloat): CGFloat(v)
        case (.number(let v), is Float): Float(v)
        case (.number(let v), is Int): Int(clampingPixels: v, to: Int.min...Int.max)
        case (.numbers(let v), is [CGFloat]): v.map { CGFloat($0) }
        case (.numbers(let v), is [Float]): v.map { Float($0) }
        case (.numbers(let v), is [NSNumber]): v.map { NSNumber(value: $0) }
        default: anyValue
        }
    }

    /// The additive identity of this kind.
    var zero: AnimatableValue {
        switch self {
        case .number: .number(0)
        case .point: .point(.zero)
        case .size: .size(.zero)
        case .rect: .rect(.zero)
        case .color: .color(CGColor(red: 0, green: 0, blue: 0, alpha: 0))
        case .transform: .transform(CATransform3DIdentity)
        case .numbers(let v): .numbers(v.map { _ in 0 })
        case .colors(let v): .colors(v.map { _ in CGColor(red: 0, green: 0, blue: 0, alpha: 0) })
        case .path(let p): .path(PathVector.path(like: p, points: p.elements.flatMap(\.points).map { _ in CGPoint.zero }))
        }
    }

    /// Component-wise sum; transforms concatenate (`self` then `other`).
    func adding(_ other: AnimatableValue) -> AnimatableValue? {
        switch (self, other) {
        case let (.number(a), .number(b)): return .number(a + b)
        case let (.point(a), .point(b)): return .point(CGPoint(x: a.x + b.x, y: a.y + b.y))
        case let (.size(a), .size(b)): return .size(CGSize(width: a.width + b.width, height: a.height + b.height))
        case let (.rect(a), .rect(b)):
            return .rect(CGRect(x: a.origin.x + b.origin.x, y: a.origin.y + b.origin.y,
                                width: a.size.width + b.size.width, height: a.size.height + b.size.height))
        case let (.color(a), .color(b)):
            return .color(a.with(red: a.rgba.red + b.rgba.red, green: a.rgba.green + b.rgba.green,
                                 blue: a.rgba.blue + b.rgba.blue, alpha: a.rgba.alpha + b.rgba.alpha))
        case let (.transform(a), .transform(b)): return .transform(CATransform3DConcat(b, a))
        case let (.numbers(a), .numbers(b)) where a.count == b.count: return .numbers(zip(a, b).map(+))
        case let (.colors(a), .colors(b)) where a.count == b.count:
            return .colors(zip(a, b).map { a, b in
                a.with(red: a.rgba.red + b.rgba.red, green: a.rgba.green + b.rgba.green,
                       blue: a.rgba.blue + b.rgba.blue, alpha: a.rgba.alpha + b.rgba.alpha)
            })
        case let (.path(a), .path(b)) where PathVector.sameShape(a, b):
            let sum = zip(a.elements.flatMap(\.points), b.elements.flatMap(\.points)).map { CGPoint(x: $0.x + $1.x, y: $0.y + $1.y) }
            return .path(PathVector.path(like: a, points: sum))
        default: return nil
        }
    }

    /// Component-wise product with `k`; a transform is scaled through its decomposition.
    func scaled(by k: Double) -> AnimatableValue {
        switch self {
        case .number(let v): return .number(v * k)
        case .point(let p): return .point(CGPoint(x: p.x * k, y: p.y * k))
        case .size(let s): return .size(CGSize(width: s.width * k, height: s.height * k))
        case .rect(let r): return .rect(CGRect(x: r.origin.x * k, y: r.origin.y * k, width: r.size.width * k, height: r.size.height * k))
        case .color(let c):
            return .color(c.with(red: c.rgba.red * k, green: c.rgba.green * k, blue: c.rgba.blue * k, alpha: c.rgba.alpha * k))
        case .transform(let t):
            return .transform(k == -1 ? CATransform3DInvert(t) : CATransform3DIdentity.interpolated(to: t, fraction: k))
        case .numbers(let v): return .numbers(v.map { $0 * k })
        case .colors(let v):
            return .colors(v.map { $0.with(red: $0.rgba.red * k, green: $0.rgba.green * k, blue: $0.rgba.blue * k, alpha: $0.rgba.alpha * k) })
        case .path(let p): return .path(PathVector.path(like: p, points: p.elements.flatMap(\.points).map { CGPoint(x: $0.x * k, y: $0.y * k) }))
        }
    }

    /// The value `fraction` of the way to `other` (0 gives self, 1 gives other).
    func interpolated(to other: AnimatableValue, fraction f: Double) -> AnimatableValue? {
        switch (self, other) {
        case let (.transform(a), .transform(b)):
            return .transform(a.interpolated(to: b, fraction: f))
        // a + (b - a) f point by point, made once: the very numbers of the general form below
        // (b + a x -1 is b - a exactly), where that made four paths (a keyframed shape's every
        // frame: a fifth of a Lottie glyph's evaluation).
        case let (.number(a), .number(b)):
            return .number(a + (b - a) * f)
        case let (.path(a), .path(b)):
            if let blended = a.blended(to: b, fraction: CGFloat(f)) { return .path(blended) }
        default:
            break
        }
        guard let difference = other.adding(scaled(by: -1)) else { return nil }
        return adding(difference.scaled(by: f))
    }
}

extension AnimatableValue {
    /// The value as a vector, for splines and distances; nil for transforms (which interpolate
    /// through their decomposition instead).
    var components: [Double]? {
        switch self {
        case .number(let v): [v]
        case .point(let p): [p.x, p.y]
        case .size(let s): [s.width, s.height]
        case .rect(let r): [r.origin.x, r.origin.y, r.size.width, r.size.height]
        case .color(let c): [c.rgba.red, c.rgba.green, c.rgba.blue, c.rgba.alpha]
        case .numbers(let v): v
        case .colors(let v): v.flatMap { [$0.rgba.red, $0.rgba.green, $0.rgba.blue, $0.rgba.alpha] }
        case .path(let p): p.elements.flatMap(\.points).flatMap { [Double($0.x), Double($0.y)] }
        case .transform: nil
        }
    }

    /// A value of the same kind from a vector made by `components`.
    func withComponents(_ c: [Double]) -> AnimatableValue {
        switch self {
        case .number: .number(c[0])
        case .point: .point(CGPoint(x: c[0], y: c[1]))
        case .size: .size(CGSize(width: c[0], height: c[1]))
        case .rect: .rect(CGRect(x: c[0], y: c[1], width: c[2], height: c[3]))
        case .color(let template): .color(template.with(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
        case .numbers: .numbers(c)
        case .colors(let templates):
            .colors(stride(from: 0, to: c.count - 3, by: 4).map { i in
                let template = i / 4 < templates.count ? templates[i / 4] : CGColor.clear
                return template.with(red: c[i], green: c[i + 1], blue: c[i + 2], alpha: c[i + 3])
            })
        case .path(let p): .path(PathVector.path(like: p, points: stride(from: 0, to: c.count - 1, by: 2).map { CGPoint(x: c[$0], y: c[$0 + 1]) }))
        case .transform: self
        }
    }

    /// How far apart two values are: Euclidean over the components; for transforms, over the
    /// sixteen entries.
    func distance(to other: AnimatableValue) -> Double {
        if case let (.transform(a), .transform(b)) = (self, other) {
            return zip(a.rows, b.rows).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
        }
        guard let a = components, let b = other.components, a.count == b.count else { return 0 }
        return zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }
}

/// Paths as vectors of their points, for interpolation.
enum PathVector {
    /// True when both paths have the same elements in the same order (their points may differ).
    static func sameShape(_ a: CGPath, _ b: CGPath) -> Bool {
        a.elements.count == b.elements.count && zip(a.elements, b.elements).allSatisfy { kind($0) == kind($1) }
    }

    private static func kind(_ e: PathElement) -> Int {
        switch e {
        case .move: 0
        case .line: 1
        case .quad: 2
        case .cubic: 3
        case .close: 4
        }
    }

    /// A path with `template`'s elements and these points, in order.
    static func path(like template: CGPath, points: [CGPoint]) -> CGPath {
        let path = CGMutablePath()
        var i = 0
        func next() -> CGPoint {
            defer { i += 1 }
            return i < points.count ? points[i] : .zero
        }
        for element in template.elements {
            switch element {
            case .move: path.move(to: next())
            case .line: path.addLine(to: next())
            case .quad: let c = next(); path.addQuadCurve(to: next(), control: c)
            case .cubic: let c1 = next(), c2 = next(); path.addCurve(to: next(), control1: c1, control2: c2)
            case .close: path.closeSubpath()
            }
        }
        return path
    }
}
