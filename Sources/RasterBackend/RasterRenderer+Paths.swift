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
        let fill = RasterRenderer.coverage(of: path.contours, evenOdd: path.evenOdd, within: b)
        let stroke = path.stroke.map { RasterRenderer.coverage(of: $0.contours, evenOdd: false, within: b) }
        let opacity = path.opacity, blend = path.blend, width = target.width
        target.pixels.withUnsafeMutableBufferPointer { pixels in
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

    /// Coverage 0...1 of the pixels of `bounds` (rows top first) by the contours under the rule.
    static func coverage(of contours: [[DevicePoint]], evenOdd: Bool, within bounds: PixelRect) -> [Float] {
        var rasterizer = CoverageRasterizer(width: bounds.width, height: bounds.height)
        let ox = Double(bounds.minX), oy = Double(bounds.minY)
        for contour in contours {
            for i in contour.indices {
                let p = contour[i], q = contour[i + 1 == contour.count ? 0 : i + 1]
                rasterizer.addLine(p.x - ox, p.y - oy, q.x - ox, q.y - oy)
            }
        }
        let coverage = rasterizer.coverage(rule: evenOdd ? .evenOdd : .winding)
        rasterizer.recycle()
        return coverage
    }
}
