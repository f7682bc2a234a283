import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 003's hypnosis view dragged: the left copy's position changes animate implicitly (it
    /// lags the finger), the right one's are made without actions. Each carries the challenges'
    /// badge: an image at half size, centred, with rounded corners and a shadow.
    static func hypnosisTree() -> CALayer {
        let window = root(480, 380, rgb(0xF2EFE6))
        let image = try? CGImage.load(contentsOf: examples.appendingPathComponent("page.png"))
        for (name, x) in [("with actions", 120.0), ("without actions", 360)] as [(String, CGFloat)] {
            let view = CAShapeLayer()
            view.name = name
            view.bounds = CGRect(x: 0, y: 0, width: 140, height: 140)
            view.position = CGPoint(x: x, y: 90)
            let circles = CGMutablePath()
            for radius in stride(from: CGFloat(66), to: 4, by: -10) {
                circles.addEllipse(in: CGRect(x: 70 - radius, y: 70 - radius, width: 2 * radius, height: 2 * radius))
            }
            view.path = circles
            view.fillColor = nil
            view.strokeColor = rgb(0x7A5CC2)
            view.lineWidth = 3
            view.backgroundColor = .white
            let badge = CALayer()
            badge.bounds = CGRect(x: 0, y: 0, width: 70, height: 70)
            badge.position = CGPoint(x: 70, y: 70)
            badge.contents = image
            badge.contentsGravity = .resizeAspect
            badge.cornerRadius = 12
            badge.opacity = 0.85
            badge.shadowOpacity = 0.8
            badge.shadowRadius = 4
            badge.shadowOffset = CGSize(width: 0, height: 3)
            view.addSublayer(badge)
            window.addSublayer(view)
        }
        return window
    }

    /// A touch moved `dy` points down: the left view follows with its implicit animation, the
    /// right one at once.
    static func drag(_ root: CALayer, by dy: CGFloat) {
        layer("with actions", in: root).position = CGPoint(x: 120, y: 90 + dy)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer("without actions", in: root).position = CGPoint(x: 360, y: 90 + dy)
        CATransaction.commit()
    }
}
