// Generic RGB to sRGB (GenericRGB): the curves' tables against the curves themselves, the
// conversion against the values Apple's frame of a red-to-yellow CAGradientLayer shows, sRGB
// into Generic RGB against lottie-ios's gradient_pill as Apple drew it, and
// CGGradient's components in Generic RGB converted between the mix and the premultiplication.
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Generic RGB")
struct GenericRGBTests {
    /// The conversion with pow, not tables.
    static func exact(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        let m = GenericRGB.matrix
        let l = [r, g, b].map { pow(min(max($0, 0), 1), 1.8) }
        func row(_ i: Int) -> Double { GenericRGB.encodeSRGB(min(max(m[3 * i] * l[0] + m[3 * i + 1] * l[1] + m[3 * i + 2] * l[2], 0), 1)) }
        return (row(0), row(1), row(2))
    }

    @Test("the tables give the curves within 3e-5 over random colours and every step of a ramp")
    func tablesFollowTheCurves() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var worst = 0.0
        let ramp = (0...1000).map { (Double($0) / 1000, Double($0) / 1000, Double($0) / 1000) }
        for (r, g, b) in ramp + (0..<100_000).map({ _ in (next(), next(), next()) }) {
            let t = GenericRGB.toSRGB(r, g, b), e = Self.exact(r, g, b)
            worst = max(worst, abs(t.0 - e.0), abs(t.1 - e.1), abs(t.2 - e.2))
        }
        #expect(worst < 3e-5, "largest difference \(worst)")
        #expect(worst > 0, "the tables are an approximation; a zero means the check compared a thing with itself")
    }

    @Test("white and black stay; red and yellow become what Apple's frame of them shows: (255, 38, 0) and (255, 251, 0)")
    func applesRamp() {
        let white = GenericRGB.toSRGB(1, 1, 1), black = GenericRGB.toSRGB(0, 0, 0)
        #expect(abs(white.0 - 1) < 1e-9 && abs(white.1 - 1) < 1e-9 && abs(white.2 - 1) < 1e-9, "\(white)")
        #expect(black == (0, 0, 0))
        func bytes(_ c: (Double, Double, Double)) -> [Int] { [c.0, c.1, c.2].map { Int(($0 * 255).rounded()) } }
        // swift-snapshot-testing's testCALayerWithGradient reference: the top row (t = 1/600) and the bottom.
        #expect(bytes(GenericRGB.toSRGB(1, 1.0 / 600, 0)) == [255, 38, 0])
        #expect(bytes(GenericRGB.toSRGB(1, 599.0 / 600, 0)) == [255, 251, 0])
        // Its middle row: 147 where the stops' sRGB mix would give 128.
        #expect(bytes(GenericRGB.toSRGB(1, 0.5, 0))[1] == 147)
    }

    @Test("sRGB into Generic RGB and back: a colour inside its gamut returns, one outside comes to its edge as Apple's frame shows")
    func intoGenericRGB() {
        for c in [(0.5, 0.6, 0.3), (0.2, 0.2, 0.2), (1.0, 1.0, 1.0), (0.9, 0.4, 0.1)] {
            let g = GenericRGB.fromSRGB(c.0, c.1, c.2), back = Self.exact(g.0, g.1, g.2)
            #expect(abs(back.0 - c.0) < 1e-9 && abs(back.1 - c.1) < 1e-9 && abs(back.2 - c.2) < 1e-9, "\(c) -> \(g) -> \(back)")
        }
        // lottie-ios's gradient_pill at 75%: its first stop is (0.796, 0.001, 1) in device RGB
        // there, and Apple's frame (apple/LottieFiles-gradient_pill-75.png) shows (203, 59, 255)
        // at the pill's left end: green lifted by sRGB's violet lying outside Generic RGB's gamut.
        func bytes(_ c: (Double, Double, Double)) -> [Int] { [c.0, c.1, c.2].map { Int(($0 * 255).rounded()) } }
        let violet = GenericRGB.fromSRGB(0.796, 0.001, 1)
        let shown = bytes(Self.exact(violet.0, violet.1, violet.2))
        #expect(abs(shown[0] - 203) <= 1 && abs(shown[1] - 59) <= 1 && shown[2] == 255, "\(shown)")
        #expect(violet.1 == 0, "clipped at the gamut's edge: \(violet)")
        // Out of range and NaN components are clamped first.
        let clamped = GenericRGB.fromSRGB(-1, .nan, 2), one = GenericRGB.fromSRGB(0, 0, 1)
        #expect(clamped == one, "\(clamped)")
    }

    @Test("a CGGradient of Generic RGB components converts after the mix and premultiplies after that; sRGB components stay")
    func gradientSpaces() throws {
        let generic = try #require(CGColorSpace(name: CGColorSpace.genericRGB))
        let components: [CGFloat] = [1, 0, 0, 0.5, 1, 1, 0, 1]
        let converted = try #require(CGGradient(colorSpace: generic, colorComponents: components, locations: nil, count: 2))
        let plain = try #require(CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: components, locations: nil, count: 2))
        #expect(converted.isGenericRGB && !plain.isGenericRGB)
        let mixed = GenericRGB.toSRGB(1, 0.5, 0), alpha = 0.75
        let c = converted.premultipliedColor(at: 0.5), p = plain.premultipliedColor(at: 0.5)
        #expect(abs(Double(c.1) - mixed.1 * alpha) < 1e-6 && abs(Double(c.3) - alpha) < 1e-6, "\(c)")
        #expect(abs(Double(p.1) - 0.5 * alpha) < 1e-6, "\(p)")
        // A gray space's components: gray and alpha per colour.
        let gray = try #require(CGGradient(colorSpace: CGColorSpaceCreateDeviceGray(), colorComponents: [0.2, 1, 0.8, 1],
                                           locations: [0, 1], count: 2))
        #expect(gray.stops.map(\.green) == [0.2, 0.8])
        #expect(CGGradient(colorSpace: generic, colorComponents: [1, 0, 0], locations: nil, count: 1) == nil, "too few components")
        #expect(CGGradient(colorSpace: generic, colorComponents: components, locations: nil, count: .max) == nil, "a count past the components")
    }
}
