import Foundation

/// Exact-area anti-aliasing for filled paths: each line segment adds its signed area to the
/// pixels it passes, and a running sum along each row gives every pixel the fraction of it the
/// shape covers. (The accumulation scheme of font-rs and stb_truetype's v2 rasterizer.)
///
/// Coverage is exact for edges that do not cross inside one pixel; fill rules fold the winding-
/// weighted sum: non-zero takes min(1, |sum|), even-odd a triangle wave of period 2.
public struct CoverageRasterizer: Sendable {
    public let width: Int
    public let height: Int
    /// Per row `width + 2` cells: an edge may add to one cell past the last pixel. From the
    /// scratch pool, so it can be longer than that: the cells past `(width + 2) * height` stay 0.
    private var accumulation: [Float]
    private var stride: Int { width + 2 }
    /// Per row, the first and one past the last cell any edge touched (empty when min >= max):
    /// left of the first the coverage is 0, right of the last it stays what it is there, so
    /// only this span needs summing.
    private var rowMin: [Int32]
    private var rowMax: [Int32]

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "rasterizer size must be positive, got \(width)x\(height)")
        self.width = width
        self.height = height
        accumulation = ScratchBuffers.zeroed(atLeast: (width + 2) * height)
        rowMin = [Int32](repeating: Int32.max, count: height)
        rowMax = [Int32](repeating: 0, count: height)
    }

    /// The rows and columns that can have non-zero coverage: x in minX..<maxX, y in minY..<maxY;
    /// nil when nothing was added.
    public var touchedBounds: (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var minX = Int.max, maxX = 0, minY = Int.max, maxY = 0
        for row in 0..<height {
            guard let columns = touchedColumns(ofRow: row) else { continue }
            minY = min(minY, row)
            maxY = row + 1
            minX = min(minX, columns.lowerBound)
            maxX = max(maxX, columns.upperBound)
        }
        return minY < maxY ? (minX, minY, maxX, maxY) : nil
    }

    /// Adds every subpath of `path` (closed implicitly) after `transform`, curves flattened to
    /// within 1/50 pixel (chords cut inside curves, so a coarser tolerance visibly loses area: a
    /// quarter pixel loses 1.6% of a 10-pixel circle). Coordinates are pixels, y down.
    public mutating func add(_ path: CGPath, transform: CGAffineTransform = .identity) {
        let transformed = path.copy(applying: transform)
        // Curves wholly above, below or right of the image, or left of it, change no coverage
        // inside it as their chords (see PathFlattener.polylines(_:tolerance:visible:)).
        let visible = CGRect(x: 0, y: 0, width: width, height: height)
        let polylines = PathFlattener.polylines(transformed, tolerance: 0.02, visible: visible)
        addLines { add in
            for polyline in polylines where polyline.count > 1 {
                for i in polyline.indices {
                    let a = polyline[i], b = polyline[(i + 1) % polyline.count]
                    add(Double(a.x), Double(a.y), Double(b.x), Double(b.y))
                }
            }
        }
    }

    /// One edge. Parts left of the image are moved onto its left edge (they still cover what lies
    /// to their right); parts right of it onto the extra cell; parts above or below are dropped.
    public mutating func addLine(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        addLines { add in add(x0, y0, x1, y1) }
    }

    /// Adds the edges `body` passes to the function it is given (x0, y0, x1, y1 each), as
    /// `addLine` adds one, with the buffers opened once for all of them: a flattened outline is
    /// hundreds of short edges, and opening the three buffers for each one cost more than the
    /// edge's own arithmetic (a stroked ring's coverage: three quarters of its time).
    public mutating func addLines(_ body: ((Double, Double, Double, Double) -> Void) -> Void) {
        // The three buffers are moved out while written through pointers (and back after), so no
        // access to one overlaps an access to `self`.
        var cells: [Float] = [], mins: [Int32] = [], maxs: [Int32] = []
        swap(&cells, &accumulation); swap(&mins, &rowMin); swap(&maxs, &rowMax)
        defer { swap(&cells, &accumulation); swap(&mins, &rowMin); swap(&maxs, &rowMax) }
        let width = self.width, height = self.height
        cells.withUnsafeMutableBufferPointer { acc in
            mins.withUnsafeMutableBufferPointer { rowMin in
                maxs.withUnsafeMutableBufferPointer { rowMax in
                    let cells = Cells(acc: acc, rowMin: rowMin, rowMax: rowMax, width: width, height: height)
                    body { x0, y0, x1, y1 in cells.addLine(x0, y0, x1, y1) }
                }
            }
        }
    }
}

