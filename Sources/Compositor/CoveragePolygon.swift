import Foundation
import OpenCoreGraphics

/// A convex polygon in device pixels and the coverage function both backends evaluate.
///
/// Coverage of a pixel is the exact area of its square inside the polygon (`PolygonCoverage`).
/// A product of per-edge ramps, as this was before, is exact only for one axis-aligned edge at a
/// time: a 0.1-pixel line centred in a pixel drew at 0.30, rotated edges were off by up to 1/16,
/// corners of rotated quads more. Clips are intersected into the polygon here, so an edge shared
/// by a layer and its clip is one edge and counts once.
public struct CoveragePolygon: Hashable, Sendable {
    /// Vertices in order, with positive signed area (clockwise on a y-down screen).
    public private(set) var vertices: [DevicePoint]
    /// One inward edge line per side.
    public private(set) var edges: [EdgeEquation]
    /// The polygon whose area inside a pixel is the coverage: the vertices, or for a shape that
    /// brings its own outline, the clip's (`withEdges(of:)`); empty: no bound but the pixel bounds.
    public private(set) var outline: [DevicePoint]
    /// True once an edge was made hard (`harden`): coverage is then the product of the edges'
    /// ramps, whose steep ramps put a pixel in or out by its centre.
    public private(set) var hasHardEdges = false
    /// The pixels that can have non-zero coverage, clamped to the target: x in `minX..<maxX`.
    public private(set) var pixelBounds: PixelRect

    /// At most this many edges reach the backends (a uniform array on the GPU). A convex polygon
    /// from one quad and a few clips has far fewer; beyond it, the shortest edges are dropped,
    /// which makes the polygon slightly larger at those corners.
    public static let maxEdges = 32

    /// The polygon through `vertices` (any orientation; degenerate sides removed), or nil when it
    /// covers no area.
    public init?(vertices input: [DevicePoint], targetWidth: Int, targetHeight: Int) {
        var points = input
        // Usually nothing is to be removed, and the input's storage is kept as it is.
        if input.indices.contains(where: { i in
            let p = input[i]
            guard p.x.isFinite && p.y.isFinite else { return true }
            guard i > 0 else { return false }
            return abs(input[i - 1].x - p.x) < 1e-9 && abs(input[i - 1].y - p.y) < 1e-9
        }) {
            points = []
            for p in input where p.x.isFinite && p.y.isFinite {
                if let last = points.last, abs(last.x - p.x) < 1e-9, abs(last.y - p.y) < 1e-9 { continue }
                points.append(p)
            }
        }
        while points.count > 1, let first = points.first, let last = points.last,
              abs(first.x - last.x) < 1e-9, abs(first.y - last.y) < 1e-9 {
            points.removeLast()
        }
        guard points.count >= 3 else { return nil }
        let area = CoveragePolygon.signedArea(points)
        guard abs(area) > 1e-7 else { return nil }
        if area < 0 { points.reverse() }
        vertices = points
        outline = points
        // Built without intermediate arrays: every drawn quad of every frame comes through here.
        var equations: [EdgeEquation] = []
        equations.reserveCapacity(points.count)
        var lengths: [Double] = []
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for i in points.indices {
            let p = points[i], q = points[i + 1 == points.count ? 0 : i + 1]
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            let dx = q.x - p.x, dy = q.y - p.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 1e-9 else { continue }
            let a = -dy / length, b = dx / length
            equations.append(EdgeEquation(a: a, b: b, c: -(a * p.x + b * p.y)))
            if points.count > CoveragePolygon.maxEdges { lengths.append(length) }
        }
        if equations.count > CoveragePolygon.maxEdges {
            let keep = Set(equations.indices.sorted { lengths[$0] > lengths[$1] }.prefix(CoveragePolygon.maxEdges))
            equations = equations.indices.filter(keep.contains).map { equations[$0] }
        }
        edges = equations
        // Coverage is non-zero up to half a pixel outside an edge, so the pixel centres that can
        // matter lie within 0.5 of the bounding box; one more pixel keeps rounding on the safe side.
        pixelBounds = PixelRect(
            minX: Int(clampingPixels: minX - 1, .down, to: 0...targetWidth),
            minY: Int(clampingPixels: minY - 1, .down, to: 0...targetHeight),
            maxX: Int(clampingPixels: maxX + 1, .up, to: 0...targetWidth),
            maxY: Int(clampingPixels: maxY + 1, .up, to: 0...targetHeight))
        guard pixelBounds.maxX > pixelBounds.minX, pixelBounds.maxY > pixelBounds.minY else { return nil }
    }

