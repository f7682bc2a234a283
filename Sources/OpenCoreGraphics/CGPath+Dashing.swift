import Foundation

extension CGPath {
    /// Most dashes one dashing makes: a 16,384-pixel line in half-pixel dashes. Default: 20,000.
    public static let maxDashes = 20_000

    /// The "on" stretches of a dash pattern along the path, as open subpaths of straight segments
    /// (curves are flattened to 0.01 first). `lengths` alternate on and off, starting `phase` into
    /// the pattern. A pattern with no positive total length gives the path unchanged, and at most
    /// `maxDashes` are made, so no pattern can loop forever or turn one segment into a path too
    /// large to stroke (each dash becomes an outline with caps).
    public func copy(dashingWithPhase phase: CGFloat, lengths: [CGFloat],
                     transform: CGAffineTransform = .identity) -> CGPath {
        copy(dashingWithPhase: phase, lengths: lengths, tolerance: CGPath.measuringTolerance).copy(applying: transform)
    }

    /// How finely dashing and trimming flatten curves to measure along them, in the path's units.
    package static let measuringTolerance: CGFloat = 0.01

    /// `copy(dashingWithPhase:lengths:)` with curves flattened to `tolerance` (path units).
    package func copy(dashingWithPhase phase: CGFloat, lengths: [CGFloat], tolerance: CGFloat) -> CGPath {
        let pattern = lengths.map { $0.isFinite ? max($0, 0) : 0 }
        let period = pattern.reduce(0, +)
        // A period that overflows (lengths of 1e308) is longer than any path: the first dash is
        // all of it. (Left in, a negative phase became an infinite offset that never ran down.)
        guard period > 1e-9, period.isFinite, phase.isFinite else { return self }
        let result = CGMutablePath()
        var dashes = 0
        for polyline in PathStroker.subpaths(self, tolerance: tolerance) {
            let (points, closed) = (polyline.points, polyline.closed)
            let polyline = closed && points.count > 1 ? points + [points[0]] : points
            // Where in the pattern the subpath starts.
            var index = 0
            var remaining = pattern[0]
            var offset = phase.truncatingRemainder(dividingBy: period)
            if offset < 0 { offset += period }
            while offset > 0 {
                if offset >= remaining {
                    offset -= remaining
                    index = (index + 1) % pattern.count
                    remaining = pattern[index]
                } else {
                    remaining -= offset
                    offset = 0
                }
            }
            var on = index % 2 == 0
            var current: [CGPoint] = on ? [polyline[0]] : []
            for i in 1..<max(polyline.count, 1) {
                var a = polyline[i - 1]
                let b = polyline[i]
                var segment = hypot(b.x - a.x, b.y - a.y)
                while segment > remaining, dashes < CGPath.maxDashes {
                    let t = remaining / segment
                    let cut = CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
                    if on {
                        current.append(cut)
                        result.addLines(between: current)
                        dashes += 1
                        current = []
                    } else {
                        current = [cut]
                    }
                    on.toggle()
                    segment -= remaining
                    a = cut
                    index = (index + 1) % pattern.count
                    remaining = pattern[index]
                }
                remaining -= segment
                if on { current.append(b) }
            }
            if on, current.count > 1 { result.addLines(between: current) }
        }
        return result
    }
}
