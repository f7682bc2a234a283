// Filled paths (PathOp) on both backends: the GPU sums each edge's exact share of the pixels
// left of it into a float target and folds the sum by the fill rule; the CPU reference runs
// OpenCoreGraphics' CoverageRasterizer over the same contours. Held against each other and
// against the area inside the path found here by supersampling the winding number.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Filled paths on both backends")
struct PathFillTests {
    /// A five-pointed star (its inner pentagon wound twice) and two overlapping circles.
    static func contours(star centre: (Double, Double), radius: Double, turn: Double) -> [[DevicePoint]] {
        [(0..<5).map { i in
            let a = turn + Double(i * 2) * 2 * Double.pi / 5
            return DevicePoint(x: centre.0 + radius * cos(a), y: centre.1 + radius * sin(a))
        }]
    }

    static func circle(_ cx: Double, _ cy: Double, _ r: Double, segments: Int = 96) -> [DevicePoint] {
        (0..<segments).map { i in
            let a = Double(i) * 2 * Double.pi / Double(segments)
            return DevicePoint(x: cx + r * cos(a), y: cy + r * sin(a))
        }
    }

    /// The winding number of (x, y) about the contours.
    static func winding(_ x: Double, _ y: Double, _ contours: [[DevicePoint]]) -> Int {
        var w = 0
        for contour in contours {
            for i in contour.indices {
                let p = contour[i], q = contour[(i + 1) % contour.count]
                if p.y <= y, q.y > y, (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x) > 0 { w += 1 }
                if q.y <= y, p.y > y, (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x) < 0 { w -= 1 }
            }
        }
        return w
    }

    /// The distance from a point to an edge (a segment).
    static func distance(from point: (Double, Double), to edge: (DevicePoint, DevicePoint)) -> Double {
        let (p, q) = edge
        let dx = q.x - p.x, dy = q.y - p.y
        let length = dx * dx + dy * dy
        let t = length == 0 ? 0 : min(max(((point.0 - p.x) * dx + (point.1 - p.y) * dy) / length, 0), 1)
        let x = p.x + t * dx - point.0, y = p.y + t * dy - point.1
        return (x * x + y * y).squareRoot()
    }

    /// Pixels where two edges cross (other than at a shared vertex), and those around them, which
    /// both edges pass through: there the fold of the pixel's winding-weighted area may differ
    /// from the area of what is inside.
    static func crossingPixels(_ contours: [[DevicePoint]]) -> Set<Int> {
        let edges = contours.flatMap { c in c.indices.map { (c[$0], c[($0 + 1) % c.count]) } }
        var pixels: Set<Int> = []
        for i in edges.indices {
            for j in edges.indices where j > i {
                let (p, q) = edges[i], (r, s) = edges[j]
                let d = (q.x - p.x) * (s.y - r.y) - (q.y - p.y) * (s.x - r.x)
                guard d != 0 else { continue }
                let t = ((r.x - p.x) * (s.y - r.y) - (r.y - p.y) * (s.x - r.x)) / d
                let u = ((r.x - p.x) * (q.y - p.y) - (r.y - p.y) * (q.x - p.x)) / d
                guard t > 1e-9, t < 1 - 1e-9, u > 1e-9, u < 1 - 1e-9 else { continue }
                let x = p.x + t * (q.x - p.x), y = p.y + t * (q.y - p.y)
                // Both edges pass through the pixels around the crossing too.
                for dy in -1...1 {
                    for dx in -1...1 { pixels.insert((Int(y.rounded(.down)) + dy) * 1000 + Int(x.rounded(.down)) + dx) }
                }
            }
        }
        return pixels
    }

