// CGPath construction, geometry queries and flattening.
import Foundation
import OpenCoreGraphics
import Testing

private func near(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

private func length(_ polyline: [CGPoint]) -> CGFloat {
    zip(polyline, polyline.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
}

@Suite("CGPath")
struct CGPathTests {
    @Test("a rectangle is a move, three lines and a close, and contains its inside")
    func rectangle() {
        let path = CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 40))
        #expect(path.elements == [.move(CGPoint(x: 10, y: 20)), .line(CGPoint(x: 40, y: 20)), .line(CGPoint(x: 40, y: 60)),
                                  .line(CGPoint(x: 10, y: 60)), .close])
        #expect(path.boundingBox == CGRect(x: 10, y: 20, width: 30, height: 40))
        #expect(path.contains(CGPoint(x: 25, y: 40)) && !path.contains(CGPoint(x: 5, y: 40)))
        #expect(path.currentPoint == CGPoint(x: 10, y: 20)) // back at the start after the close
        #expect(!path.isEmpty && CGMutablePath().isEmpty)
    }

    @Test("a hole: even-odd leaves it empty, winding fills it when both run the same way")
    func fillRules() {
        let path = CGMutablePath()
        path.addRect(CGRect(x: 0, y: 0, width: 100, height: 100))
        path.addRect(CGRect(x: 25, y: 25, width: 50, height: 50))
        let centre = CGPoint(x: 50, y: 50)
        #expect(path.contains(centre, using: .winding))
        #expect(!path.contains(centre, using: .evenOdd))
        #expect(path.contains(CGPoint(x: 10, y: 10), using: .evenOdd))
    }

    @Test("an ellipse stays within 0.03% of the true curve and spans its rectangle")
    func ellipse() {
        let path = CGPath(ellipseIn: CGRect(x: -10, y: -10, width: 20, height: 20))
        for polyline in PathFlattener.polylines(path, tolerance: 0.001) {
            for p in polyline { #expect(abs(hypot(p.x, p.y) - 10) < 10 * 3e-4) }
        }
        let box = path.boundingBoxOfPath
        #expect(abs(box.minX + 10) < 0.01 && abs(box.maxY - 10) < 0.01)
        let circumference = length(PathFlattener.polylines(path, tolerance: 0.001)[0])
        #expect(abs(circumference - 20 * .pi) < 0.01)
    }

    @Test("a straight curve flattens to its chord however its controls are spaced; a bent or overshooting one does not")
    func straightCurveIsItsChord() {
        func flattened(_ c1: CGPoint, _ c2: CGPoint, tolerance: CGFloat = 0.02) -> [CGPoint] {
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 0, y: 0))
            path.addCurve(to: CGPoint(x: 90, y: 60), control1: c1, control2: c2)
            return PathFlattener.polylines(path, tolerance: tolerance)[0]
        }
        // Controls on the ends (a Lottie vertex with no tangents), unevenly along the line, or
        // a hair off it (within the tolerance): one chord.
        #expect(flattened(CGPoint(x: 0, y: 0), CGPoint(x: 90, y: 60)).count == 2)
        #expect(flattened(CGPoint(x: 3, y: 2), CGPoint(x: 87, y: 58)).count == 2)
        #expect(flattened(CGPoint(x: 30, y: 20.01), CGPoint(x: 60, y: 40)).count == 2)
        // Bent by more than the tolerance: chords enough to follow it.
        #expect(flattened(CGPoint(x: 30, y: 21), CGPoint(x: 60, y: 40)).count > 2)
        // Along the line but past its end: the curve runs beyond (90, 60), to x 94.8, and back.
        let overshoot = flattened(CGPoint(x: 0, y: 0), CGPoint(x: 120, y: 80))
        #expect(overshoot.count > 2 && overshoot.contains { $0.x > 94.5 })
    }

    @Test("a straight curve stroked with butt caps ends square at both ends, trimmed or not")
    func straightCurveButtEnds() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addCurve(to: CGPoint(x: 90, y: 60), control1: CGPoint(x: 0, y: 0), control2: CGPoint(x: 90, y: 60))
        let length = hypot(90.0, 60.0)
        for (piece, start, end) in [(path as CGPath, 0.0, 1.0), (path.trimmed(from: 0.13, to: 0.71), 0.13, 0.71)] {
            let outline = piece.copy(strokingWithWidth: 8, lineCap: .butt, lineJoin: .miter, miterLimit: 4)
            // Every point of the outline lies within the stroke's rectangle: along the line
            // between the ends, at most half the width off it.
            for polyline in PathFlattener.polylines(outline, tolerance: 0.001) {
                for p in polyline {
                    let along = (p.x * 90 + p.y * 60) / length, across = (p.y * 90 - p.x * 60) / length
                    #expect(along >= start * length - 1e-6 && along <= end * length + 1e-6 && abs(across) <= 4 + 1e-6,
                            "\(p) lies outside the stroke of \(start)...\(end)")
                }
            }
        }
    }

    @Test("addArc sweeps with increasing angle unless clockwise, in Core Graphics' sense")
    func arcDirection() {
        let increasing = CGMutablePath()
        increasing.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        let points = PathFlattener.polylines(increasing, tolerance: 0.001)[0]
        #expect(near(points.first!, CGPoint(x: 10, y: 0)) && near(points.last!, CGPoint(x: 0, y: 10), 1e-9))
        #expect(points.contains { $0.x > 6 && $0.y > 6 }) // through the first quadrant
        let decreasing = CGMutablePath()
        decreasing.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        let other = PathFlattener.polylines(decreasing, tolerance: 0.001)[0]
        #expect(other.contains { abs($0.y + 10) < 0.01 }) // the long way, through (0, -10)
        #expect(abs(length(other) - 15 * .pi) < 0.01) // three quarters of the circle
    }

    @Test("the tangent form of addArc rounds a corner")
    func tangentArc() {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addArc(tangent1End: CGPoint(x: 10, y: 0), tangent2End: CGPoint(x: 10, y: 10), radius: 5)
        guard case .line(let tangentPoint) = path.elements[1] else { Issue.record("expected a line first"); return }
        #expect(near(tangentPoint, CGPoint(x: 5, y: 0)))
        #expect(near(path.currentPoint, CGPoint(x: 10, y: 5), 1e-9))
    }

    @Test("a rounded rectangle leaves its corners out and keeps its sides")
    func roundedRect() {
        let path = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 50), cornerWidth: 20, cornerHeight: 20)
        #expect(!path.contains(CGPoint(x: 1, y: 1)) && path.contains(CGPoint(x: 10, y: 10)))
        #expect(path.contains(CGPoint(x: 50, y: 1)) && path.boundingBox == CGRect(x: 0, y: 0, width: 100, height: 50))
        let huge = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 10, height: 10), cornerWidth: 50, cornerHeight: 50)
        #expect(huge.contains(CGPoint(x: 5, y: 5)) && !huge.contains(CGPoint(x: 0.5, y: 0.5))) // clamped to a circle
    }

    @Test("applyWithBlock hands out each element's type and points")
    func applyWithBlock() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 2))
        path.addQuadCurve(to: CGPoint(x: 5, y: 6), control: CGPoint(x: 3, y: 4))
        path.addCurve(to: CGPoint(x: 9, y: 9), control1: CGPoint(x: 7, y: 7), control2: CGPoint(x: 8, y: 8))
        path.closeSubpath()
        var seen: [(CGPathElementType, [CGPoint])] = []
        path.applyWithBlock { element in
            let count = [1, 1, 2, 3, 0][Int(element.pointee.type.rawValue)]
            seen.append((element.pointee.type, (0..<count).map { element.pointee.points[$0] }))
        }
        #expect(seen.map(\.0) == [.moveToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath])
        #expect(seen[1].1 == [CGPoint(x: 3, y: 4), CGPoint(x: 5, y: 6)])
        #expect(seen[2].1.last == CGPoint(x: 9, y: 9))
    }

    @Test("addPath and copy(using:) transform every point")
    func transforms() {
        let square = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1))
        let path = CGMutablePath()
        path.addPath(square, transform: CGAffineTransform(scaleX: 10, y: 20))
        #expect(path.boundingBox == CGRect(x: 0, y: 0, width: 10, height: 20))
        var shift = CGAffineTransform(translationX: 5, y: 5)
        #expect(square.copy(using: &shift)?.boundingBox == CGRect(x: 5, y: 5, width: 1, height: 1))
    }
}