/// The rasterizer's buffers opened for writing: where edges add their areas.
private struct Cells {
    let acc: UnsafeMutableBufferPointer<Float>
    let rowMin: UnsafeMutableBufferPointer<Int32>
    let rowMax: UnsafeMutableBufferPointer<Int32>
    let width: Int, height: Int

    func addLine(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, y0 != y1 else { return }
        let w = Double(width)
        // Split at x = 0 and x = width so that each piece lies in one band (at most three
        // pieces; no allocation, this runs once per flattened segment).
        var cutA = 1.0, cutB = 1.0
        if x0 * x1 < 0 { cutA = -x0 / (x1 - x0) }
        if (x0 - w) * (x1 - w) < 0 { cutB = (w - x0) / (x1 - x0) }
        if cutA > cutB { swap(&cutA, &cutB) }
        piece(x0, y0, x1, y1, from: 0, to: cutA)
        piece(x0, y0, x1, y1, from: cutA, to: cutB)
        piece(x0, y0, x1, y1, from: cutB, to: 1)
    }

    /// The part of an edge between parameters `from` and `to`, moved into the image's columns.
    private func piece(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, from: Double, to: Double) {
        guard to > from else { return }
        let w = Double(width)
        let ax = min(max(x0 + (x1 - x0) * from, 0), w), bx = min(max(x0 + (x1 - x0) * to, 0), w)
        accumulate(ax, y0 + (y1 - y0) * from, bx, y0 + (y1 - y0) * to)
    }

    private func accumulate(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double) {
        if ya == yb { return }
        let direction: Double = ya < yb ? 1 : -1
        let (x0, y0, x1, y1) = ya < yb ? (xa, ya, xb, yb) : (xb, yb, xa, ya)
        let dxdy = (x1 - x0) / (y1 - y0)
        let top = max(y0, 0), bottom = min(y1, Double(height))
        // An edge a denormal high has an infinite slope and covers nothing (found by fuzzing).
        guard top < bottom, dxdy.isFinite else { return }
        // Rounding in x + dxdy * dy must not carry x past the edge's ends (or the image).
        let lowX = min(x0, x1), highX = max(x0, x1)
        var x = min(max(x0 + (top - y0) * dxdy, lowX), highX)
        let firstRow = Int(top.rounded(.down)), lastRow = Int(bottom.rounded(.up))
        let stride = width + 2
        for row in firstRow..<lastRow {
            let start = row * stride
            let dy = min(Double(row + 1), bottom) - max(Double(row), top)
            let xNext = min(max(x + dxdy * dy, lowX), highX)
            let d = Float(dy * direction)
            let (left, right) = x < xNext ? (x, xNext) : (xNext, x)
            let leftFloor = left.rounded(.down)
            let li = Int(leftFloor), ri = Int(right.rounded(.up))
            rowMin[row] = min(rowMin[row], Int32(li))
            rowMax[row] = max(rowMax[row], Int32(max(ri, li + 1) + 1))
            if ri <= li + 1 {
                // The edge stays within one column: split its area between it and the next.
                let mid = Float(0.5 * (x + xNext) - leftFloor)
                acc[start + li] += d - d * mid
                acc[start + li + 1] += d * mid
            } else {
                // Across several columns: a triangle in the first, trapezoids after, a
                // triangle in the last, each weighted by the slope.
                let s = Float(1 / (right - left))
                let lf = Float(left - leftFloor)
                let a0 = 0.5 * s * (1 - lf) * (1 - lf)
                let rf = Float(right - Double(ri) + 1)
                let am = 0.5 * s * rf * rf
                acc[start + li] += d * a0
                if ri == li + 2 {
                    acc[start + li + 1] += d * (1 - a0 - am)
                } else {
                    let a1 = s * (1.5 - lf)
                    acc[start + li + 1] += d * (a1 - a0)
                    if li + 2 < ri - 1 {
                        for column in (li + 2)..<(ri - 1) { acc[start + column] += d * s }
                    }
                    let a2 = a1 + Float(ri - li - 3) * s
                    acc[start + ri - 1] += d * (1 - a2 - am)
                }
                acc[start + ri] += d * am
            }
            x = xNext
        }
    }
}

