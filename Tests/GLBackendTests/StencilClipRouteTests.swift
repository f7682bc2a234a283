// Rounded clips of sublayers drawn through the stencil buffer (GLStencilClip), the alternative
// issue 24 names, measured against the group pass every frame takes: the same pixels wherever a
// pixel lies wholly inside or outside the outline, a binary edge (each pixel in or out by its
// centre) where the pass gives the outline's area. The figures go to docs/design.md.
import Compositor
import Foundation
import GLBackend
import Testing

@Suite("Rounded clips through the stencil")
struct StencilClipRouteTests {
    @Test("the stencil route draws the clip without its pass: the pass's pixels inside and outside, a binary edge",
          arguments: [NestedRoundedClipTests.Arrangement.fillingChild, .fillingImage], [false, true])
    func againstThePass(arrangement: NestedRoundedClipTests.Arrangement, perspective: Bool) throws {
        let list = try NestedRoundedClipTests.frame(arrangement, perspective: perspective)
        let exact = NestedRoundedClipTests.exactCoverage(arrangement, perspective: perspective)
        let device = try GLDevice()
        device.clipRoundedByStencil()
        let stencil = try device.render(list), pass = try GLDevice.shared().render(list)
        #expect(device.stencilClips == 1, "the clip went through the stencil")
        var errors: [(worst: Double, sum: Double)] = [(0, 0), (0, 0)], edgePixels = 0, apartInside = 0, partial = 0
        for i in exact.indices {
            let alphas = [pass, stencil].map { Double($0.pixels[i * 4 + 3]) / 255 }
            if exact[i] == 0 || exact[i] == 1 {
                // Wholly in or out: the routes agree (the content's own colour, or nothing).
                for c in 0..<4 where abs(Int(pass.pixels[i * 4 + c]) - Int(stencil.pixels[i * 4 + c])) > 1 { apartInside += 1 }
                continue
            }
            edgePixels += 1
            if alphas[1] > 0 && alphas[1] < 1 { partial += 1 }
            for route in 0..<2 {
                let error = abs(alphas[route] - exact[i])
                errors[route].worst = max(errors[route].worst, error)
                errors[route].sum += error
            }
        }
        let figures = errors.map { String(format: "%.1f / %.1f", $0.worst * 255, $0.sum / Double(edgePixels) * 255) }
        print("rounded clip edge against exact area, \(arrangement.rawValue)\(perspective ? ", in perspective" : ", turned") "
              + "(max / mean over \(edgePixels) edge pixels, 255ths): pass \(figures[0]), stencil \(figures[1])")
        #expect(apartInside == 0, "\(apartInside) channels apart off the edge")
        #expect(edgePixels > 100)
        #expect(partial == 0, "a stencil edge is binary: \(partial) edge pixels partly covered")
        #expect(errors[1].worst > errors[0].worst, "the binary edge is the coarser")
    }
}
