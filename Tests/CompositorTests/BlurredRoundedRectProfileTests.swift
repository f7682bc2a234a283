// A wide shadow's profile (the closed form on a grid over one quadrant, which the GPU
// interpolates): within half a step of 255 of the closed form everywhere, beyond the grid too,
// and made only for shadows wide enough that the grid stays small.
import Compositor
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Blurred rounded rectangle profiles")
struct BlurredRoundedRectProfileTests {
    static func shape(width: Double, height: Double, corner: Double, sigma: Double) -> BlurredRoundedRect {
        BlurredRoundedRect(deviceToLocal: .identity, rect: Rect(x: 0, y: 0, width: width, height: height), cornerRadius: corner,
                           sigma: sigma, color: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1))
    }

    @Test("interpolated, the grid is within 0.6 / 255 of the closed form, inside it and past it",
          arguments: [(420.0, 260.0, 24.0, 100.0), (420, 260, 24, 20), (101.5, 66.25, 13.5, 5.5), (64, 48, 0, 12),
                      (30, 200, 15, 40), (10, 10, 5, 150), (300, 40, 20, 9), (300, 170, 24, 4), (260, 150, 0, 4),
                      (2000, 40, 10, 30), (64, 48, 10, 3)])
    func closeToTheClosedForm(width: Double, height: Double, corner: Double, sigma: Double) throws {
        let key = BlurredRoundedRectProfile.Key(Self.shape(width: width, height: height, corner: corner, sigma: sigma))
        let profile = try #require(BlurredRoundedRectProfile(key))
        #expect(profile.columns <= BlurredRoundedRectProfile.maxSide && profile.rows <= BlurredRoundedRectProfile.maxSide)
        var worst: Float = 0, at = (Float(0), Float(0))
        // Samples closer than the grid and off its points, through all four quadrants and past the grid.
        let reachX = key.halfWidth + 6 * key.sigma, reachY = key.halfHeight + 6 * key.sigma
        let step = profile.spacing / 2.3
        var py = -reachY
        while py <= reachY {
            var px = -reachX
            while px <= reachX {
                let exact = BlurredRoundedRect.alpha(px: px, py: py, halfWidth: key.halfWidth, halfHeight: key.halfHeight,
                                                     corner: key.corner, sigma: key.sigma)
                let error = abs(profile.interpolated(px: px, py: py) - exact)
                if error > worst { (worst, at) = (error, (px, py)) }
                px += step
            }
            py += step
        }
        #expect(worst * 255 <= 0.6, "worst \(worst * 255) / 255 at \(at)")
    }

    @Test("each grid point is the closed form at it to the bit (the grid is made a row at a time, its erfs in C)",
          arguments: [(420.0, 260.0, 24.0, 100.0), (420, 260, 24, 4), (101.5, 66.25, 13.5, 5.5), (64, 48, 0, 12),
                      (30, 200, 15, 40), (10, 10, 5, 150), (300, 40, 20, 9), (260, 150, 0, 4), (2000, 40, 10, 30),
                      (97.3, 61.9, 30.9, 7.7)])
    func gridIsTheClosedForm(width: Double, height: Double, corner: Double, sigma: Double) throws {
        let key = BlurredRoundedRectProfile.Key(Self.shape(width: width, height: height, corner: corner, sigma: sigma))
        let profile = try #require(BlurredRoundedRectProfile(key))
        var differing = 0, first: (Int, Int)?
        for j in 0..<profile.rows {
            for i in 0..<profile.columns {
                let exact = BlurredRoundedRect.alpha(px: profile.origin.x + Float(i) * profile.spacing,
                                                     py: profile.origin.y + Float(j) * profile.spacing, halfWidth: key.halfWidth,
                                                     halfHeight: key.halfHeight, corner: key.corner, sigma: key.sigma)
                if profile.values[j * profile.columns + i].bitPattern != exact.bitPattern {
                    differing += 1
                    if first == nil { first = (i, j) }
                }
            }
        }
        #expect(differing == 0, "\(differing) of \(profile.values.count) points differ, the first at \(String(describing: first))")
    }

    @Test("the grid covers the band past the straight sides, whatever the shape's size; sharp shadows keep the closed form")
    func whichShadows() {
        func size(_ width: Double, _ height: Double, _ sigma: Double) -> (columns: Int, rows: Int, spacing: Float, origin: (x: Float, y: Float))? {
            BlurredRoundedRectProfile.size(for: .init(Self.shape(width: width, height: height, corner: 10, sigma: sigma)))
        }
        // Radius 4 on a 420-point card: the band from 5.5 sqrt 2 sigma inside the straight sides
        // to 4 sigma past the edges, not the whole quadrant's 50,000 points.
        let small = size(420, 260, 4)
        #expect(small != nil && small!.columns * small!.rows < 10_000, "\(String(describing: small))")
        #expect(small.map { $0.origin.x > 150 && $0.origin.y > 90 } == true, "\(String(describing: small))")
        // Its length does not count: a long shape's grid is its ends'.
        let long = size(2000, 40, 30)
        #expect(long != nil && long!.origin.x > 700 && long!.origin.y == 0, "\(String(describing: long))")
        #expect(size(420, 260, 1) == nil, "sigma 1: a band some 130 points across at a sixth of a point")
        let wide = size(420, 260, 100)
        #expect(wide != nil && wide!.columns * wide!.rows < 2_000 && wide!.origin == (0, 0), "\(String(describing: wide))")
        #expect(size(420, 260, 0) == nil && size(420, 260, .nan) == nil && size(.infinity, 2, 50) == nil)
    }

    @Test("a turned or tilted shadow's row from the grid (C) is each pixel's alpha(atX:y:) to the bit, and within 0.6 / 255 of the closed form")
    func turnedRows() {
        var checked = 0
        for (index, angle) in [0.1, 0.6, 1.2, 2.5, 3.9].enumerated() {
            let c = cos(angle), s = sin(angle)
            // Turned about (300, 200), and for odd cases tilted (a perspective term).
            let tilt = index % 2 == 1 ? 0.0007 : 0
            let map = ProjectiveTransform2D(m11: c, m12: -s, m13: tilt, m21: s, m22: c, m23: tilt / 3,
                                            m31: 300 - 300 * c - 200 * s, m32: 200 + 300 * s - 200 * c, m33: 1)
            let shape = BlurredRoundedRect(deviceToLocal: map, rect: Rect(x: 90, y: 70, width: 420, height: 260), cornerRadius: 24,
                                           sigma: 20 + 10 * Double(index), color: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1))
            var rows = BlurredRoundedRect.RowEvaluator(shape), pixels = BlurredRoundedRect.RowEvaluator(shape)
            #expect(rows.profile != nil)
            var out = [Float](repeating: 0, count: 640)
            for y in stride(from: 0.5, to: 480, by: 37) {
                out.withUnsafeMutableBufferPointer { rows.alphas(row: y, from: -20, count: 640, into: $0.baseAddress!) }
                for i in 0..<640 {
                    let x = Double(i - 20) + 0.5
                    let one = pixels.alpha(atX: x, y: y)
                    #expect(out[i].bitPattern == one.bitPattern, "(\(x), \(y)): row \(out[i]), pixel \(one)")
                    #expect(abs(one - shape.alpha(atX: x, y: y)) * 255 <= 0.6, "(\(x), \(y))")
                    checked += 1
                }
            }
        }
        #expect(checked == 41_600)
    }
}