extension CoverageRasterizer {
    /// Coverage 0...1 per pixel, rows top to bottom.
    public func coverage(rule: CGPathFillRule) -> [Float] {
        // From the scratch pool: a caller done with it may zero it and give it back.
        var result = ScratchBuffers.zeroed(count: width * height)
        result.withUnsafeMutableBufferPointer { out in
            for row in 0..<height { _ = foldRow(row, rule: rule, into: out.baseAddress! + row * width) }
        }
        return result
    }

    /// Row `row`'s cells (the row's `width + 2`; every one outside `touched` is 0) and the
    /// columns an edge touched (empty where none did), for a caller that folds the row itself as
    /// `foldRow` does (the CPU reference's path kernel, which walks from cell to cell).
    public func withCells<R>(ofRow row: Int, _ body: (UnsafePointer<Float>, Range<Int>) throws -> R) rethrows -> R {
        precondition(row >= 0 && row < height)
        let touched = touchedColumns(ofRow: row) ?? 0..<0
        return try accumulation.withUnsafeBufferPointer { try body($0.baseAddress! + row * stride, touched) }
    }

    /// The image's columns an edge touched in row `row` (nil where none did): left of them every
    /// cell is 0, right of them the sum holds.
    private func touchedColumns(ofRow row: Int) -> Range<Int>? {
        guard rowMin[row] < rowMax[row] else { return nil }
        let first = Int(rowMin[row])
        return first..<max(first, min(Int(rowMax[row]), width))
    }

    /// Row `row`'s coverage, 0...1, folded by `rule`, written into `out[columns]` (`out` is the
    /// row's `width` columns): the columns the returned range leaves out are 0 and not written.
    /// Left of the first touched cell the sum is 0; after the last it holds (a winding that does
    /// not close there), so the range runs to the row's end where that sum is not 0. What
    /// `coverage(rule:)` makes of the row, for a caller that draws a row at a time (the CPU
    /// reference's paths: no frame of coverage to clear and fill).
    public func foldRow(_ row: Int, rule: CGPathFillRule, into out: UnsafeMutablePointer<Float>) -> Range<Int> {
        precondition(row >= 0 && row < height)
        guard let touched = touchedColumns(ofRow: row) else { return 0..<0 }
        let first = touched.lowerBound, last = touched.upperBound
        return accumulation.withUnsafeBufferPointer { acc in
            let cells = acc.baseAddress! + row * stride
            var sum: Float = 0
            for column in first..<last {
                sum += cells[column]
                out[column] = Self.folded(sum, rule: rule)
            }
            let rest = Self.folded(sum, rule: rule)
            guard rest != 0 else { return first..<last }
            for column in last..<width { out[column] = rest }
            return first..<width
        }
    }

