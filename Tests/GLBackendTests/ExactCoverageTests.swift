// Anti-aliasing exact by area: a polygon's coverage of a pixel is the area of the pixel's square
// inside it, on both backends, whatever crosses the pixel (two sides of a line thinner than a
// pixel, a corner, a polygon smaller than the pixel). The expected areas are computed here by
// another method than the backends' (clipping the square by each side, then the shoelace sum),
// and checked against coarse supersampling.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Exact coverage by area")
struct ExactCoverageTests {
    /// The area of the unit pixel square at (px, py) inside the convex polygon `points`.
    static func clippedArea(_ points: [DevicePoint], px: Int, py: Int) -> Double {
        var poly = [(Double(px), Double(py)), (Double(px + 1), Double(py)), (Double(px + 1), Double(py + 1)), (Double(px), Double(py + 1))]
        // Orientation of the polygon: clip to the inside of each side.
        var signed = 0.0
        for i in points.indices {
            let p = points[i], q = points[(i + 1) % points.count]
            signed += p.x * q.y - q.x * p.y
        }
        let sign = signed >= 0 ? 1.0 : -1.0
        for i in points.indices {
            let p = points[i], q = points[(i + 1) % points.count]
            func side(_ v: (Double, Double)) -> Double { sign * ((q.x - p.x) * (v.1 - p.y) - (q.y - p.y) * (v.0 - p.x)) }
            var next: [(Double, Double)] = []
            for j in poly.indices {
                let a = poly[j], b = poly[(j + 1) % poly.count]
                let sa = side(a), sb = side(b)
                if sa >= 0 { next.append(a) }
                if (sa >= 0) != (sb >= 0) {
                    let t = sa / (sa - sb)
                    next.append((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t))
                }
            }
            poly = next
            if poly.count < 3 { return 0 }
        }
        var area = 0.0
        for j in poly.indices {
            let a = poly[j], b = poly[(j + 1) % poly.count]
            area += a.0 * b.1 - b.0 * a.1
        }
        return abs(area) / 2
    }

    /// A line `width` pixels wide and 20 long through (cx, cy) at `angle`, as a quad.
    static func line(width: Double, angle: Double, cx: Double, cy: Double) -> [DevicePoint] {
        let (c, s) = (cos(angle), sin(angle))
        return [(-10.0, -width / 2), (10.0, -width / 2), (10.0, width / 2), (-10.0, width / 2)].map { x, y in
            DevicePoint(x: cx + x * c - y * s, y: cy + x * s + y * c)
        }
    }

    static let widths = [0.05, 0.1, 0.25, 0.5, 1, 2]
    static let angles = [0.0, 7, 30, 45, 60, 90].map { $0 * Double.pi / 180 }
    static let offsets = [0.0, 0.25, 0.5, 0.73]

    @Test("the reference areas agree with supersampling, 64 x 64 samples a pixel, within 1/64")
    func referenceIsSound() {
        let points = ExactCoverageTests.line(width: 0.25, angle: 0.5, cx: 10.37, cy: 10.5)
        for (px, py) in [(10, 10), (9, 10), (5, 7), (14, 13), (10, 11)] {
            var inside = 0
            for j in 0..<64 {
                for i in 0..<64 {
                    let x = Double(px) + (Double(i) + 0.5) / 64, y = Double(py) + (Double(j) + 0.5) / 64
                    var all = true
                    for k in points.indices {
                        let p = points[k], q = points[(k + 1) % points.count]
                        if (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x) < 0 { all = false }
                    }
                    if all { inside += 1 }
                }
            }
            let sampled: Double = Double(inside) / 4096
            let exact: Double = ExactCoverageTests.clippedArea(points, px: px, py: py)
            #expect(abs(sampled - exact) < 1.0 / 64, "pixel \(px), \(py)")
        }
    }

    @Test("the CPU's coverage of lines 0.05 to 2 pixels wide, at every angle and sub-pixel offset, is their exact area")
    func cpuLines() throws {
        var worst = 0.0
        for width in ExactCoverageTests.widths {
            for angle in ExactCoverageTests.angles {
                for offset in ExactCoverageTests.offsets {
                    let points = ExactCoverageTests.line(width: width, angle: angle, cx: 16 + offset, cy: 16 + offset / 2)
                    let polygon = try #require(CoveragePolygon(vertices: points, targetWidth: 32, targetHeight: 32))
                    for py in 0..<32 {
                        for px in 0..<32 {
                            let exact = ExactCoverageTests.clippedArea(points, px: px, py: py)
                            worst = max(worst, abs(polygon.coverage(atX: Double(px) + 0.5, y: Double(py) + 0.5) - exact))
                        }
                    }
                }
            }
        }
        #expect(worst < 1e-6, "worst difference \(worst)")
    }