    static func list(_ contours: [[DevicePoint]], evenOdd: Bool, size: Int) throws -> RenderList {
        let op = try #require(PathOp(source: "test path", contours: contours, evenOdd: evenOdd,
                                     color: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1), opacity: 1,
                                     targetWidth: size, targetHeight: size))
        return RenderList(width: size, height: size, passes: [RenderPass(id: 0, width: size, height: size, ops: [.path(op)])], textures: [:], diagnostics: [])
    }

    static let shapes: [(name: String, contours: [[DevicePoint]], evenOdd: Bool)] = [
        ("star, non-zero", contours(star: (32.3, 31.7), radius: 26.2, turn: 0.3), false),
        ("star, even-odd", contours(star: (32.3, 31.7), radius: 26.2, turn: 0.3), true),
        ("two circles, even-odd", [circle(24.4, 30.2, 16.3), circle(38.1, 33.6, 15.2)], true),
        ("two circles, non-zero", [circle(24.4, 30.2, 16.3), circle(38.1, 33.6, 15.2)], false),
        ("a sliver 0.3 px wide", [[DevicePoint(x: 5, y: 10.2), DevicePoint(x: 60, y: 30.1), DevicePoint(x: 60, y: 30.4)]], false),
    ]

    /// A device whose paths take a GPU's route (each edge summed into the float target), which
    /// a driver that rasterizes on the CPU does not take by itself (`GLPathFill.Route.preferred`).
    static let gpuSums: GLDevice? = {
        let device = try? GLDevice()
        device?.sumPathsOnGPU()
        return device
    }()

    @Test("both backends cover each pixel by the area inside the path, within the fold's bound",
          arguments: 0..<5, [false, true])
    func exactArea(shape index: Int, summedOnGPU: Bool) throws {
        let shape = PathFillTests.shapes[index]
        let size = 64
        let list = try PathFillTests.list(shape.contours, evenOdd: shape.evenOdd, size: size)
        let cpu = RasterRenderer().render(list)
        let gpu = try (summedOnGPU ? #require(PathFillTests.gpuSums) : GLDevice.shared()).render(list)
        let n = 32
        let crossings = PathFillTests.crossingPixels(shape.contours)
        let edges = shape.contours.flatMap { c in c.indices.map { (c[$0], c[($0 + 1) % c.count]) } }
        var worstCPU = 0.0, worstGPU = 0.0, apart = 0
        for py in 0..<size {
            for px in 0..<size {
                // A pixel no edge passes through is wholly inside or outside: its centre's winding
                // says which (and is what all its samples would say). Only the pixels an edge comes
                // within a half-diagonal of are sampled (the loop took 86 s in a debug build).
                let centre = (Double(px) + 0.5, Double(py) + 0.5)
                if !edges.contains(where: { PathFillTests.distance(from: centre, to: $0) <= 0.75 }) {
                    let w = PathFillTests.winding(centre.0, centre.1, shape.contours)
                    let exact: Double = (shape.evenOdd ? w % 2 != 0 : w != 0) ? 1 : 0
                    let k = (py * size + px) * 4 + 3
                    apart = max(apart, abs(Int(cpu.pixels[k]) - Int(gpu.pixels[k])))
                    worstCPU = max(worstCPU, abs(Double(cpu.pixels[k]) / 255 - exact))
                    worstGPU = max(worstGPU, abs(Double(gpu.pixels[k]) / 255 - exact))
                    continue
                }
                var inside = 0
                for j in 0..<n {
                    for i in 0..<n {
                        let w = PathFillTests.winding(Double(px) + (Double(i) + 0.5) / Double(n), Double(py) + (Double(j) + 0.5) / Double(n),
                                                      shape.contours)
                        if shape.evenOdd ? w % 2 != 0 : w != 0 { inside += 1 }
                    }
                }
                let exact = Double(inside) / Double(n * n)
                let k = (py * size + px) * 4 + 3
                apart = max(apart, abs(Int(cpu.pixels[k]) - Int(gpu.pixels[k])))
                guard !crossings.contains(py * 1000 + px) else { continue }
                worstCPU = max(worstCPU, abs(Double(cpu.pixels[k]) / 255 - exact))
                worstGPU = max(worstGPU, abs(Double(gpu.pixels[k]) / 255 - exact))
            }
        }
        // The fold takes the winding-weighted area of a pixel, so a pixel where two edges cross
        // (the star's points, the circles' outlines) can differ from the area inside by the
        // overlap there; elsewhere the area is exact, up to the sampling's 1/32 and 8-bit rounding.
        #expect(apart <= 1, "\(shape.name): the backends are \(apart)/255 apart")
        #expect(worstCPU < 1.0 / 32 + 1.0 / 255 && worstGPU < 1.0 / 32 + 1.0 / 255,
                "\(shape.name): CPU \(worstCPU), GPU \(worstGPU) from the area")
    }

    @Test("where a driver cannot blend float targets the sums are made on the CPU and uploaded: the same pixels")
    func cpuSummedRoute() throws {
        let device = try GLDevice()
        device.sumPathsOnCPU()
        let shared = try #require(PathFillTests.gpuSums)
        for shape in PathFillTests.shapes {
            let list = try PathFillTests.list(shape.contours, evenOdd: shape.evenOdd, size: 64)
            let uploaded = try device.render(list), summed = try shared.render(list), cpu = RasterRenderer().render(list)
            var apart = 0, fromCPU = 0
            for i in stride(from: 3, to: cpu.pixels.count, by: 4) {
                apart = max(apart, abs(Int(uploaded.pixels[i]) - Int(summed.pixels[i])))
                fromCPU = max(fromCPU, abs(Int(uploaded.pixels[i]) - Int(cpu.pixels[i])))
            }
            #expect(apart <= 1 && fromCPU == 0, "\(shape.name): \(apart)/255 from the GPU's sums, \(fromCPU)/255 from the CPU")
        }
        #expect(device.pathStatistics.paths == PathFillTests.shapes.count && device.pathStatistics.edges == 0,
                "no edge was summed on the GPU: \(device.pathStatistics)")
    }
}

