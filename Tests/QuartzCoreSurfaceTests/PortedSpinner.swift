// A loading spinner written for Apple's platforms, as open-source indicators are: a CAShapeLayer
// subclass with an initializer of its own, `override init(layer:)`, the `required init?(coder:)`
// Xcode inserts, boxed transforms, an animation tagged by key-value coding for its delegate, and
// a transaction's completion block. Nothing in this file was changed for Linux but the
// SpinnerTests below it.
import QuartzCore
import Testing

final class SpinnerLayer: CAShapeLayer, CAAnimationDelegate {
    private let trackColor: CGColor
    private(set) var stoppedAnimations: [String] = []

    init(frame: CGRect, color: CGColor) {
        trackColor = color
        super.init()
        self.frame = frame
        path = CGPath(ellipseIn: bounds.insetBy(dx: 4, dy: 4), transform: nil)
        strokeColor = color
        fillColor = nil
        lineWidth = 4
        lineCap = .round
        strokeEnd = 0.25
    }

    override init(layer: Any) {
        trackColor = (layer as? SpinnerLayer)?.trackColor ?? CGColor(gray: 0, alpha: 1)
        super.init(layer: layer)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override var bounds: CGRect {
        didSet { path = CGPath(ellipseIn: bounds.insetBy(dx: 4, dy: 4), transform: nil) }
    }

    func startAnimating(completion: @escaping () -> Void) {
        CATransaction.begin()
        CATransaction.setCompletionBlock(completion)
        let rotation = CABasicAnimation(keyPath: "transform")
        rotation.fromValue = NSValue(caTransform3D: CATransform3DIdentity)
        rotation.toValue = NSValue(caTransform3D: CATransform3DMakeRotation(CGFloat.pi, 0, 0, 1))
        rotation.duration = 0.5
        rotation.isCumulative = true
        rotation.repeatCount = 2
        rotation.timingFunction = CAMediaTimingFunction(name: CAMediaTimingFunctionName.linear)
        rotation.setValue("rotation", forKey: "animationName")
        rotation.delegate = self
        add(rotation, forKey: "rotation")

        let grow = CABasicAnimation(keyPath: "strokeEnd")
        grow.fromValue = NSNumber(value: 0.25)
        grow.toValue = NSNumber(value: 0.9)
        grow.duration = 0.5
        grow.autoreverses = true
        grow.fillMode = .forwards
        grow.isRemovedOnCompletion = false
        grow.setValue("grow", forKey: "animationName")
        grow.delegate = self
        add(grow, forKey: "grow")
        CATransaction.commit()
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        if flag, let name = anim.value(forKey: "animationName") as? String { stoppedAnimations.append(name) }
    }
}

@Suite("A spinner written for Apple's platforms")
struct SpinnerTests {
    @Test("compiles unchanged, turns and grows over its frames, and tells its delegate and transaction when done")
    func spinnerRuns() throws {
        let spinner = SpinnerLayer(frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: CGColor(red: 0, green: 0.4, blue: 1, alpha: 1))
        let renderer = CARenderer(backend: .cpu)
        renderer.layer = spinner
        renderer.bounds = spinner.frame
        renderer.beginFrame(atTime: 10)
        nonisolated(unsafe) var completed = false
        spinner.startAnimating { completed = true }
        var frames: [CGImage] = []
        try renderer.renderFrames(from: 10, to: 11.2, fps: 10) { _, _, image in frames.append(image) }
        #expect(frames.count >= 12)
        // A quarter turn apart (0.25 s at half a turn per 0.5 s) the arc is in another place.
        #expect(frames[0].bitmap != frames[2].bitmap && frames[2].bitmap != frames[4].bitmap)
        #expect(spinner.stoppedAnimations.sorted() == ["grow", "rotation"])
        #expect(completed)
        #expect(spinner.strokeEnd == 0.25, "the model keeps its value; the forwards-filled animation shows 0.25 again after reversing")
    }
}
