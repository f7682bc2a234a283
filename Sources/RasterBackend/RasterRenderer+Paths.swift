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
        for y in (firstRow - b.minY)..<(endRow - b.minY) {
            for x in (xs.lowerBound - b.minX)..<(xs.upperBound - b.minX) {
                let j = y * b.width + x
                let kf = Double(coverage.fill[j]), ks = coverage.stroke.map { Double($0[j]) } ?? 0
                guard kf > 0 || ks > 0 || blend == .destinationIn else { continue }
                let c = path.composite(fill: kf, stroke: ks)
                let i = ((b.minY + y) * width + b.minX + x) * 4
                let k = opacity
                switch blend {
                case .plus:
                    SourceOver.add(red: c.red * k, green: c.green * k, blue: c.blue * k, alpha: c.alpha * k, into: pixels, at: i)
                case .destinationIn:
                    SourceOver.scale(by: c.alpha * k, pixels, at: i)
                // Source-over; also for modes that read the backdrop, which the compositor never
                // gives a path (GLPathFill.cover draws them the same way).
                default:
                    SourceOver.blend(red: c.red * k, green: c.green * k, blue: c.blue * k, alpha: c.alpha * k, into: pixels, at: i)
                }
            }
        }
    }
}