    /// Where row `row`'s coverage can be non-zero, without folding it: the columns an edge
    /// touched (nil where none did: the row is 0 throughout) and the folded sum right of them,
    /// which every later column holds (0 for a contour that closes; a rounding error's worth
    /// often). For a caller that needs to know only where a path can show (what a mask leaves
    /// of the ops drawn before it).
    public func foldedTail(ofRow row: Int, rule: CGPathFillRule) -> (touched: Range<Int>, rest: Float)? {
        precondition(row >= 0 && row < height)
        guard let touched = touchedColumns(ofRow: row) else { return nil }
        let sum = accumulation.withUnsafeBufferPointer { acc in
            let cells = acc.baseAddress! + row * stride
            var sum: Float = 0
            for column in touched { sum += cells[column] }
            return sum
        }
        return (touched, Self.folded(sum, rule: rule))
    }

    /// A running sum folded by the fill rule: non-zero takes min(1, |sum|), even-odd a triangle
    /// wave of period 2.
    @inline(__always)
    static func folded(_ sum: Float, rule: CGPathFillRule) -> Float {
        let magnitude = abs(sum)
        if rule == .winding { return min(1, magnitude) }
        let f = magnitude.truncatingRemainder(dividingBy: 2)
        return f > 1 ? 2 - f : f
    }
}

extension CoverageRasterizer {
    /// Zeroes the cells edges touched and hands the accumulation buffer back for the next
    /// rasterizer: fresh multi-megabyte buffers cost more in page faults than the drawing.
    public mutating func recycle() {
        let stride = self.stride
        accumulation.withUnsafeMutableBufferPointer { acc in
            for row in 0..<height where rowMin[row] < rowMax[row] {
                let first = row * stride + Int(rowMin[row]), last = row * stride + min(Int(rowMax[row]), stride)
                for i in first..<last { acc[i] = 0 }
            }
        }
        ScratchBuffers.giveBack(accumulation)
        accumulation = []
    }
}

/// Zeroed Float buffers kept for reuse between rasterizations: fresh multi-megabyte buffers cost
/// more in page faults and clearing than the drawing. A frame's paths each hold a rasterizer
/// until the frame is drawn (the CPU reference folds their rows as it draws them), and a Lottie
/// shape's bounds change from frame to frame, so buffers are handed out by size, the smallest
/// that is long enough, and up to `maxKept` of them, `maxKeptFloats` in all, are kept.
enum ScratchBuffers {
    nonisolated(unsafe) private static var free: [[Float]] = []
    private static let lock = NSLock()
    private static let maxKept = 64
    private static let maxKeptFloats = 8 << 20

    /// A zeroed buffer of exactly `count` floats.
    static func zeroed(count: Int) -> [Float] {
        lock.lock()
        if let index = free.firstIndex(where: { $0.count == count }) {
            let buffer = free.remove(at: index)
            lock.unlock()
            return buffer
        }
        lock.unlock()
        return [Float](repeating: 0, count: count)
    }

    /// A zeroed buffer of `count` floats or more: the shortest kept one that is long enough.
    static func zeroed(atLeast count: Int) -> [Float] {
        lock.lock()
        var best: Int?
        for (index, buffer) in free.enumerated() where buffer.count >= count && buffer.count <= 4 * count + 4096 {
            if best.map({ free[$0].count > buffer.count }) ?? true { best = index }
        }
        if let best {
            let buffer = free.remove(at: best)
            lock.unlock()
            return buffer
        }
        lock.unlock()
        return [Float](repeating: 0, count: count)
    }

    /// Takes back a buffer that is all zeros again; the oldest kept go first past the limits.
    static func giveBack(_ buffer: [Float]) {
        guard !buffer.isEmpty, buffer.count <= maxKeptFloats else { return }
        lock.lock()
        defer { lock.unlock() }
        free.append(buffer)
        var kept = free.reduce(0) { $0 + $1.count }
        while free.count > maxKept || kept > maxKeptFloats {
            kept -= free.removeFirst().count
        }
    }
}
