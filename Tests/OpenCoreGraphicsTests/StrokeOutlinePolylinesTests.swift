// A stroke's polylines made straight from its pieces (CGPath.outlinePolylines) are the ones the
// outline path flattens to, point for point and bit for bit: every cap and join, dashes' many
// subpaths, curves, non-finite points, and so many round joins that the outline's curves
// share PathFlattener.maxPoints.
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Stroke outlines flattened without the outline path")
struct StrokeOutlinePolylinesTests {
    static func sameBits(_ a: [[CGPoint]], _ b: [[CGPoint]]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { p, q in
            p.count == q.count && zip(p, q).allSatisfy { u, v in
                u.x.bitPattern == v.x.bitPattern && u.y.bitPattern == v.y.bitPattern
            }
        }
    }

    static func check(_ path: CGPath, width: CGFloat, tolerance: CGFloat, flattening: CGFloat,
                      caps: [CGLineCap] = [.butt, .round, .square], joins: [CGLineJoin] = [.miter, .round, .bevel],
                      sourceLocation: SourceLocation = #_sourceLocation) {
        for cap in caps {
            for join in joins {
                let viaPath = PathFlattener.polylines(path.outline(strokingWithWidth: width, lineCap: cap, lineJoin: join,
                                                                   miterLimit: 4, tolerance: tolerance),
                                                      tolerance: flattening)
                let direct = path.outlinePolylines(strokingWithWidth: width, lineCap: cap, lineJoin: join, miterLimit: 4,
                                                   tolerance: tolerance, flattening: flattening)
                #expect(sameBits(direct, viaPath), "cap \(cap), join \(join): \(direct.count) against \(viaPath.count) polylines",
                        sourceLocation: sourceLocation)
            }
        }
    }

    @Test("open and closed subpaths of lines, curves and arcs, dashed, and a point alone")
    func shapes() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 10, y: 10))
        path.addLine(to: CGPoint(x: 60, y: 12))
        path.addCurve(to: CGPoint(x: 90, y: 70), control1: CGPoint(x: 95, y: 15), control2: CGPoint(x: 40, y: 60))
        path.addQuadCurve(to: CGPoint(x: 20, y: 80), control: CGPoint(x: 50, y: 120))
        path.closeSubpath()
        path.addArc(center: CGPoint(x: 150, y: 50), radius: 30, startAngle: 0, endAngle: 4, clockwise: false)
        path.move(to: CGPoint(x: 200, y: 200))
        path.addLine(to: CGPoint(x: 200, y: 200))
        Self.check(path, width: 6, tolerance: 0.05, flattening: 0.02)
        Self.check(path.copy(dashingWithPhase: 3, lengths: [7, 3]), width: 2.5, tolerance: 0.01, flattening: 0.004)
        Self.check(path, width: 40, tolerance: 0.5, flattening: 0.25)
    }

    @Test("points at zero and non-finite points: the same pieces kept and dropped")
    func unusualNumbers() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: -0.0, y: -0.0))
        path.addLine(to: CGPoint(x: -0.0, y: 10))
        path.addLine(to: CGPoint(x: 10, y: -0.0))
        path.move(to: CGPoint(x: 5, y: 5))
        path.addLine(to: CGPoint(x: CGFloat.infinity, y: 5))
        path.addLine(to: CGPoint(x: 8, y: CGFloat.nan))
        Self.check(path, width: 2, tolerance: 0.05, flattening: 0.05)
    }

    @Test("a zigzag of 1,500 round joins: its disks' curves share the outline's points as the outline's would")
    func manyDisks() {
        let path = CGMutablePath()
        path.move(to: .zero)
        for i in 1...1_500 { path.addLine(to: CGPoint(x: CGFloat(i) * 3, y: i % 2 == 0 ? 0 : 3)) }
        // 1,499 joins' disks are 5,996 quarter-circle curves sharing 4,194,304 points: 699 a
        // curve, fewer than a quarter circle 2,000 wide takes at this tolerance (Wang's bound:
        // about 970).
        Self.check(path, width: 4_000, tolerance: 0.01, flattening: 0.001, caps: [.butt], joins: [.round])
        let direct = path.outlinePolylines(strokingWithWidth: 4_000, lineCap: .butt, lineJoin: .round, miterLimit: 4,
                                           tolerance: 0.01, flattening: 0.001)
        // Each disk: its start, 4 x 699 chords' ends, and the start again to close it.
        #expect(direct.filter { $0.count == 4 * 699 + 2 }.count == 1_499,
                "\(Dictionary(grouping: direct, by: \.count).mapValues(\.count))")
    }
}
