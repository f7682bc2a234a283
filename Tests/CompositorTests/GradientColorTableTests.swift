// A Generic RGB gradient's colour table (GradientColorTable) against the conversion it stands for:
// each colour mixed in Generic RGB and converted to sRGB on its own (CGGradient's formula), over
// random gradients of two to eight stops, and the cache that keeps a table by its stops.
import Compositor
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Gradient colour tables")
struct GradientColorTableTests {
    /// `count` random stops, sorted, some sharing a location, components anywhere in 0...1 (the
    /// clamps' corners included: a component at 0 or 1 converts to a channel pressed on a clamp).
    static func stops(_ count: Int, _ next: () -> Double) -> [GradientFill.Stop] {
        var locations = (0..<count).map { _ in next() }.sorted()
        if count > 3 { locations[2] = locations[1] }
        func component() -> Double { let v = next(); return v < 0.15 ? 0 : v > 0.85 ? 1 : v }
        return locations.map { GradientFill.Stop(location: $0, red: component(), green: component(), blue: component(), alpha: next()) }
    }

    @Test("within 0.15/255 of each colour converted on its own, and within 0.01/255 away from the clamps")
    func closeToTheConversion() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var worst = 0.0, worstSmooth = 0.0, differing = 0
        for _ in 0..<200 {
            let stops = Self.stops(2 + Int(next() * 7), next)
            let table = GradientColorTable(stops: stops)
            for i in 0...2000 {
                let t = Double(i) / 2000
                let exact = CGGradient.premultipliedColor(at: t, stops: stops, genericRGB: true)
                let tabled = table.premultipliedColor(at: t)
                let d = [abs(exact.0 - tabled.0), abs(exact.1 - tabled.1), abs(exact.2 - tabled.2)].max()!
                #expect(abs(exact.3 - tabled.3) == 0, "alpha mixes as before")
                worst = max(worst, d)
                if d > 0 { differing += 1 }
                // Away from the clamps: every channel of the straight colour off 0 and 1 by a margin.
                let straight = CGGradient.straightColor(at: t, stops: stops)
                let srgb = GenericRGB.toSRGB(straight.red, straight.green, straight.blue)
                if [srgb.0, srgb.1, srgb.2].allSatisfy({ $0 > 0.02 && $0 < 0.98 }) { worstSmooth = max(worstSmooth, d) }
            }
        }
        print("gradient colour table: largest difference \(worst * 255)/255, away from the clamps \(worstSmooth * 255)/255, \(differing) of 402,000 colours differ")
        #expect(worst < 0.15 / 255, "largest difference \(worst * 255)/255")
        #expect(worstSmooth < 0.01 / 255, "largest difference away from the clamps \(worstSmooth * 255)/255")
        #expect(differing > 0, "a table approximates the conversion; no difference at all means the check compared a thing with itself")
    }

    @Test("the stops' own colours and the ends come out as converted; one stop is its colour throughout")
    func stopsAndEnds() {
        let stops = [GradientFill.Stop(location: 0.2, red: 1, green: 0, blue: 0, alpha: 1),
                     GradientFill.Stop(location: 0.7, red: 0, green: 0.5, blue: 1, alpha: 0.5)]
        let table = GradientColorTable(stops: stops)
        for (t, stop) in [(0.0, stops[0]), (0.2, stops[0]), (0.7, stops[1]), (1.0, stops[1])] {
            let want = GenericRGB.toSRGB(stop.red, stop.green, stop.blue), got = table.premultipliedColor(at: t)
            #expect(abs(got.0 - want.0 * stop.alpha) < 1e-12 && abs(got.1 - want.1 * stop.alpha) < 1e-12
                && abs(got.2 - want.2 * stop.alpha) < 1e-12 && got.3 == stop.alpha, "t \(t): \(got)")
        }
        let single = GradientColorTable(stops: [stops[1]])
        let want = GenericRGB.toSRGB(0, 0.5, 1)
        for t in [0.0, 0.7, 1.0] { #expect(abs(single.premultipliedColor(at: t).1 - want.1 * 0.5) < 1e-12) }
    }

    @Test("a Generic RGB fill carries its stops' table, kept and shared by the same stops; an sRGB fill none")
    func kept() {
        let stops = [GradientFill.Stop(location: 0, red: 0.1, green: 0.2, blue: 0.3, alpha: 1),
                     GradientFill.Stop(location: 1, red: 0.9, green: 0.8, blue: 0.7, alpha: 1)]
        func fill(_ space: GradientFill.ColorSpace) -> GradientFill {
            GradientFill(kind: .axial, deviceToLocal: .identity, start: DevicePoint(x: 0, y: 0),
                         end: DevicePoint(x: 1, y: 0), stops: stops, colorSpace: space)
        }
        let a = fill(.genericRGB), b = fill(.genericRGB)
        #expect(a.colorTable != nil && a.colorTable === b.colorTable)
        #expect(fill(.sRGB).colorTable == nil)
        #expect(a.colorTable?.values.count == (GradientColorTable.steps + 1) * 4)
    }
}
