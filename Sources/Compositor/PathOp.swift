import Foundation
import OpenCoreGraphics

/// A filled path in device pixels: a shape layer's fill or the outline of its stroke, its
/// contours already projected and clipped (near plane, masksToBounds, viewport). Each pixel is
/// covered by the area of its square inside the contours, counted with their winding (edge by
/// edge, as `PolygonCoverage` and OpenCoreGraphics' `CoverageRasterizer` sum it), then folded by
/// the fill rule: non-zero takes min(1, |sum|), even-odd a triangle wave of period 2. Both
/// backends draw it from the contours, so an animated path or strokeEnd rasterizes nothing on
/// the CPU and uploads no texture.
public struct PathOp: Hashable, Sendable {
    /// Who asked for the draw: the layer and which part of it (`DrawSource`).
    public var source: DrawSource
    /// Closed contours (the last point joins the first), device pixels: the fill.
    public var contours: [[DevicePoint]]
    public var evenOdd: Bool
    /// Premultiplied.
    public var color: PremultipliedColor
    /// A stroke's outline drawn over the fill in the same step (a shape layer's stroke): its
    /// coverage (non-zero) and colour, composited over the fill's in float and blended once, as
    /// the one picture Core Animation makes of a shape layer. Nil: the fill alone.
    public var stroke: PathStroke?
    public var opacity: Double
    public var tint: PremultipliedColor
    public var blend: BlendMode
    /// The pixels the contours can cover (their bounding box on whole pixels, within the target):
    /// outside it every winding number is 0. A destination-in path (a mask drawn from its path)
    /// acts on its whole target: outside these bounds it clears.
    public var pixelBounds: PixelRect

    /// Nil where the contours cover no pixel of a `targetWidth` x `targetHeight` target.
    public init?(source: DrawSource, contours: [[DevicePoint]], evenOdd: Bool, color: PremultipliedColor,
                 stroke: PathStroke? = nil, opacity: Double,
                 tint: PremultipliedColor = .opaqueWhite, blend: BlendMode = .sourceOver, targetWidth: Int, targetHeight: Int) {
        // Points a rounding error apart (a flattened curve's end on its start) are one: an edge
        // 1e-14 high would be level in the GPU's float, with no slope to divide by.
        let kept = contours.map(PathOp.withoutRepeats).filter { $0.count >= 3 }
        let strokeContours = (stroke?.contours ?? []).map(PathOp.withoutRepeats).filter { $0.count >= 3 }
        let stroke = stroke.flatMap { strokeContours.isEmpty ? nil : PathStroke(contours: strokeContours, color: $0.color) }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for contour in [kept, stroke?.contours ?? []].joined() {
            for point in contour {
                guard point.x.isFinite, point.y.isFinite else { return nil }
                minX = min(minX, point.x); maxX = max(maxX, point.x)
                minY = min(minY, point.y); maxY = max(maxY, point.y)
            }
        }
        guard minX < maxX, minY < maxY else { return nil }
        // Clamped before conversion: a contour point can lie 1e300 pixels off (a crossing found
        // on a clip edge's line when the edges are all but parallel), past any Int.
        let bounds = PixelRect(minX: Int(clampingPixels: minX, .down, to: 0...targetWidth),
                               minY: Int(clampingPixels: minY, .down, to: 0...targetHeight),
                               maxX: Int(clampingPixels: maxX, .up, to: 0...targetWidth),
                               maxY: Int(clampingPixels: maxY, .up, to: 0...targetHeight))
        guard bounds.width > 0, bounds.height > 0 else { return nil }
        self.source = source
        self.contours = kept
        self.evenOdd = evenOdd
        self.color = color
        self.stroke = stroke
        self.opacity = opacity
        self.tint = tint
        self.blend = blend
        pixelBounds = bounds
    }

    /// The path moved by whole pixels into a target of the given size; nil where nothing of it is
    /// left inside.
    func translated(dx: Int, dy: Int, targetWidth: Int, targetHeight: Int) -> PathOp? {
        func moved(_ contours: [[DevicePoint]]) -> [[DevicePoint]] {
            contours.map { $0.map { DevicePoint(x: $0.x + Double(dx), y: $0.y + Double(dy)) } }
        }
        return PathOp(source: source, contours: moved(contours), evenOdd: evenOdd, color: color,
                      stroke: stroke.map { PathStroke(contours: moved($0.contours), color: $0.color) }, opacity: opacity,
                      tint: tint, blend: blend, targetWidth: targetWidth, targetHeight: targetHeight)
    }

