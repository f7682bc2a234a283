// Damage tracking: a CARenderer draws each frame over the one before, only where the two can
// differ, and the bytes must be those of the frame drawn whole from the same render list, on
// both backends. Every catalog scene is played forward and changed by random edits between
// frames (moves, recolours, hides, removals, new layers), and so are random animated trees.
import Compositor
import Foundation
import GLBackend
import OpenQuartzCore
import RasterBackend
import SceneCatalog
import Testing

/// Random edits of a tree between frames, from a seed (the same edits every run).
struct TreeEdits {
    var input: FuzzedBytes

    init(seed: UInt64) { input = FuzzedBytes(seed: seed, count: 4_096) }

    /// One to three edits of layers below `root`, with actions off (each shows at once).
    mutating func apply(to root: CALayer) {
        var layers: [CALayer] = []
        var pending = root.sublayers ?? []
        while let layer = pending.popLast() {
            layers.append(layer)
            pending += layer.sublayers ?? []
        }
        guard !layers.isEmpty else { return }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        for _ in 0..<input.int(in: 1...3) {
            let layer = layers[input.int(in: 0...(layers.count - 1))]
            switch input.int(in: 0...7) {
            case 0: layer.position.x += CGFloat(input.int(in: -12...12))
            case 1: layer.position.y += CGFloat(input.int(in: -12...12))
            case 2: layer.backgroundColor = CGColor(red: input.unit(), green: input.unit(), blue: input.unit(), alpha: 0.5 + input.unit() / 2)
            case 3: layer.opacity = Float(0.2 + 0.8 * input.unit())
            case 4: layer.isHidden.toggle()
            case 5: layer.transform = CATransform3DRotate(layer.transform, 0.05 + input.unit() / 2, 0, 0, 1)
            case 6:
                let added = CALayer()
                added.frame = CGRect(x: CGFloat(input.int(in: 0...60)), y: CGFloat(input.int(in: 0...60)), width: 9, height: 7)
                added.backgroundColor = CGColor(red: 0.1, green: input.unit(), blue: 0.4, alpha: 1)
                added.shadowOpacity = input.bool() ? 0.8 : 0
                layer.addSublayer(added)
            default:
                if layer.superlayer !== root || (root.sublayers?.count ?? 0) > 1 { layer.removeFromSuperlayer() }
            }
        }
    }
}

/// What a run of frames found: frames drawn, and those whose update region was less than the
/// whole frame (the damage path taken) or empty (the frame before reused).
struct DamageRun {
    var frames = 0
    var partial = 0
    var unchanged = 0
}

/// Plays `root` on `backend` at `times`, editing it before each frame after the first two, and
/// holds every frame to the whole frame drawn from the same render list.
func playDamaged(_ root: CALayer, bounds: CGRect, scale: CGFloat, backend: RenderBackend, times: [Double],
                 edits: inout TreeEdits, name: String) throws -> DamageRun {
    let renderer = CARenderer(backend: backend, scale: scale)
    renderer.layer = root
    renderer.bounds = bounds
    var run = DamageRun()
    for (i, t) in times.enumerated() {
        if i >= 2 { edits.apply(to: root) }
        renderer.beginFrame(atTime: t)
        let update = renderer.updateBounds()
        renderer.render()
        renderer.endFrame()
        let image = try renderer.makeImage()
        let list = try #require(renderer.lastRenderList)
        let whole = backend == .cpu ? RasterRenderer().render(list) : try GLDevice.shared().render(list)
        run.frames += 1
        if update.isNull { run.unchanged += 1 } else if update != bounds { run.partial += 1 }
        let same = image.bitmap == whole
        #expect(same, "\(name) on \(backend), frame \(i) at \(t): update \(update) gave other bytes than the whole frame")
        if !same { break }
    }
    return run
}

