// Caps and joins of stroked curves stand square to the curve's true direction, not to the
// flattened chord next to them (issue 20, item 9).
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Strokes of curves")
struct StrokeTangentTests {
    private static func render(_ path: CGPath, cap: CGLineCap, join: CGLineJoin) -> Bitmap {
        let context = CGContext(width: 64, height: 64)!
        context.addPath(path)
        context.setStrokeColor(CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        context.setLineWidth(9)
        context.setLineCap(cap)
        context.setLineJoin(join)
        context.strokePath()
        return context.makeImage()!.bitmap
    }

    @Test("an open full circle with butt caps closes without a wedge where it starts and ends")
    func openFullCircle() {
        let open = CGMutablePath()
        open.addArc(center: CGPoint(x: 32, y: 32), radius: 20, startAngle: 0.3, endAngle: 0.3 + 2 * .pi, clockwise: false)
        let closed = open.mutableCopy()!
        closed.closeSubpath()
        // The same ring but for where it starts and ends: there the two butt ends must meet
        // square. Before, each leaned by half a chord's turn: a wedge 2.3 pt wide at the rim.
        let a = Self.render(open, cap: .butt, join: .miter), b = Self.render(closed, cap: .butt, join: .miter)
        var worst = 0
        for y in 0..<64 { for x in 0..<64 { worst = max(worst, abs(Int(a[x, y].3) - Int(b[x, y].3))) } }
        #expect(worst <= 8, "largest alpha difference from the closed ring: \(worst) of 255")
    }

    @Test("a square cap extends along the curve's direction at its end")
    func squareCapFollowsTangent() {
        // A quarter arc ending at the top of the circle, heading left: the square cap reaches
        // half the width further left, its far edge square to the tangent.
        let path = CGMutablePath()
        path.addArc(center: CGPoint(x: 32, y: 32), radius: 20, startAngle: 0, endAngle: -.pi / 2, clockwise: true)
        let outline = path.copy(strokingWithWidth: 9, lineCap: .square, lineJoin: .miter, miterLimit: 10)
        #expect(abs(outline.boundingBox.minX - (32 - 4.5)) < 1e-6, "the cap's far edge is at x 27.5, got \(outline.boundingBox.minX)")
    }

    @Test("a miter between two curves is where the curves' own directions put it")
    func miterBetweenCurves() {
        // Two curves meeting at (32, 10): arriving heading up-right at 45 degrees, leaving
        // heading down-right: a right-angled corner whose miter tip lies half the width over
        // sin(45 degrees) above the corner.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 10, y: 50))
        path.addCurve(to: CGPoint(x: 32, y: 10), control1: CGPoint(x: 10, y: 30), control2: CGPoint(x: 26, y: 16))
        path.addCurve(to: CGPoint(x: 54, y: 50), control1: CGPoint(x: 38, y: 16), control2: CGPoint(x: 54, y: 30))
        let outline = path.copy(strokingWithWidth: 9, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        let expected = 10 - 4.5 / sin(CGFloat.pi / 4)
        #expect(abs(outline.boundingBox.minY - expected) < 1e-6, "miter tip at y \(outline.boundingBox.minY), expected \(expected)")
    }
}

@Suite("Strokes of curves against exact area")
struct StrokeAreaTests {
    @Test("a stroked circle covers each pixel as the exact ring does, inner edge included")
    func ringCoverage() {
        let center = CGPoint(x: 32.3, y: 31.7), radius: CGFloat = 20, width: CGFloat = 9
        let context = CGContext(width: 64, height: 64)!
        context.addPath(CGPath(ellipseIn: CGRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius), transform: nil))
        context.setStrokeColor(CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        context.setLineWidth(width)
        context.strokePath()
        let bitmap = context.makeImage()!.bitmap
        var worst = 0.0, total = 0.0
        for row in 0..<64 {
            for x in 0..<64 {
                // Bitmap rows run top down; the context is y up.
                let y = 63 - row
                var inside = 0
                for sy in 0..<16 {
                    for sx in 0..<16 {
                        let r = hypot(CGFloat(x) + (CGFloat(sx) + 0.5) / 16 - center.x, CGFloat(y) + (CGFloat(sy) + 0.5) / 16 - center.y)
                        if abs(r - radius) <= width / 2 { inside += 1 }
                    }
                }
                let error = abs(Double(bitmap[x, row].3) / 255 - Double(inside) / 256)
                worst = max(worst, error)
                total += error
            }
        }
        print("ring stroke against exact area: worst \(worst), mean \(total / 4096)")
        // Before, the chords' rectangles overlapped on the inner side and the rasterizer counted
        // the overlap twice: inner-edge pixels half covered came out fully covered (worst 0.5).
        #expect(worst < 0.1)
    }
}
