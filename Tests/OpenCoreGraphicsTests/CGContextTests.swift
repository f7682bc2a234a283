// Bitmap contexts: exact-area fills, fill rules, strokes, clips, images, and Core Graphics' y-up
// coordinates. Expected pixels are worked out by hand.
import Foundation
import OpenCoreGraphics
import Testing

private func context(_ width: Int, _ height: Int) -> CGContext { CGContext(width: width, height: height)! }
private func alphas(_ ctx: CGContext, row: Int) -> [UInt8] { (0..<ctx.width).map { ctx.bitmap[$0, row].3 } }

@Suite("CGContext")
struct CGContextTests {
    @Test("user space is y up: a rectangle at y 0 fills the bottom row")
    func orientation() {
        let ctx = context(3, 3)
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 3, height: 1))
        #expect(alphas(ctx, row: 2) == [255, 255, 255] && alphas(ctx, row: 0) == [0, 0, 0])
        #expect(ctx.bitmap[1, 2] == (255, 0, 0, 255))
    }

    @Test("edges half a pixel in cover half; corners the product")
    func exactArea() {
        let ctx = context(4, 2)
        ctx.fill(CGRect(x: 0.5, y: 0, width: 2, height: 2))
        #expect(alphas(ctx, row: 0) == [128, 255, 128, 0])
        let corner = context(2, 2)
        corner.fill(CGRect(x: 0.5, y: 0, width: 1.5, height: 1.5)) // y up: top edge at 1.5
        #expect(corner.bitmap[0, 0].3 == 64 && corner.bitmap[1, 1].3 == 255)
    }

    @Test("a circle covers pi r^2 pixels to within half a percent")
    func circleArea() {
        let ctx = context(24, 24)
        ctx.fillEllipse(in: CGRect(x: 2, y: 2, width: 20, height: 20))
        let total = ctx.bitmap.pixels.enumerated().filter { $0.offset % 4 == 3 }.reduce(0.0) { $0 + Double($1.element) / 255 }
        #expect(abs(total - .pi * 100) / (.pi * 100) < 0.005)
    }

    @Test("even-odd leaves a nested rectangle empty; winding fills it")
    func fillRules() {
        for (rule, centre) in [(CGPathFillRule.evenOdd, UInt8(0)), (.winding, 255)] {
            let ctx = context(6, 6)
            ctx.addRect(CGRect(x: 0, y: 0, width: 6, height: 6))
            ctx.addRect(CGRect(x: 2, y: 2, width: 2, height: 2))
            ctx.fillPath(using: rule)
            #expect(ctx.bitmap[2, 2].3 == centre && ctx.bitmap[0, 0].3 == 255)
        }
    }

    @Test("a stroke is lineWidth wide, centred on the path, with the caps asked for")
    func strokes() {
        let ctx = context(12, 4)
        ctx.setLineWidth(2)
        ctx.move(to: CGPoint(x: 2, y: 2))
        ctx.addLine(to: CGPoint(x: 10, y: 2))
        ctx.strokePath()
        #expect(alphas(ctx, row: 1) == [0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0])
        #expect(alphas(ctx, row: 0) == Array(repeating: 0, count: 12) && alphas(ctx, row: 2)[5] == 255)
        let square = context(12, 4)
        square.setLineWidth(2)
        square.setLineCap(.square)
        square.move(to: CGPoint(x: 2, y: 2))
        square.addLine(to: CGPoint(x: 10, y: 2))
        square.strokePath()
        #expect(alphas(square, row: 1)[1] == 255 && alphas(square, row: 1)[10] == 255 && alphas(square, row: 1)[0] == 0)
    }

    @Test("joins close the corners of a stroked square; a scaled context strokes wider")
    func joinsAndScale() {
        let ctx = context(10, 10)
        ctx.setLineWidth(2)
        ctx.stroke(CGRect(x: 2, y: 2, width: 6, height: 6))
        #expect(ctx.bitmap[1, 1].3 == 255 && ctx.bitmap[8, 8].3 == 255) // miter corners filled
        #expect(ctx.bitmap[5, 5].3 == 0)
        let scaled = context(8, 8)
        scaled.scaleBy(x: 2, y: 2)
        scaled.setLineWidth(1)
        scaled.move(to: CGPoint(x: 0, y: 2))
        scaled.addLine(to: CGPoint(x: 4, y: 2))
        scaled.strokePath()
        #expect(alphas(scaled, row: 3) == Array(repeating: 255, count: 8) && alphas(scaled, row: 4)[0] == 255)
    }

    @Test("clips limit drawing until the state is restored")
    func clipping() {
        let ctx = context(4, 1)
        ctx.saveGState()
        ctx.clip(to: CGRect(x: 0, y: 0, width: 2, height: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        ctx.restoreGState()
        #expect(alphas(ctx, row: 0) == [255, 255, 0, 0])
        ctx.fill(CGRect(x: 3, y: 0, width: 1, height: 1))
        #expect(alphas(ctx, row: 0) == [255, 255, 0, 255])
    }

    @Test("images draw upright and pixel for pixel at their size")
    func images() {
        let image = CGImage(bitmap: Bitmap(width: 2, height: 2) { x, y in (UInt8(x * 200), UInt8(y * 200), 0, 255) })
        let ctx = context(2, 2)
        ctx.draw(image, in: CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(ctx.makeImage()?.bitmap == image.bitmap)
    }

    @Test("alpha and translucent colours blend source-over")
    func blending() {
        let ctx = context(1, 1)
        ctx.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        ctx.setAlpha(0.5)
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(ctx.bitmap[0, 0] == (128, 0, 128, 255))
    }

    @Test("contexts that cannot be made are nil")
    func unsupported() {
        #expect(CGContext(width: 0, height: 10) == nil)
        #expect(CGContext(width: 100_000, height: 10) == nil)
        #expect(CGContext(data: nil, width: 10, height: 10, bitsPerComponent: 16, bytesPerRow: 0,
                          space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: 1) == nil)
    }
}

