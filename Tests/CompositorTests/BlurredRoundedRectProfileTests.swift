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
}
