import CPixelKernels
import Foundation

/// A wide shadow's closed form (`BlurredRoundedRect.alpha(px:py:...)`) sampled once on a grid
/// over one quadrant of its plane, for a GPU to interpolate instead of evaluating the closed
/// form (eight rows of two erfs and a Gaussian each) at every pixel of the shadow.
///
/// Why: a shadow's pixels grow with the square of its radius, and on a software rasterizer
/// (llvmpipe, softpipe) every one of them ran the whole closed form: radius 100 cost 4x radius 4.
/// The shape convolved with a Gaussian is smooth at the scale of sigma, so a grid of sigma / 6
/// holds it to within about 0.5 / 255 under bilinear interpolation (the error of linear
/// interpolation is at most h^2 / 8 times the second derivative, and a Gaussian edge's is at
/// most 0.242 / sigma^2: 0.0008 an axis). The shape is symmetric about both its axes, so one
/// quadrant serves: the grid runs from the centre to 4 sigma past the edges, where the closed
/// form is below 1 / 10,000 (the GPU clamps to the last texel beyond).
///
/// The grid does not start at the centre: along x the closed form is constant wherever every
/// erf of every row is ±1 (within the straight sides, 5.5 / k in from the narrowest row), and
/// along y wherever all eight samples lie on the straight sides at full width (the corners' and
/// three sigma's reach in from the edges): the same erfs, samples and weights, so the same value
/// (`origin`). The grid covers only the band from there to 4 sigma past the edge, whose size
/// depends on the corner radius and sigma and not on the shape's: a radius-4 shadow on a
/// 420-pixel card is 108 x 80 points rather than 50,000, and on llvmpipe a texture read costs a
/// fraction of the sixteen erfs and eight exponentials the closed form makes at each pixel (a
/// radius-4 shadow of such a card was 0.95 ms of a 2 ms frame). Sharper shadows, whose band in
/// grid points passes `maxSide` (sigma under about 3 with a 24-point corner), keep the closed
/// form.
public struct BlurredRoundedRectProfile: Sendable {
    /// What the grid depends on, as the closed form reads it (Float, in the shape's plane).
    public struct Key: Hashable, Sendable {
        public let halfWidth: Float
        public let halfHeight: Float
        public let corner: Float
        public let sigma: Float

        public init(_ shape: BlurredRoundedRect) {
            halfWidth = Float(shape.rect.width / 2)
            halfHeight = Float(shape.rect.height / 2)
            corner = Float(shape.cornerRadius)
            sigma = Float(shape.sigma)
        }
    }

    /// Points per side at most: 128 x 128 values (64 KB as 32-bit floats), made in well under
    /// a millisecond.
    public static let maxSide = 128
    /// Grid points per sigma.
    public static let pointsPerSigma: Float = 6

    public let key: Key
    /// The distance between grid points, in the shape's plane.
    public let spacing: Float
    /// The grid's first point from the centre: nearer the centre along an axis, the closed form
    /// is constant along it (see above), and a point reads the grid's first column or row.
    public let origin: (x: Float, y: Float)
    public let columns: Int
    public let rows: Int
    /// Row by row: value (i, j) is the alpha at (origin.x + i x spacing, origin.y + j x spacing)
    /// from the centre.
    public let values: [Float]
    /// `values` with its last column and row repeated once more (columns + 1 by rows + 1, row
    /// by row): a cell's two top values are neighbours, as are its two bottom ones, whatever the
    /// cell, so the CPU's kernel reads each pair in one 8-byte load (`oq_profile_row`).
    public let paddedValues: [Float]

