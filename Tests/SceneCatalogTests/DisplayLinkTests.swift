// A headless CADisplayLink: renderFrames fires scheduled links before each frame with that
// frame's time and duration, so code that animates by display link renders deterministically.
import Foundation
import OpenQuartzCore
import Testing

@Suite("CADisplayLink")
struct DisplayLinkTests {
    @Test("renderFrames fires the link before each frame with its time; the frame shows what it did")
    func drivesFrames() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
        let dot = CALayer()
        dot.bounds = CGRect(x: 0, y: 0, width: 4, height: 10)
        dot.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(dot)
        var seen: [(CFTimeInterval, CFTimeInterval, CFTimeInterval)] = []
        // Moves the dot 40 points a second, without implicit animation, as such code does.
        let link = CADisplayLink { link in
            seen.append((link.timestamp, link.targetTimestamp, link.duration))
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            dot.position = CGPoint(x: 2 + 40 * link.timestamp, y: 5)
            CATransaction.commit()
        }
        // The test thread's own run loop: renderers on other threads do not fire it.
        link.add(to: .current, forMode: .common)
        defer { link.invalidate() }
        let renderer = CARenderer(backend: .cpu)
        renderer.layer = root
        renderer.bounds = root.bounds
        var redAt: [Int] = []
        try renderer.renderFrames(from: 0, to: 0.5, fps: 4) { _, _, frame in
            redAt.append((0..<40).first { frame.bitmap[$0, 5] == (255, 0, 0, 255) } ?? -1)
        }
        #expect(seen.map(\.0) == [0, 0.25, 0.5])
        #expect(seen.allSatisfy { abs($0.2 - 0.25) < 1e-12 && abs($0.1 - ($0.0 + 0.25)) < 1e-12 })
        #expect(redAt == [0, 10, 20], "each frame shows the dot where the link put it for that frame")
    }

    @Test("a paused link is not fired, preferredFramesPerSecond skips frames, invalidate stops it")
    func pausingAndRates() throws {
        var fired: [CFTimeInterval] = []
        let link = CADisplayLink { fired.append($0.timestamp) }
        link.add(to: .current, forMode: .default)
        defer { link.invalidate() }
        let renderer = CARenderer(backend: .cpu)
        renderer.layer = CALayer()
        renderer.bounds = CGRect(x: 0, y: 0, width: 2, height: 2)
        link.preferredFramesPerSecond = 5
        try renderer.renderFrames(from: 0, to: 0.9, fps: 10) { _, _, _ in }
        #expect(fired == [0, 0.2, 0.4, 0.6, 0.8])
        fired = []
        link.isPaused = true
        try renderer.renderFrames(from: 1, to: 1.5, fps: 10) { _, _, _ in }
        #expect(fired.isEmpty)
        link.isPaused = false
        link.invalidate()
        try renderer.renderFrames(from: 2, to: 2.5, fps: 10) { _, _, _ in }
        #expect(fired.isEmpty)
    }
}
