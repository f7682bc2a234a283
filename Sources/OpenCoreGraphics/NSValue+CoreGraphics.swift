import Foundation

// Core Graphics values boxed in NSValue, as Apple's code hands them to `Any` parameters
// (animation values, key-value coding): `NSValue(cgPoint:)`, `.cgPointValue` and the rest.
// Foundation on Linux boxes points, sizes and rects itself (as NSPoint, NSSize, NSRect) but traps
// on any other struct, so a transform is boxed as an array of doubles ("[6d]").

extension NSValue {
    public convenience init(cgPoint point: CGPoint) { self.init(point: point) }
    public convenience init(cgSize size: CGSize) { self.init(size: size) }
    public convenience init(cgRect rect: CGRect) { self.init(rect: rect) }

    public convenience init(cgAffineTransform t: CGAffineTransform) {
        let storage = BoxedDoubles([t.a, t.b, t.c, t.d, t.tx, t.ty])
        self.init(bytes: storage.pointer, objCType: BoxedDoubles.affineTransformType)
    }

    public var cgPointValue: CGPoint { BoxedGeometry.point(self) ?? .zero }
    public var cgSizeValue: CGSize { BoxedGeometry.size(self) ?? .zero }
    public var cgRectValue: CGRect { BoxedGeometry.rect(self) ?? .zero }
    public var cgAffineTransformValue: CGAffineTransform { BoxedGeometry.affineTransform(self) ?? .identity }
}

/// Reading geometry out of `Any`, the way values reach animations and key-value coding: the value
/// itself, or an NSValue boxing one (by its type encoding; a box of another type reads as nil).
public enum BoxedGeometry {
    public static func point(_ any: Any?) -> CGPoint? {
        if let point = any as? CGPoint { return point }
        return box(any, holding: "{CGPoint=")?.pointValue
    }

    public static func size(_ any: Any?) -> CGSize? {
        if let size = any as? CGSize { return size }
        return box(any, holding: "{CGSize=")?.sizeValue
    }

    public static func rect(_ any: Any?) -> CGRect? {
        if let rect = any as? CGRect { return rect }
        return box(any, holding: "{CGRect=")?.rectValue
    }

    public static func affineTransform(_ any: Any?) -> CGAffineTransform? {
        if let transform = any as? CGAffineTransform { return transform }
        guard let m = doubles(any, type: BoxedDoubles.affineTransformType, count: 6) else { return nil }
        return CGAffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5])
    }

    /// `any` when it is an NSValue (not a number) whose type encoding starts with `prefix`.
    private static func box(_ any: Any?, holding prefix: String) -> NSValue? {
        guard let value = any as? NSValue, !(value is NSNumber), encoding(of: value).hasPrefix(prefix) else { return nil }
        return value
    }

    /// The type encoding of a boxed value ("{CGPoint=dd}", "[16d]", ...).
    public static func encoding(of value: NSValue) -> String { String(cString: value.objCType) }

    /// The `count` doubles of an NSValue boxing an array of them with type encoding `type`.
    public static func doubles(_ any: Any?, type: String, count: Int) -> [Double]? {
        guard let value = box(any, holding: type), encoding(of: value) == type else { return nil }
        var doubles = [Double](repeating: 0, count: count)
        doubles.withUnsafeMutableBytes { value.getValue($0.baseAddress!) }
        return doubles
    }
}

/// Doubles in memory of their own, for `NSValue(bytes:objCType:)`, which copies them: a
/// convenience initializer must call `self.init` directly, not from inside a closure.
public final class BoxedDoubles {
    public static let affineTransformType = "[6d]"
    public let pointer: UnsafeMutablePointer<Double>

    public init(_ values: [Double]) {
        pointer = .allocate(capacity: values.count)
        pointer.initialize(from: values, count: values.count)
    }

    deinit { pointer.deallocate() }
}
