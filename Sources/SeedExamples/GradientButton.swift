import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 000's gradient button: the gradient sits behind the title with zPosition -1.
    static func gradientButton() -> CALayer {
        let stage = root(320, 120, rgb(0xF4F4F4))
        let button = CALayer()
        button.frame = CGRect(x: 60, y: 30, width: 200, height: 60)
        button.cornerRadius = 12
        button.borderWidth = 1
        button.borderColor = rgb(0x6B7A8F)
        let title = CATextLayer()
        title.frame = CGRect(x: 0, y: 17, width: 200, height: 30)
        title.string = "Press me"
        title.font = "Helvetica-Bold"
        title.fontSize = 20
        title.foregroundColor = rgb(0x1D2B3A)
        title.alignmentMode = .center
        title.contentsScale = 2
        let shine = CAGradientLayer()
        shine.frame = button.bounds
        shine.cornerRadius = 12
        shine.masksToBounds = true
        shine.zPosition = -1
        shine.colors = [rgb(0xFFFFFF), rgb(0xB9C3CF)]
        button.addSublayer(title)
        button.addSublayer(shine)
        stage.addSublayer(button)
        return stage
    }
}