@Suite("CGPath blending")
struct CGPathBlendingTests {
    @Test("end points and a quadratic's control blend straight; paths whose elements differ do not")
    func blended() throws {
        let a = CGMutablePath(), b = CGMutablePath()
        a.move(to: CGPoint(x: 0, y: 0)); a.addLine(to: CGPoint(x: 10, y: 0))
        a.addQuadCurve(to: CGPoint(x: 10, y: 10), control: CGPoint(x: 12, y: 5)); a.closeSubpath()
        b.move(to: CGPoint(x: 4, y: 8)); b.addLine(to: CGPoint(x: 30, y: 4))
        b.addQuadCurve(to: CGPoint(x: 0, y: 30), control: CGPoint(x: 16, y: 1)); b.closeSubpath()
        let quarter = try #require(a.blended(to: b, fraction: 0.25))
        #expect(quarter.elements == [.move(CGPoint(x: 1, y: 2)), .line(CGPoint(x: 15, y: 1)),
                                     .quad(control: CGPoint(x: 13, y: 4), end: CGPoint(x: 7.5, y: 15)), .close])
        #expect(a.blended(to: b, fraction: 0)?.elements == a.elements)
        #expect(a.blended(to: b, fraction: 1)?.elements == b.elements)
        let curve = CGMutablePath()
        curve.move(to: .zero); curve.addCurve(to: CGPoint(x: 10, y: 0), control1: CGPoint(x: 3, y: 3), control2: CGPoint(x: 7, y: 3))
        curve.addLine(to: CGPoint(x: 10, y: 10)); curve.closeSubpath()
        let lines = CGMutablePath()
        lines.move(to: .zero); lines.addLine(to: CGPoint(x: 10, y: 0)); lines.addLine(to: CGPoint(x: 10, y: 10)); lines.closeSubpath()
        #expect(curve.blended(to: lines, fraction: 0.5) == nil, "a curve does not blend with a line")
        #expect(curve.blended(to: curve, fraction: 0) != nil && curve.blended(to: lines, fraction: 0) == nil,
                "nor at the ends of the blend")
        #expect(a.blended(to: CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)), fraction: 0.5) == nil, "nor paths of other lengths")
    }

    /// Apple documents that a path's "off-line" points "may be interpolated non-linearly", and its
    /// frames of lottie-ios's samples show how (docs/lottie.md, TypeFace J): a cubic's control
    /// point keeps to its end, its offset turned the smaller way round and its length blended.
    @Test("a cubic's control points keep to their ends, their offsets turned the smaller way and their lengths blended")
    func blendedHandles() throws {
        func curve(from start: CGPoint, out: CGPoint, in handle: CGPoint, to end: CGPoint) -> CGPath {
            let path = CGMutablePath()
            path.move(to: start)
            path.addCurve(to: end, control1: CGPoint(x: start.x + out.x, y: start.y + out.y),
                          control2: CGPoint(x: end.x + handle.x, y: end.y + handle.y))
            path.closeSubpath()
            return path
        }
        func handles(_ path: CGPath) throws -> (CGPoint, CGPoint, CGPoint, CGPoint) {
            guard case let .move(start) = path.elements[0], case let .cubic(c1, c2, end) = path.elements[1] else {
                throw CancellationError()
            }
            return (start, CGPoint(x: c1.x - start.x, y: c1.y - start.y), CGPoint(x: c2.x - end.x, y: c2.y - end.y), end)
        }
        func near(_ p: CGPoint, _ x: Double, _ y: Double) -> Bool { abs(p.x - x) < 1e-9 && abs(p.y - y) < 1e-9 }
        let r = 0.5.squareRoot()
        // A quarter turn at half way: the handle keeps its length 4 (a straight blend: 2.83).
        let quarter = try handles(try #require(curve(from: .zero, out: CGPoint(x: 4, y: 0), in: CGPoint(x: 0, y: 4), to: CGPoint(x: 10, y: 0))
            .blended(to: curve(from: CGPoint(x: 2, y: 2), out: CGPoint(x: 0, y: 4), in: CGPoint(x: -4, y: 0), to: CGPoint(x: 20, y: 0)),
                     fraction: 0.5)))
        #expect(near(quarter.0, 1, 1) && near(quarter.3, 15, 0), "end points blend straight")
        #expect(near(quarter.1, 4 * r, 4 * r), "the first control point's offset from the start, turned 45 degrees: \(quarter.1)")
        #expect(near(quarter.2, -4 * r, 4 * r), "the second's from the end, turned from 90 to 135 degrees: \(quarter.2)")
        // Across the negative x axis the smaller turn is 20 degrees through 180, not 340 through
        // 0; a length of 2 to 6 is 4 at half way, turned 45 degrees.
        let angle = Double.pi * 17 / 18
        let across = try handles(try #require(curve(from: .zero, out: CGPoint(x: 4 * cos(angle), y: 4 * sin(angle)),
                                                   in: CGPoint(x: 2, y: 0), to: CGPoint(x: 10, y: 0))
            .blended(to: curve(from: .zero, out: CGPoint(x: 4 * cos(-angle), y: 4 * sin(-angle)),
                               in: CGPoint(x: 0, y: 6), to: CGPoint(x: 10, y: 0)), fraction: 0.5)))
        #expect(near(across.1, -4, 0), "turned through 180 degrees: \(across.1)")
        #expect(near(across.2, 4 * r, 4 * r), "\(across.2)")
        // A zero offset has no direction to turn from: it blends straight.
        let zero = try handles(try #require(curve(from: .zero, out: .zero, in: CGPoint(x: 0, y: 4), to: CGPoint(x: 10, y: 0))
            .blended(to: curve(from: .zero, out: CGPoint(x: 4, y: 0), in: CGPoint(x: 0, y: 4), to: CGPoint(x: 10, y: 0)), fraction: 0.25)))
        #expect(near(zero.1, 1, 0) && near(zero.2, 0, 4))
    }

    @Test("a trim measures each element by its chord and a cut inside a curve by the curve's arc length, as Core Animation does")
    func trimMeasure() throws {
        // A quarter circle of radius 10 from (0, 0) to (10, 10) (chord 10 x sqrt 2), then a line
        // of 20 down to (10, 30): 34.14 in all. Half of it is 2.93 into the line (measuring the
        // arc's true length, 15.71, it would be 2.15 in); a fifth of it is 6.83, 48.3% of the
        // arc's length. Apple's frames of lottie-ios's check marks show this measure.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addArc(center: CGPoint(x: 0, y: 10), radius: 10, startAngle: -.pi / 2, endAngle: 0, clockwise: false)
        path.addLine(to: CGPoint(x: 10, y: 30))
        let chord = 10 * 2.0.squareRoot(), total = chord + 20
        let half = path.trimmed(from: 0.5, to: 1)
        guard case .move(let start) = half.elements.first else { Issue.record("no start: \(half.elements)"); return }
        #expect(abs(start.x - 10) < 1e-6 && abs(start.y - (10 + total / 2 - chord)) < 1e-6, "starts at \(start)")
        let fifth = path.trimmed(from: 0, to: 0.2)
        let end = try #require(fifth.elements.last?.points.last)
        let angle = -Double.pi / 2 + (total / 5 / chord) * .pi / 2
        #expect(abs(end.x - 10 * cos(angle)) < 0.01 && abs(end.y - (10 + 10 * sin(angle))) < 0.01, "ends at \(end), the arc at \(angle)")
    }
}
