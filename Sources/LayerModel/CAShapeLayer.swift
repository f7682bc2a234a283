import Foundation
import OpenCoreGraphics

/// How a shape layer fills where its path crosses itself.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Non-zero winding (the default).
    public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
    public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")
}

/// How a shape layer's stroke ends, by Core Animation's names ("butt", "round", "square").
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let butt = CAShapeLayerLineCap(rawValue: "butt")
    public static let round = CAShapeLayerLineCap(rawValue: "round")
    public static let square = CAShapeLayerLineCap(rawValue: "square")

    /// The cap Core Graphics strokes with (an unknown name strokes butt, as Core Animation's does).
    package var cgLineCap: CGLineCap { self == .round ? .round : self == .square ? .square : .butt }
}

/// How a shape layer's stroke turns at corners, by Core Animation's names ("miter", "round", "bevel").
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")

    /// The join Core Graphics strokes with (an unknown name strokes mitered).
    package var cgLineJoin: CGLineJoin { self == .round ? .round : self == .bevel ? .bevel : .miter }
}

/// A layer that draws a path: filled, then stroked (optionally dashed, and only from strokeStart to
/// strokeEnd of its length), in its bounds space. The path may reach past the bounds; it is drawn
/// whole unless masksToBounds. Every property animates, and an animated frame redraws the shape.
///
/// The renderers draw the shape themselves from the path, for CAShapeLayer and every subclass
/// alike, as Core Animation's render server does: composited between the layer's contents and
/// its first sublayer, as Core Animation documents, with no backing store, so an animated path or
/// strokeEnd rasterizes nothing on the CPU and a path of any extent (lottie-ios's inverted masks
/// add a rectangle 20 million points across) costs only what the frame shows. The shape's keys
/// do not ask for display; a subclass that overrides `draw(in:)` and calls `setNeedsDisplay()`
/// gets bounds-sized contents beneath the shape, as any layer does (`drawPath(in:)` draws the
/// shape into such a context where a subclass wants it there too).
open class CAShapeLayer: CALayer {
    /// Default: nil (nothing drawn).
    open var path: CGPath? {
        get { state.shape.path }
        set { changeShape("path", \.shape.path, to: newValue) }
    }
    /// Default: opaque black.
    open var fillColor: CGColor? {
        get { state.shape.fillColor }
        set { changeShape("fillColor", \.shape.fillColor, to: newValue) }
    }
    /// Default: `.nonZero`.
    open var fillRule: CAShapeLayerFillRule {
        get { state.shape.fillRule }
        set { changeShape("fillRule", \.shape.fillRule, to: newValue) }
    }
    /// Default: nil (no stroke).
    open var strokeColor: CGColor? {
        get { state.shape.strokeColor }
        set { changeShape("strokeColor", \.shape.strokeColor, to: newValue) }
    }
    /// Default: 1.
    open var lineWidth: CGFloat {
        get { state.shape.lineWidth }
        set { changeShape("lineWidth", \.shape.lineWidth, to: newValue) }
    }
    /// Default: 10.
    open var miterLimit: CGFloat {
        get { state.shape.miterLimit }
        set { changeShape("miterLimit", \.shape.miterLimit, to: newValue) }
    }
    /// Default: `.butt`.
    open var lineCap: CAShapeLayerLineCap {
        get { state.shape.lineCap }
        set { changeShape("lineCap", \.shape.lineCap, to: newValue) }
    }
    /// Default: `.miter`.
    open var lineJoin: CAShapeLayerLineJoin {
        get { state.shape.lineJoin }
        set { changeShape("lineJoin", \.shape.lineJoin, to: newValue) }
    }
    /// Alternating on and off lengths. Default: nil (solid).
    open var lineDashPattern: [NSNumber]? {
        get { state.shape.lineDashPattern }
        set { changeShape("lineDashPattern", \.shape.lineDashPattern, to: newValue) }
    }
    /// Default: 0.
    open var lineDashPhase: CGFloat {
        get { state.shape.lineDashPhase }
        set { changeShape("lineDashPhase", \.shape.lineDashPhase, to: newValue) }
    }
    /// Where along the path's length the stroke starts, 0...1. Default: 0.
    open var strokeStart: CGFloat {
        get { state.shape.strokeStart }
        set { changeShape("strokeStart", \.shape.strokeStart, to: newValue) }
    }
    /// Where along the path's length the stroke ends, 0...1. Default: 1.
    open var strokeEnd: CGFloat {
        get { state.shape.strokeEnd }
        set { changeShape("strokeEnd", \.shape.strokeEnd, to: newValue) }
    }

    /// A shape property set as CALayer's own are (its action, then the change), and the layer
    /// marked for display where the class asks for it (a subclass drawing the shape itself).
    private func changeShape<Value>(_ key: String, _ field: WritableKeyPath<LayerState, Value>, to newValue: Value) {
        change(key, field, to: newValue)
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
    }

