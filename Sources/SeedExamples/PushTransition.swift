import Foundation
import OpenQuartzCore

extension SeedExamples {
    static func pushTree() -> CALayer {
        let stage = root(200, 160, .white)
        let panel = CALayer()
        panel.name = "panel"
        panel.frame = CGRect(x: 40, y: 30, width: 120, height: 100)
        panel.backgroundColor = rgb(0x2D8F5A)
        panel.cornerRadius = 10
        stage.addSublayer(panel)
        return stage
    }

    /// Seed 000's push transition from the top: the new colour slides in over 0.6 s.
    static func pushFromTop(_ root: CALayer) {
        let panel = layer("panel", in: root)
        let push = CATransition()
        push.type = .push
        push.subtype = .fromTop
        push.duration = 0.6
        panel.add(push, forKey: "transition")
        panel.backgroundColor = rgb(0xD8A23B)
    }
}
