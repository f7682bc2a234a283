// Zig-zag ("zz") and offset path ("op"): where the remade outlines run, read from the shape
// layers' paths (the pixels are in the modifiers document's goldens).
import Foundation
import LayerModel
import LottieImport
import OpenCoreGraphics
import Testing

@Suite("Lottie zig-zag and offset path")
struct LottiePathModifierTests {
    static let square = LottieRoundCornersTests.path([[0, 0], [100, 0], [100, 100], [0, 100]])
    static let fill = LottieRoundCornersTests.fill

    static func zigZag(size: Double, ridges: Double, smooth: Bool = false) -> String {
        #"{"ty": "zz", "s": {"a": 0, "k": \#(size)}, "r": {"a": 0, "k": \#(ridges)}, "pt": {"a": 0, "k": \#(smooth ? 2 : 1)}}"#
    }

    static func offset(_ amount: Double, join: Int, miterLimit: Double = 4) -> String {
        #"{"ty": "op", "a": {"a": 0, "k": \#(amount)}, "lj": \#(join), "ml": {"a": 0, "k": \#(miterLimit)}}"#
    }

    /// The end points of the path's elements (vertices), to a thousandth.
    static func vertices(_ shapes: String) throws -> [[Double]] {
        let path = try #require(try LottieRoundCornersTests.paths(shapes).first)
        return path.elements.compactMap(\.points.last).map { [LottieRoundCornersTests.thousandths(Double($0.x)), LottieRoundCornersTests.thousandths(Double($0.y))] }
    }

    static func box(_ shapes: String) throws -> CGRect {
        try #require(try LottieRoundCornersTests.paths(shapes).first).boundingBox
    }

    static func same(_ a: CGRect, _ b: CGRect) -> Bool {
        abs(a.minX - b.minX) < 1e-6 && abs(a.minY - b.minY) < 1e-6 && abs(a.maxX - b.maxX) < 1e-6 && abs(a.maxY - b.maxY) < 1e-6
    }

    @Test("a zig-zag pushes each corner and r ridges an edge s off the outline, alternately in and out")
    func zigZagCorners() throws {
        let points = try Self.vertices("[\(Self.square), \(Self.zigZag(size: 10, ridges: 1)), \(Self.fill)]")
        let d = LottieRoundCornersTests.thousandths(10 / 2.0.squareRoot())
        // The clockwise square's corners go in (along the diagonal), the edges' middles out.
        let expected: [[Double]] = [[d, d], [50, -10], [100 - d, d], [110, 50], [100 - d, 100 - d], [50, 110], [d, 100 - d], [-10, 50], [d, d]]
        #expect(Array(points.prefix(9)) == expected, "\(points)")
    }

    @Test("a smooth zig-zag gives each point handles along the outline; no ridges leaves the corners alone but pushed")
    func zigZagSmooth() throws {
        let path = try #require(try LottieRoundCornersTests.paths("[\(Self.square), \(Self.zigZag(size: 10, ridges: 1, smooth: true)), \(Self.fill)]").first)
        // The top edge's ridge at (50, -10) has handles 25 along the edge (half of a half edge).
        let cubics = path.elements.compactMap { element -> (CGPoint, CGPoint, CGPoint)? in
            if case let .cubic(c1, c2, end) = element { return (c1, c2, end) }
            return nil
        }
        let intoRidge = try #require(cubics.first { abs($0.2.x - 50) < 1e-9 && abs($0.2.y + 10) < 1e-9 })
        #expect(abs(intoRidge.1.x - 25) < 1e-9 && abs(intoRidge.1.y + 10) < 1e-9, "\(intoRidge)")
        let plain = try Self.vertices("[\(Self.square), \(Self.zigZag(size: 0, ridges: 0)), \(Self.fill)]")
        #expect(Array(plain.prefix(4)) == [[0, 0], [100, 0], [100, 100], [0, 100]], "\(plain)")
    }

    @Test("an offset moves a clockwise outline out by a (in when negative), joined by miters, arcs or bevels")
    func offsetSquare() throws {
        #expect(try Self.box("[\(Self.square), \(Self.offset(10, join: 1)), \(Self.fill)]") == CGRect(x: -10, y: -10, width: 120, height: 120))
        let miter = try Self.vertices("[\(Self.square), \(Self.offset(10, join: 1)), \(Self.fill)]")
        #expect(miter.contains([-10, -10]) && miter.contains([110, 110]), "\(miter)")
        // A miter limit under the corner's (the square root of 2) bevels instead.
        let bevel = try Self.vertices("[\(Self.square), \(Self.offset(10, join: 1, miterLimit: 1.2)), \(Self.fill)]")
        #expect(!bevel.contains([-10, -10]) && bevel.contains([0, -10]) && bevel.contains([-10, 0]), "\(bevel)")
        // Round joins: a quarter circle of radius 10 about each corner, its middle 10 from it.
        let round = try #require(try LottieRoundCornersTests.paths("[\(Self.square), \(Self.offset(10, join: 2)), \(Self.fill)]").first)
        #expect(round.boundingBox == CGRect(x: -10, y: -10, width: 120, height: 120))
        let arc = try #require(round.elements.compactMap { element -> (CGPoint, CGPoint, CGPoint)? in
            if case let .cubic(c1, c2, end) = element, abs(end.x - 110) < 1e-9, abs(end.y) < 1e-9 { return (c1, c2, end) }
            return nil
        }.first)
        let mid = CGPoint(x: 0.125 * 100 + 0.375 * arc.0.x + 0.375 * arc.1.x + 0.125 * 110, y: 0.125 * -10 + 0.375 * arc.0.y + 0.375 * arc.1.y + 0.125 * 0)
        #expect(abs(hypot(mid.x - 100, mid.y) - 10) < 0.01, "\(mid)")
        let inward = try Self.box("[\(Self.square), \(Self.offset(-10, join: 1)), \(Self.fill)]")
        #expect(Self.same(inward, CGRect(x: 10, y: 10, width: 80, height: 80)), "\(inward)")
    }

    @Test("an inward offset past a rounded corner's radius leaves a clean corner; an open line becomes the outline around it")
    func offsetInwardAndOpen() throws {
        let rounded = #"{"ty": "rc", "s": {"a": 0, "k": [34, 34]}, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 4}, "d": 1}"#
        let inward = try Self.box("[\(rounded), \(Self.offset(-8, join: 2)), \(Self.fill)]")
        #expect(abs(inward.minX + 9) < 1e-4 && abs(inward.maxX - 9) < 1e-4 && abs(inward.minY + 9) < 1e-4 && abs(inward.maxY - 9) < 1e-4, "\(inward)")
        let line = LottieRoundCornersTests.path([[0, 0], [100, 0]], closed: false)
        let around = try Self.box("[\(line), \(Self.offset(5, join: 3)), \(Self.fill)]")
        #expect(Self.same(around, CGRect(x: 0, y: -5, width: 100, height: 10)), "\(around)")
    }
}
