import CEGL
import Compositor

extension CoveragePolygon {
    /// The outline as polygon_coverage.glsl takes it: per edge the first vertex, the second's y
    /// and the slope dx/dy (`edges`, four floats each), and 1 / slope apart (`inverseSlopes`); a
    /// triangle is padded with an edge that spans no height, so quads and triangles both give
    /// four. The general program's EXACT_COVERAGE variant and the texture batches read the same.
    var shaderOutline: (edges: [GLfloat], inverseSlopes: [GLfloat]) {
        var edges: [GLfloat] = [], inverseSlopes: [GLfloat] = []
        for i in outline.indices {
            let p = outline[i], q = outline[i + 1 == outline.count ? 0 : i + 1]
            let slope = q.y != p.y ? (q.x - p.x) / (q.y - p.y) : 0
            edges += [GLfloat(p.x), GLfloat(p.y), GLfloat(q.y), GLfloat(slope)]
            inverseSlopes.append(slope != 0 ? GLfloat(1 / slope) : 0)
        }
        if outline.count == 3 {
            edges += [GLfloat(outline[0].x), GLfloat(outline[0].y), GLfloat(outline[0].y), 0]
            inverseSlopes.append(0)
        }
        return (edges, inverseSlopes)
    }
}
