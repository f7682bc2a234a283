// What the fuzz targets found (fuzz/, `make fuzz`), one test per finding; the inputs themselves
// stay in fuzz/corpus/<target>/ (crash-*) so every fuzz run replays them too.
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Fuzz findings: paths and contexts")
struct FuzzRegressionTests {
    /// Filled in a 32 x 32 context: the count of covered pixels.
    private func coveredPixels(_ build: (CGMutablePath) -> Void, transform: CGAffineTransform = .identity) -> Int {
        let context = CGContext(width: 32, height: 32)!
        let path = CGMutablePath()
        build(path)
        context.concatenate(transform)
        context.addPath(path)
        context.fillPath()
        return stride(from: 3, to: context.bitmap.pixels.count, by: 4).count { context.bitmap.pixels[$0] > 0 }
    }

    @Test("a cubic with control points at 1e30 or 1e300 fills without trapping (segment count overflowed Int)")
    func hugeCurve() {
        for far in [1e30, 1e300, -1e300] as [CGFloat] {
            let covered = coveredPixels { path in
                path.move(to: CGPoint(x: 0, y: 0))
                path.addLine(to: CGPoint(x: 32, y: 0))
                path.addCurve(to: CGPoint(x: 32, y: 32), control1: CGPoint(x: far, y: far), control2: CGPoint(x: -far, y: far))
                path.addLine(to: CGPoint(x: 0, y: 32))
                path.closeSubpath()
            }
            #expect(covered >= 0)
        }
    }

    @Test("curves outside the image become chords: the same pixels, a bounded cost (a dash pattern scaled 1e6 ran out of memory)")
    func offscreenCurvesAsChords() {
        // A circle much larger than the context: only its part inside is drawn; coverage is the
        // same as flattening every curve in full (checked against a polygon of the same circle).
        let big = coveredPixels { $0.addEllipse(in: CGRect(x: -2000, y: -2000, width: 4020, height: 4020)) }
        #expect(big == 32 * 32)
        let edge = coveredPixels { $0.addEllipse(in: CGRect(x: 16, y: -40, width: 80, height: 80)) }
        let polygon = coveredPixels { path in
            path.addLines(between: (0..<20_000).map { i in
                let a = CGFloat(i) / 20_000 * 2 * .pi
                return CGPoint(x: 56 + 40 * cos(a), y: 40 * sin(a))
            })
            path.closeSubpath()
        }
        #expect(edge == polygon)
        // 100,000 dashes of a round-capped stroke scaled a million times: bounded by the point budget.
        let dashed = CGMutablePath()
        dashed.addEllipse(in: CGRect(x: 0, y: 0, width: 30, height: 30))
        let outline = dashed.copy(dashingWithPhase: 0, lengths: [1e-6, 1e-6])
            .copy(strokingWithWidth: 1e-7, lineCap: .round, lineJoin: .round, miterLimit: 10)
        let points = PathFlattener.polylines(outline.copy(applying: CGAffineTransform(scaleX: 1e6, y: 1e6)), tolerance: 0.02)
            .reduce(0) { $0 + $1.count }
        #expect(points <= PathFlattener.maxPoints + outline.elements.count + 1_000)
    }

    @Test("arcs of 1e30 radians and shadows offset 1e30: bounded, no trap")
    func hugeArcAndShadowOffset() {
        let path = CGMutablePath()
        path.addRelativeArc(center: CGPoint(x: 16, y: 16), radius: 10, startAngle: 0, delta: 1e30)
        #expect(path.elements.count < 100)
        let context = CGContext(width: 32, height: 32)!
        context.setShadow(offset: CGSize(width: 1e30, height: -1e30), blur: 1e30)
        context.fill(CGRect(x: 4, y: 4, width: 8, height: 8))
        #expect(context.bitmap.pixels.contains { $0 != 0 })
    }

    @Test("setLineDash dashes strokes (Core Graphics' call), and empty lengths stroke solid again")
    func lineDash() {
        func stroked(_ dash: [CGFloat]) -> Int {
            let context = CGContext(width: 40, height: 8)!
            context.setLineWidth(4)
            context.setLineDash(phase: 0, lengths: dash)
            context.move(to: CGPoint(x: 0, y: 4))
            context.addLine(to: CGPoint(x: 40, y: 4))
            context.strokePath()
            return stride(from: 3, to: context.bitmap.pixels.count, by: 4).count { context.bitmap.pixels[$0] > 0 }
        }
        let solid = stroked([])
        let dashed = stroked([5, 5])
        #expect(solid == 40 * 4)
        #expect(dashed == 20 * 4)
    }

    @Test("a font of size 1.8e308 or 1e30 is drawn at the largest size, not trapped (found through a CATextLayer's fontSize)")
    func hugeFontSize() {
        for size in [CGFloat.greatestFiniteMagnitude, 1e30] {
            let font = CTFont(name: "DejaVu Sans", size: size)
            #expect(font.pointSize == CTFont.maxPointSize)
            let line = CTLine(string: "Ag", font: font, color: CGColor(red: 0, green: 0, blue: 0, alpha: 1))
            let width = CTLineGetTypographicBounds(line, nil, nil, nil)
            #expect(width > 0, "width \(width) at \(font.pointSize)")
        }
    }

    @Test("an edge a denormal high (an infinite slope) covers nothing and traps nothing")
    func denormalEdge() {
        // Straight to the rasterizer: through a context's y flip the denormal would round away.
        var rasterizer = CoverageRasterizer(width: 32, height: 32)
        let tiny = Double.leastNonzeroMagnitude * 2_000 // about 1e-320
        for (x0, y0, x1, y1) in [(0.0, 0.0, 30.0, tiny), (30, tiny, 30, 20), (30, 20, 0, 20), (0, 20, 0, 0)] {
            rasterizer.addLine(x0, y0, x1, y1)
        }
        let coverage = rasterizer.coverage(rule: .winding)
        #expect(coverage.reduce(0, +) == 30 * 20)
    }

    @Test("dash lengths whose sum overflows (1e308 each) with a negative phase end (the phase loop never did)")
    func overflowingDashPeriod() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 30, y: 0))
        let dashed = path.copy(dashingWithPhase: -3, lengths: [1e308, 1e308])
        #expect(dashed.elements.count == 2)
    }
}
