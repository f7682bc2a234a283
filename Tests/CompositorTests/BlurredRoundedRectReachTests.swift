// A closed-form shadow's quad reaches only as far past its shape as its pixels can show:
// `BlurredRoundedRect.negligibleReach`, 3 sigma at full strength and less for a faint shadow.
// Held here to the closed form itself (the CPU reference's, which the GPU's profile follows):
// everywhere past that reach, on shapes wide and narrow, square and round, sharp and wide, the
// shadow's value times its strength rounds to a byte of 0. And the reach is not slack: a little
// inside it, a faint shadow still shows.
import Compositor
import Foundation
import Testing

@Suite("Closed-form shadows' reach")
struct BlurredRoundedRectReachTests {
    static let shapes: [(width: Float, height: Float, corner: Float, sigma: Float)] = [
        (420, 260, 24, 20), (420, 260, 24, 100), (64, 48, 10, 4), (64, 48, 0, 12), (30, 200, 15, 40), (10, 10, 5, 150),
        (300, 40, 20, 9), (2000, 40, 10, 30), (101.5, 66.25, 13.5, 5.5),
    ]

    @Test("past the reach every pixel rounds to 0", arguments: [1.0, 0.7, 0.5, 0.3, 0.1, 0.02])
    func nothingPastTheReach(strongest: Double) {
        let t = BlurredRoundedRect.negligibleReach(strongest: strongest)
        #expect(t <= 3 && t >= 1)
        if strongest <= 0.5 { #expect(t < 2.75, "reach \(t) sigma at strength \(strongest)") }
        var checked = 0
        for s in Self.shapes {
            let hw = s.width / 2, hh = s.height / 2, reach = Float(t) * s.sigma, far = 3.5 * s.sigma
            let step = s.sigma / 7
            for py in stride(from: -(hh + far), through: hh + far, by: step) {
                for px in stride(from: -(hw + far), through: hw + far, by: step) {
                    guard max(abs(px) - hw, abs(py) - hh) >= reach else { continue }
                    let alpha = BlurredRoundedRect.alpha(px: px, py: py, halfWidth: hw, halfHeight: hh, corner: s.corner, sigma: s.sigma)
                    let byte = TargetSteps.byte(Double(alpha) * strongest)
                    #expect(byte == 0, "byte \(byte) at (\(px), \(py)) of \(s), reach \(t) sigma, strength \(strongest)")
                    if byte != 0 { return }
                    checked += 1
                }
            }
        }
        #expect(checked > 10_000)
    }

    @Test("a faint shadow still shows a little inside its reach")
    func notSlack() {
        for strongest in [0.5, 0.2] {
            let t = Float(BlurredRoundedRect.negligibleReach(strongest: strongest))
            // The middle of a long side, a third of a sigma inside the reach.
            let (hw, hh, sigma): (Float, Float, Float) = (400, 300, 20)
            let alpha = BlurredRoundedRect.alpha(px: hw + (t - 0.35) * sigma, py: 0, halfWidth: hw, halfHeight: hh, corner: 10, sigma: sigma)
            #expect(TargetSteps.byte(Double(alpha) * strongest) > 0, "nothing shows at \(t - 0.35) sigma at strength \(strongest)")
        }
    }
}