extension PathFillTests {
    /// Six overlapping paths of different sizes and colours, grown by `scale` about the frame's
    /// centre: each read from its own uploaded sums, a mix-up shows in its colour or outline.
    /// Every third path (from `strokeShift`) is stroked too: a fill and a stroke go up as two
    /// channels, a fill alone as one, so shifting it moves a frame's textures between the two.
    static func overlapping(scale: Double, size: Int, strokeShift: Int = 0) throws -> RenderList {
        let colours: [(Double, Double, Double)] = [(0.9, 0.1, 0.1), (0.1, 0.7, 0.2), (0.1, 0.2, 0.9), (0.8, 0.7, 0.1), (0.6, 0.1, 0.7), (0.1, 0.6, 0.6)]
        let c = Double(size) / 2
        let ops: [DrawOp] = try colours.enumerated().map { i, colour in
            let x = c + scale * (Double(i % 3) - 1) * 14.3, y = c + scale * (Double(i / 3) - 0.5) * 17.9
            let contours = i % 2 == 0 ? contours(star: (x, y), radius: scale * (9.1 + 2.7 * Double(i)), turn: 0.2 * Double(i))
                : [circle(x, y, scale * (6.2 + 3.1 * Double(i)))]
            let a = 0.55 + 0.07 * Double(i)
            let stroke = (i + strokeShift) % 3 == 0
                ? PathStroke(contours: [circle(x + 3.1, y - 2.2, scale * 5.3), Array(circle(x + 3.1, y - 2.2, scale * 5.3 - 1.4).reversed())],
                             color: PremultipliedColor(red: 0.05, green: 0.05, blue: 0.3, alpha: 0.9))
                : nil
            return .path(try #require(PathOp(source: DrawSource(stringLiteral: "path \(i)"), contours: contours, evenOdd: i == 2,
                                             color: PremultipliedColor(red: colour.0 * a, green: colour.1 * a, blue: colour.2 * a, alpha: a),
                                             stroke: stroke, opacity: 1, targetWidth: size, targetHeight: size)))
        }
        return RenderList(width: size, height: size, passes: [RenderPass(id: 0, width: size, height: size, ops: ops)], textures: [:], diagnostics: [])
    }

    @Test("a frame's paths summed on the CPU each read their own upload, frame after frame, stroked or not, and past the budget",
          arguments: [nil, 1] as [Int?])
    func uploadsOfAFrame(budget: Int?) throws {
        let device = try GLDevice()
        device.sumPathsOnCPU()
        if let budget { device.limitPathUploads(toBytes: budget) }
        let size = 96
        // Grown, shrunk and grown again: the textures kept from a frame before are too small
        // for some paths, larger than others.
        for (frame, scale) in [1.0, 1.6, 0.7, 1.9].enumerated() {
            let list = try PathFillTests.overlapping(scale: scale, size: size, strokeShift: frame)
            let gpu = try device.render(list), cpu = RasterRenderer().render(list)
            let apart = zip(gpu.pixels, cpu.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
            // A step where translucent colours overlap (the blend's rounding); a path covered
            // with another's sums is off by its whole colour.
            #expect(apart <= 1, "scale \(scale): the GPU \(apart)/255 from the CPU reference")
        }
        // One texture for each path of a frame; within a budget too small for two, one for all.
        #expect(device.pathUploadTextures == (budget == nil ? 6 : 1), "\(device.pathUploadTextures) textures held")
    }
}

@Suite("The path route a driver takes")
struct PathRoutePreferenceTests {
    @Test("a CPU rasterizer takes the CPU's sums, the CPU reference's pixels; a GPU the float sums")
    func preferredRoute() throws {
        let device = try GLDevice()
        let star = PathFillTests.shapes[0]
        let list = try PathFillTests.list(star.contours, evenOdd: star.evenOdd, size: 64)
        let drawn = try device.render(list)
        if device.caps.isSoftware || !device.caps.blendsFloatTargets {
            #expect(device.pathStatistics.paths == 1 && device.pathStatistics.edges == 0,
                    "\(device.caps.renderer): no edge summed on the GPU: \(device.pathStatistics)")
            #expect(drawn.pixels == RasterRenderer().render(list).pixels, "\(device.caps.renderer): the CPU reference's pixels")
        } else {
            #expect(device.pathStatistics.edges > 0, "\(device.caps.renderer): the edges summed on the GPU: \(device.pathStatistics)")
        }
    }
}
