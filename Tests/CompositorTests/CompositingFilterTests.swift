// compositingFilter in the render list: which names are blend modes, that a blended layer is one
// group composited once by its mode (its mask and all), and that a name this renderer does not
// know is said and drawn source-over.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Compositing filters")
struct CompositingFilterTests {
    @Test("Core Image's names, with or without their CI prefix, name the modes; anything else names none")
    func names() {
        #expect(BlendMode(compositingFilter: "multiplyBlendMode") == .multiply)
        #expect(BlendMode(compositingFilter: "CIMultiplyBlendMode") == .multiply)
        #expect(BlendMode(compositingFilter: "CISourceAtopCompositing") == .sourceAtop)
        #expect(BlendMode(compositingFilter: "luminosityBlendMode") == .luminosity)
        #expect(BlendMode(compositingFilter: "additionCompositing") == .plus)
        #expect(BlendMode(compositingFilter: "multiply") == nil)
        #expect(BlendMode(compositingFilter: "CI") == nil)
        #expect(BlendMode(compositingFilter: 42) == nil)
        // Core Animation's own Porter-Duff names, which have no CI form.
        #expect(BlendMode(compositingFilter: "xor") == .xor)
        #expect(BlendMode(compositingFilter: "destOut") == .destinationOut)
        #expect(BlendMode(compositingFilter: "plusL") == .plus)
        #expect(BlendMode(compositingFilter: "CIXor") == nil)
        // Core Image's 20 and Core Animation's 13, five of them modes Core Image names too.
        #expect(BlendMode.compositingFilterNames.count == 33)
        #expect(Set(BlendMode.compositingFilterNames.map(\.mode)).count == 28, "modes: \(Set(BlendMode.compositingFilterNames.map(\.mode)))")
    }

    static func list(_ configure: (CALayer) -> Void) throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let layer = CALayer()
        layer.frame = CGRect(x: 5, y: 5, width: 20, height: 16)
        layer.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.8)
        layer.borderWidth = 2
        layer.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        configure(layer)
        root.addSublayer(layer)
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    }

    static func frameQuads(_ list: RenderList) -> [QuadOp] {
        list.passes.last!.ops.compactMap { if case .quad(let q) = $0 { q } else { nil } }
    }

    @Test("a blended layer's background and border are one group, composited once by the mode")
    func oneGroup() throws {
        let list = try Self.list { $0.compositingFilter = "screenBlendMode" }
        #expect(list.passes.count == 2)
        let blended = Self.frameQuads(list).filter { $0.blend != .sourceOver }
        #expect(blended.count == 1 && blended[0].blend == .screen)
        if case .texture(let fill) = blended.first?.fill, case .pass = fill.source {} else { Issue.record("the group's pass is what blends") }
        let inner = list.passes[0].ops.compactMap { if case .quad(let q) = $0 { q.blend } else { nil } }
        #expect(inner.allSatisfy { $0 == .sourceOver }, "inside its group the layer draws as usual")
        #expect(list.diagnostics.isEmpty)
    }

    @Test("a masked, blended layer blends once: the masked group's composite")
    func maskedAndBlended() throws {
        let list = try Self.list { layer in
            layer.compositingFilter = "differenceBlendMode"
            let mask = CALayer()
            mask.frame = CGRect(x: 0, y: 0, width: 14, height: 16)
            mask.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.5)
            layer.mask = mask
        }
        let all = list.passes.flatMap(\.ops).compactMap { if case .quad(let q) = $0 { q.blend } else { nil } }
        #expect(all.filter { $0 == .difference }.count == 1, "\(all)")
        #expect(Self.frameQuads(list).contains { $0.blend == .difference })
    }

    @Test("a name this renderer does not know is said, and the layer drawn source-over without a group")
    func unknownName() throws {
        let list = try Self.list { $0.compositingFilter = "CIBogusBlendMode" }
        #expect(list.passes.count == 1)
        #expect(Self.frameQuads(list).allSatisfy { $0.blend == .sourceOver })
        let said = list.diagnostics.joined(separator: "\n")
        #expect(said.contains("CIBogusBlendMode") && said.contains("multiplyBlendMode"), "\(said)")
        // Said once, also when the layer is drawn as a group for other reasons (visited twice).
        let grouped = try Self.list { layer in
            layer.compositingFilter = "CIBogusBlendMode"
            layer.opacity = 0.5
            let child = CALayer()
            child.frame = CGRect(x: 2, y: 2, width: 8, height: 8)
            child.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            layer.addSublayer(child)
        }
        #expect(grouped.passes.count == 2)
        #expect(grouped.diagnostics.filter { $0.contains("CIBogusBlendMode") }.count == 1, "\(grouped.diagnostics)")
    }
}
