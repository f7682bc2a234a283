import Foundation

/// Names of the functions that turn an animated number into a transform.
public struct CAValueFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let rotateX = CAValueFunctionName(rawValue: "rotateX")
    public static let rotateY = CAValueFunctionName(rawValue: "rotateY")
    public static let rotateZ = CAValueFunctionName(rawValue: "rotateZ")
    public static let scale = CAValueFunctionName(rawValue: "scale")
    public static let scaleX = CAValueFunctionName(rawValue: "scaleX")
    public static let scaleY = CAValueFunctionName(rawValue: "scaleY")
    public static let scaleZ = CAValueFunctionName(rawValue: "scaleZ")
    /// Takes three numbers (x, y, z), as `.scale` does.
    public static let translate = CAValueFunctionName(rawValue: "translate")
    public static let translateX = CAValueFunctionName(rawValue: "translateX")
    public static let translateY = CAValueFunctionName(rawValue: "translateY")
    public static let translateZ = CAValueFunctionName(rawValue: "translateZ")
}

/// Turns an animation's interpolated number into a transform, so that a rotation of 2π animates a
/// full turn (a matrix blend between equal matrices would not move at all).
public final class CAValueFunction: Sendable {
    public let name: CAValueFunctionName

    public init?(name: CAValueFunctionName) {
        let known: [CAValueFunctionName] = [.rotateX, .rotateY, .rotateZ, .scale, .scaleX, .scaleY, .scaleZ,
                                            .translate, .translateX, .translateY, .translateZ]
        guard known.contains(name) else { return nil }
        self.name = name
    }

    /// The transform for `v`: three numbers (x, y, z) for `.scale` and `.translate`, the first
    /// alone for the others.
    func transform(for vector: [Double]) -> CATransform3D {
        let v = vector[0]
        return switch name {
        case .rotateX: CATransform3DMakeRotation(v, 1, 0, 0)
        case .rotateY: CATransform3DMakeRotation(v, 0, 1, 0)
        case .rotateZ: CATransform3DMakeRotation(v, 0, 0, 1)
        case .scale: CATransform3DMakeScale(vector[0], vector[1], vector[2])
        case .scaleX: CATransform3DMakeScale(v, 1, 1)
        case .scaleY: CATransform3DMakeScale(1, v, 1)
        case .scaleZ: CATransform3DMakeScale(1, 1, v)
        case .translateX: CATransform3DMakeTranslation(v, 0, 0)
        case .translateY: CATransform3DMakeTranslation(0, v, 0)
        case .translate: CATransform3DMakeTranslation(vector[0], vector[1], vector[2])
        default: CATransform3DMakeTranslation(0, 0, v)
        }
    }
}
