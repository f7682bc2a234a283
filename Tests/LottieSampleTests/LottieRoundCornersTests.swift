// Round corners ("rd"): which vertices a radius rounds and where the rounded outline runs, read
// from the shape layers' paths; and the rounded square drawn, its corners cut.
import Foundation
import LayerModel
import LottieImport
import OpenCoreGraphics
import Testing

@Suite("Lottie round corners")
struct LottieRoundCornersTests {
    /// The paths of the shape layers of a one-layer document holding `shapes`, at frame 0.
    static func paths(_ shapes: String) throws -> [CGPath] {
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 200, "h": 200, "layers": [
          {"ty": 4, "nm": "shapes", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {}, "shapes": \(shapes)}]}
        """
        let document = try LottieDocument(data: Data(json.utf8))
        #expect(!document.warnings.contains { $0.contains("not drawn") }, "\(document.warnings)")
        let root = try document.makeLayer()
        root.speed = 0
        var found: [CGPath] = []
        func walk(_ layer: CALayer) {
            if let shape = layer as? CAShapeLayer, let path = shape.path { found.append(path) }
            for sublayer in layer.sublayers ?? [] { walk(sublayer) }
        }
        walk(root.presentationTree(atMediaTime: CACurrentMediaTime()))
        return found
    }

    static func path(_ vertices: [[Double]], ins: [[Double]]? = nil, outs: [[Double]]? = nil, closed: Bool = true) -> String {
        let zero = Array(repeating: [0.0, 0.0], count: vertices.count)
        return #"{"ty": "sh", "ks": {"a": 0, "k": {"c": \#(closed), "v": \#(vertices), "i": \#(ins ?? zero), "o": \#(outs ?? zero)}}}"#
    }

    static let fill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "r": 1}"#
    static func round(_ radius: Double) -> String { #"{"ty": "rd", "r": {"a": 0, "k": \#(radius)}}"# }

    /// The points of a path's elements, rounded to a thousandth.
    static func points(_ path: CGPath) -> [[Double]] {
        path.elements.flatMap(\.points).map { (point: CGPoint) -> [Double] in [thousandths(Double(point.x)), thousandths(Double(point.y))] }
    }

    static func thousandths(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }

    @Test("a closed square's four corners are cut a radius along each edge, curves reaching 0.5519 back, from its second vertex on")
    func square() throws {
        let paths = try Self.paths("[\(Self.path([[0, 0], [100, 0], [100, 100], [0, 100]])), \(Self.round(10)), \(Self.fill)]")
        let path = try #require(paths.first)
        let h = 10 * 0.5519
        // Vertex 1 (100, 0) first: arriving along the top edge at (90, 0), leaving down at (100, 10).
        let a = 90 + h, b = 10 - h, c = 100 - b
        var expected: [[Double]] = [[90, 0]]
        expected += [[a, 0], [100, b], [100, 10]]
        expected += [[100, 10], [100, 90], [100, 90]]
        expected += [[100, a], [c, 100], [90, 100]]
        expected += [[90, 100], [10, 100], [10, 100]]
        expected += [[b, 100], [0, c], [0, 90]]
        expected += [[0, 90], [0, 10], [0, 10]]
        expected += [[0, b], [b, 0], [10, 0]]
        expected += [[10, 0], [90, 0], [90, 0]]
        expected = expected.map { $0.map(Self.thousandths) }
        #expect(Self.points(path) == expected, "\(Self.points(path))")
    }

    @Test("an open path keeps its ends, a vertex with handles stays, and a radius past half an edge stops there")
    func openAndCurved() throws {
        // (0, 0) -> (40, 0) -> (40, 100) -> (100, 100) open; the third vertex has handles.
        let paths = try Self.paths("[\(Self.path([[0, 0], [40, 0], [40, 100], [100, 100]], ins: [[0, 0], [0, 0], [0, -20], [0, 0]], outs: [[0, 0], [0, 0], [20, 0], [0, 0]], closed: false)), \(Self.round(30)), \(Self.fill)]")
        let points = Self.points(try #require(paths.first))
        // The open path starts where it did; the corner at (40, 0) is cut 20 along the top (half
        // its 40) and 30 down the side; (40, 100) keeps its handles; the end stays at (100, 100).
        #expect(points.first == [0, 0])
        #expect(points.contains([20, 0]) && points.contains([40, 30]) && !points.contains([40, 0]))
        #expect(points.contains([40, 100]) && points.last == [100, 100])
    }

    @Test("a rectangle takes the radius as its roundness; an ellipse is left as it is")
    func rectangleAndEllipse() throws {
        let rect = #"{"ty": "rc", "s": {"a": 0, "k": [100, 60]}, "p": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}}"#
        let roundedRect = #"{"ty": "rc", "s": {"a": 0, "k": [100, 60]}, "p": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 12}}"#
        let ellipse = #"{"ty": "el", "s": {"a": 0, "k": [80, 40]}, "p": {"a": 0, "k": [100, 100]}}"#
        let rounded = try Self.paths("[\(rect), \(Self.round(12)), \(Self.fill)]")
        let plain = try Self.paths("[\(roundedRect), \(Self.fill)]")
        #expect(rounded.first.map(Self.points) == plain.first.map(Self.points))
        #expect(try Self.paths("[\(ellipse), \(Self.round(12)), \(Self.fill)]").first.map(Self.points)
                == (try Self.paths("[\(ellipse), \(Self.fill)]")).first.map(Self.points))
    }

    @Test("round corners reach the groups inside their group, and a group's own round corners win")
    func nested() throws {
        let inner = #"{"ty": "gr", "it": [\#(Self.path([[0, 0], [100, 0], [100, 100], [0, 100]])), \#(Self.fill), {"ty": "tr"}]}"#
        let innerOwn = #"{"ty": "gr", "it": [\#(Self.path([[0, 0], [100, 0], [100, 100], [0, 100]])), \#(Self.round(5)), \#(Self.fill), {"ty": "tr"}]}"#
        let inherited = try Self.paths("[\(inner), \(Self.round(20))]").first.map(Self.points)
        let own = try Self.paths("[\(innerOwn), \(Self.round(20))]").first.map(Self.points)
        #expect(inherited?.first == [80, 0], "\(inherited ?? [])")
        #expect(own?.first == [95, 0], "\(own ?? [])")
    }

    @Test("an animated radius is worked out at each frame")
    func animatedRadius() throws {
        let radius = #"{"ty": "rd", "r": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 10, "s": [20]}]}}"#
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 200, "h": 200, "layers": [
          {"ty": 4, "nm": "shapes", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {}, "shapes": [\(Self.path([[0, 0], [100, 0], [100, 100], [0, 100]])), \(radius), \(Self.fill)]}]}
        """
        let root = try LottieDocument(data: Data(json.utf8)).makeLayer()
        root.speed = 0
        root.timeOffset = 0.5
        var first: [Double]?
        func walk(_ layer: CALayer) {
            if let shape = layer as? CAShapeLayer, let path = shape.path { first = Self.points(path).first }
            for sublayer in layer.sublayers ?? [] { walk(sublayer) }
        }
        walk(root.presentationTree(atMediaTime: CACurrentMediaTime()))
        #expect(first == [90, 0], "\(first ?? [])")
    }
}
