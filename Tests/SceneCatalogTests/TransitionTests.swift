// CATransition: while it runs the old and new states of the layer's subtree both render, on both
// backends, from the state at the last commit to the state now.
import Foundation
import OpenQuartzCore
import PixelDiff
import Testing

private let frameBounds = CGRect(x: 0, y: 0, width: 120, height: 60)

/// A root holding a container with one solid card; returns both.
private func stage(color: CGColor) -> (root: CALayer, container: CALayer) {
    let root = CALayer()
    root.frame = frameBounds
    root.backgroundColor = CGColor(gray: 1, alpha: 1)
    let container = CALayer()
    container.frame = CGRect(x: 10, y: 10, width: 100, height: 40)
    let card = CALayer()
    card.frame = container.bounds
    card.backgroundColor = color
    container.addSublayer(card)
    root.addSublayer(container)
    return (root, container)
}

private let orange = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
private let blue = CGColor(red: 0, green: 0.25, blue: 1, alpha: 1)

private func render(_ root: CALayer, at t: Double, backend: RenderBackend) throws -> Bitmap {
    try CARenderer.image(of: root, bounds: frameBounds, backend: backend, atTime: t).bitmap
}

/// A container swapping its orange card for a blue one with `transition`, committed at time 0.
private func swapping(_ transition: CATransition, addFirst: Bool = false) -> CALayer {
    MediaClock.$scoped.withValue(0) {
        let (root, container) = stage(color: orange)
        root.markLive()
        CATransaction.flush()
        transition.duration = 1
        transition.timingFunction = CAMediaTimingFunction(name: .linear)
        let newCard = CALayer()
        newCard.frame = container.bounds
        newCard.backgroundColor = blue
        if addFirst { container.add(transition, forKey: kCATransition) }
        container.sublayers = [newCard]
        if !addFirst { container.add(transition, forKey: kCATransition) }
        CATransaction.flush()
        return root
    }
}

@Suite("Transitions")
struct TransitionTests {
    @Test("at its start a transition shows the old state, after its end the new", arguments: RenderBackend.allCases)
    func endpoints(backend: RenderBackend) throws {
        let start = try render(swapping(CATransition()), at: 0, backend: backend)
        let old = try render(stage(color: orange).root, at: 0, backend: backend)
        #expect(try ImageComparison.compare(old, start, tolerance: 1).pixelsOverTolerance == 0)
        let end = try render(swapping(CATransition()), at: 2, backend: backend)
        let new = try render(stage(color: blue).root, at: 0, backend: backend)
        #expect(try ImageComparison.compare(new, end, tolerance: 0).isIdentical)
    }

    @Test("halfway through a fade each pixel is the average of old and new", arguments: RenderBackend.allCases)
    func fadeMidpoint(backend: RenderBackend) throws {
        let mid = try render(swapping(CATransition()), at: 0.5, backend: backend)
        let pixel = mid[60, 30]
        #expect(abs(Int(pixel.0) - 128) <= 2 && abs(Int(pixel.1) - 96) <= 2 && abs(Int(pixel.2) - 128) <= 2 && pixel.3 == 255)
    }

    @Test("push from the right: the old state leaves to the left as the new one enters", arguments: RenderBackend.allCases)
    func push(backend: RenderBackend) throws {
        let transition = CATransition()
        transition.type = .push
        transition.subtype = .fromRight
        let mid = try render(swapping(transition), at: 0.25, backend: backend)
        // A quarter of the way: the container's first 75 points show orange, the last 25 blue.
        #expect(mid[20, 30] == (255, 128, 0, 255))
        #expect(mid[100, 30] == (0, 64, 255, 255))
        #expect(mid[5, 30] == (255, 255, 255, 255)) // clipped to the container
    }

    @Test("the old state is what was committed, whether the transition is added before or after the change")
    func orderOfChangeAndAdd() throws {
        let after = try render(swapping(CATransition(), addFirst: false), at: 0.5, backend: .cpu)
        let before = try render(swapping(CATransition(), addFirst: true), at: 0.5, backend: .cpu)
        #expect(after == before)
    }

    @Test("new contents on a drawn layer cross-fade by default")
    func contentsAction() {
        MediaClock.$scoped.withValue(0) {
            let layer = CALayer()
            layer.markLive()
            layer.contents = CGImage(bitmap: Bitmap(width: 1, height: 1))
            #expect(layer.animation(forKey: "contents") is CATransition)
        }
    }

    @Test("startProgress and endProgress pick the stretch of the effect that plays")
    func progressRange() throws {
        let partial = CATransition()
        partial.startProgress = 0.5
        partial.endProgress = 0.5
        let frozen = try render(swapping(partial), at: 0.1, backend: .cpu)
        let mid = try render(swapping(CATransition()), at: 0.5, backend: .cpu)
        #expect(try ImageComparison.compare(mid, frozen, tolerance: 1).pixelsOverTolerance == 0)
    }

    @Test("a contents animation between two images cross-fades them", arguments: RenderBackend.allCases)
    func contentsCrossFade(backend: RenderBackend) throws {
        let red = CGImage(bitmap: Bitmap(width: 4, height: 4) { _, _ in (255, 0, 0, 255) })
        let green = CGImage(bitmap: Bitmap(width: 4, height: 4) { _, _ in (0, 200, 0, 255) })
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        layer.contents = green
        let fade = CABasicAnimation(keyPath: "contents")
        fade.fromValue = red
        fade.toValue = green
        fade.beginTime = 3
        fade.duration = 1
        layer.add(fade, forKey: "contents")
        let mid = try CARenderer.image(of: layer, backend: backend, atTime: 3.25).bitmap[10, 10]
        #expect(abs(Int(mid.0) - 191) <= 2 && abs(Int(mid.1) - 50) <= 2 && mid.2 == 0 && mid.3 == 255)
        let done = try CARenderer.image(of: layer, backend: backend, atTime: 5).bitmap[10, 10]
        #expect(done == (0, 200, 0, 255))
    }
}
