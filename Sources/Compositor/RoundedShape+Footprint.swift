import OpenCoreGraphics

extension RoundedShape {
    /// Where the shape can cover anything: its outer rectangle mapped from the layer's plane and
    /// grown by one pixel's reach (the most at any of its corners), a convex quadrilateral in
    /// device pixels, in order. Coverage reaches half a pixel's reach past the outline, so outside
    /// this it is zero. Under an affine map the outline grows by the exact margin instead, 0.75
    /// of the plane's gradient lengths (a pixel centre farther than sqrt 1/2 device pixel outside
    /// a line has no coverage: rounded_batch.vert, RoundedFrameMarginTests), half the reach for a
    /// card turned by 45 degrees, and its circular corners are cut (`cutCorners`): a convex
    /// polygon of four to eight points. Either holds wherever the map is even enough: stretching
    /// one way at most twice the other at the corners, and w over `bounds` within a factor 0.75 (derivatives within 1.78,
    /// under the factor 2 the growth allows). Else nil, and every pixel of `bounds` counts.
    /// The GL backend draws rounded shapes by this same outline (rounded_batch.vert); the CPU
    /// reference skips the pixels of each row outside it.
    public func footprint(within bounds: PixelRect) -> [DevicePoint]? {
        let m = deviceToLocal
        guard let toDevice = m.inverted() else { return nil }
        func device(_ x: Double, _ y: Double) -> (x: Double, y: Double, w: Double) {
            let h = toDevice.applyHomogeneous(x: x, y: y)
            return (h.x / h.w, h.y / h.w, h.w)
        }
        let r = outer.rect
        let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        var reachX = 0.0, reachY = 0.0, lengthX = 0.0, lengthY = 0.0
        for (cx, cy) in corners {
            let p = device(r.x + cx * r.width, r.y + cy * r.height)
            let h = m.applyHomogeneous(x: p.x, y: p.y), w2 = h.w * h.w
            let dxdx = (m.m11 * h.w - h.x * m.m13) / w2, dxdy = (m.m21 * h.w - h.x * m.m23) / w2
            let dydx = (m.m12 * h.w - h.y * m.m13) / w2, dydy = (m.m22 * h.w - h.y * m.m23) / w2
            reachX = max(reachX, abs(dxdx) + abs(dxdy))
            reachY = max(reachY, abs(dydx) + abs(dydy))
            lengthX = max(lengthX, (dxdx * dxdx + dxdy * dxdy).squareRoot())
            lengthY = max(lengthY, (dydx * dydx + dydy * dydy).squareRoot())
            // Singular values within a factor 2: (t + spread) <= 4 (t - spread).
            let t = dxdx * dxdx + dxdy * dxdy + dydx * dydx + dydy * dydy, det = dxdx * dydy - dxdy * dydx
            let spread = max(t * t - 4 * det * det, 0).squareRoot()
            guard t + spread <= 4 * (t - spread) else { return nil }
        }
        guard reachX > 0, reachY > 0, reachX.isFinite, reachY.isFinite else { return nil }
        let ws = [(bounds.minX, bounds.minY), (bounds.maxX, bounds.minY), (bounds.minX, bounds.maxY), (bounds.maxX, bounds.maxY)]
            .map { m.applyHomogeneous(x: Double($0.0), y: Double($0.1)).w }
        let lowest = ws.min()!, highest = ws.max()!
        guard lowest > 0 || highest < 0, min(abs(lowest), abs(highest)) >= 0.75 * max(abs(lowest), abs(highest)) else { return nil }
        let affine = m.m13 == 0 && m.m23 == 0
        let (gx, gy) = affine ? (0.75 * lengthX, 0.75 * lengthY) : (reachX, reachY)
        let plane = affine ? cutCorners(grownBy: (gx, gy), lengths: (lengthX, lengthY))
            : corners.map { cx, cy in (r.x - gx + cx * (r.width + 2 * gx), r.y - gy + cy * (r.height + 2 * gy)) }
        let grown = plane.map { device($0.0, $0.1) }
        guard grown.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        return grown.map { DevicePoint(x: $0.x, y: $0.y) }
    }
}

