import Foundation
import OpenCoreGraphics

/// The shapes of gradient a CAGradientLayer draws.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Along the line from startPoint to endPoint (the default).
    public static let axial = CAGradientLayerType(rawValue: "axial")
    /// An ellipse centred at startPoint, reaching endPoint's x and y distances at t = 1.
    public static let radial = CAGradientLayerType(rawValue: "radial")
    /// Around startPoint, starting in the direction of endPoint and turning clockwise on screen.
    public static let conic = CAGradientLayerType(rawValue: "conic")
}

/// A layer filled with a gradient over its bounds. Points are in unit coordinates of the bounds
/// (y down), colours interpolate straight, and the gradient extends past its ends. The renderers
/// draw it from its formula (the compositor's GradientFill), for CAGradientLayer and every
/// subclass, over the background and shaped by the rounded corners as the background is, as Core
/// Animation draws it: no backing store, so its size costs nothing and an animated colour or point
/// redraws nothing on the CPU. Every property animates. `drawGradient(in:)` draws it into a
/// context (a subclass's own contents, or a context of the caller's).
///
/// Colours are drawn as Apple's renderer draws them: each converted into Generic RGB (clamped to
/// its gamut, which leaves out sRGB's most saturated blues, violets and reds), mixed there and
/// converted to sRGB after the mix (OpenCoreGraphics' `GenericRGB` says which of Apple's frames
/// show it). A stop shows its own colour, except one outside Generic RGB's gamut, which comes to
/// the gamut's edge; between stops the mix bows as gamma 1.8 components mix.
open class CAGradientLayer: CALayer {
    /// The colours (CGColor). Default: nil (nothing drawn).
    @Animatable("colors") open var colors: [Any]? = nil
    /// Where each colour sits, 0...1, ascending. Default: nil (evenly spaced).
    @Animatable("locations") open var locations: [NSNumber]? = nil
    /// Default: (0.5, 0).
    @Animatable("startPoint") open var startPoint = CGPoint(x: 0.5, y: 0)
    /// Default: (0.5, 1).
    @Animatable("endPoint") open var endPoint = CGPoint(x: 0.5, y: 1)
    /// Default: `.axial`.
    @Animatable("type") open var type: CAGradientLayerType = .axial

    public override init() { super.init() }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    override class func libraryCopy(of layer: CALayer) -> CALayer { CAGradientLayer(layer: layer) }

    public override init(layer: Any) { super.init(layer: layer) }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "startPoint": CGPoint(x: 0.5, y: 0)
        case "endPoint": CGPoint(x: 0.5, y: 1)
        case "type": CAGradientLayerType.axial.rawValue
        default: super.defaultValue(forKey: key)
        }
    }

    open override class var implicitlyAnimatedKeys: Set<String> { ["colors", "locations", "startPoint", "endPoint"] }

    /// A backing store only where there can be something to draw into it: a delegate's drawing,
    /// or a subclass's (which may override `draw(in:)`).
    override var drawsIntoBackingStore: Bool { Swift.type(of: modelLayer ?? self) != CAGradientLayer.self || delegate != nil }

    /// The colours at their locations (evenly spaced where `locations` is missing or does not
    /// match the colours), converted into Generic RGB (the class's comment says why), as this
    /// layer and the renderers draw them; nil without colours.
    public var cgGradient: CGGradient? {
        let cgColors = (colors ?? []).compactMap { $0 as? CGColor }
        guard !cgColors.isEmpty, let space = CGColorSpace(name: CGColorSpace.genericRGB) else { return nil }
        let stops = locations.map { $0.map { CGFloat($0.doubleValue) } }
        let components = cgColors.flatMap { color -> [CGFloat] in
            let c = color.rgba
            let generic = GenericRGB.fromSRGB(Double(c.red), Double(c.green), Double(c.blue))
            return [CGFloat(generic.0), CGFloat(generic.1), CGFloat(generic.2), c.alpha]
        }
        return CGGradient(colorSpace: space, colorComponents: components, locations: stops?.count == cgColors.count ? stops : nil,
                          count: cgColors.count)
    }

    /// Draws the gradient into `ctx` (bounds space, clipped to the bounds), as the renderers draw it.
    public func drawGradient(in ctx: CGContext) {
        guard let gradient = cgGradient else { return }
        let b = bounds
        func point(_ unit: CGPoint) -> CGPoint { CGPoint(x: b.minX + unit.x * b.width, y: b.minY + unit.y * b.height) }
        let start = point(startPoint), end = point(endPoint)
        let extend: CGGradientDrawingOptions = [.drawsBeforeStartLocation, .drawsAfterEndLocation]
        ctx.saveGState()
        ctx.clip(to: b)
        switch type {
        case .radial:
            let rx = abs(end.x - start.x), ry = abs(end.y - start.y)
            guard rx > 0 || ry > 0 else { break }
            ctx.fill(shader: { p in
                let nx = rx > 0 ? (p.x - start.x) / rx : 0, ny = ry > 0 ? (p.y - start.y) / ry : 0
                return CGContext.gradientColor(gradient, (nx * nx + ny * ny).squareRoot(), extend)
            })
        case .conic:
            let base = atan2(end.y - start.y, end.x - start.x)
            ctx.fill(shader: { p in
                var angle = atan2(p.y - start.y, p.x - start.x) - base
                angle = angle.truncatingRemainder(dividingBy: 2 * .pi)
                if angle < 0 { angle += 2 * .pi }
                return CGContext.gradientColor(gradient, angle / (2 * .pi), extend)
            })
        default:
            ctx.drawLinearGradient(gradient, start: start, end: end, options: extend)
        }
        ctx.restoreGState()
    }
}