    @Test("a 0.1-pixel line centred in a pixel covers a tenth of it, and a quarter-pixel line a quarter, on both backends")
    func thinLinesAtTheirWeight() throws {
        for (width, expected) in [(0.1, 0.1), (0.25, 0.25), (0.5, 0.5)] {
            let points = [DevicePoint(x: 2, y: 4.5 - width / 2), DevicePoint(x: 14, y: 4.5 - width / 2),
                          DevicePoint(x: 14, y: 4.5 + width / 2), DevicePoint(x: 2, y: 4.5 + width / 2)]
            let polygon = try #require(CoveragePolygon(vertices: points, targetWidth: 16, targetHeight: 8))
            #expect(abs(polygon.coverage(atX: 8.5, y: 4.5) - expected) < 1e-9)
            let list = RenderList.singlePass(16, 8, [.quad(QuadOp(source: "line", localRect: Rect(x: 0, y: 0, width: 1, height: 1),
                                                                   localToDevice: .identity, polygon: polygon,
                                                                   fill: .solid(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1)),
                                                                   opacity: 1))])
            for image in [RasterRenderer().render(list), try GLDevice.shared().render(list)] {
                let alpha: Int = Int(image.pixels[(4 * 16 + 8) * 4 + 3])
                let wanted: Int = Int((expected * 255).rounded())
                #expect(abs(alpha - wanted) <= 1, "width \(width)")
            }
        }
    }

    @Test("the GPU's coverage of thin lines at every angle and offset is their exact area, within 1/255", arguments: ExactCoverageTests.widths)
    func gpuLines(width: Double) throws {
        let device = try GLDevice.shared()
        var worst = 0.0
        for angle in ExactCoverageTests.angles {
            // Four lines, one per offset, side by side in one frame, opaque white on transparent:
            // the alpha byte is the coverage.
            var ops: [DrawOp] = [], lines: [[DevicePoint]] = []
            for (i, offset) in ExactCoverageTests.offsets.enumerated() {
                let points = ExactCoverageTests.line(width: width, angle: angle, cx: 16 + Double(i) * 32 + offset, cy: 16 + offset / 2)
                lines.append(points)
                let polygon = try #require(CoveragePolygon(vertices: points, targetWidth: 128, targetHeight: 32))
                ops.append(.quad(QuadOp(source: "line", localRect: Rect(x: 0, y: 0, width: 1, height: 1), localToDevice: .identity,
                                        polygon: polygon, fill: .solid(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1)), opacity: 1)))
            }
            let image = try device.render(RenderList.singlePass(128, 32, ops))
            for py in 0..<32 {
                for px in 0..<128 {
                    let exact = ExactCoverageTests.clippedArea(lines[px / 32], px: px, py: py)
                    worst = max(worst, abs(Double(image.pixels[(py * 128 + px) * 4 + 3]) / 255 - exact))
                }
            }
        }
        // 1/255 of rounding the result to a byte, and float arithmetic.
        #expect(worst <= 1.0 / 255 + 1e-3, "worst difference \(worst * 255)/255")
    }

    @Test("triangles smaller than a pixel and corners inside one: the exact area on both backends")
    func smallTriangles() throws {
        let device = try GLDevice.shared()
        for (i, scale) in [0.3, 0.8, 1.5, 3.7].enumerated() {
            let points = [DevicePoint(x: 4.2, y: 4.1), DevicePoint(x: 4.2 + scale, y: 4.1 + scale * 0.3),
                          DevicePoint(x: 4.2 + scale * 0.4, y: 4.1 + scale)]
            let polygon = try #require(CoveragePolygon(vertices: points, targetWidth: 12, targetHeight: 12))
            let list = RenderList.singlePass(12, 12, [.quad(QuadOp(source: DrawSource(layer: nil, part: "triangle \(i)"), localRect: Rect(x: 0, y: 0, width: 1, height: 1),
                                                                  localToDevice: .identity, polygon: polygon,
                                                                  fill: .solid(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1)),
                                                                  opacity: 1))])
            let images = [RasterRenderer().render(list), try device.render(list)]
            for py in 0..<12 {
                for px in 0..<12 {
                    let exact: Double = ExactCoverageTests.clippedArea(points, px: px, py: py)
                    let computed: Double = polygon.coverage(atX: Double(px) + 0.5, y: Double(py) + 0.5)
                    #expect(abs(computed - exact) < 1e-9)
                    for image in images {
                        let drawn: Double = Double(image.pixels[(py * 12 + px) * 4 + 3]) / 255
                        #expect(abs(drawn - exact) <= 1.0 / 255 + 1e-3, "triangle \(i) pixel \(px), \(py)")
                    }
                }
            }
        }
    }
}