    /// The half extents, from the centre, of the rectangle over which the closed form is one
    /// number, to the bit (the grid's origin; the CPU's sharp turned shadows, which have no grid,
    /// give that number to its points too): nil for a degenerate shape. Where the closed form
    /// stops changing, less a grid step for the rounding of the bounds. Along x: every erf's
    /// argument past erfWhole (5.5 / k = 5.5 sqrt 2 sigma) for every row, whose half width is at
    /// least the straight part's. Along y: the samples span +-3 sigma, unclamped by the box, each
    /// on a row of full width (a square corner's rows are all full; its y is one erf pair,
    /// constant as x's).
    public static func constantRegion(for key: Key) -> (x: Float, y: Float)? {
        guard key.sigma.isFinite, key.sigma > 0, key.halfWidth.isFinite, key.halfHeight.isFinite,
              key.halfWidth >= 0, key.halfHeight >= 0, key.corner.isFinite else { return nil }
        let spacing = key.sigma / pointsPerSigma
        let corner = max(key.corner, 0), whole = BlurredRoundedRect.erfWhole * Float(2).squareRoot() * key.sigma
        return (x: max(key.halfWidth - corner - whole - spacing, 0),
                y: max(key.halfHeight - corner - (key.corner > 0 ? 3 * key.sigma : whole) - spacing, 0))
    }

    /// The grid's size and origin for `key`: nil where it would pass `maxSide` (a sharp shadow)
    /// or the shape is degenerate.
    public static func size(for key: Key) -> (columns: Int, rows: Int, spacing: Float, origin: (x: Float, y: Float))? {
        guard let origin = constantRegion(for: key) else { return nil }
        let spacing = key.sigma / pointsPerSigma
        let columns = ((key.halfWidth + 4 * key.sigma - origin.x) / spacing).rounded(.up) + 2
        let rows = ((key.halfHeight + 4 * key.sigma - origin.y) / spacing).rounded(.up) + 2
        guard columns <= Float(maxSide), rows <= Float(maxSide) else { return nil }
        return (Int(columns), Int(rows), spacing, origin)
    }

    /// The grid for `key`, nil where `size(for:)` is.
    public init?(_ key: Key) {
        guard let (columns, rows, spacing, origin) = Self.size(for: key) else { return nil }
        self.key = key
        self.spacing = spacing
        self.origin = origin
        self.columns = columns
        self.rows = rows
        values = Self.closedForm(key, columns: columns, rows: rows, spacing: spacing, origin: origin)
        paddedValues = Self.padded(values, columns: columns, rows: rows)
    }

    /// `values` (columns by rows) with its last column and row repeated.
    static func padded(_ values: [Float], columns: Int, rows: Int) -> [Float] {
        var padded = [Float](repeating: 0, count: (columns + 1) * (rows + 1))
        for j in 0...rows {
            let source = min(j, rows - 1) * columns
            for i in 0...columns { padded[j * (columns + 1) + i] = values[source + min(i, columns - 1)] }
        }
        return padded
    }

