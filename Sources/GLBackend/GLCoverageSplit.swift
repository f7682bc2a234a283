import CEGL
import Compositor

/// A polygon's pixels in two draws: the interior, whose pixels' squares lie wholly inside it
/// (coverage 1, which the cheap product of edge ramps gives exactly), and the band around it,
/// where layer_quad.frag sums the exact area (polygon_coverage.glsl).
///
/// Why two draws: a software rasterizer runs every branch of a shader for a whole group of
/// pixels, so an exact-area sum behind a per-pixel test still costs every pixel; drawn for the
/// whole of a perspective-tilted page (star-wars-crawl) it doubled the frame's time on llvmpipe.
/// Split by geometry, only the band pays. The two draws share the inner polygon's vertices, so
/// the rasterizer's rule for shared edges gives each pixel to exactly one of them.
struct GLCoverageSplit {
    /// The inner polygon: the outline moved inward by `PolygonCoverage.reach`. A pixel whose
    /// centre lies inside it has its whole square inside the outline.
    let interior: [DevicePoint]
    /// The outline moved outward by a pixel, vertex for vertex with `interior`: between the two
    /// lies every pixel the outline covers partly (a pixel touching the outline has its centre
    /// within sqrt(2)/2 of it).
    let outer: [DevicePoint]

    /// Smallest interior worth a draw of its own, in square pixels.
    static let minimumInteriorArea = 64.0
    /// Longest a corner may reach out when the outline moves out a pixel: sharper corners (their
    /// mitre grows as 1 / sin(angle / 2)) are drawn whole instead.
    static let maximumMitre = 4.0

    /// The split of an exact polygon's outline (`CoveragePolygon.isExact`) large enough to gain
    /// from it; nil where it is drawn whole. Only for a polygon that is the quad's own: a shape
    /// with its own outline must stay within its pixel bounds, which its clip's split would leave.
    static func make(_ polygon: CoveragePolygon) -> GLCoverageSplit? {
        guard polygon.isExact else { return nil }
        let points = polygon.outline
        let n = points.count
        guard n >= 3 else { return nil }
        // Each side's line a·x + b·y + c = 0, (a, b) the unit normal pointing inside.
        var lines: [(a: Double, b: Double, c: Double)] = []
        for i in 0..<n {
            let p = points[i], q = points[i + 1 == n ? 0 : i + 1]
            let dx = q.x - p.x, dy = q.y - p.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 1e-9 else { return nil }
            let a = -dy / length, b = dx / length
            lines.append((a, b, -(a * p.x + b * p.y)))
        }
        let reach = PolygonCoverage.reach
        guard let interior = points.movedInward(by: reach), let outer = points.movedInward(by: -1) else { return nil }
        // Every side must survive the move inward (a thin polygon loses some), and the interior
        // must be large enough to be worth its own draw.
        for p in interior {
            for line in lines where line.a * p.x + line.b * p.y + line.c < reach - 1e-6 { return nil }
        }
        var area = 0.0
        for i in 0..<n {
            let p = interior[i], q = interior[i + 1 == n ? 0 : i + 1]
            area += p.x * q.y - q.x * p.y
        }
        guard area / 2 >= minimumInteriorArea else { return nil }
        for i in 0..<n {
            let dx = outer[i].x - points[i].x, dy = outer[i].y - points[i].y
            guard dx * dx + dy * dy <= maximumMitre * maximumMitre else { return nil }
        }
        return GLCoverageSplit(interior: interior, outer: outer)
    }

    /// Whether every pixel of the polygon's pixel bounds lies a pixel's reach inside all its
    /// edges, so that the product of ramps is exactly 1 there: a shape that brings its own
    /// outline (a rounded rectangle), whose polygon is only the clip it is drawn in, mostly
    /// the frame's guard band. The distances are affine, so the bounds' corner pixels decide.
    static func isWhollyInside(_ polygon: CoveragePolygon) -> Bool {
        let b = polygon.pixelBounds
        let corners = [(Double(b.minX) + 0.5, Double(b.minY) + 0.5), (Double(b.maxX) - 0.5, Double(b.minY) + 0.5),
                       (Double(b.minX) + 0.5, Double(b.maxY) - 0.5), (Double(b.maxX) - 0.5, Double(b.maxY) - 0.5)]
        return polygon.edges.allSatisfy { edge in
            corners.allSatisfy { edge.a * $0.0 + edge.b * $0.1 + edge.c >= PolygonCoverage.reach }
        }
    }

    /// The interior as a triangle fan.
    var interiorFan: [GLfloat] { interior.flatMap { [GLfloat($0.x), GLfloat($0.y)] } }

    /// The band as a triangle strip: outer and inner vertex by turns, closed.
    var bandStrip: [GLfloat] {
        var strip: [GLfloat] = []
        for i in 0...interior.count {
            let k = i % interior.count
            strip += [GLfloat(outer[k].x), GLfloat(outer[k].y), GLfloat(interior[k].x), GLfloat(interior[k].y)]
        }
        return strip
    }
}