    /// The same pixel bounds, with the edges of `clip` instead of its own: for shapes that bring
    /// their own outline (rounded rectangles), whose straight sides must not count twice.
    public func withEdges(of clip: CoveragePolygon?) -> CoveragePolygon {
        var copy = self
        copy.edges = clip?.edges ?? []
        copy.outline = clip?.outline ?? []
        copy.hasHardEdges = clip?.hasHardEdges ?? false
        return copy
    }

    /// Sets the edges and the outline, as `withEdges(of:)` does, from ones already at hand.
    mutating func replaceEdges(_ equations: [EdgeEquation], outline points: [DevicePoint], hard: Bool) {
        edges = equations
        outline = points
        hasHardEdges = hard
    }

    /// Makes the edges that lie on any of `lines` hard: a pixel is inside when its centre is
    /// inside or on the line, outside otherwise (layer edges not anti-aliased,
    /// `edgeAntialiasingMask`). The ramp of such an edge is scaled to 1/`hardness` of a pixel and
    /// moved inward by half of that, so the product form of `coverage` stays as it is on both
    /// backends.
    mutating func harden(along lines: [EdgeEquation]) {
        for i in edges.indices {
            let e = edges[i]
            guard lines.contains(where: { line in
                abs(line.a - e.a) < 1e-6 && abs(line.b - e.b) < 1e-6 && abs(line.c - e.c) < 1e-4 * max(1, abs(e.c))
            }) else { continue }
            let k = CoveragePolygon.hardness
            edges[i] = EdgeEquation(a: e.a * k, b: e.b * k, c: e.c * k + 0.5)
            hasHardEdges = true
        }
    }

    /// How much steeper a hard edge's ramp is than an anti-aliased one's.
    static let hardness = 1024.0

    /// Whether `coverage` is the exact area of the pixel inside `outline`: always, but for hard
    /// edges and outlines of more than `maxEdges` vertices (the GPU's array), where it is the
    /// product of the edges' ramps.
    public var isExact: Bool { !hasHardEdges && outline.count <= CoveragePolygon.maxEdges }

    /// The outline's bounds when the outline is an axis-aligned rectangle (its area is its
    /// bounding box's: a convex polygon fills its box only when it is the box; collinear vertices
    /// left by clipping do not matter), and coverage is exact. Nil otherwise, and for no outline.
    public var axisAlignedBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        guard isExact, outline.count >= 3 else { return nil }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in outline {
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let box = (maxX - minX) * (maxY - minY)
        guard box > 0, abs(CoveragePolygon.signedArea(outline) - box) <= 1e-9 * max(1, box) else { return nil }
        return (minX, minY, maxX, maxY)
    }

    /// The pixels the polygon covers, when it is an axis-aligned rectangle of whole pixels (a
    /// closed-form shadow's quad, `RenderListBuilder.outToWholePixels`, cut by the frame or not):
    /// its edges lie on pixel boundaries, so each of these pixels lies wholly inside and every
    /// other wholly outside, and a backend can draw them without working out the edges (the GL
    /// shadow batch's ramps clamp to exactly 1 at every such pixel). Nil otherwise.
    public var wholePixelRect: PixelRect? {
        // Within a millionth of a pixel of whole (clipping by the frame leaves such noise): the
        // ramps, snapped to 1/1024 (blurred_batch.frag), clamp to 1 all the same.
        guard !hasHardEdges, let box = axisAlignedBounds,
              [box.minX, box.minY, box.maxX, box.maxY].allSatisfy({ abs($0 - $0.rounded()) <= 1e-6 }) else { return nil }
        // On the target: the pixel bounds are clamped to it.
        let rect = PixelRect(minX: max(Int(clampingPixels: box.minX, to: 0...Int(Int32.max)), pixelBounds.minX),
                             minY: max(Int(clampingPixels: box.minY, to: 0...Int(Int32.max)), pixelBounds.minY),
                             maxX: min(Int(clampingPixels: box.maxX, to: 0...Int(Int32.max)), pixelBounds.maxX),
                             maxY: min(Int(clampingPixels: box.maxY, to: 0...Int(Int32.max)), pixelBounds.maxY))
        return rect.maxX > rect.minX && rect.maxY > rect.minY ? rect : nil
    }

