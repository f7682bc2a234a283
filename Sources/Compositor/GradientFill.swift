import Foundation
import LayerModel
import OpenCoreGraphics

// A CAGradientLayer's gradient as a fill evaluated per pixel from its formula, on both backends,
// as Core Animation draws gradients (procedurally, not into a backing store of the layer's size):
// a gradient 20,000 points wide costs what the frame shows of it (lottie-ios pads every gradient
// layer by 10,000 points a side). Colours interpolate between the stops straight and are
// premultiplied after, as CGGradient does; the gradient extends past both ends. A
// CAGradientLayer's stops are Generic RGB components, converted to sRGB after the interpolation,
// as Apple's renderer draws them (ColorSpace.genericRGB).

/// The gradient of a quad's fill: the parameter t at each pixel from the layer's plane, and the
/// colour at t from the stops.
public struct GradientFill: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// t along start -> end (the projection onto that line).
        case axial
        /// t = 1 on the ellipse centred at start reaching end's x and y distances.
        case radial
        /// t the angle around start from the direction of end, clockwise on screen, in turns.
        case conic
    }

    /// A colour at its location (straight, in `colorSpace`), as CGGradient keeps it.
    public typealias Stop = CGGradient.Stop

    /// The space the stops' components are in, and interpolate in.
    public enum ColorSpace: String, Hashable, Sendable {
        /// sRGB: the colour at t is the stops' mix as it is.
        case sRGB
        /// Apple's Generic RGB (gamma 1.8, its own primaries), converted to sRGB after the mix:
        /// how Core Animation draws a CAGradientLayer's colours, whatever space their CGColors
        /// name (OpenCoreGraphics' `GenericRGB` says how that was found). The CPU converts
        /// through tables of the two curves, the GPU with pow.
        case genericRGB
    }

    /// The most stops a fill carries (the GPU reads them as uniforms); a gradient with more is
    /// resampled to this many at evenly spaced locations, exact wherever a stop falls on one.
    public static let maxStops = 32

    public var kind: Kind
    /// Device pixel centre (x, y, 1) to the layer's bounds space (points), homogeneous.
    public var deviceToLocal: ProjectiveTransform2D
    /// startPoint and endPoint mapped onto the bounds.
    public var start: DevicePoint, end: DevicePoint
    /// Sorted by location, at least one, at most `maxStops`.
    public var stops: [Stop]
    public var colorSpace: ColorSpace

    public init(kind: Kind, deviceToLocal: ProjectiveTransform2D, start: DevicePoint, end: DevicePoint, stops: [Stop],
                colorSpace: ColorSpace = .sRGB) {
        self.kind = kind
        self.deviceToLocal = deviceToLocal
        self.start = start
        self.end = end
        self.stops = stops
        self.colorSpace = colorSpace
    }

    /// Whether the gradient paints anything: an axial one needs a line of some length, a radial
    /// one a radius on some axis (CAGradientLayer draws nothing otherwise).
    public var paints: Bool {
        let dx = end.x - start.x, dy = end.y - start.y
        guard dx.isFinite, dy.isFinite, !stops.isEmpty else { return false }
        switch kind {
        case .axial: return dx * dx + dy * dy > 0 && (dx * dx + dy * dy).isFinite
        case .radial: return dx != 0 || dy != 0
        case .conic: return true
        }
    }

    /// t at a point of the layer's plane (nil where it is not a number).
    public func parameter(atLocalX x: Double, y: Double) -> Double? {
        let dx = end.x - start.x, dy = end.y - start.y
        let t: Double
        switch kind {
        case .axial:
            t = ((x - start.x) * dx + (y - start.y) * dy) / (dx * dx + dy * dy)
        case .radial:
            let rx = abs(dx), ry = abs(dy)
            let nx = rx > 0 ? (x - start.x) / rx : 0, ny = ry > 0 ? (y - start.y) / ry : 0
            t = (nx * nx + ny * ny).squareRoot()
        case .conic:
            var angle = atan2(y - start.y, x - start.x) - atan2(dy, dx)
            angle -= 2 * Double.pi * (angle / (2 * Double.pi)).rounded(.down)
            t = angle / (2 * Double.pi)
        }
        return t.isFinite ? t : nil
    }

    /// The colours between the stops worked out ahead, for a Generic RGB gradient: what the CPU
    /// reference draws (GradientColorTable says why), fetched once a draw (the GPU converts each
    /// pixel itself and never asks). Kept by the stops, so a gradient's stays from frame to frame.
    public var colorTable: GradientColorTable? {
        colorSpace == .genericRGB && !stops.isEmpty ? GradientColorTable.table(for: stops) : nil
    }

    /// The premultiplied colour at t, clamped to 0...1 and to the first and last stops
    /// (CGGradient's formula), converted from `colorSpace` before the premultiplication: through
    /// `table` (this fill's `colorTable`) where it is given.
    public func color(at t: Double, table: GradientColorTable? = nil) -> (Double, Double, Double, Double) {
        if let table { return table.premultipliedColor(at: t) }
        return CGGradient.premultipliedColor(at: min(max(t, 0), 1), stops: stops, genericRGB: colorSpace == .genericRGB)
    }

    /// The premultiplied colour at a device pixel centre; transparent where t is not a number.
    public func color(atX x: Double, y: Double, table: GradientColorTable? = nil) -> (Double, Double, Double, Double) {
        let h = deviceToLocal.applyHomogeneous(x: x, y: y)
        guard h.w != 0, let t = parameter(atLocalX: h.x / h.w, y: h.y / h.w) else { return (0, 0, 0, 0) }
        return color(at: t, table: table)
    }
}

extension RenderListBuilder {
    /// The fill that draws `layer`'s gradient through `map` (its plane to device), or nil where it
    /// paints nothing (no colours, a degenerate line, a map that cannot be inverted).
    static func gradientFill(of layer: CAGradientLayer, map: ProjectiveTransform2D) -> GradientFill? {
        guard let gradient = layer.cgGradient, let deviceToLocal = map.inverted() else { return nil }
        let space: GradientFill.ColorSpace = gradient.isGenericRGB ? .genericRGB : .sRGB
        var stops = gradient.stops
        if stops.count > GradientFill.maxStops {
            let all = stops
            stops = (0..<GradientFill.maxStops).map { i in
                let t = Double(i) / Double(GradientFill.maxStops - 1)
                let c = CGGradient.straightColor(at: t, stops: all)
                return GradientFill.Stop(location: t, red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
            }
        }
        let b = layer.bounds
        func point(_ unit: CGPoint) -> DevicePoint {
            DevicePoint(x: Double(b.minX + unit.x * b.width), y: Double(b.minY + unit.y * b.height))
        }
        let kind: GradientFill.Kind = layer.type == .radial ? .radial : layer.type == .conic ? .conic : .axial
        let fill = GradientFill(kind: kind, deviceToLocal: deviceToLocal, start: point(layer.startPoint), end: point(layer.endPoint),
                                stops: stops, colorSpace: space)
        return fill.paints ? fill : nil
    }
}
