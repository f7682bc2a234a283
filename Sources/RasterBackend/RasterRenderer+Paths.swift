import CPixelKernels
import Compositor
import OpenCoreGraphics

/// A filled path's coverage over its pixel bounds (fill, and its stroke's): the rasterizers with
/// every edge summed into their cells, made once per path before the bands that blend it
/// (`RasterRenderer.drawInBands`), each band folding its own rows by the fill rule as it draws
/// them (the kernel from the cells, the Swift route through `CoverageRasterizer.foldRow`), so
/// no bounds' worth of folded coverage is made, cleared and read back per path (on Lottie
/// frames the fold into whole buffers, their clearing and the page faults of fresh ones were a
/// sixth of the time). `recycle()` once the pass is drawn.
struct PathCoverage: Sendable {
    private(set) var fill: CoverageRasterizer?
    private(set) var stroke: CoverageRasterizer?
    let evenOdd: Bool

    init(_ path: PathOp) {
        let b = path.pixelBounds
        evenOdd = path.evenOdd
        guard b.width > 0, b.height > 0 else { return }
        fill = PathOp.rasterizer(of: path.contours, within: b)
        stroke = path.stroke.map { PathOp.rasterizer(of: $0.contours, within: b) }
    }

    /// Row `row` of the bounds folded into `fillRow` and `strokeRow` (the bounds' width each, all
    /// 0 before): returns the columns written, the only ones either may be non-zero in, which the
    /// caller sets to 0 again once the row is drawn.
    func fold(row: Int, fillRow: UnsafeMutablePointer<Float>, strokeRow: UnsafeMutablePointer<Float>?) -> Range<Int> {
        guard let fill else { return 0..<0 }
        var written = fill.foldRow(row, rule: evenOdd ? .evenOdd : .winding, into: fillRow)
        if let stroke, let strokeRow {
            let stroked = stroke.foldRow(row, rule: .winding, into: strokeRow)
            if written.isEmpty { written = stroked } else if !stroked.isEmpty {
                written = min(written.lowerBound, stroked.lowerBound)..<max(written.upperBound, stroked.upperBound)
            }
        }
        return written
    }

    /// The columns of row `row` (of the bounds) where `path`, drawn from this coverage, can
    /// leave a pixel's alpha above 0: left of the cells its edges touched the coverage is 0; right
    /// of them it holds what the sum comes to there, which the path's colour and opacity take to
    /// an alpha byte of 0 unless it is more than a rounding error (then the row's end).
    func shownColumns(row: Int, of path: PathOp, width: Int) -> Range<Int> {
        guard let fill else { return 0..<0 }
        let filled = fill.foldedTail(ofRow: row, rule: evenOdd ? .evenOdd : .winding)
        let stroked = stroke?.foldedTail(ofRow: row, rule: .winding)
        let lower = min(filled?.touched.lowerBound ?? .max, stroked?.touched.lowerBound ?? .max)
        let upper = max(filled?.touched.upperBound ?? .min, stroked?.touched.upperBound ?? .min)
        guard lower < upper else { return 0..<0 }
        // What drawPath's rows make of the columns past the touched ones (SourceOver.scale's byte).
        let rest = path.composite(fill: Double(filled?.rest ?? 0), stroke: Double(stroked?.rest ?? 0)).alpha * path.opacity
        return TargetSteps.byte(rest) == 0 ? lower..<upper : lower..<width
    }

    /// Row `row`'s cells of the fill and of the stroke (nil: none) and the first column either's
    /// edges touched (nil: neither's).
    func withCells<R>(row: Int, _ body: (UnsafePointer<Float>, UnsafePointer<Float>?, Int?) -> R) -> R? {
        guard let fill else { return nil }
        return fill.withCells(ofRow: row) { fillCells, fillTouched in
            guard let stroke else { return body(fillCells, nil, fillTouched.isEmpty ? nil : fillTouched.lowerBound) }
            return stroke.withCells(ofRow: row) { strokeCells, strokeTouched in
                // Called for every row of every path: no array to find the lesser of two.
                let first = fillTouched.isEmpty ? (strokeTouched.isEmpty ? nil : strokeTouched.lowerBound)
                    : strokeTouched.isEmpty ? fillTouched.lowerBound : min(fillTouched.lowerBound, strokeTouched.lowerBound)
                return body(fillCells, strokeCells, first)
            }
        }
    }

