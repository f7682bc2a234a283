import OpenCoreGraphics

// Two facts about a rounded shape that let a backend work out less for the same coverage (GL's
// rounded frames, GLQuadBatch.Shortcuts; rounded_shape.glsl's OutlineWork).

extension RoundedRectangle {
    /// Whether this outline is `outer` eroded by one width all round: each side that far in, each
    /// corner's radius at least that width and this one's that much less, circular corners (to
    /// within a millionth of the rectangle's size, far below a float's own rounding of where a
    /// shader finds a corner). Then every distance of this outline (a corner's curve or a side,
    /// each straight edge's line) is `outer`'s plus the width along the same gradient, the
    /// corners sharing their centres. A filled shape alone, whose inner outline is its outer one,
    /// is eroded by nothing.
    public func isEroded(from outer: RoundedRectangle) -> Bool {
        guard !outer.continuous, !continuous else { return false }
        let o = outer.rect, i = rect
        let width = i.x - o.x
        let tolerance = 1e-6 * max(1, abs(o.x), abs(o.y), abs(o.width), abs(o.height))
        let sides = [i.y - o.y, (o.x + o.width) - (i.x + i.width), (o.y + o.height) - (i.y + i.height)]
        guard width >= 0, i.width > 0, i.height > 0, sides.allSatisfy({ abs($0 - width) <= tolerance }) else { return false }
        let radii = [(outer.topLeft, topLeft), (outer.topRight, topRight), (outer.bottomRight, bottomRight),
                     (outer.bottomLeft, bottomLeft)]
        return radii.allSatisfy { r, inner in r >= width && abs(inner - (r - width)) <= tolerance }
    }
}

extension ProjectiveTransform2D {
    /// Whether this map from device pixels to a layer's plane is affine and turns, scales alike
    /// along both axes and maybe mirrors (a similarity), to within a millionth: then no straight
    /// edge's line of a circular corner's quadrant is nearer on screen than the outline, since in
    /// the plane a corner's curve is never nearer than its sides' lines and every direction is
    /// stretched alike. Within a millionth, a line could win only by that share of a distance.
    public var isSimilarity: Bool {
        guard m13 == 0, m23 == 0 else { return false }
        // Device x steps the plane by (m11, m12), device y by (m21, m22).
        let (a, b, c, d) = (m11, m12, m21, m22)
        let scale = (a * a + b * b).squareRoot(), tolerance = 1e-6 * scale
        guard scale > 0, scale.isFinite else { return false }
        let turned = abs(d - a) <= tolerance && abs(c + b) <= tolerance
        let mirrored = abs(d + a) <= tolerance && abs(c - b) <= tolerance
        return turned || mirrored
    }
}