@Suite("Borders by area")
struct BorderAreaTests {
    /// A 40 x 30 layer at x = left (sub-pixel), rounded so its border is a ring, on a transparent frame.
    static func frame(left: Double, background: CGColor?, border: CGColor, width: Double) throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let card = CALayer()
        card.frame = CGRect(x: left, y: 8, width: 40, height: 30)
        card.cornerRadius = 6
        card.backgroundColor = background
        card.borderColor = border
        card.borderWidth = width
        root.addSublayer(card)
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    }

    @Test("an opaque border's outer edge shows none of the fill beneath it, on both backends")
    func noBleedThroughTheBorder() throws {
        // The left edge at x = 10.5: pixel 10 is half inside; the border covers that half wholly.
        let list = try BorderAreaTests.frame(left: 10.5, background: CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                                             border: CGColor(red: 0, green: 0, blue: 1, alpha: 1), width: 3)
        for image in [RasterRenderer().render(list), try GLDevice.shared().render(list)] {
            let i = (23 * 64 + 10) * 4
            #expect(image.pixels[i] <= 1, "red bled through: \(image.pixels[i])")
            #expect(abs(Int(image.pixels[i + 2]) - 128) <= 1 && abs(Int(image.pixels[i + 3]) - 128) <= 1)
        }
    }

    /// A rounded card with a 3-pixel border inside a turned container that clips it across one
    /// side: the card's polygon carries the container's turned edges, so no batch takes the pair
    /// and the general programs draw it (PAIRED on the GPU).
    static func clippedCard(fill: CGColor) throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 72, height: 72)
        let container = CALayer()
        container.frame = CGRect(x: 10, y: 14, width: 44, height: 48)
        container.masksToBounds = true
        container.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        let card = CALayer()
        card.frame = CGRect(x: 6.4, y: 8.2, width: 48, height: 30)
        card.cornerRadius = 7
        card.backgroundColor = fill
        card.borderColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        card.borderWidth = 3
        card.transform = CATransform3DMakeRotation(-0.5, 0, 0, 1)
        container.addSublayer(card)
        root.addSublayer(container)
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    }

    @Test("an opaque border cut by a turned clip shows none of its fill at its outer edge, on both backends")
    func noBleedUnderTurnedClip() throws {
        // The same card with a red fill and with a fill of the border's blue: at the pixels the
        // card's outer outline crosses, away from the clip's edges (where the fill shows, cut),
        // only the border shows, so the two are alike there; drawn apart, the fill bled through.
        let red = try BorderAreaTests.clippedCard(fill: CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        let blue = try BorderAreaTests.clippedCard(fill: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        let paths = red.passes.last?.ops.compactMap { op -> QuadOp? in if case .quad(let q) = op { q } else { nil } } ?? []
        #expect(paths.contains { !$0.polygon.isRectangle }, "the card's polygon carries the clip's turned edges")
        // The container's edges on the screen: its frame turned 0.3 about its centre.
        let (cx, cy, c, s) = (32.0, 38.0, cos(0.3), sin(0.3))
        let corners = [(-22.0, -24.0), (22, -24), (22, 24), (-22, 24)].map { (cx + $0.0 * c - $0.1 * s, cy + $0.0 * s + $0.1 * c) }
        func nearClip(_ x: Double, _ y: Double) -> Bool {
            (0..<4).contains { i in
                let (ax, ay) = corners[i], (bx, by) = corners[(i + 1) % 4]
                let length = ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
                return abs((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / length < 2
            }
        }
        let device = try GLDevice.shared()
        for (backend, a, b) in [("CPU", RasterRenderer().render(red), RasterRenderer().render(blue)),
                                ("GPU", try device.render(red), try device.render(blue))] {
            var edge = 0, worst = 0
            for y in 0..<72 {
                for x in 0..<72 where !nearClip(Double(x) + 0.5, Double(y) + 0.5) {
                    let i = (y * 72 + x) * 4
                    guard a.pixels[i + 3] > 0, a.pixels[i + 3] < 255 else { continue }
                    edge += 1
                    worst = max(worst, abs(Int(a.pixels[i]) - Int(b.pixels[i])))
                }
            }
            #expect(edge > 40, "\(backend): \(edge) edge pixels")
            #expect(worst <= 1, "\(backend): the fill shows \(worst)/255 through the border's outer edge")
        }
    }

    @Test("a border thinner than a pixel covers the area between its outlines, on both backends")
    func thinBorderAtItsArea() throws {
        // Outer edge at x = 10.25, inner at 10.75: pixel 10 is half border.
        let list = try BorderAreaTests.frame(left: 10.25, background: nil, border: CGColor(red: 0, green: 0, blue: 1, alpha: 1), width: 0.5)
        for image in [RasterRenderer().render(list), try GLDevice.shared().render(list)] {
            let alpha = Int(image.pixels[(23 * 64 + 10) * 4 + 3])
            #expect(abs(alpha - 128) <= 1, "alpha \(alpha), the area between the outlines is 128")
        }
    }
}

@Suite("Rounded clips anti-aliased once")
struct RoundedClipEdgeTests {
    /// A turned card with rounded corners on a transparent frame: with `clipping`, masksToBounds
    /// and a small sublayer across its edge (so it is drawn in a group pass and composited with
    /// its rounded outline), else alone.
    static func card(clipping: Bool, border: Bool, perspective: Bool = false) throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 96, height: 96)
        let card = CALayer()
        card.frame = CGRect(x: 18.3, y: 20.6, width: 60, height: 50)
        card.cornerRadius = 12
        card.backgroundColor = CGColor(red: 0.1, green: 0.3, blue: 0.8, alpha: 1)
        card.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        if perspective {
            var eye = CATransform3DIdentity
            eye.m34 = -1.0 / 150
            card.transform = CATransform3DConcat(CATransform3DMakeRotation(0.7, 0.3, 1, 0), eye)
        }
        if border {
            card.borderWidth = 3
            card.borderColor = CGColor(red: 0.9, green: 0.6, blue: 0.1, alpha: 1)
        }
        if clipping {
            card.masksToBounds = true
            let inner = CALayer()
            // Across the left edge, so the clip cuts it and the card takes its group pass.
            inner.frame = CGRect(x: -6, y: 20, width: 14, height: 10)
            inner.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            card.addSublayer(inner)
        }
        root.addSublayer(card)
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    }

    @Test("a clipping card's background and border edges match the same card's without the clip, on both backends, turned and in perspective",
          arguments: [false, true], [false, true])
    func edgesOnce(border: Bool, perspective: Bool) throws {
        let clipped = try RoundedClipEdgeTests.card(clipping: true, border: border, perspective: perspective)
        let plain = try RoundedClipEdgeTests.card(clipping: false, border: border, perspective: perspective)
        #expect(clipped.passes.count > 1, "the clipping card is drawn in a group pass")
        let device = try GLDevice.shared()
        for (a, b) in [(RasterRenderer().render(clipped), RasterRenderer().render(plain)), (try device.render(clipped), try device.render(plain))] {
            // Compare alpha (the edges' coverage) away from the sublayer.
            var worst = 0, edgePixels = 0
            for i in stride(from: 3, to: a.pixels.count, by: 4) where a.pixels[i] != 0 && a.pixels[i] != 255 || b.pixels[i] != 0 && b.pixels[i] != 255 {
                edgePixels += 1
                worst = max(worst, abs(Int(a.pixels[i]) - Int(b.pixels[i])))
            }
            #expect(edgePixels > 100)
            #expect(worst <= 2, "edge coverage apart by \(worst)/255 over \(edgePixels) edge pixels")
        }
    }
}
