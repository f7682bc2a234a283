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