extension RoundedShape {
    /// The outer rectangle grown by (gx, gy) in the plane, each circular corner cut by the
    /// tangent at 45 degrees of its circle grown by 0.75 of the longest gradient a unit normal
    /// there can have, sqrt(lengthX^2 + lengthY^2): past that tangent a point lies that far from
    /// the circle along its radius, which on screen is more than the sqrt 1/2 pixel coverage
    /// reaches (a unit plane gradient maps to at most that length). Corners, in the grown
    /// rectangle's order: the 4 of its corners, or up to 8 points. A card's corner of radius 10
    /// leaves about 17 pixels of its grown square's corner off the footprint. Continuous corners,
    /// whose curve is no circle, and radii past half a side keep the square corner.
    func cutCorners(grownBy g: (x: Double, y: Double), lengths: (x: Double, y: Double)) -> [(Double, Double)] {
        let r = outer.rect, halfW = r.width / 2, halfH = r.height / 2
        let centre = (x: r.x + halfW, y: r.y + halfH)
        let margin = 0.75 * (lengths.x * lengths.x + lengths.y * lengths.y).squareRoot()
        // Top left, top right, bottom right, bottom left: each corner's outward signs and radius,
        // and whether the walk reaches it along a vertical side (then leaves along a horizontal one).
        let corners: [(sx: Double, sy: Double, radius: Double, vertical: Bool)] = [
            (-1, -1, outer.topLeft, true), (1, -1, outer.topRight, false), (1, 1, outer.bottomRight, true), (-1, 1, outer.bottomLeft, false),
        ]
        var points: [(Double, Double)] = []
        for c in corners {
            let corner = (centre.x + c.sx * (halfW + g.x), centre.y + c.sy * (halfH + g.y))
            let radius = c.radius
            guard !outer.continuous, radius > 0, radius <= min(halfW, halfH) else { points.append(corner); continue }
            // Along the vertical side, the tangent is this far from the circle's centre along y
            // (and along x on the horizontal side); it cuts both sides within the corner's square.
            let reach = (radius + margin) * 2.0.squareRoot()
            let alongY = reach - g.x - radius, alongX = reach - g.y - radius
            guard alongY >= 0, alongY <= g.y + radius, alongX >= 0, alongX <= g.x + radius else { points.append(corner); continue }
            let circle = (x: centre.x + c.sx * (halfW - radius), y: centre.y + c.sy * (halfH - radius))
            let onVertical = (corner.0, circle.y + c.sy * alongY), onHorizontal = (circle.x + c.sx * alongX, corner.1)
            points += c.vertical ? [onVertical, onHorizontal] : [onHorizontal, onVertical]
        }
        return points
    }
}

extension Array where Element == DevicePoint {
    /// The pixels of row `y` whose centres lie in this convex polygon: `minX..<maxX` (empty when
    /// none), before any clamping to a target.
    public func pixelSpan(row y: Int) -> Range<Int> {
        let cy = Double(y) + 0.5
        var low = Double.infinity, high = -Double.infinity
        // The next vertex by a compare, not `% count` (an integer division an edge, each row of
        // each card: a twentieth of a frame of cards on the CPU).
        guard var p = self.last else { return 0..<0 }
        for q in self {
            defer { p = q }
            guard Swift.min(p.y, q.y) <= cy, cy <= Swift.max(p.y, q.y) else { continue }
            if p.y == q.y {
                low = Swift.min(low, p.x, q.x)
                high = Swift.max(high, p.x, q.x)
                continue
            }
            let x = p.x + (cy - p.y) / (q.y - p.y) * (q.x - p.x)
            low = Swift.min(low, x)
            high = Swift.max(high, x)
        }
        guard low <= high else { return 0..<0 }
        // Centres x + 0.5 in [low, high]: no pixel either side more for rounding's sake, as there
        // was, since the outline is grown past the coverage's reach with room (0.75 against
        // sqrt 1/2 of a pixel at least); at the edges of a turned card's rows those pixels were a
        // third of the CPU's coverage evaluations.
        // Footprints are finite but may be 1e30 pixels across, which is no Int: clamped to far
        // beyond any target (spans are clamped to the target next).
        let reach = -(1 << 40)...(1 << 40)
        let first = Int(clampingPixels: low - 0.5, .up, to: reach)
        let last = Int(clampingPixels: high - 0.5, .down, to: reach)
        return first <= last ? first..<(last + 1) : 0..<0
    }
}
