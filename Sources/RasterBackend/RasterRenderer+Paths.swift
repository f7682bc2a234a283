import CPixelKernels
import Compositor
import OpenCoreGraphics

/// A filled path's coverage over its pixel bounds (fill, and its stroke's), folded by the fill
/// rule: made once per path, before the bands that blend it (`RasterRenderer.drawInBands`).
struct PathCoverage: Sendable {
    let fill: [Float]
    let stroke: [Float]?

    init(_ path: PathOp) {
        let b = path.pixelBounds
        guard b.width > 0, b.height > 0 else {
            fill = []
            stroke = nil
            return
        }
        fill = PathOp.coverage(of: path.contours, evenOdd: path.evenOdd, within: b)
        stroke = path.stroke.map { PathOp.coverage(of: $0.contours, evenOdd: false, within: b) }
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
        let opacity = path.opacity, blend = path.blend
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
        guard b.width > 0, b.height > 0, !coverage.fill.isEmpty else { return }
        let firstRow = max(b.minY, rows.lowerBound), endRow = min(b.maxY, rows.upperBound)
        guard firstRow < endRow else { return }
        let xs = (b.minX..<b.maxX).clamped(to: columns)
        guard !xs.isEmpty else { return }
        let tablesRuns = blend == .sourceOver || blend == .plus
        let startX = xs.lowerBound - b.minX, endX = xs.upperBound - b.minX
        if usesKernels, blend != .plus, blend != .destinationIn {
            drawPathRows(path, coverage, rows: (firstRow - b.minY)..<(endRow - b.minY), columns: startX..<endX, into: pixels,
                         width: width)
            return
        }
        coverage.fill.withUnsafeBufferPointer { fill in
            let stroke = coverage.stroke
            for y in (firstRow - b.minY)..<(endRow - b.minY) {
                let rowBase = y * b.width, pixelBase = ((b.minY + y) * width + b.minX) * 4
                var repeating = SourceOver.RepeatingBlend()
                var x = startX
                while x < endX {
                    let kf = fill[rowBase + x], ks = stroke?[rowBase + x] ?? 0
                    guard kf > 0 || ks > 0 || blend == .destinationIn else { x += 1; continue }
                    // The stretch of pixels with this same coverage (a fill's inside is most of a
                    // large shape's pixels): one colour, which a long stretch blends through a
                    // table made with the expression each pixel's blend evaluates (the same bytes).
                    var end = x + 1
                    if tablesRuns || blend == .destinationIn {
                        while end < endX, fill[rowBase + end] == kf, (stroke?[rowBase + end] ?? 0) == ks { end += 1 }
                    }
                    let c = path.composite(fill: Double(kf), stroke: Double(ks))
                    let k = opacity
                    if blend == .destinationIn, end - x > 1 {
                        // A mask's stretch scales every byte by one alpha (SourceOver.scale's): by
                        // 1 (a mask's inside) it leaves each byte as it is, by 0 it clears them,
                        // and otherwise each byte goes through a table of the same expression.
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
                        // Source-over; also for modes that read the backdrop, which the compositor
                        // never gives a path (GLPathFill.cover draws them the same way). Over a
                        // backdrop that repeats, a pixel is a store (RepeatingBlend).
                        default:
                            repeating.blend(red: c.red * k, green: c.green * k, blue: c.blue * k, alpha: c.alpha * k, into: pixels, at: i)
                        }
                    }
                    x = end
                }
            }
        }
    }

    /// `drawPath`'s source-over rows through the C kernel (`oq_path_over`): the same bytes as the
    /// loop above (`PathKernelTests`), with the pixels no coverage reaches skipped sixteen at a
    /// time and each run's colour worked out once. `rows` and `columns` are the path's bounds'.
    private func drawPathRows(_ path: PathOp, _ coverage: PathCoverage, rows: Range<Int>, columns: Range<Int>,
                              into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int) {
        let b = path.pixelBounds
        let f = path.color.multiplied(by: path.tint)
        let fill = [f.red, f.green, f.blue, f.alpha]
        let stroke = path.stroke.map { stroke -> [Double] in
            let s = stroke.color.multiplied(by: path.tint)
            return [s.red, s.green, s.blue, s.alpha]
        }
        precondition(pixels.count >= ((b.minY + rows.upperBound - 1) * width + b.minX + columns.upperBound) * 4)
        coverage.fill.withUnsafeBufferPointer { fillCoverage in
            withOptionalPointer(coverage.stroke) { strokeCoverage in
                withOptionalPointer(stroke) { strokeColour in
                    for y in rows {
                        let offset = y * b.width + columns.lowerBound
                        oq_path_over(pixels.baseAddress! + ((b.minY + y) * width + b.minX + columns.lowerBound) * 4,
                                     fillCoverage.baseAddress! + offset, strokeCoverage.map { $0 + offset }, columns.count,
                                     fill, strokeColour, path.opacity)
                    }
                }
            }
        }
    }
}

/// `body` given the array's first element, or nil for no array.
private func withOptionalPointer<Element, R>(_ array: [Element]?, _ body: (UnsafePointer<Element>?) -> R) -> R {
    guard let array else { return body(nil) }
    return array.withUnsafeBufferPointer { body($0.baseAddress) }
}
