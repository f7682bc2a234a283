import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 000's content layer classes side by side: a gradient (Listing 6.42), a text layer
    /// (6.43), a scroll layer holding a long text (6.44) and a shape layer drawing a sine (6.45).
    static func layerGallery() -> CALayer {
        let stage = root(780, 180, rgb(0xE9E9EE))
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 15, y: 20, width: 180, height: 140)
        gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1),
                           CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        gradient.startPoint = CGPoint(x: 0, y: 0)
        gradient.endPoint = CGPoint(x: 1, y: 1)
        let sentence = "Die heiße Zypernsonne quälte Max und Victoria ja böse auf dem Weg bis zur Küste."
        func text(_ frame: CGRect, _ string: String, _ color: CGColor) -> CATextLayer {
            let layer = CATextLayer()
            layer.frame = frame
            layer.font = "Courier"
            layer.fontSize = 20
            layer.foregroundColor = color
            layer.isWrapped = true
            layer.string = string
            layer.contentsScale = 2
            return layer
        }
        let plain = text(CGRect(x: 210, y: 20, width: 180, height: 140), sentence, .black)
        plain.backgroundColor = .white
        let scroll = CAScrollLayer()
        scroll.frame = CGRect(x: 405, y: 20, width: 180, height: 140)
        scroll.scrollMode = .vertically
        scroll.backgroundColor = .white
        scroll.borderWidth = 1
        scroll.borderColor = rgb(0x888888)
        scroll.masksToBounds = true
        scroll.addSublayer(text(CGRect(x: 0, y: 0, width: 180, height: 420), Array(repeating: sentence, count: 4).joined(separator: " "),
                                rgb(0x1D3F66)))
        let sine = CAShapeLayer()
        sine.frame = CGRect(x: 600, y: 20, width: 180, height: 140)
        sine.backgroundColor = .white
        sine.strokeColor = .black
        sine.fillColor = .clear
        sine.lineWidth = 1
        let width = sine.bounds.width, offset = sine.bounds.height / 2
        func f(_ x: CGFloat) -> CGFloat { -50 * sin(2 * x) }
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: f(0) + offset))
        for x in stride(from: CGFloat(1), to: width, by: 1) {
            path.addLine(to: CGPoint(x: x, y: f(x * .pi / width) + offset))
        }
        sine.path = path
        for layer in [gradient, plain, scroll, sine] { stage.addSublayer(layer) }
        return stage
    }
}
