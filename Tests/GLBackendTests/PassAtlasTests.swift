// Offscreen passes drawn side by side into one target (GLPassAtlas) against one target each:
// the same pixels (up to a last-bit step), and the passes that qualify are the ones it takes.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Pass atlas")
struct PassAtlasTests {
    /// Rounded clip containers and translucent groups (passes the atlas takes), a shadow (a pass
    /// read by its blur, which it does not) and a group inside a group (the outer reads the inner).
    static func frame(turn: Double) throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        root.backgroundColor = CGColor(red: 0.95, green: 0.95, blue: 0.96, alpha: 1)
        for i in 0..<12 {
            let card = CALayer()
            card.frame = CGRect(x: 6 + Double(i % 4) * 38, y: 6 + Double(i / 4) * 38, width: 32, height: 30)
            card.transform = CATransform3DMakeRotation(turn * Double(i % 3), 0, 0, 1)
            card.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            if i % 2 == 0 {
                card.cornerRadius = 7
                card.masksToBounds = true
                card.borderWidth = 1
                card.borderColor = CGColor(red: 0.6, green: 0.6, blue: 0.7, alpha: 1)
            } else {
                card.opacity = 0.6
            }
            let header = CALayer()
            header.frame = CGRect(x: -3, y: -3, width: 38, height: 14)
            header.backgroundColor = CGColor(red: 0.16, green: 0.53, blue: 0.8, alpha: 1)
            card.addSublayer(header)
            if i == 5 {
                let inner = CALayer()
                inner.frame = CGRect(x: 4, y: 16, width: 20, height: 10)
                inner.opacity = 0.5
                let part = CALayer()
                part.frame = CGRect(x: 2, y: 2, width: 12, height: 6)
                part.backgroundColor = CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1)
                inner.addSublayer(part)
                card.addSublayer(inner)
            }
            if i == 7 {
                card.shadowOpacity = 0.5
                card.shadowRadius = 4
            }
            root.addSublayer(card)
        }
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    }

    @Test("passes drawn into the atlas give the pixels of passes drawn apart", arguments: [0.0, 0.2, 0.7])
    func sameAsSeparate(turn: Double) throws {
        let list = try PassAtlasTests.frame(turn: turn)
        let separate = try GLDevice()
        separate.drawPassesSeparately()
        let atlas = try GLDevice()
        let a = try separate.render(list), b = try atlas.render(list)
        // Drawn at an offset, a pass's interpolated positions can round a last bit apart (the
        // rounded batch carries its edges to the pixel centre by their gradients): a step at most.
        var worst = 0, differing = 0
        for i in a.pixels.indices where a.pixels[i] != b.pixels[i] {
            differing += 1
            worst = max(worst, abs(Int(a.pixels[i]) - Int(b.pixels[i])))
        }
        #expect(worst <= 1 && differing * 1000 <= a.pixels.count, "turn \(turn): \(differing) bytes differ, up to \(worst)")
        #expect(separate.passesInAtlas == 0)
        #expect(atlas.passesInAtlas >= 10, "turn \(turn): only \(atlas.passesInAtlas) passes went into the atlas")
    }

    @Test("a pass that reads another, a blurred one and a pass read through a filter stay out of the atlas")
    func whatStaysOut() throws {
        let list = try PassAtlasTests.frame(turn: 0.2)
        let atlas = GLPassAtlas.plan(for: list, toRun: Set(list.passes.map(\.id)), maxSide: 4096)
        var readers: [Int: [DrawOp]] = [:]
        for pass in list.passes {
            for op in pass.ops {
                switch op {
                case .quad(let quad):
                    if case .texture(let fill) = quad.fill, case .pass(let id) = fill.source { readers[id, default: []].append(op) }
                case .blur(let blur): readers[blur.source, default: []].append(op)
                case .halve(let halve): readers[halve.source, default: []].append(op)
                case .path: break
                }
            }
        }
        for pass in list.passes.dropLast() {
            let readsAPass = !pass.inputs.isEmpty
            let blurred = readers[pass.id, default: []].contains { if case .quad = $0 { false } else { true } }
            if readsAPass || blurred {
                #expect(!atlas.contains(pass.id), "pass \(pass.id) reads a pass or is blurred, yet lies in the atlas")
            }
        }
        #expect(list.passes.dropLast().contains { !$0.inputs.isEmpty }, "the frame has a pass reading a pass")
        #expect(!atlas.contains(list.passes.last!.id), "the frame itself is never in the atlas")
    }
}
