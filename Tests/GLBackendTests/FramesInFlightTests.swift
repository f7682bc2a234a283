// Frames in flight (GLDevice.submit / collect, what `quartz animate` does on the GPU): drawn and
// queued for their copy through a pixel buffer, collected later, possibly after the next frame
// was submitted; the same pixels as `render`, and redrawn when the context is lost on the way.
import Compositor
import Foundation
import GLBackend
import OpenCoreGraphics
import Testing

@Suite("Frames in flight")
struct FramesInFlightTests {
    /// A second frame of another size, so the two frames' buffers differ.
    static func otherFrame() -> RenderList {
        RenderList.singlePass(20, 12, [DrawOp.rectangle(2.5, 1.25, 17, 10, fill: .solid(PremultipliedColor(red: 0.1, green: 0.5, blue: 0.3, alpha: 0.8)),
                                                        targetWidth: 20, targetHeight: 12)])
    }

    @Test("two frames submitted before either is collected come back as render draws them, in any order")
    func twoInFlight() throws {
        let first = try GLFrameFixtures.multiPassFrame(), second = Self.otherFrame()
        let reference = try GLDevice()
        let expected = (try reference.render(first), try reference.render(second))
        let device = try GLDevice()
        for _ in 0..<3 {
            let a = try device.submit(first), b = try device.submit(second)
            let late = try device.collect(b), early = try device.collect(a)
            #expect(early == expected.0)
            #expect(late == expected.1)
        }
        // Buffers are reused: a frame collected frees its buffer for the next of its size.
        let c = try device.submit(first)
        device.discard(c)
        #expect(try device.render(first) == expected.0)
    }

    @Test("a context lost between submit and collect, or replaced, gives the frame drawn anew")
    func lossInFlight() throws {
        let list = try GLFrameFixtures.multiPassFrame()
        let expected = try GLDevice().render(list)
        let device = try GLDevice()
        let pending = try device.submit(list)
        device.simulateContextLoss()
        #expect(try device.collect(pending) == expected)
        #expect(device.contextResets == 1)
        let stale = try device.submit(list)
        try device.replaceContextForTesting()
        #expect(try device.collect(stale) == expected, "a frame from the context before is drawn again")
    }
}