    /// True when coverage is the area inside an axis-aligned rectangle, or bounded by nothing
    /// but the pixel bounds (no outline): what the GPU's batches draw, and where a background and
    /// its border are drawn in one step on both backends (`QuadOp.isBorder(over:)`).
    public var isRectangle: Bool { isExact && (outline.isEmpty || axisAlignedBounds != nil) }

    /// The coverage of the pixel whose centre is (x, y): the area of its square inside `outline`
    /// (`PolygonCoverage.squareArea`), or where that is not exact (`isExact`), the product over
    /// the edges of clamp(d + 0.5, 0, 1), d the centre's signed distance.
    @inlinable
    public func coverage(atX x: Double, y: Double) -> Double {
        guard !edges.isEmpty else { return 1 }
        guard isExact else {
            var coverage = 1.0
            for edge in edges {
                let d = edge.a * x + edge.b * y + edge.c
                coverage *= min(max(d + 0.5, 0), 1)
                if coverage == 0 { return 0 }
            }
            return coverage
        }
        // Pixels wholly inside or outside, most of them, are settled by the distances alone.
        var inside = true
        for edge in edges {
            let d = edge.a * x + edge.b * y + edge.c
            if d <= -PolygonCoverage.reach { return 0 }
            if d < PolygonCoverage.reach { inside = false }
        }
        return inside ? 1 : PolygonCoverage.squareArea(x: x - 0.5, y: y - 0.5, outline: outline)
    }

    /// Whether `coverage` is exactly 1 at every pixel of `rect`: no edges, or every edge's
    /// distance at least `PolygonCoverage.reach` (where it answers 1 from the distances alone,
    /// and a ramp clamps to 1) at each of the rectangle's corner pixels' centres, and so at every
    /// pixel between (distances are affine; a billionth spare for rounding). A card's quad,
    /// clipped only by the frame grown by two pixels, is: its pixels need not measure the clip.
    public func coversWholly(_ rect: PixelRect) -> Bool {
        guard !edges.isEmpty, rect.maxX > rect.minX, rect.maxY > rect.minY else { return true }
        let xs = (Double(rect.minX) + 0.5, Double(rect.maxX) - 0.5), ys = (Double(rect.minY) + 0.5, Double(rect.maxY) - 0.5)
        let least = PolygonCoverage.reach + 1e-9
        for edge in edges {
            for (x, y) in [(xs.0, ys.0), (xs.1, ys.0), (xs.0, ys.1), (xs.1, ys.1)] where edge.a * x + edge.b * y + edge.c < least {
                return false
            }
        }
        return true
    }

    /// The polygon's area in square pixels.
    public var area: Double { CoveragePolygon.signedArea(vertices) }

    /// The signed area of a polygon, its sign the way its vertices turn.
    public static func signedArea(_ p: [DevicePoint]) -> Double {
        var sum = 0.0
        for i in p.indices {
            let q = p[(i + 1) % p.count]
            sum += p[i].x * q.y - q.x * p[i].y
        }
        return sum / 2
    }
}

/// A point in device pixels.
public struct DevicePoint: Hashable, Sendable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// The line a·x + b·y + c = 0 with (a, b) a unit normal pointing inside: the value is the signed
/// distance in pixels.
public struct EdgeEquation: Hashable, Sendable {
    public var a: Double, b: Double, c: Double
    public init(a: Double, b: Double, c: Double) { self.a = a; self.b = b; self.c = c }
}

/// A half-open rectangle of whole pixels.
public struct PixelRect: Hashable, Sendable {
    public var minX: Int, minY: Int, maxX: Int, maxY: Int
    public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }
    public var width: Int { maxX - minX }
    public var height: Int { maxY - minY }
}
