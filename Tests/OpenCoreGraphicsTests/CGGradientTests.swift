// Gradients: stops, interpolation in straight sRGB, extension options, linear and radial geometry.
import Foundation
import OpenCoreGraphics
import Testing

private let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
private let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

@Suite("CGGradient")
struct CGGradientTests {
    @Test("colours interpolate between stops at their locations")
    func stops() throws {
        let gradient = try #require(CGGradient(colorsSpace: nil, colors: [red, blue], locations: [0.25, 0.75]))
        #expect(gradient.premultipliedColor(at: 0) == (1, 0, 0, 1))
        #expect(gradient.premultipliedColor(at: 0.5) == (0.5, 0, 0.5, 1))
        #expect(gradient.premultipliedColor(at: 1) == (0, 0, 1, 1))
        #expect(CGGradient(colorsSpace: nil, colors: [red], locations: [0, 1]) == nil) // counts differ
        let fading = try #require(CGGradient(colorsSpace: nil, colors: [red, CGColor(red: 1, green: 0, blue: 0, alpha: 0)], locations: nil))
        #expect(fading.premultipliedColor(at: 0.5) == (0.5, 0, 0, 0.5)) // straight colour, then premultiplied
    }

    @Test("a linear gradient paints along its axis, and past its ends only when asked")
    func linear() throws {
        let gradient = try #require(CGGradient(colorsSpace: nil, colors: [red, blue], locations: nil))
        let ctx = try #require(CGContext(width: 5, height: 1))
        ctx.drawLinearGradient(gradient, start: CGPoint(x: 0.5, y: 0), end: CGPoint(x: 3.5, y: 0), options: [])
        let reds = (0..<5).map { ctx.bitmap[$0, 0].0 }
        #expect(reds[0] == 255 && reds[3] == 0 && abs(Int(reds[2]) - 85) <= 1)
        #expect(ctx.bitmap[4, 0].3 == 0) // after the end, not extended
        let extended = try #require(CGContext(width: 5, height: 1))
        extended.drawLinearGradient(gradient, start: CGPoint(x: 0.5, y: 0), end: CGPoint(x: 3.5, y: 0),
                                    options: [.drawsAfterEndLocation])
        #expect(extended.bitmap[4, 0] == (0, 0, 255, 255))
    }

    @Test("a radial gradient between concentric circles depends on the distance from the centre")
    func radial() throws {
        let gradient = try #require(CGGradient(colorsSpace: nil, colors: [red, blue], locations: nil))
        let ctx = try #require(CGContext(width: 21, height: 21))
        ctx.drawRadialGradient(gradient, startCenter: CGPoint(x: 10.5, y: 10.5), startRadius: 0,
                               endCenter: CGPoint(x: 10.5, y: 10.5), endRadius: 10, options: [])
        #expect(ctx.bitmap[10, 10] == (255, 0, 0, 255))
        let half = ctx.bitmap[15, 10] // 5 from the centre: t = 0.5
        #expect(abs(Int(half.0) - 128) <= 1 && abs(Int(half.2) - 128) <= 1)
        #expect(ctx.bitmap[0, 0].3 == 0) // beyond the end circle
    }
}

@Suite("Blur and shadows")
struct ShadowTests {
    @Test("Gaussian weights sum to 1, reach 3 sigma and are symmetric")
    func weights() {
        let w = GaussianBlur.weights(sigma: 2)
        #expect(w.count == 13 && abs(w.reduce(0, +) - 1) < 1e-6 && w.first == w.last)
        #expect(GaussianBlur.weights(sigma: 0) == [1] && GaussianBlur.weights(sigma: .nan) == [1])
        // The centre weight of a normalized Gaussian is about 1 / (sigma * sqrt(2 pi)).
        #expect(abs(Double(w[6]) - 1 / (2 * (2 * Double.pi).squareRoot())) < 1e-3)
    }

    @Test("blurring keeps the total away from the edges and spreads a point by sigma")
    func blurConserves() {
        var point = [Float](repeating: 0, count: 31 * 31)
        point[15 * 31 + 15] = 1
        let blurred = GaussianBlur.blur(point, width: 31, height: 31, sigma: 3)
        #expect(abs(blurred.reduce(0, +) - 1) < 1e-4)
        // Variance along x: sum of p * dx^2 = sigma^2 (truncated at 3 sigma: a little less).
        var variance: Float = 0
        for y in 0..<31 { for x in 0..<31 { variance += blurred[y * 31 + x] * Float((x - 15) * (x - 15)) } }
        #expect(abs(variance - 9) < 0.3)
    }

    @Test("a shadow is the shape's alpha, offset (y up) and blurred, under the shape")
    func shadow() throws {
        let ctx = try #require(CGContext(width: 20, height: 20))
        ctx.setShadow(offset: CGSize(width: 4, height: -4), blur: 0, color: CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 2, y: 10, width: 6, height: 6)) // rows 4...9 of the buffer
        #expect(ctx.bitmap[4, 6] == (255, 0, 0, 255)) // the shape on top of its shadow
        #expect(ctx.bitmap[10, 11] == (0, 0, 0, 255)) // shadow: 4 right, 4 down on screen
        #expect(ctx.bitmap[1, 12].3 == 0)
        let soft = try #require(CGContext(width: 20, height: 20))
        soft.setShadow(offset: .zero, blur: 6)
        soft.fill(CGRect(x: 7, y: 7, width: 6, height: 6))
        #expect(soft.bitmap[4, 10].3 > 0 && soft.bitmap[4, 10].3 < 85) // a soft edge, default 1/3 black
    }
}
