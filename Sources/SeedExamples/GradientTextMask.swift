import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 000's gradient seen through text: a CATextLayer as the mask of a CAGradientLayer.
    static func gradientTextMask() -> CALayer {
        let stage = root(400, 160, rgb(0x202020))
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 20, y: 20, width: 360, height: 120)
        gradient.colors = [rgb(0xE52D27), rgb(0xF9D423), rgb(0x1E6FD9)]
        gradient.startPoint = CGPoint(x: 0, y: 0)
        gradient.endPoint = CGPoint(x: 1, y: 1)
        let text = CATextLayer()
        text.frame = CGRect(x: 0, y: 22, width: 360, height: 80)
        text.string = "Core Animation"
        text.font = "Helvetica-Bold"
        text.fontSize = 44
        text.alignmentMode = .center
        text.foregroundColor = .black
        text.contentsScale = 2
        gradient.mask = text
        stage.addSublayer(gradient)
        return stage
    }
}