    /// The colour of a pixel whose fill and stroke coverages (already folded) are `fill` and
    /// `stroke`, premultiplied, before opacity: the stroke over the fill.
    @inlinable
    public func composite(fill kf: Double, stroke ks: Double) -> PremultipliedColor {
        let f = color.multiplied(by: tint)
        guard let stroke else {
            return PremultipliedColor(red: f.red * kf, green: f.green * kf, blue: f.blue * kf, alpha: f.alpha * kf)
        }
        let s = stroke.color.multiplied(by: tint), under = kf * (1 - s.alpha * ks)
        return PremultipliedColor(red: s.red * ks + f.red * under, green: s.green * ks + f.green * under,
                                  blue: s.blue * ks + f.blue * under, alpha: s.alpha * ks + f.alpha * under)
    }

    /// Coverage 0...1 of the pixels of `bounds` (rows top first) by the contours under the fill
    /// rule: OpenCoreGraphics' CoverageRasterizer, the CPU reference's fill, and what the GPU
    /// uploads where it cannot sum the edges itself.
    public static func coverage(of contours: [[DevicePoint]], evenOdd: Bool, within bounds: PixelRect) -> [Float] {
        var rasterizer = rasterizer(of: contours, within: bounds)
        let coverage = rasterizer.coverage(rule: evenOdd ? .evenOdd : .winding)
        rasterizer.recycle()
        return coverage
    }

    /// A rasterizer over `bounds` with every edge of the contours summed into its cells, to be
    /// folded (`coverage(rule:)`, or a row at a time) and then recycled.
    public static func rasterizer(of contours: [[DevicePoint]], within bounds: PixelRect) -> CoverageRasterizer {
        var rasterizer = CoverageRasterizer(width: bounds.width, height: bounds.height)
        let ox = Double(bounds.minX), oy = Double(bounds.minY)
        rasterizer.addLines { add in
            for contour in contours {
                for i in contour.indices {
                    let p = contour[i], q = contour[i + 1 == contour.count ? 0 : i + 1]
                    add(p.x - ox, p.y - oy, q.x - ox, q.y - oy)
                }
            }
        }
        return rasterizer
    }

    /// The contour without points within 1e-9 pixel of the one before (or, for the last, the first).
    static func withoutRepeats(_ contour: [DevicePoint]) -> [DevicePoint] {
        // Most contours have none: they are kept as they are, not copied (a stroke's outline is
        // hundreds of small contours a frame).
        func repeats(_ p: DevicePoint, _ q: DevicePoint) -> Bool { abs(p.x - q.x) <= 1e-9 && abs(p.y - q.y) <= 1e-9 }
        guard let first = contour.first, let last = contour.last, !repeats(first, last) || contour.count < 2,
              !zip(contour, contour.dropFirst()).contains(where: repeats) else { return copyWithoutRepeats(contour) }
        return contour
    }

    private static func copyWithoutRepeats(_ contour: [DevicePoint]) -> [DevicePoint] {
        var out: [DevicePoint] = []
        out.reserveCapacity(contour.count)
        for p in contour {
            if let last = out.last, abs(p.x - last.x) <= 1e-9, abs(p.y - last.y) <= 1e-9 { continue }
            out.append(p)
        }
        while out.count > 1, let first = out.first, let last = out.last, abs(first.x - last.x) <= 1e-9, abs(first.y - last.y) <= 1e-9 {
            out.removeLast()
        }
        return out
    }

    /// The fill rule's fold of a pixel's winding-weighted area (as CoverageRasterizer folds it).
    @inlinable
    public static func fold(_ sum: Double, evenOdd: Bool) -> Double {
        let magnitude = abs(sum)
        if !evenOdd { return min(1, magnitude) }
        let f = magnitude.truncatingRemainder(dividingBy: 2)
        return f > 1 ? 2 - f : f
    }
}

/// The outline of a stroke to fill with the non-zero rule, and its colour (premultiplied).
public struct PathStroke: Hashable, Sendable {
    public var contours: [[DevicePoint]]
    public var color: PremultipliedColor

    public init(contours: [[DevicePoint]], color: PremultipliedColor) {
        self.contours = contours
        self.color = color
    }
}
