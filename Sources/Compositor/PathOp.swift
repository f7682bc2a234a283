import Foundation

/// A filled path in device pixels: a shape layer's fill or the outline of its stroke, its
/// contours already projected and clipped (near plane, masksToBounds, viewport). Each pixel is
/// covered by the area of its square inside the contours, counted with their winding (edge by
/// edge, as `PolygonCoverage` and OpenCoreGraphics' `CoverageRasterizer` sum it), then folded by
/// the fill rule: non-zero takes min(1, |sum|), even-odd a triangle wave of period 2. Both
/// backends draw it from the contours, so an animated path or strokeEnd rasterizes nothing on
/// the CPU and uploads no texture.
public struct PathOp: Hashable, Sendable {
    /// Who asked for the draw: the layer's description and part.
    public var source: String
    /// Closed contours (the last point joins the first), device pixels.
    public var contours: [[DevicePoint]]
    public var evenOdd: Bool
    /// Premultiplied.
    public var color: PremultipliedColor
    public var opacity: Double
    public var tint: PremultipliedColor
    public var blend: BlendMode
    /// The pixels the contours can cover (their bounding box on whole pixels, within the target):
    /// outside it every winding number is 0.
    public var pixelBounds: PixelRect

    /// Nil where the contours cover no pixel of a `targetWidth` x `targetHeight` target.
    public init?(source: String, contours: [[DevicePoint]], evenOdd: Bool, color: PremultipliedColor, opacity: Double,
                 tint: PremultipliedColor = .opaqueWhite, blend: BlendMode = .sourceOver, targetWidth: Int, targetHeight: Int) {
        // Points a rounding error apart (a flattened curve's end on its start) are one: an edge
        // 1e-14 high would be level in the GPU's float, with no slope to divide by.
        let kept = contours.map(PathOp.withoutRepeats).filter { $0.count >= 3 }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for point in kept.joined() {
            guard point.x.isFinite, point.y.isFinite else { return nil }
            minX = min(minX, point.x); maxX = max(maxX, point.x)
            minY = min(minY, point.y); maxY = max(maxY, point.y)
        }
        guard minX < maxX, minY < maxY else { return nil }
        let bounds = PixelRect(minX: max(Int(max(minX, -1).rounded(.down)), 0), minY: max(Int(max(minY, -1).rounded(.down)), 0),
                               maxX: min(Int(min(maxX, Double(targetWidth) + 1).rounded(.up)), targetWidth),
                               maxY: min(Int(min(maxY, Double(targetHeight) + 1).rounded(.up)), targetHeight))
        guard bounds.width > 0, bounds.height > 0 else { return nil }
        self.source = source
        self.contours = kept
        self.evenOdd = evenOdd
        self.color = color
        self.opacity = opacity
        self.tint = tint
        self.blend = blend
        pixelBounds = bounds
    }

    /// The path moved by whole pixels into a target of the given size; nil where nothing of it is
    /// left inside.
    func translated(dx: Int, dy: Int, targetWidth: Int, targetHeight: Int) -> PathOp? {
        PathOp(source: source, contours: contours.map { $0.map { DevicePoint(x: $0.x + Double(dx), y: $0.y + Double(dy)) } },
               evenOdd: evenOdd, color: color, opacity: opacity, tint: tint, blend: blend,
               targetWidth: targetWidth, targetHeight: targetHeight)
    }

    /// The contour without points within 1e-9 pixel of the one before (or, for the last, the first).
    static func withoutRepeats(_ contour: [DevicePoint]) -> [DevicePoint] {
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
