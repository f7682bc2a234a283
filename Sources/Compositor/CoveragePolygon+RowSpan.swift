import Foundation

extension CoveragePolygon {
    /// The pixels of row `y` whose coverage can be above zero: those whose centres lie less than
    /// `PolygonCoverage.reach` outside every edge (`coverage(atX:y:)` answers 0 at or past it,
    /// and a hard edge's ramp ends nearer), one pixel wider each side for rounding. Unclamped;
    /// the whole line where an edge is not finite.
    ///
    /// Why: a row of a turned quad was searched for its first and last covered pixels from its
    /// bounding box's ends, a coverage evaluation a pixel across the empty triangles between; a
    /// radius-100 shadow turned by 0.6 spent a sixth of its frame there.
    public func candidateColumns(row y: Int) -> Range<Int> {
        let cy = Double(y) + 0.5
        var low = -Double.infinity, high = Double.infinity
        for edge in edges {
            // a (x + 0.5) + b cy + c > -reach.
            let rest = -PolygonCoverage.reach - edge.b * cy - edge.c
            guard edge.a.isFinite, rest.isFinite else { return Int.min..<Int.max }
            if edge.a > 0 {
                low = max(low, rest / edge.a - 0.5)
            } else if edge.a < 0 {
                high = min(high, rest / edge.a - 0.5)
            } else if rest >= 0 {
                return 0..<0
            }
        }
        guard low <= high else { return 0..<0 }
        // Pixels x with low < x < high, a pixel more each side; far ends stay far (no Int overflow).
        let reach = Double(1 << 40)
        let first = Int(max(low, -reach).rounded(.down)) - 1, last = Int(min(high, reach).rounded(.up)) + 1
        return first..<max(first, last + 1)
    }
}
