// SVG path data into CGPath: every command, absolute and relative, arcs, and mistakes located.
import Foundation
import OpenQuartzCore
import SceneFormat
import Testing

@Suite("SVG path data")
struct SVGPathDataTests {
    @Test("lines, curves and their relative and shorthand forms")
    func commands() throws {
        let path = try SVGPathData.parse("M10,10 h 20 v10 L0 0 l5-5 C 1 2 3 4 5 6 s 1 1 2 2 Q 0 0 1 1 t 1 1 z m 1 1 2 2")
        #expect(path.elements == [
            .move(CGPoint(x: 10, y: 10)), .line(CGPoint(x: 30, y: 10)), .line(CGPoint(x: 30, y: 20)), .line(CGPoint(x: 0, y: 0)),
            .line(CGPoint(x: 5, y: -5)),
            .cubic(control1: CGPoint(x: 1, y: 2), control2: CGPoint(x: 3, y: 4), end: CGPoint(x: 5, y: 6)),
            // S reflects the last control point (3, 4) about (5, 6).
            .cubic(control1: CGPoint(x: 7, y: 8), control2: CGPoint(x: 6, y: 7), end: CGPoint(x: 7, y: 8)),
            .quad(control: CGPoint(x: 0, y: 0), end: CGPoint(x: 1, y: 1)),
            // T reflects (0, 0) about (1, 1).
            .quad(control: CGPoint(x: 2, y: 2), end: CGPoint(x: 2, y: 2)),
            .close,
            // After Z the current point is the subpath's start (10, 10); pairs after m are lines.
            .move(CGPoint(x: 11, y: 11)), .line(CGPoint(x: 13, y: 13)),
        ])
    }

    @Test("an arc ends where it says and bulges to the side its flags choose")
    func arcs() throws {
        // A half circle of radius 10 from (0, 0) to (20, 0). Sweep 1 is the positive-angle
        // direction, clockwise on a y-down screen: from 9 o'clock over 12, through y < 0.
        let up = try SVGPathData.parse("M0 0 A10 10 0 0 1 20 0")
        let down = try SVGPathData.parse("M0 0 a10 10 0 0 0 20 0")
        #expect(abs(down.currentPoint.x - 20) < 1e-9 && abs(down.currentPoint.y) < 1e-9)
        #expect(abs(down.boundingBoxOfPath.maxY - 10) < 1e-3 && abs(down.boundingBoxOfPath.minY) < 1e-3)
        #expect(abs(up.boundingBoxOfPath.minY + 10) < 1e-3)
        // Radii too small to reach are scaled up (SVG's rule): still a half circle of radius 10.
        let small = try SVGPathData.parse("M0 0 A1 1 0 0 0 20 0")
        #expect(abs(small.boundingBoxOfPath.maxY - 10) < 1e-3)
        // Flags may run into the numbers after them.
        let packed = try SVGPathData.parse("M0 0a10 10 0 0120 0")
        #expect(abs(packed.currentPoint.x - 20) < 1e-9)
    }

    @Test("mistakes say which character", arguments: [
        ("L 1 1", 0, "start with M"), ("M 0 0 L 1", 9, "expected a number"), ("M 0 0 X 1 1", 6, "unknown path command"),
        ("M 0 0 A 1 1 0 2 1 5 5", 14, "arc flag"), ("5 5", 0, "start with a command"), ("M 0 0 Z 1 1", 8, "after Z"),
        ("M 1e999 0", 2, "out of range"),
    ] as [(String, Int, String)])
    func mistakes(text: String, offset: Int, words: String) {
        do {
            _ = try SVGPathData.parse(text)
            Issue.record("\(text) should not parse")
        } catch {
            #expect(error.offset == offset && error.message.contains(words), "\(text): \(error)")
        }
    }

    @Test("fuzz: 20,000 random path strings parse or fail with a located error, never crash")
    func fuzz() {
        var rng = SplitMix(seed: 11)
        let alphabet = Array("MmLlHhVvCcSsQqTtAaZz0123456789.-+eE ,")
        for _ in 0..<20_000 {
            let length = Int(rng.next() % 40)
            let text = String((0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
            do {
                let path = try SVGPathData.parse(text)
                #expect(path.elements.allSatisfy { $0.points.allSatisfy { $0.x.isFinite && $0.y.isFinite } }, "\(text)")
            } catch {
                #expect(error.offset >= 0 && error.offset <= text.utf8.count)
            }
        }
    }
}