    /// The closed form at every grid point: `BlurredRoundedRect.alpha(px:py:...)` to the bit, a row
    /// at a time, with RowEvaluator's kernels. Along a grid row every point shares its eight
    /// samples' heights, so their half widths and weights are worked out once a row; each half
    /// width's erf pairs are one row for all the grid's columns (`oq_erf_row`, erf's arithmetic in
    /// lanes: the same bits), made once and kept in `store` for the rows after (the straight
    /// sides' width is most rows' every sample); each point is then its samples' weighted sum in
    /// alpha's order (`oq_weighted_rows`). A shadow that moves or changes size makes a new grid
    /// each frame: point by point, its sixteen erfs and eight exponentials were most of a moving
    /// radius-4 card's frame on a GPU.
    static func closedForm(_ key: Key, columns: Int, rows: Int, spacing: Float, origin: (x: Float, y: Float)) -> [Float] {
        let k = Float(0.5).squareRoot() / key.sigma
        let pxs = (0..<columns).map { origin.x + Float($0) * spacing }
        var values = [Float](repeating: 0, count: columns * rows)
        // Each half width's row of erf pairs, `columns` floats at its slot.
        var store = [Float](), slots: [UInt32: Int32] = [:]
        func slot(_ width: Float) -> Int32 {
            if let slot = slots[width.bitPattern] { return slot }
            let slot = Int32(slots.count)
            slots[width.bitPattern] = slot
            store.append(contentsOf: repeatElement(0, count: columns))
            pxs.withUnsafeBufferPointer { px in
                store.withUnsafeMutableBufferPointer { oq_erf_row(px.baseAddress!, columns, width, k, $0.baseAddress! + Int(slot) * columns) }
            }
            return slot
        }
        if key.corner <= 0 {
            // A square corner: the row along x (the same for every row) times the height's product along y.
            let alongX = Int(slot(key.halfWidth)) * columns
            for j in 0..<rows {
                let py = origin.y + Float(j) * spacing
                let alongY = 0.5 * (BlurredRoundedRect.erf((py + key.halfHeight) * k) - BlurredRoundedRect.erf((py - key.halfHeight) * k))
                for i in 0..<columns { values[j * columns + i] = store[alongX + i] * alongY }
            }
            return values
        }
        precondition(BlurredRoundedRect.ySamples == 8, "oq_weighted_rows sums eight samples")
        for j in 0..<rows {
            let py = origin.y + Float(j) * spacing
            var (y, step) = BlurredRoundedRect.samplesAlongY(py: py, halfHeight: key.halfHeight, sigma: key.sigma)
            var rowSlots = SIMD8<Int32>(), weights = SIMD8<Float>()
            for s in 0..<BlurredRoundedRect.ySamples {
                rowSlots[s] = slot(BlurredRoundedRect.rowWidth(y: py - y, halfWidth: key.halfWidth, halfHeight: key.halfHeight,
                                                               corner: key.corner))
                weights[s] = BlurredRoundedRect.gaussian(y, sigma: key.sigma)
                y += step
            }
            withUnsafeBytes(of: &rowSlots) { rowSlots in
                withUnsafeBytes(of: &weights) { weights in
                    store.withUnsafeBufferPointer { store in
                        values.withUnsafeMutableBufferPointer { out in
                            oq_weighted_rows(store.baseAddress!, columns, rowSlots.assumingMemoryBound(to: Int32.self).baseAddress!,
                                             weights.assumingMemoryBound(to: Float.self).baseAddress!, step, columns,
                                             out.baseAddress! + j * columns)
                        }
                    }
                }
            }
        }
        return values
    }

    /// The grid's bilinear interpolation at (px, py) from the centre, as the GPU makes it
    /// (blurred_rounded_rect.glsl's profiledRoundedRect): for tests that hold it to the closed form.
    /// The CPU reference reads turned and tilted shadows so (`BlurredRoundedRect.RowEvaluator`).
    @inlinable
    public func interpolated(px: Float, py: Float) -> Float {
        values.withUnsafeBufferPointer { interpolated(px: px, py: py, in: $0) }
    }

    /// `interpolated(px:py:)` reading `values` through `grid` (a run of pixels hoists the read).
    @inlinable
    public func interpolated(px: Float, py: Float, in grid: UnsafeBufferPointer<Float>) -> Float {
        // Off the plane (a non-finite point): nothing, where the conversion to a grid index trapped.
        guard px.isFinite, py.isFinite else { return 0 }
        let x = min(max(abs(px) - origin.x, 0) / spacing, Float(columns - 1))
        let y = min(max(abs(py) - origin.y, 0) / spacing, Float(rows - 1))
        // x and y are at least 0, so truncation is the floor (a conversion, not a call to floorf).
        let i = Int(x), j = Int(y)
        let fx = x - Float(i), fy = y - Float(j)
        let i1 = min(i + 1, columns - 1), j1 = min(j + 1, rows - 1)
        let a = grid[j * columns + i], b = grid[j * columns + i1], c = grid[j1 * columns + i], d = grid[j1 * columns + i1]
        let top = a + (b - a) * fx, bottom = c + (d - c) * fx
        return top + (bottom - top) * fy
    }
}
