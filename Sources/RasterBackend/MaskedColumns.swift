import Compositor

/// What a mask drawn from its path (a destination-in `PathOp`) leaves of the ops drawn before
/// it in the same pass: per row of the target, the columns where the path's coverage can be
/// non-zero. Everywhere else the mask clears the pixel whatever those ops drew, so they skip it:
/// the same bytes, less work. lottie-ios fills a shape with a gradient as a gradient layer padded
/// 10,000 points a side under the shape as a mask; the pass is the shape's bounds, and a turned
/// or slanted shape (a cube's faces: issue_1915) covers half of them or less.
package struct MaskedColumns: Sendable {
    /// The target's row of `columns[0]`.
    package let firstRow: Int
    /// Per row from `firstRow`, the target's columns the mask can keep.
    package let columns: [Range<Int>]

    /// The mask at `ops[index]` (drawn from `coverage`, its rasterized path) as columns, or nil
    /// where the index holds no destination-in path.
    init?(_ ops: [DrawOp], index: Int, coverage: PathCoverage) {
        guard case .path(let path) = ops[index], path.blend == .destinationIn else { return nil }
        let b = path.pixelBounds
        firstRow = b.minY
        columns = (0..<max(b.height, 0)).map { y in
            let shown = coverage.shownColumns(row: y, of: path, width: b.width)
            return shown.isEmpty ? b.minX..<b.minX : (b.minX + shown.lowerBound)..<(b.minX + shown.upperBound)
        }
    }

    /// `row`'s columns `span` (of target row `y`) left to the mask's: none off its rows.
    @inline(__always)
    func clamp(_ span: Range<Int>, row y: Int) -> Range<Int> {
        let i = y - firstRow
        guard i >= 0, i < columns.count else { return span.lowerBound..<span.lowerBound }
        return span.clamped(to: columns[i])
    }

    /// The last mask drawn from its path among `ops` that has ops before it to spare (a quad:
    /// paths are left as they are), with its index; nil where there is none. `coverages` are the
    /// paths' rasterizers by index.
    static func lastMask(in ops: [DrawOp], coverages: [Int: PathCoverage]) -> (index: Int, columns: MaskedColumns)? {
        guard let index = ops.lastIndex(where: { op in
            if case .path(let path) = op { return path.blend == .destinationIn }
            return false
        }), let coverage = coverages[index],
              ops[..<index].contains(where: { if case .quad = $0 { true } else { false } }) else { return nil }
        return MaskedColumns(ops, index: index, coverage: coverage).map { (index, $0) }
    }

    /// `lastMask(in:coverages:)` with the paths rasterized here (for tests).
    package static func lastMask(in ops: [DrawOp]) -> (index: Int, columns: MaskedColumns)? {
        var coverages: [Int: PathCoverage] = [:]
        for (i, op) in ops.enumerated() { if case .path(let path) = op { coverages[i] = PathCoverage(path) } }
        defer { for i in Array(coverages.keys) { coverages[i]?.recycle() } }
        return lastMask(in: ops, coverages: coverages)
    }
}
