// Rounded clips of sublayers drawn through the stencil buffer (GLStencilClip), the alternative
// issue 24 names, measured against the group pass every frame takes: the same pixels wherever a
// pixel lies wholly inside or outside the outline, a binary edge (each pixel in or out by its
// centre) where the pass gives the outline's area. A clip inside a clip takes the next level of the
// stencil, so both clips of a nested pair go through it. The figures go to docs/design.md.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Rounded clips through the stencil")
struct StencilClipRouteTests {
    @Test("the stencil route draws the clip without its pass: the pass's pixels inside and outside, a binary edge",
          arguments: [NestedRoundedClipTests.Arrangement.fillingChild, .fillingImage, .insetClipNested],
          [false, true])
    func againstThePass(arrangement: NestedRoundedClipTests.Arrangement, perspective: Bool) throws {
        let list = try NestedRoundedClipTests.frame(arrangement, perspective: perspective)
        let exact = NestedRoundedClipTests.exactCoverage(arrangement, perspective: perspective)
        let device = try GLDevice()
        device.clipRoundedByStencil()
        let stencil = try device.render(list), pass = try GLDevice.shared().render(list)
        let nested = arrangement == .insetClipNested
        #expect(device.stencilClips == (nested ? 2 : 1), "every clip went through the stencil, a nested one inside its card's")
        #expect(try device.render(list) == stencil, "a second frame draws the same: the stencil was left clear")
        // The third route the issue names, multisampling, by computation rather than rendering:
        // each edge pixel's share of the standard 4-sample pattern (D3D's, which GLES leaves to
        // the driver) inside the outline. Rendering it would need the outline as geometry or
        // per-sample shading: the shaders here find rounded outlines per fragment.
        let toPlane = NestedRoundedClipTests.deviceToPlane(perspective: perspective)
        let (rect, radius) = NestedRoundedClipTests.outline(arrangement)
        let samples = [(0.375, 0.125), (0.875, 0.375), (0.125, 0.625), (0.625, 0.875)]
        var errors: [(worst: Double, sum: Double)] = [(0, 0), (0, 0), (0, 0)], edgePixels = 0, apartInside = 0, partial = 0
        for i in exact.indices {
            let alphas = [pass, stencil].map { Double($0.pixels[i * 4 + 3]) / 255 }
            if exact[i] == 0 || exact[i] == 1 {
                // Wholly in or out: the routes agree (the content's own colour, or nothing).
                for c in 0..<4 where abs(Int(pass.pixels[i * 4 + c]) - Int(stencil.pixels[i * 4 + c])) > 1 { apartInside += 1 }
                continue
            }
            edgePixels += 1
            if alphas[1] > 0 && alphas[1] < 1 { partial += 1 }
            let (x, y) = (Double(i % NestedRoundedClipTests.size), Double(i / NestedRoundedClipTests.size))
            let inside = samples.filter { toPlane(x + $0.0, y + $0.1).map { NestedRoundedClipTests.inside($0, rect: rect, radius: radius) } ?? false }
            for (route, alpha) in (alphas + [Double(inside.count) / 4]).enumerated() {
                let error = abs(alpha - exact[i])
                errors[route].worst = max(errors[route].worst, error)
                errors[route].sum += error
            }
        }
        let figures = errors.map { String(format: "%.1f / %.1f", $0.worst * 255, $0.sum / Double(edgePixels) * 255) }
        print("rounded clip edge against exact area, \(arrangement.rawValue)\(perspective ? ", in perspective" : ", turned") "
              + "(max / mean over \(edgePixels) edge pixels, 255ths): pass \(figures[0]), stencil \(figures[1]), "
              + "4x multisampling (computed) \(figures[2])")
        #expect(apartInside == 0, "\(apartInside) channels apart off the edge")
        #expect(edgePixels > 100)
        #expect(partial == 0, "a stencil edge is binary: \(partial) edge pixels partly covered")
        #expect(errors[1].worst > errors[0].worst, "the binary edge is the coarser")
        #expect(errors[2].worst > errors[0].worst && errors[2].worst < errors[1].worst, "four samples lie between")
    }

    /// A rounded card holding two rounded clips side by side, overlapping, each holding a third:
    /// three levels, and siblings whose levels must come back down between them (the second's
    /// corners lie over the first). Each clip has a background sublayer of its own colour under
    /// the clip it holds.
    static func threeLevels() throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 120, height: 80)
        func clip(_ frame: CGRect, radius: CGFloat, red: CGFloat, in parent: CALayer) -> CALayer {
            let layer = CALayer()
            layer.frame = frame
            layer.cornerRadius = radius
            layer.masksToBounds = true
            let fill = CALayer()
            fill.frame = CGRect(x: -4, y: -4, width: frame.width + 8, height: frame.height + 8)
            fill.backgroundColor = CGColor(red: red, green: 1 - red, blue: 0.5, alpha: 1)
            layer.addSublayer(fill)
            parent.addSublayer(layer)
            return layer
        }
        let card = clip(CGRect(x: 6.5, y: 5.25, width: 107, height: 69), radius: 16, red: 0.1, in: root)
        for (x, red) in [(4.0, 0.4), (44.0, 0.65)] {
            let cell = clip(CGRect(x: x, y: 6, width: 48, height: 57), radius: 11, red: red, in: card)
            _ = clip(CGRect(x: 9, y: -6, width: 30, height: 40), radius: 7, red: 0.9, in: cell)
        }
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    }

    @Test("clips nested three deep, and siblings inside one clip, take levels of the stencil: the pass's pixels off the edges")
    func threeLevelsDeep() throws {
        let list = try Self.threeLevels()
        let device = try GLDevice()
        device.clipRoundedByStencil()
        let stencil = try device.render(list), pass = try GLDevice.shared().render(list)
        #expect(device.stencilClips == 5, "the card, two cells and the clip inside each went through the stencil")
        // Off every edge (the pass's pixel and its four neighbours alike: one colour, or nothing)
        // the routes agree; a level left up after the first cell would drop the second's content,
        // one not raised would let a clip's content out of its outline.
        let (w, h) = (list.width, list.height)
        func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> ArraySlice<UInt8> { b.pixels[(y * w + x) * 4..<(y * w + x) * 4 + 4] }
        var apart = 0, compared = 0
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) {
                let here = pixel(pass, x, y)
                guard [(1, 0), (-1, 0), (0, 1), (0, -1)].allSatisfy({ pixel(pass, x + $0.0, y + $0.1) == here }) else { continue }
                compared += 1
                if zip(here, pixel(stencil, x, y)).contains(where: { abs(Int($0) - Int($1)) > 1 }) { apart += 1 }
            }
        }
        #expect(compared > 6_000)
        #expect(apart == 0, "\(apart) of \(compared) pixels off the edges apart")
        #expect(try device.render(list) == stencil, "a second frame draws the same: the stencil was left clear")
    }
}
