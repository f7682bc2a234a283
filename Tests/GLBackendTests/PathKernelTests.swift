// A filled path's rows (RasterRenderer.drawPath) go through a C kernel (oq_path_cells_over) for
// source-over, straight from the rasterizers' cells: the running sums folded as the kernel walks
// from a cell that changes them to the next, each stretch between blended as one colour. The CPU reference's bytes must not move: the kernel's frame must be the
// Swift path's to the byte, in every copy of the kernels, for fills and strokes, translucent,
// tinted and faded, over what earlier paths drew, and where a damaged frame draws only some
// columns; and the GPU's frame of the same paths within the agreement bar.
import Compositor
import Foundation
import GLBackend
import PixelDiff
import RasterBackend
import Testing

@Suite("Path kernel")
struct PathKernelTests {
    static let size = (width: 160, height: 120)

    static func circle(_ cx: Double, _ cy: Double, _ r: Double, reversed: Bool = false, segments: Int = 48) -> [DevicePoint] {
        let points = (0..<segments).map { i in
            let a = Double(i) * 2 * Double.pi / Double(segments)
            return DevicePoint(x: cx + r * cos(a), y: cy + r * sin(a))
        }
        return reversed ? points.reversed() : points
    }

    /// 40 paths over a translucent backdrop: stars and blobs (non-zero and even-odd), rings
    /// stroked over a fill and alone (a stroke's outline is its outer circle and its inner one
    /// reversed, like a stroked circle's; some with no fill contours at all), thin slivers, colours translucent and opaque and some
    /// whose colour bytes exceed their alpha (the kernel's per-channel route), tints, opacities,
    /// some across the frame's edge; `blends` are the modes the paths take in turn.
    static func list(seed: UInt64, blends: [BlendMode]) throws -> RenderList {
        var dice = BlendModeAgreementTests.Dice(state: seed)
        let (width, height) = PathKernelTests.size
        func color(exceeding: Bool = false) -> PremultipliedColor {
            let alpha = dice.next() < 0.3 ? 1 : dice.next(0.1...1)
            let scale = exceeding ? 1 : alpha
            return PremultipliedColor(red: dice.next() * scale, green: dice.next() * scale, blue: dice.next() * scale, alpha: alpha)
        }
        var ops: [DrawOp] = []
        let backdrop = [[DevicePoint(x: 0, y: 0), DevicePoint(x: Double(width), y: 0), DevicePoint(x: Double(width), y: Double(height)),
                         DevicePoint(x: 0, y: Double(height))]]
        ops.append(.path(try #require(PathOp(source: "backdrop", contours: backdrop, evenOdd: false,
                                             color: PremultipliedColor(red: 0.3, green: 0.2, blue: 0.1, alpha: 0.6), opacity: 1,
                                             targetWidth: width, targetHeight: height))))
        for i in 0..<40 {
            let cx = dice.next(-10...Double(width + 10)), cy = dice.next(-10...Double(height + 10)), r = dice.next(2...45)
            var contours: [[DevicePoint]]
            switch i % 4 {
            case 0:
                let turn = dice.next(0...6)
                contours = [(0..<5).map { k in
                    let a = turn + Double(k * 2) * 2 * Double.pi / 5
                    return DevicePoint(x: cx + r * cos(a), y: cy + r * sin(a))
                }]
            case 1:
                contours = [circle(cx, cy, r), circle(cx + r / 2, cy - r / 3, r * 0.7)]
            case 2:
                contours = [[DevicePoint(x: cx, y: cy), DevicePoint(x: cx + r * 2, y: cy + r * 0.4), DevicePoint(x: cx + r * 2, y: cy + r * 0.4 + 0.35)]]
            default:
                contours = [circle(cx, cy, r)]
            }
            let stroked = i % 3 != 2
            // Some strokes have no fill at all: no contours of their own, only the stroke's cells.
            if stroked, i % 8 == 4 { contours = [] }
            let stroke = stroked ? PathStroke(contours: [circle(cx, cy, r + 1.5), circle(cx, cy, max(r - 1.5, 0.5), reversed: true)],
                                              color: color()) : nil
            // Every fifth stroked ring has no fill of its own to speak of: a fill of no colour.
            let fill = stroked && i % 5 == 0 ? PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0) : color(exceeding: i % 7 == 3)
            let tint = i % 6 == 1 ? PremultipliedColor(red: dice.next(), green: dice.next(), blue: dice.next(), alpha: dice.next(0.5...1))
                : .opaqueWhite
            guard let op = PathOp(source: DrawSource(stringLiteral: "path \(i)"), contours: contours, evenOdd: i % 2 == 1, color: fill, stroke: stroke,
                                  opacity: i % 4 == 2 ? dice.next(0.2...1) : 1, tint: tint, blend: blends[i % blends.count],
                                  targetWidth: width, targetHeight: height) else { continue }
            ops.append(.path(op))
        }
        return RenderList(width: width, height: height, passes: [RenderPass(id: 0, width: width, height: height, ops: ops)],
                          textures: [:], diagnostics: [])
    }

    @Test("the kernel's frame is the Swift path's to the byte, in every copy, and the GPU agrees", arguments: [1, 2, 3] as [UInt64])
    func sameBytes(seed: UInt64) throws {
        let list = try PathKernelTests.list(seed: seed, blends: [.sourceOver, .sourceOver, .plus])
        #expect(list.passes[0].ops.count > 30, "most of the paths are drawn")
        try KernelAgreement.expectSameBytes(list)
    }

    @Test("modes that read the backdrop (drawn source-over, as GLPathFill draws them) and a mask's path: the Swift path's bytes")
    func otherBlends() throws {
        let list = try PathKernelTests.list(seed: 7, blends: [.multiply, .sourceOver, .destinationIn, .screen])
        var plain = RasterRenderer(threads: 1)
        plain.usesKernels = false
        let expected = plain.render(list)
        for copy in KernelCopies.available {
            let drawn = KernelCopies.with(copy) { RasterRenderer(threads: 1).render(list) }
            #expect(drawn.pixels == expected.pixels, "\(KernelCopies.names[copy])")
        }
    }

    @Test("a damaged frame drawn over the one before: the kernel's columns are the Swift path's")
    func damagedColumns() throws {
        let before = try PathKernelTests.list(seed: 11, blends: [.sourceOver])
        let after = try PathKernelTests.list(seed: 12, blends: [.sourceOver])
        let damage = PixelRect(minX: 37, minY: 21, maxX: 101, maxY: 88)
        var plain = RasterRenderer(threads: 1)
        plain.usesKernels = false
        let previous = plain.render(before)
        let expected = plain.render(after, over: previous, damage: damage)
        let drawn = RasterRenderer(threads: 2).render(after, over: previous, damage: damage)
        #expect(drawn.pixels == expected.pixels)
        // Outside the damage the frame before stays; inside, the new paths are drawn.
        #expect(drawn.pixels != previous.pixels)
        #expect(drawn.pixels[0..<4] == previous.pixels[0..<4])
    }
}
