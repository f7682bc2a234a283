import Foundation

extension BlurredRoundedRect {
    /// Where a rounded shadow's closed form is one number, as a cross of up to three rectangles
    /// centred on the shape (half extents in its plane), each of which holds one value to the bit.
    /// A sharp shadow turned or tilted has no grid, and every pixel has a height of its own in its
    /// plane, so each of its pixels outside these pieces makes eight Gaussians and sixteen erfs;
    /// inside, the value is made once a piece (CPU) or without the erfs (GPU,
    /// blurred_rounded_rect.glsl mirrors this).
    ///
    /// - `core` (`BlurredRoundedRectProfile.constantRegion`): every sample row at full width, the
    ///   samples' window unclamped, every erf past `erfWhole`.
    /// - `tall`, within the straight part along x (`halfWidth - corner`, the narrowest any sample
    ///   row is, less erf's reach): every erf of every row is ±1 however the corners narrow the
    ///   rows, so only the samples' window matters, the same wherever it lies wholly inside the
    ///   box (`halfHeight - 3 sigma`). Up to the top and bottom edges where the core stopped
    ///   `corner` short of them.
    /// - `wide`, within the straight part along y (every sample row at full width): every erf is
    ///   ±1 up to erf's reach from the sides, where the core stopped `corner` short of them.
    ///
    /// Each row's term is then 0.5 * (1 - -1) * weight * step, the weights the unclamped window's:
    /// one number. The margin past erf's reach is a grid step (a sixth of sigma) and a
    /// ten-thousandth of the shape's size, for the rounding of px, py and the bounds in Float. A
    /// piece whose extent would not be positive is absent (its points would lie on an axis,
    /// where the rows need not be full). Square corners: the core alone (their rows are all full).
    public struct ConstantRegion: Sendable, Equatable {
        public var core: Extent
        public var tall: Extent?
        public var wide: Extent?

        public struct Extent: Sendable, Equatable {
            public var x: Float
            public var y: Float

            @inlinable
            public func contains(px: Float, py: Float) -> Bool { abs(px) <= x && abs(py) <= y }
        }

        /// Which piece holds (px, py), from the centre: 0 the core, 1 tall, 2 wide; nil outside.
        @inlinable
        public func piece(px: Float, py: Float) -> Int? {
            if core.contains(px: px, py: py) { return 0 }
            if let tall, tall.contains(px: px, py: py) { return 1 }
            if let wide, wide.contains(px: px, py: py) { return 2 }
            return nil
        }

        /// The region of `key`'s closed form; nil for a degenerate shape (as `constantRegion`).
        public init?(_ key: BlurredRoundedRectProfile.Key) {
            guard let core = BlurredRoundedRectProfile.constantRegion(for: key) else { return nil }
            self.core = Extent(x: core.x, y: core.y)
            guard key.corner > 0 else { return }
            let sigma = key.sigma, corner = key.corner
            let whole = BlurredRoundedRect.erfWhole * Float(2).squareRoot() * sigma
            let slack = sigma / BlurredRoundedRectProfile.pointsPerSigma + 1e-4 * (max(key.halfWidth, key.halfHeight) + 1)
            func piece(_ x: Float, _ y: Float) -> Extent? { x > 0 && y > 0 ? Extent(x: x, y: y) : nil }
            tall = piece(key.halfWidth - corner - whole - slack, key.halfHeight - 3 * sigma - slack)
            wide = piece(key.halfWidth - whole - slack, key.halfHeight - corner - 3 * sigma - slack)
        }
    }
}