@Suite("CGContext masks and sampling")
struct CGContextMaskTests {
    @Test("an image mask clips by its alpha, or by its luminance when it is opaque")
    func imageMask() throws {
        // A 2x1 mask: left half keeps everything, right half nothing.
        let alphaMask = CGImage(bitmap: Bitmap(width: 2, height: 1) { x, _ in x == 0 ? (0, 0, 0, 255) : (0, 0, 0, 0) })
        let ctx = try #require(CGContext(width: 4, height: 1))
        ctx.interpolationQuality = .none
        ctx.clip(to: CGRect(x: 0, y: 0, width: 4, height: 1), mask: alphaMask)
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        #expect((0..<4).map { ctx.bitmap[$0, 0].3 }.first == 255 && ctx.bitmap[3, 0].3 == 0)
        let luminance = CGImage(bitmap: Bitmap(width: 1, height: 1) { _, _ in (128, 128, 128, 255) })
        let grey = try #require(CGContext(width: 1, height: 1))
        grey.clip(to: CGRect(x: 0, y: 0, width: 1, height: 1), mask: luminance)
        grey.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(abs(Int(grey.bitmap[0, 0].3) - 128) <= 1)
    }

    @Test("interpolation quality none samples the nearest texel")
    func nearest() throws {
        let image = CGImage(bitmap: Bitmap(width: 2, height: 1) { x, _ in x == 0 ? (0, 0, 0, 255) : (255, 255, 255, 255) })
        let smooth = try #require(CGContext(width: 4, height: 1)), sharp = try #require(CGContext(width: 4, height: 1))
        smooth.draw(image, in: CGRect(x: 0, y: 0, width: 4, height: 1))
        sharp.interpolationQuality = .none
        sharp.draw(image, in: CGRect(x: 0, y: 0, width: 4, height: 1))
        #expect(sharp.bitmap[1, 0].0 == 0 && sharp.bitmap[2, 0].0 == 255)
        #expect(smooth.bitmap[1, 0].0 > 0 && smooth.bitmap[1, 0].0 < 255)
    }

