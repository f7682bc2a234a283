import Compositor

extension Array where Element == DevicePoint {
    /// This convex polygon with every side moved `distance` pixels inward along its normal
    /// (outward where negative), whichever way its vertices turn; nil where two neighbouring sides are parallel
    /// or a side has no length.
    func movedInward(by distance: Double) -> [DevicePoint]? {
        let points = self, n = points.count
        guard n >= 3 else { return nil }
        let turn: Double = CoveragePolygon.signedArea(points) >= 0 ? 1 : -1
        // Each side's line a·x + b·y + c = 0, (a, b) the unit normal pointing inside.
        var lines: [(a: Double, b: Double, c: Double)] = []
        for i in 0..<n {
            let p = points[i], q = points[(i + 1) % n]
            let dx = q.x - p.x, dy = q.y - p.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 1e-9 else { return nil }
            let a = -dy / length * turn, b = dx / length * turn
            lines.append((a, b, -(a * p.x + b * p.y)))
        }
        var result: [DevicePoint] = []
        for i in 0..<n {
            let l1 = lines[(i + n - 1) % n], l2 = lines[i]
            let c1 = l1.c - distance, c2 = l2.c - distance
            let det = l1.a * l2.b - l2.a * l1.b
            guard abs(det) > 1e-9 else { return nil }
            result.append(DevicePoint(x: (-c1 * l2.b + c2 * l1.b) / det, y: (-l1.a * c2 + l2.a * c1) / det))
        }
        return result
    }
}
