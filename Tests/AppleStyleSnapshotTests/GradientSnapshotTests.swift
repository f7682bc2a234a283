// The same, as a team writes it with Swift Testing: nothing in this file is OpenQuartz's.
import QuartzCore
import SnapshotTesting
import Testing

@Suite struct GradientSnapshotTests {
    private func sunset() -> CALayer {
        let base = CALayer()
        base.frame = CGRect(x: 0, y: 0, width: 120, height: 80)
        let gradient = CAGradientLayer()
        gradient.frame = base.bounds
        gradient.colors = [CGColor(red: 1, green: 0.45, blue: 0.2, alpha: 1), CGColor(red: 0.35, green: 0.1, blue: 0.55, alpha: 1)]
        gradient.startPoint = CGPoint(x: 0, y: 0)
        gradient.endPoint = CGPoint(x: 1, y: 1)
        base.addSublayer(gradient)
        let sun = CAShapeLayer()
        sun.path = CGPath(ellipseIn: CGRect(x: 40, y: 20, width: 40, height: 40), transform: nil)
        sun.fillColor = CGColor(red: 1, green: 0.9, blue: 0.5, alpha: 0.9)
        base.addSublayer(sun)
        return base
    }

    @Test func sunsetGradient() {
        assertSnapshot(of: sunset(), as: .image)
    }

    @Test func sunsetGradientPerceptually() {
        withSnapshotTesting(record: .missing) {
            assertSnapshot(of: sunset(), as: .image(perceptualPrecision: 0.98))
        }
    }
}
