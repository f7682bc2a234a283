import Compositor
import OpenCoreGraphics

extension RasterRenderer {
    /// A filled path: OpenCoreGraphics' CoverageRasterizer over the op's pixel bounds gives each
    /// pixel its winding-weighted area folded by the fill rule (the function the GPU evaluates
    /// edge by edge), then the colour is blended as a quad's is.
    func drawPath(_ path: PathOp, into target: inout Bitmap) {
        let b = path.pixelBounds
        guard b.width > 0, b.height > 0 else { return }
        var rasterizer = CoverageRasterizer(width: b.width, height: b.height)
        let ox = Double(b.minX), oy = Double(b.minY)
        for contour in path.contours {
            for i in contour.indices {
                let p = contour[i], q = contour[i + 1 == contour.count ? 0 : i + 1]
                rasterizer.addLine(p.x - ox, p.y - oy, q.x - ox, q.y - oy)
            }
        }
        let coverage = rasterizer.coverage(rule: path.evenOdd ? .evenOdd : .winding)
        rasterizer.recycle()
        let c = path.color.multiplied(by: path.tint), opacity = path.opacity, blend = path.blend, width = target.width
        target.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<b.height {
                for x in 0..<b.width {
                    let k = Double(coverage[y * b.width + x]) * opacity
                    guard k > 0 || blend == .destinationIn else { continue }
                    let i = ((b.minY + y) * width + b.minX + x) * 4
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
