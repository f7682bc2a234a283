// Frames of animations rendered at fixed times: a frame at time t shows exactly the tree the
// animation describes at t, on both backends.
import Foundation
import OpenQuartzCore
import PixelDiff
import Testing

private func scene(x: CGFloat, rotation: CGFloat = 0) -> (root: CALayer, box: CALayer) {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
    root.backgroundColor = CGColor(gray: 0.9, alpha: 1)
    let box = CALayer()
    box.bounds = CGRect(x: 0, y: 0, width: 40, height: 30)
    box.position = CGPoint(x: x, y: 50)
    box.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)
    box.transform = CATransform3DMakeRotation(rotation, 0, 0, 1)
    root.addSublayer(box)
    return (root, box)
}

private func frame(_ root: CALayer, at t: Double, backend: RenderBackend = .cpu) throws -> (image: CGImage, next: Double) {
    let renderer = CARenderer(backend: backend)
    renderer.layer = root
    renderer.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
    renderer.beginFrame(atTime: t)
    renderer.render()
    renderer.endFrame()
    return (try renderer.makeImage(), renderer.nextFrameTime())
}

@Suite("Animation frames")
struct AnimationFrameTests {
    @Test("halfway through a position animation the frame equals the still scene at the halfway position",
          arguments: RenderBackend.allCases)
    func positionMidway(backend: RenderBackend) throws {
        let (root, box) = scene(x: 40)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 40.0
        move.toValue = 160.0
        move.beginTime = 10
        move.duration = 2
        box.add(move, forKey: "move")
        let animated = try frame(root, at: 11, backend: backend)
        let still = try frame(scene(x: 100).root, at: 0, backend: backend)
        let report = try ImageComparison.compare(still.image.bitmap, animated.image.bitmap, tolerance: 0)
        #expect(report.isIdentical, "\(report)")
        #expect(animated.next == 11) // still animating: draw the next frame as soon as possible
        #expect(box.position.x == 40) // the model is untouched
    }

    @Test("a rotation animation's midpoint renders as the still rotation")
    func rotationMidway() throws {
        let (root, box) = scene(x: 100)
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = Double.pi / 2
        spin.beginTime = 5
        spin.duration = 1
        box.add(spin, forKey: "spin")
        let animated = try frame(root, at: 5.5).image
        let still = try frame(scene(x: 100, rotation: .pi / 4).root, at: 0).image
        let report = try ImageComparison.compare(still.bitmap, animated.bitmap, tolerance: 1)
        #expect(report.pixelsOverTolerance == 0, "\(report)")
    }

    @Test("before an animation starts the renderer says when it will, and after it ends, never")
    func nextFrameTime() throws {
        let (root, box) = scene(x: 40)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        fade.beginTime = 20
        box.add(fade, forKey: "fade")
        #expect(try frame(root, at: 19).next == 20)
        #expect(try frame(root, at: 21).next == .infinity)
        #expect(box.animationKeys() == nil) // removed on completion
    }

    @Test("a frame sequence renders t0 through t1 at the rate, each frame as a still at its time")
    func frameSequence() throws {
        #expect(try CARenderer.frameTimes(from: 0, to: 1, fps: 4) == [0, 0.25, 0.5, 0.75, 1])
        #expect(try CARenderer.frameTimes(from: 0, to: 0.9, fps: 4) == [0, 0.25, 0.5, 0.75])
        let (root, box) = scene(x: 40)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 40.0
        move.toValue = 160.0
        move.beginTime = 0.0001 // not 0: that would mean "now"
        move.duration = 1
        move.fillMode = .both
        move.isRemovedOnCompletion = false
        box.add(move, forKey: "move")
        let renderer = CARenderer(backend: .cpu)
        renderer.layer = root
        renderer.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        var seen: [Double] = []
        try renderer.renderFrames(from: 0.0001, to: 1.0001, fps: 2) { index, time, image in
            seen.append(time)
            let expectedX = 40 + 120 * Double(index) / 2
            let still = try frame(scene(x: expectedX).root, at: 0).image
            #expect(try ImageComparison.compare(still.bitmap, image.bitmap, tolerance: 1).pixelsOverTolerance == 0, "frame \(index)")
        }
        #expect(seen.count == 3)
    }

    @Test("frame ranges that cannot make frames are errors that say why",
          arguments: [(0.0, -1.0, 30.0), (0, 1, 0), (0, 1, .nan), (0, .infinity, 30), (0, 1e7, 30)])
    func badFrameRanges(t0: Double, t1: Double, fps: Double) {
        #expect { try CARenderer.frameTimes(from: t0, to: t1, fps: fps) } throws: { "\($0)".contains("invalid frame sequence") }
    }
}
