import Foundation
import OpenCoreGraphics

/// A shape layer's own properties (CAShapeLayer's, documented there), typed, in every layer's
/// `LayerState`: a presentation copy takes them with the rest of the state, an animation writes
/// them as it writes CALayer's own, and a renderer reads them as stored fields. They were values
/// found by key in the custom-key dictionary and cast from `Any` on every read; a renderer reads
/// a dozen of a shape layer's each frame (a tenth of a Lottie letter's frame went to finding and
/// casting them).
struct ShapeLayerState {
    var path: CGPath?
    var fillColor: CGColor? = CGColor.black
    var fillRule: CAShapeLayerFillRule = .nonZero
    var strokeColor: CGColor?
    var lineWidth: CGFloat = 1
    var miterLimit: CGFloat = 10
    var lineCap: CAShapeLayerLineCap = .butt
    var lineJoin: CAShapeLayerLineJoin = .miter
    var lineDashPattern: [NSNumber]?
    var lineDashPhase: CGFloat = 0
    var strokeStart: CGFloat = 0
    var strokeEnd: CGFloat = 1

    /// The defaults a class answers with `defaultValue(forKey:)` (a subclass of CAShapeLayer may
    /// answer its own): what a new layer of that class holds until a key is set.
    init(defaultsOf type: CALayer.Type) {
        func value<T>(_ key: String, _ fallback: T) -> T { coerceKeyValue(type.defaultValue(forKey: key), to: T.self) ?? fallback }
        path = value("path", path)
        fillColor = value("fillColor", fillColor)
        fillRule = value("fillRule", fillRule)
        strokeColor = value("strokeColor", strokeColor)
        lineWidth = value("lineWidth", lineWidth)
        miterLimit = value("miterLimit", miterLimit)
        lineCap = value("lineCap", lineCap)
        lineJoin = value("lineJoin", lineJoin)
        lineDashPattern = value("lineDashPattern", lineDashPattern)
        lineDashPhase = value("lineDashPhase", lineDashPhase)
        strokeStart = value("strokeStart", strokeStart)
        strokeEnd = value("strokeEnd", strokeEnd)
    }

    init() {}
}
