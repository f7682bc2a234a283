import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 000's flip book: the frames as contents keyframes, dissolving (linear) and switching
    /// (discrete), paused and resumed by the layers' own timing.
    static func flipBook() -> CALayer {
        let stage = root(280, 150, rgb(0xFBFBFB))
        let frames = (1...6).compactMap { try? CGImage.load(contentsOf: examples.appendingPathComponent("flipbook/frame-\($0).png")) }
        for (name, x) in [("linear", 20.0), ("discrete", 150)] as [(String, CGFloat)] {
            let caption = CATextLayer()
            caption.frame = CGRect(x: x, y: 8, width: 110, height: 20)
            caption.string = name
            caption.fontSize = 13
            caption.foregroundColor = rgb(0x333333)
            caption.alignmentMode = .center
            caption.contentsScale = 2
            stage.addSublayer(caption)
        }
        for (name, x, mode) in [("linear", 27.0, CAAnimationCalculationMode.linear), ("discrete", 157, .discrete)] as [(String, CGFloat, CAAnimationCalculationMode)] {
            let book = CALayer()
            book.name = name
            book.frame = CGRect(x: x, y: 32, width: 96, height: 96)
            book.contents = frames.first
            let flip = CAKeyframeAnimation(keyPath: "contents")
            flip.values = frames
            flip.duration = 1.2
            flip.repeatCount = 1e9
            flip.calculationMode = mode
            book.add(flip, forKey: "flip")
            stage.addSublayer(book)
        }
        return stage
    }

    /// Pausing, as seed 000 does it: speed 0, the local time held in timeOffset.
    static func pauseFlipBook(_ root: CALayer, at time: Double) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for name in ["linear", "discrete"] {
            let book = layer(name, in: root)
            book.speed = 0
            book.timeOffset = time
        }
        CATransaction.commit()
    }

    /// Resuming: speed 1, timeOffset 0, and beginTime set so the local time goes on from the pause.
    static func resumeFlipBook(_ root: CALayer, pausedAt paused: Double, now: Double) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for name in ["linear", "discrete"] {
            let book = layer(name, in: root)
            book.speed = 1
            book.timeOffset = 0
            book.beginTime = now - paused
        }
        CATransaction.commit()
    }
}