    /// Hands the rasterizers' cells back for the next paths.
    mutating func recycle() {
        fill?.recycle()
        stroke?.recycle()
        fill = nil
        stroke = nil
    }
}

extension RasterRenderer {
    /// A filled path (and the stroke drawn over it in the same step) over the rows `rows`:
    /// OpenCoreGraphics' CoverageRasterizer over the op's pixel bounds gives each pixel its
    /// winding-weighted area folded by the fill rule (the function the GPU evaluates edge by
    /// edge), then the stroke's colour over the fill's, in float, is blended once, as a quad's
    /// colour is. Destination-in (a mask drawn from its path) clears outside the bounds too.
    func drawPath(_ path: PathOp, _ coverage: PathCoverage, rows: Range<Int>, into pixels: UnsafeMutableBufferPointer<UInt8>,
                  width: Int) {
        let b = path.pixelBounds
        let blend = path.blend
        if blend == .destinationIn {
            for y in rows {
                let row = y * width * 4, drawn = columns.clamped(to: 0..<width)
                func clear(_ xs: Range<Int>) {
                    let xs = xs.clamped(to: drawn)
                    for i in (row + xs.lowerBound * 4)..<(row + xs.upperBound * 4) { pixels[i] = 0 }
                }
                if y < b.minY || y >= b.maxY || b.width <= 0 {
                    clear(0..<width)
                } else {
                    clear(0..<b.minX)
                    clear(b.maxX..<width)
                }
            }
        }
        guard b.width > 0, b.height > 0, coverage.fill != nil else { return }
        let firstRow = max(b.minY, rows.lowerBound), endRow = min(b.maxY, rows.upperBound)
        guard firstRow < endRow else { return }
        let xs = (b.minX..<b.maxX).clamped(to: columns)
        guard !xs.isEmpty else { return }
        let startX = xs.lowerBound - b.minX, endX = xs.upperBound - b.minX
        if usesKernels && blend != .plus && blend != .destinationIn {
            drawPathCells(path, coverage, rows: (firstRow - b.minY)..<(endRow - b.minY), columns: startX..<endX, into: pixels,
                          width: width)
            return
        }
        // The band's rows of coverage, folded one at a time into a row each for the fill and the
        // stroke, cleared again where written after the row is drawn.
        let strokes = coverage.stroke != nil
        withUnsafeTemporaryAllocation(of: Float.self, capacity: b.width * (strokes ? 2 : 1)) { scratch in
            scratch.initialize(repeating: 0)
            let fillRow = scratch.baseAddress!, strokeRow = strokes ? scratch.baseAddress! + b.width : nil
            for y in (firstRow - b.minY)..<(endRow - b.minY) {
                let written = coverage.fold(row: y, fillRow: fillRow, strokeRow: strokeRow)
                let pixelBase = ((b.minY + y) * width + b.minX) * 4
                drawPathRow(path, fill: fillRow, stroke: strokeRow, columns: startX..<endX, pixelBase: pixelBase, into: pixels)
                (fillRow + written.lowerBound).update(repeating: 0, count: written.count)
                strokeRow.map { ($0 + written.lowerBound).update(repeating: 0, count: written.count) }
            }
        }
    }

    /// `drawPath`'s source-over rows through the C kernel (`oq_path_cells_over`), straight from
    /// the rasterizers' cells: the kernel folds the running sums as it walks from a cell that
    /// changes them to the next, and blends each stretch between as one colour (a shape's inside,
    /// a ring's hole: no folded row written and read back). The Swift rows' bytes
    /// (`PathKernelTests`). `rows` and `columns` are the path's bounds'.
    private func drawPathCells(_ path: PathOp, _ coverage: PathCoverage, rows: Range<Int>, columns: Range<Int>,
                               into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int) {
        let b = path.pixelBounds
        precondition(columns.upperBound <= b.width && pixels.count >= ((b.minY + rows.upperBound - 1) * width + b.maxX) * 4)
        let evenOdd: Int32 = path.evenOdd ? 1 : 0
        PathColours(path).withPointers { fillColour, strokeColour in
            for y in rows {
                let pixelBase = ((b.minY + y) * width + b.minX) * 4
                _ = coverage.withCells(row: y) { fillCells, strokeCells, first in
                    guard let first, first < columns.upperBound else { return }
                    oq_path_cells_over(pixels.baseAddress! + pixelBase, fillCells, strokeCells, first, columns.lowerBound,
                                       columns.upperBound, evenOdd, fillColour, strokeColour, path.opacity)
                }
            }
        }
    }