@Suite("Damage tracking")
struct DamageTrackingTests {
    @Test("every catalog scene, played and edited, draws each frame's damage with a whole frame's bytes",
          arguments: RenderBackend.allCases)
    func catalog(backend: RenderBackend) throws {
        var total = DamageRun()
        // Softpipe draws on one thread: there every third scene (the whole catalog took 140 s of
        // CI's softpipe suites, beside the sanitizers); llvmpipe and the CPU play them all.
        let thinned = backend == .gpu && ProcessInfo.processInfo.environment["GALLIUM_DRIVER"] == "softpipe"
        for (index, scene) in DemoScene.all.enumerated() where !thinned || index % 3 == 0 {
            var edits = TreeEdits(seed: UInt64(index) + 1)
            let times = [scene.time, scene.time, scene.time + 0.1, scene.time + 0.1, scene.time + 0.35]
            let root = scene.build()
            // Every other scene without its backdrop: damage over transparent pixels is cleared
            // first, where an opaque backdrop would hide a pixel left over.
            if index % 2 == 1 { root.backgroundColor = nil }
            let run = try playDamaged(root, bounds: scene.bounds, scale: scene.scale, backend: backend, times: times,
                                      edits: &edits, name: scene.name)
            total.frames += run.frames
            total.partial += run.partial
            total.unchanged += run.unchanged
        }
        // The damage path is taken, not only whole frames: a still scene's second frame is the
        // first reused, edits of small layers draw a part.
        let played = thinned ? (DemoScene.all.count + 2) / 3 : DemoScene.all.count
        #expect(total.unchanged >= played / 2, "\(total)")
        #expect(total.partial >= played, "\(total)")
    }

    @Test("random animated trees (hostile ones too), edited between frames, draw each frame's damage with a whole frame's bytes",
          arguments: RenderBackend.allCases)
    func randomTrees(backend: RenderBackend) throws {
        var total = DamageRun()
        for seed in UInt64(1)...16 {
            var input = FuzzedBytes(seed: 9_100 + seed, count: 2_048)
            // The last four hostile: NaN, infinite and huge geometry, left out alike in both frames.
            let root = RandomLayerTree.make(from: &input, size: 96, maxLayers: 16, hostile: seed > 12)
            if seed % 2 == 0 { root.backgroundColor = nil }
            // One of its layers moves and one fades, from time 0 to 1.
            if let layers = root.sublayers, !layers.isEmpty {
                let move = CABasicAnimation(keyPath: "position.x")
                move.fromValue = layers[0].position.x
                move.toValue = layers[0].position.x + 20
                move.duration = 1
                move.beginTime = 0
                layers[0].add(move, forKey: "move")
                let fade = CABasicAnimation(keyPath: "opacity")
                fade.fromValue = 1.0
                fade.toValue = 0.2
                fade.duration = 1
                fade.beginTime = 0
                layers[layers.count - 1].add(fade, forKey: "fade")
            }
            var edits = TreeEdits(seed: seed)
            let run = try playDamaged(root, bounds: CGRect(x: 0, y: 0, width: 96, height: 96), scale: 1, backend: backend,
                                      times: [0, 0.25, 0.5, 0.5, 0.75, 1.5, 1.5], edits: &edits, name: "random tree \(seed)")
            total.frames += run.frames
            total.partial += run.partial
            total.unchanged += run.unchanged
        }
        #expect(total.partial >= 12, "\(total)")
    }

    @Test("updateBounds: the whole bounds first, null when nothing changed, a moved layer's old and new place, and addUpdate's rectangle")
    func updateBounds() throws {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 80)
        root.backgroundColor = CGColor(gray: 1, alpha: 1)
        let dot = CALayer()
        dot.frame = CGRect(x: 10, y: 10, width: 10, height: 10)
        dot.backgroundColor = CGColor(gray: 0, alpha: 1)
        root.addSublayer(dot)
        CATransaction.commit()
        let renderer = CARenderer(backend: .cpu, scale: 2)
        renderer.layer = root
        renderer.bounds = CGRect(x: 0, y: 0, width: 100, height: 80)
        func frame(_ t: Double, adding update: CGRect? = nil) -> CGRect {
            renderer.beginFrame(atTime: t)
            if let update { renderer.addUpdate(update) }
            let bounds = renderer.updateBounds()
            renderer.render()
            renderer.endFrame()
            return bounds
        }
        #expect(frame(0) == renderer.bounds)
        #expect(frame(1).isNull)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        dot.position.x += 20
        CATransaction.commit()
        // The dot spans x 10..20 before and 30..40 after: 20..40 and 60..80 device pixels, with a
        // pixel more each side (a quad's pixel bounds) and the margin's 2: 17..83, 17..43.
        #expect(frame(2) == CGRect(x: 8.5, y: 8.5, width: 33, height: 13))
        #expect(frame(3, adding: CGRect(x: 50.25, y: 60, width: 10, height: 10)) == CGRect(x: 50, y: 60, width: 10.5, height: 10))
        renderer.redrawsWholeFrames = true
        #expect(frame(4) == renderer.bounds)
    }
}