    @Test("per-corner radii round only the corners asked for")
    func perCornerRadii() {
        let path = CGMutablePath()
        path.addRoundedRect(in: CGRect(x: 0, y: 0, width: 100, height: 50), topLeft: 20, topRight: 0, bottomRight: 20, bottomLeft: 0)
        #expect(!path.contains(CGPoint(x: 1, y: 1)) && path.contains(CGPoint(x: 99, y: 1)))
        #expect(!path.contains(CGPoint(x: 99, y: 49)) && path.contains(CGPoint(x: 1, y: 49)))
    }
}

@Suite("Rasterizer accuracy")
struct RasterizerAccuracyTests {
    /// The exact area of the unit pixel square [x, x+1] x [y, y+1] inside the triangle, by
    /// clipping the square against the triangle's three edges (Sutherland-Hodgman).
    private func exactCoverage(_ triangle: [CGPoint], _ x: Int, _ y: Int) -> Double {
        var polygon = [CGPoint(x: x, y: y), CGPoint(x: x + 1, y: y), CGPoint(x: x + 1, y: y + 1), CGPoint(x: x, y: y + 1)]
        var area2: CGFloat = 0
        for i in triangle.indices { let q = triangle[(i + 1) % 3]; area2 += triangle[i].x * q.y - q.x * triangle[i].y }
        for i in triangle.indices {
            let a = triangle[i], b = triangle[(i + 1) % 3]
            func side(_ p: CGPoint) -> CGFloat { ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) * (area2 > 0 ? 1 : -1) }
            let input = polygon
            polygon = []
            for j in input.indices {
                let p = input[j], q = input[(j + 1) % input.count]
                if side(p) >= 0 { polygon.append(p) }
                if (side(p) >= 0) != (side(q) >= 0) {
                    let t = side(p) / (side(p) - side(q))
                    polygon.append(CGPoint(x: p.x + t * (q.x - p.x), y: p.y + t * (q.y - p.y)))
                }
            }
        }
        var area: CGFloat = 0
        for i in polygon.indices { let q = polygon[(i + 1) % polygon.count]; area += polygon[i].x * q.y - q.x * polygon[i].y }
        return Double(abs(area) / 2)
    }

    @Test("coverage of thin and slanted triangles is the exact pixel area, on average within 1/255")
    func triangles() throws {
        let triangles: [[CGPoint]] = [
            [CGPoint(x: 1.3, y: 0.7), CGPoint(x: 14.6, y: 3.1), CGPoint(x: 5.2, y: 13.9)],
            [CGPoint(x: 0.5, y: 0.5), CGPoint(x: 15.5, y: 1.2), CGPoint(x: 0.9, y: 2.0)], // a sliver
            [CGPoint(x: 8.0, y: 0.2), CGPoint(x: 8.6, y: 15.7), CGPoint(x: 7.7, y: 15.1)],
        ]
        for triangle in triangles {
            var rasterizer = CoverageRasterizer(width: 16, height: 16)
            let path = CGMutablePath()
            path.addLines(between: triangle)
            path.closeSubpath()
            rasterizer.add(path)
            let coverage = rasterizer.coverage(rule: .winding)
            var error = 0.0
            for y in 0..<16 { for x in 0..<16 { error += abs(Double(coverage[y * 16 + x]) - exactCoverage(triangle, x, y)) } }
            #expect(error / 256 < 1.0 / 255, "mean error \(error / 256)")
        }
    }
}

@Suite("Long strokes")
struct LongStrokeTests {
    @Test("a polyline of thousands of segments is stroked along its whole length")
    func manySegments() throws {
        let zigzag = CGMutablePath()
        zigzag.move(to: CGPoint(x: 0, y: 0))
        for i in 1...2_000 { zigzag.addLine(to: CGPoint(x: Double(i % 100) * 2, y: Double(i / 100) * 10 + Double(i % 2) * 5)) }
        let ctx = try #require(CGContext(width: 200, height: 200))
        ctx.setLineWidth(2)
        ctx.addPath(zigzag)
        ctx.strokePath()
        let inked = ctx.bitmap.pixels.enumerated().filter { $0.offset % 4 == 3 && $0.element > 0 }.count
        #expect(inked > 5_000)
    }
}
