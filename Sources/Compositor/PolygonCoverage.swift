import Foundation

/// The exact area of a pixel's square inside a polygon: the function both backends evaluate for
/// every polygon drawn (`CoveragePolygon.coverage` here, `polygon_coverage.glsl` on the GPU, step
/// for step).
///
/// The area is summed edge by edge, as an outline font's rasterizer sums it: within the pixel's
/// row, each edge contributes the part of the row's height it spans times how much of the
/// pixel's width lies left of it on average over that span, added for edges going down the
/// screen (the right side of a polygon with positive area) and taken away for edges going up
/// (its left side). What is left is the area inside, exactly, whatever the number of edges
/// crossing the pixel: a corner, a line thinner than a pixel, a polygon smaller than one. Each
/// edge costs a fixed handful of operations and no branch, which matters on the GPU, where a
/// software rasterizer runs every branch for a whole group of pixels.
public enum PolygonCoverage {
    /// How far outside its edge a pixel centre can be while some of its square is inside: half
    /// the square's extent along a unit normal, at most sqrt(2)/2. A centre this far inside every
    /// edge has its whole square inside; this far outside any, none.
    public static let reach = 0.70711

    /// The area of the unit square with top-left corner (x, y) inside the polygon through `outline`
    /// (positive signed area on the y-down screen, as `CoveragePolygon` keeps its vertices).
    @inlinable
    public static func squareArea(x: Double, y: Double, outline: [DevicePoint]) -> Double {
        var sum = 0.0
        let n = outline.count
        for i in 0..<n {
            let a = outline[i], b = outline[i + 1 == n ? 0 : i + 1]
            sum += edgeShare(ax: a.x - x, ay: a.y - y, bx: b.x - x, by: b.y - y)
        }
        return min(max(sum, 0), 1)
    }

    /// One edge's signed share of the unit square [0, 1] x [0, 1], the edge from a to b given
    /// relative to the square's top-left corner: the height it spans within the square (negative
    /// going up) times the mean over that span of clamp(x, 0, 1), the width left of the edge.
    /// That mean is the difference of clamp's integral F over the run in x, (F(x1) - F(x0)) / dx,
    /// and dx = dy * slope, so the share is (F(x1) - F(x0)) / slope; where the run in x is too
    /// short to divide by (a nearly vertical edge), dy times clamp at the middle. The GPU takes
    /// 1 / slope per edge, so that no pixel divides.
    @inlinable
    public static func edgeShare(ax: Double, ay: Double, bx: Double, by: Double) -> Double {
        let y0 = min(max(ay, 0), 1), y1 = min(max(by, 0), 1)
        let dy = y1 - y0
        guard dy != 0 else { return 0 }
        let slope = (bx - ax) / (by - ay)
        let x0 = ax + (y0 - ay) * slope, x1 = ax + (y1 - ay) * slope
        // Wholly right of the square: the whole height; wholly left: none (as the shader, which
        // needs it for float's sake: polygon_coverage.glsl).
        if min(x0, x1) >= 1 { return dy }
        if max(x0, x1) <= 0 { return 0 }
        if abs(x1 - x0) < 1e-4 { return dy * min(max((x0 + x1) / 2, 0), 1) }
        return (integralClamped(x1) - integralClamped(x0)) / slope
    }

    @inlinable
    static func integralClamped(_ x: Double) -> Double {
        let c = min(max(x, 0), 1)
        return c * c / 2 + max(x - 1, 0)
    }
}
