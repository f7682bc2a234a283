import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Pass lifetimes")
struct PassLifetimeTests {
    @Test("a shadow's passes (shape, two halvings, two blur axes) are each let go by the pass after it; the frame reads the last")
    func shadowChain() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        let card = CALayer()
        card.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        card.shadowOpacity = 1
        card.shadowRadius = 20 // sigma 20 px: halved twice, blurred at 5
        let content = CALayer() // a sublayer: the shadow is made from the composited alpha, in passes
        content.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        content.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        card.addSublayer(content)
        root.addSublayer(card)
        let list = try RenderListBuilder(viewport: root.frame).build(root: root)
        let ids = list.passes.map(\.id)
        #expect(list.passes.count == 6, "\(list)")
        guard list.passes.count == 6 else { return }
        let expected = Dictionary(uniqueKeysWithValues: (1..<6).map { ($0, [ids[$0 - 1]]) })
        #expect(list.passesLastRead() == expected)
    }

    @Test("a pass read by two later passes is let go by the later one")
    func readTwice() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let group = CALayer()
        group.frame = CGRect(x: 10, y: 10, width: 60, height: 60)
        group.opacity = 0.5 // with sublayers: one group pass...
        group.shadowOpacity = 1
        group.shadowRadius = 2 // ...and a shadow made from the same content
        let child = CALayer()
        child.frame = CGRect(x: 5, y: 5, width: 20, height: 20)
        child.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        group.addSublayer(child)
        root.addSublayer(group)
        let list = try RenderListBuilder(viewport: root.frame).build(root: root)
        let lastRead = list.passesLastRead()
        for (index, pass) in list.passes.enumerated() {
            let readers = list.passes.indices.filter { list.passes[$0].inputs.contains(pass.id) }
            if let last = readers.last {
                #expect(lastRead[last]?.contains(pass.id) == true, "pass \(pass.id) is last read by pass index \(last)")
            } else {
                #expect(index == list.passes.count - 1, "only the frame is read by no pass")
            }
        }
        #expect(lastRead.values.reduce(0) { $0 + $1.count } == list.passes.count - 1)
    }
}