    /// One row of `drawPath` in Swift, pixel by pixel from the row's folded coverages (the
    /// reference `oq_path_cells_over` is held to, and every blend mode's route).
    private func drawPathRow(_ path: PathOp, fill: UnsafeMutablePointer<Float>, stroke: UnsafeMutablePointer<Float>?,
                             columns: Range<Int>, pixelBase: Int, into pixels: UnsafeMutableBufferPointer<UInt8>) {
        let opacity = path.opacity, blend = path.blend
        let tablesRuns = blend == .sourceOver || blend == .plus
        var repeating = SourceOver.RepeatingBlend()
        var x = columns.lowerBound
        while x < columns.upperBound {
            let kf = fill[x], ks = stroke?[x] ?? 0
            guard kf > 0 || ks > 0 || blend == .destinationIn else { x += 1; continue }
            // The stretch of pixels with this same coverage (a fill's inside is most of a large
            // shape's pixels): one colour, which a long stretch blends through a table made with
            // the expression each pixel's blend evaluates (the same bytes).
            var end = x + 1
            if tablesRuns || blend == .destinationIn {
                while end < columns.upperBound, fill[end] == kf, (stroke?[end] ?? 0) == ks { end += 1 }
            }
            let c = path.composite(fill: Double(kf), stroke: Double(ks))
            let k = opacity
            if blend == .destinationIn, end - x > 1 {
                // A mask's stretch scales every byte by one alpha (SourceOver.scale's): by 1 (a
                // mask's inside) it leaves each byte as it is, by 0 it clears them, and otherwise
                // each byte goes through a table of the same expression.
                SourceOver.scale(by: c.alpha * k, pixels, from: pixelBase + x * 4, to: pixelBase + end * 4)
                x = end
                continue
            }
            if tablesRuns, end - x >= RasterRenderer.minimumTableRun {
                let table = SourceOver.table(red: c.red * k, green: c.green * k, blue: c.blue * k, alpha: c.alpha * k,
                                             adding: blend == .plus)
                SourceOver.apply(table, to: pixels, from: pixelBase + x * 4, to: pixelBase + end * 4)
                x = end
                continue
            }
            for x in x..<end {
                let i = pixelBase + x * 4
                switch blend {
                case .plus:
                    SourceOver.add(red: c.red * k, green: c.green * k, blue: c.blue * k, alpha: c.alpha * k, into: pixels, at: i)
                case .destinationIn:
                    SourceOver.scale(by: c.alpha * k, pixels, at: i)
                // Source-over; also for modes that read the backdrop, which the compositor never
                // gives a path (GLPathFill.cover draws them the same way). Over a backdrop that
                // repeats, a pixel is a store (RepeatingBlend).
                default:
                    repeating.blend(red: c.red * k, green: c.green * k, blue: c.blue * k, alpha: c.alpha * k, into: pixels, at: i)
                }
            }
            x = end
        }
    }
}

/// A path's fill and stroke colours, tinted (PathOp.composite's), as `oq_path_cells_over` takes them.
private struct PathColours {
    let fill: [Double]
    let stroke: [Double]?

    init(_ path: PathOp) {
        let f = path.color.multiplied(by: path.tint)
        fill = [f.red, f.green, f.blue, f.alpha]
        stroke = path.stroke.map { stroke in
            let s = stroke.color.multiplied(by: path.tint)
            return [s.red, s.green, s.blue, s.alpha]
        }
    }

    func withPointers<R>(_ body: (UnsafePointer<Double>, UnsafePointer<Double>?) -> R) -> R {
        fill.withUnsafeBufferPointer { fill in
            guard let stroke else { return body(fill.baseAddress!, nil) }
            return stroke.withUnsafeBufferPointer { body(fill.baseAddress!, $0.baseAddress) }
        }
    }
}
