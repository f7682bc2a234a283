import Compositor
import OpenCoreGraphics

extension RasterRenderer {
    /// A filled path (and the stroke drawn over it in the same step): OpenCoreGraphics'
    /// CoverageRasterizer over the op's pixel bounds gives each pixel its winding-weighted area
    /// folded by the fill rule (the function the GPU evaluates edge by edge), then the stroke's
    /// colour over the fill's, in float, is blended once, as a quad's colour is.
    func drawPath(_ path: PathOp, into target: inout Bitmap) {
        let b = path.pixelBounds
        guard b.width > 0, b.height > 0 else { return }
        let fill = PathOp.coverage(of: path.contours, evenOdd: path.evenOdd, within: b)
        let stroke = path.stroke.map { PathOp.coverage(of: $0.contours, evenOdd: false, within: b) }
        let opacity = path.opacity, blend = path.blend, width = target.width
        target.pixels.withUnsafeMutableBufferPointer { pixels in
            // Destination-in keeps nothing where the coverage is 0, outside the bounds too.
            if blend == .destinationIn {
                for y in 0..<target.height {
                    let row = y * width * 4
                    if y < b.minY || y >= b.maxY {
                        for i in row..<(row + width * 4) { pixels[i] = 0 }
                    } else {
                        for i in row..<(row + b.minX * 4) { pixels[i] = 0 }
                        for i in (row + b.maxX * 4)..<(row + width * 4) { pixels[i] = 0 }
                    }
                }
            }
            for y in 0..<b.height {
                for x in 0..<b.width {
                    let j = y * b.width + x
                    let kf = Double(fill[j]), ks = stroke.map { Double($0[j]) } ?? 0
                    guard kf > 0 || ks > 0 || blend == .destinationIn else { continue }
                    let c = path.composite(fill: kf, stroke: ks)
                    let i = ((b.minY + y) * width + b.minX + x) * 4
                    let k = opacity
                    switch blend {
                    case .sourceOver:
                        SourceOver.blend(red: c.red * k, green: c.green * k, blue: c.blue * k, alpha: c.alpha * k, into: pixels, at: i)
                    case .plus:
                        SourceOver.add(red: c.red * k, green: c.green * k, blue: c.blue * k, alpha: c.alpha * k, into: pixels, at: i)
                    case .destinationIn:
                        SourceOver.scale(by: c.alpha * k, pixels, at: i)
                    }
                }
            }
        }
    }
}
