import Foundation
import OpenCoreGraphics

/// A value set by key-value coding read back as a declared property's type, as Objective-C's
/// key-value coding converts: a name for a string constant (`"center"` for an alignment mode), a
/// number of any type for a number or a flag, a boxed point, size, rect or transform for the
/// struct, a list of numbers for `[NSNumber]`. Nil when it does not convert.
func coerceKeyValue<Value>(_ raw: Any?, to type: Value.Type) -> Value? {
    if let value = raw as? Value { return value }
    guard let raw else { return nil }
    if let named = Value.self as? any RawRepresentable.Type, let value = fromRawValue(named, raw) as? Value { return value }
    let converted: Any? = switch Value.self {
    case is CGFloat.Type, is CGFloat?.Type: numberValue(raw).map { CGFloat($0) }
    case is Double.Type, is Double?.Type: numberValue(raw)
    case is Float.Type, is Float?.Type: numberValue(raw).map { Float($0) }
    case is Int.Type, is Int?.Type: numberValue(raw).flatMap { $0.isFinite ? Int(exactly: $0.rounded()) : nil }
    case is UInt32.Type, is UInt32?.Type: numberValue(raw).flatMap { $0.isFinite ? UInt32(exactly: $0.rounded()) : nil }
    case is Bool.Type, is Bool?.Type: numberValue(raw).map { $0 != 0 }
    case is CGPoint.Type, is CGPoint?.Type: BoxedGeometry.point(raw)
    case is CGSize.Type, is CGSize?.Type: BoxedGeometry.size(raw)
    case is CGRect.Type, is CGRect?.Type: BoxedGeometry.rect(raw)
    case is CATransform3D.Type, is CATransform3D?.Type: CATransform3D.unboxed(raw)
    case is [NSNumber].Type, is [NSNumber]?.Type: numberList(raw)?.map { NSNumber(value: $0) }
    case is [CGFloat].Type, is [CGFloat]?.Type: numberList(raw)?.map { CGFloat($0) }
    default: nil
    }
    return converted.flatMap { $0 as? Value }
}

/// What key-value coding stores for a declared property's value: a string constant as its name
/// (Apple's keys hold NSString there), anything else as it is.
func keyValueStored<Value>(_ value: Value) -> Any? {
    if let named = value as? any RawRepresentable, let name = named.rawValue as? String { return name }
    return value
}

private func fromRawValue<R: RawRepresentable>(_ type: R.Type, _ raw: Any) -> R? {
    (raw as? R.RawValue).flatMap(R.init(rawValue:))
}

/// A list of numbers in any spelling, or nil when one of them is not a number.
func numberList(_ raw: Any) -> [Double]? {
    guard let list = raw as? [Any] else { return nil }
    let numbers = list.compactMap(numberValue)
    return numbers.count == list.count ? numbers : nil
}