    public override init() {
        super.init()
        // A subclass may answer other defaults for the shape's keys.
        if type(of: self) != CAShapeLayer.self { state.shape = ShapeLayerState(defaultsOf: type(of: self)) }
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    override class func libraryCopy(of layer: CALayer) -> CALayer { CAShapeLayer(layer: layer) }

    public override init(layer: Any) { super.init(layer: layer) }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "fillColor": CGColor.black
        case "lineWidth", "strokeEnd": CGFloat(1)
        case "miterLimit": CGFloat(10)
        case "strokeStart", "lineDashPhase": CGFloat(0)
        case "fillRule": CAShapeLayerFillRule.nonZero.rawValue
        case "lineCap": CAShapeLayerLineCap.butt.rawValue
        case "lineJoin": CAShapeLayerLineJoin.miter.rawValue
        default: super.defaultValue(forKey: key)
        }
    }

    /// Changes of these animate implicitly, as in Core Animation.
    open override class var implicitlyAnimatedKeys: Set<String> {
        ["path", "fillColor", "strokeColor", "lineWidth", "miterLimit", "lineDashPhase", "strokeStart", "strokeEnd"]
    }

    /// A backing store only where there can be something to draw into it: a delegate's drawing, or
    /// a subclass's (which may override `draw(in:)`). A plain shape layer asked to display makes
    /// no empty image to upload.
    override var drawsIntoBackingStore: Bool { type(of: modelLayer ?? self) != CAShapeLayer.self || delegate != nil }

    /// `path` from strokeStart to strokeEnd, as the stroke is drawn: ends that single precision
    /// cannot tell apart (Core Animation's render server holds them as the GPU does) meet, and
    /// nothing is left. An animation at its very first instant reaches its first value plus a
    /// rounding error's worth (lottie-ios's trims start at exactly 0: strokeEnd 5e-324 in
    /// double), which Apple's frames show as nothing, not as a round cap's dot (issue_2545 at 0%).
    func strokedPart(of path: CGPath) -> CGPath {
        let start = strokeStart, end = strokeEnd
        return path.trimmed(from: start, to: Float(start) >= Float(end) ? start : end)
    }

    /// The stroke as an outline to fill with the non-zero rule: the path trimmed to strokeStart
    /// ... strokeEnd of its length, dashed by lineDashPattern, and stroked with the line
    /// settings, in bounds coordinates; nil where nothing is stroked.
    public var strokeOutline: CGPath? {
        guard let path, !path.isEmpty, strokeColor != nil, lineWidth > 0, lineWidth.isFinite else { return nil }
        var stroked = strokedPart(of: path)
        if let pattern = lineDashPattern, !pattern.isEmpty {
            stroked = stroked.copy(dashingWithPhase: lineDashPhase, lengths: pattern.map { CGFloat($0.doubleValue) })
        }
        return stroked.copy(strokingWithWidth: lineWidth, lineCap: lineCap.cgLineCap, lineJoin: lineJoin.cgLineJoin,
                            miterLimit: miterLimit)
    }

    /// `strokeOutline` with curves flattened no finer than `tolerance` (bounds units) needs:
    /// where that is coarser than strokeOutline's own tolerances (dashing measures at
    /// `CGPath.measuringTolerance`, stroking at `CGPath.strokingTolerance`), it is taken, else
    /// theirs. What the compositor draws: a shape drawn small (a Lottie composition 1,920 points
    /// wide fitted into 180 pixels) costs chords for its pixels, where strokeOutline's tolerance
    /// in points made hundreds a circle; one drawn at its size or larger is strokeOutline's.
    /// Given as the polylines the outline flattens to at `flattening`, made without the outline
    /// path in between (`CGPath.outlinePolylines`).
    package func strokeOutlinePolylines(coarsestTolerance tolerance: CGFloat, flattening: CGFloat) -> [[CGPoint]]? {
        guard let path, !path.isEmpty, strokeColor != nil, lineWidth > 0, lineWidth.isFinite else { return nil }
        let measuring = max(tolerance, CGPath.measuringTolerance)
        var stroked = strokedPart(of: path)
        if let pattern = lineDashPattern, !pattern.isEmpty {
            stroked = stroked.copy(dashingWithPhase: lineDashPhase, lengths: pattern.map { CGFloat($0.doubleValue) },
                                   tolerance: measuring)
        }
        return stroked.outlinePolylines(strokingWithWidth: lineWidth, lineCap: lineCap.cgLineCap, lineJoin: lineJoin.cgLineJoin,
                                        miterLimit: miterLimit,
                                        tolerance: max(tolerance, CGPath.strokingTolerance(lineWidth: lineWidth)),
                                        flattening: flattening)
    }

    /// Draws the fill and stroke into `ctx` (bounds space), as the renderers draw them: for a
    /// subclass that wants its shape in its contents as well, or a context of its own.
    public func drawPath(in ctx: CGContext) {
        guard let path, !path.isEmpty else { return }
        if let fillColor {
            ctx.addPath(path)
            ctx.setFillColor(fillColor)
            ctx.fillPath(using: fillRule == .evenOdd ? .evenOdd : .winding)
        }
        guard let strokeColor, lineWidth > 0, lineWidth.isFinite else { return }
        var stroked = strokedPart(of: path)
        if let pattern = lineDashPattern, !pattern.isEmpty {
            stroked = stroked.copy(dashingWithPhase: lineDashPhase, lengths: pattern.map { CGFloat($0.doubleValue) })
        }
        ctx.addPath(stroked)
        ctx.setStrokeColor(strokeColor)
        ctx.setLineWidth(lineWidth)
        ctx.setLineCap(lineCap.cgLineCap)
        ctx.setLineJoin(lineJoin.cgLineJoin)
        ctx.setMiterLimit(miterLimit)
        ctx.strokePath()
    }
}
