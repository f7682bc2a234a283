import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 000's keyframe animation along a circle: three times round and back, paced.
    static func keyframeCircle() -> CALayer {
        let stage = root(240, 240, .white)
        let orbit = CGPath(ellipseIn: CGRect(x: 40, y: 40, width: 160, height: 160), transform: nil)
        let track = CAShapeLayer()
        track.frame = stage.bounds
        track.path = orbit
        track.fillColor = nil
        track.strokeColor = rgb(0xCCCCCC)
        track.lineWidth = 2
        track.lineDashPattern = [6, 4]
        let dot = CALayer()
        dot.bounds = CGRect(x: 0, y: 0, width: 24, height: 24)
        dot.position = CGPoint(x: 200, y: 120)
        dot.backgroundColor = rgb(0x2A7DE1)
        dot.cornerRadius = 12
        let around = CAKeyframeAnimation(keyPath: "position")
        around.path = orbit
        around.duration = 2
        around.repeatCount = 3
        around.autoreverses = true
        around.calculationMode = .paced
        dot.add(around, forKey: "orbit")
        stage.addSublayer(track)
        stage.addSublayer(dot)
        return stage
    }
}
