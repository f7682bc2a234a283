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
    var cgLineCap: CGLineCap { self == .round ? .round : self == .square ? .square : .butt }
}

/// How a shape layer's stroke turns at corners, by Core Animation's names ("miter", "round", "bevel").
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")

    /// The join Core Graphics strokes with (an unknown name strokes mitered).
    var cgLineJoin: CGLineJoin { self == .round ? .round : self == .bevel ? .bevel : .miter }
}

/// A layer that draws a path: filled, then stroked (optionally dashed, and only from strokeStart to
/// strokeEnd of its length), in its bounds space. The path may reach past the bounds; it is drawn
/// whole unless masksToBounds. Every property animates, and an animated frame redraws the shape.
///
/// The renderers draw the shape themselves from the path (`drawsPathDirectly`): composited between
/// the layer's contents and its first sublayer, as Core Animation documents, with no backing
/// store, so an animated path or strokeEnd rasterizes nothing on the CPU. A subclass's shape is
/// drawn into its backing store by `draw(in:)` (which it may override) as drawn content is.
open class CAShapeLayer: CALayer {
    /// Default: nil (nothing drawn).
    @Animatable("path", needsDisplay: true) open var path: CGPath? = nil
    /// Default: opaque black.
    @Animatable("fillColor", needsDisplay: true) open var fillColor: CGColor? = CGColor.black
    /// Default: `.nonZero`.
    @Animatable("fillRule", needsDisplay: true) open var fillRule: CAShapeLayerFillRule = .nonZero
    /// Default: nil (no stroke).
    @Animatable("strokeColor", needsDisplay: true) open var strokeColor: CGColor? = nil
    /// Default: 1.
    @Animatable("lineWidth", needsDisplay: true) open var lineWidth: CGFloat = 1
    /// Default: 10.
    @Animatable("miterLimit", needsDisplay: true) open var miterLimit: CGFloat = 10
    /// Default: `.butt`.
    @Animatable("lineCap", needsDisplay: true) open var lineCap: CAShapeLayerLineCap = .butt
    /// Default: `.miter`.
    @Animatable("lineJoin", needsDisplay: true) open var lineJoin: CAShapeLayerLineJoin = .miter
    /// Alternating on and off lengths. Default: nil (solid).
    @Animatable("lineDashPattern", needsDisplay: true) open var lineDashPattern: [NSNumber]? = nil
    /// Default: 0.
    @Animatable("lineDashPhase", needsDisplay: true) open var lineDashPhase: CGFloat = 0
    /// Where along the path's length the stroke starts, 0...1. Default: 0.
    @Animatable("strokeStart", needsDisplay: true) open var strokeStart: CGFloat = 0
    /// Where along the path's length the stroke ends, 0...1. Default: 1.
    @Animatable("strokeEnd", needsDisplay: true) open var strokeEnd: CGFloat = 1

    static let shapeKeys: Set<String> = ["path", "fillColor", "fillRule", "strokeColor", "lineWidth", "miterLimit",
                                         "lineCap", "lineJoin", "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd"]

    public override init() {
        super.init()
        setNeedsDisplay() // a shape shows without being asked to display
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    override class func libraryCopy(of layer: CALayer) -> CALayer { CAShapeLayer(layer: layer) }

    public override init(layer: Any) { super.init(layer: layer) }

    open override class func needsDisplay(forKey key: String) -> Bool {
        shapeKeys.contains(key) || super.needsDisplay(forKey: key)
    }

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

    override var backingStoreRect: CGRect {
        guard let path, !path.isEmpty else { return bounds }
        var box = path.boundingBoxOfPath
        if strokeColor != nil, lineWidth > 0, lineWidth.isFinite {
            // The pen reaches half the width out, a miter up to miterLimit times that.
            let reach = lineWidth / 2 * (lineJoin == .miter ? max(miterLimit, 1) : 1) + (lineCap == .square ? lineWidth : 0)
            box = box.insetBy(dx: -reach, dy: -reach)
        }
        guard box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else { return bounds }
        return bounds.union(box.insetBy(dx: -1, dy: -1))
    }

    /// Whether the renderers draw the fill and stroke from the path: for CAShapeLayer itself. A
    /// subclass may override `draw(in:)`, which cannot be seen from here, so its shape is drawn by
    /// `draw(in:)` into its backing store. (A presentation copy answers for its model.)
    public var drawsPathDirectly: Bool { type(of: modelLayer ?? self) == CAShapeLayer.self }

    /// Drawn from the path, the shape needs no backing store; a delegate may still draw contents.
    override var drawsIntoBackingStore: Bool { !drawsPathDirectly || delegate != nil }

    /// The stroke as an outline to fill with the non-zero rule: the path trimmed to strokeStart
    /// ... strokeEnd of its length, dashed by lineDashPattern, and stroked with the line
    /// settings, in bounds coordinates; nil where nothing is stroked.
    public var strokeOutline: CGPath? {
        guard let path, !path.isEmpty, strokeColor != nil, lineWidth > 0, lineWidth.isFinite else { return nil }
        var stroked = path.trimmed(from: strokeStart, to: strokeEnd)
        if let pattern = lineDashPattern, !pattern.isEmpty {
            stroked = stroked.copy(dashingWithPhase: lineDashPhase, lengths: pattern.map { CGFloat($0.doubleValue) })
        }
        return stroked.copy(strokingWithWidth: lineWidth, lineCap: lineCap.cgLineCap, lineJoin: lineJoin.cgLineJoin,
                            miterLimit: miterLimit)
    }

    open override func draw(in ctx: CGContext) {
        // Drawn by the renderers from the path; contents are only what a delegate draws.
        if drawsPathDirectly { return super.draw(in: ctx) }
        guard let path, !path.isEmpty else { return }
        if let fillColor {
            ctx.addPath(path)
            ctx.setFillColor(fillColor)
            ctx.fillPath(using: fillRule == .evenOdd ? .evenOdd : .winding)
        }
        guard let strokeColor, lineWidth > 0, lineWidth.isFinite else { return }
        var stroked = path.trimmed(from: strokeStart, to: strokeEnd)
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
