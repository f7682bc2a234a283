import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 000's group that cuts its child short: cornerRadius 0 -> 80 over 2 s in a 1 s group
    /// ends at 40.
    static func groupCutShort() -> CALayer {
        let stage = root(200, 200, .white)
        let square = CALayer()
        square.frame = CGRect(x: 20, y: 20, width: 160, height: 160)
        square.backgroundColor = rgb(0xE0662A)
        let corner = CABasicAnimation(keyPath: "cornerRadius")
        corner.fromValue = 0.0
        corner.toValue = 80.0
        corner.duration = 2
        let group = CAAnimationGroup()
        group.animations = [corner]
        group.duration = 1
        group.timingFunction = CAMediaTimingFunction(name: .linear)
        square.add(group, forKey: "group")
        stage.addSublayer(square)
        return stage
    }
}
