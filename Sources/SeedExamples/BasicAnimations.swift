import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 000's opacity and position animations.
    static func basicAnimations() -> CALayer {
        let stage = root(300, 140, .white)
        let fading = CALayer()
        fading.frame = CGRect(x: 20, y: 20, width: 40, height: 40)
        fading.backgroundColor = rgb(0x7A3BD8)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 1.5
        fade.timingFunction = CAMediaTimingFunction(name: .linear)
        fading.add(fade, forKey: "opacity")
        let moving = CALayer()
        moving.frame = CGRect(x: 20, y: 80, width: 40, height: 40)
        moving.backgroundColor = rgb(0xD83B3B)
        let move = CABasicAnimation(keyPath: "position")
        move.fromValue = CGPoint(x: 40, y: 100)
        move.toValue = CGPoint(x: 260, y: 100)
        move.duration = 1.5
        move.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        moving.add(move, forKey: "position")
        stage.addSublayer(fading)
        stage.addSublayer(moving)
        return stage
    }
}
