import Foundation
import OpenQuartzCore

/// Seed 000's pie layer (Listing 6.39) in Swift: a custom animatable property and draw(in:).
final class PieLayer: CALayer {
    @Animatable("part", needsDisplay: true) var part: Double = 0

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "part" || super.needsDisplay(forKey: key)
    }

    override func draw(in ctx: CGContext) {
        let theBounds = bounds
        let center = CGPoint(x: theBounds.midX, y: theBounds.midY)
        let radius = min(theBounds.width, theBounds.height) / 2 - 5
        let angle = 2 * (part - 0.25) * .pi
        ctx.saveGState()
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.move(to: center)
        ctx.addArc(center: center, radius: radius, startAngle: -.pi / 2, endAngle: angle, clockwise: false)
        ctx.addLine(to: center)
        ctx.fillPath()
        ctx.restoreGState()
    }
}

/// Draws a five-pointed star, filled even-odd (hollow centre) and outlined with round joins.
final class StarDrawer: CALayerDelegate, Sendable {
    func draw(_ layer: CALayer, in ctx: CGContext) {
        let b = layer.bounds
        let center = CGPoint(x: b.midX, y: b.midY), radius = min(b.width, b.height) / 2 - 6
        for i in 0..<5 {
            let angle = -CGFloat.pi / 2 + CGFloat(i * 2) * 2 * .pi / 5 // every second point of five
            let p = CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
            if i == 0 { ctx.move(to: p) } else { ctx.addLine(to: p) }
        }
        ctx.closePath()
        ctx.setFillColor(CGColor(red: 1, green: 0.8, blue: 0.1, alpha: 1))
        ctx.setStrokeColor(CGColor(red: 0.3, green: 0.2, blue: 0.1, alpha: 1))
        ctx.setLineWidth(4)
        ctx.setLineJoin(.round)
        ctx.drawPath(using: .eoFillStroke)
    }
}

/// Scenes whose content is drawn by OpenCoreGraphics (seed 000's three ways to give content).
enum DrawingScenes {
    static let size = CGSize(width: 240, height: 120)
    static let starDrawer = StarDrawer()

    static var all: [DemoScene] { [drawnContent, animatedPie] }

    static let drawnContent = DemoScene(
        name: "drawn-content",
        summary: "Seed 000's drawn content: left, a PieLayer subclass (draw(in:)) showing part 0.3 as a red wedge "
            + "from 12 o'clock clockwise; right, a delegate-drawn star, filled even-odd (hollow pentagon in the middle) "
            + "and outlined 4 points wide with round joins, at contentsScale 2.",
        size: size
    ) {
        let root = SceneKit.root(size)
        let pie = PieLayer()
        pie.frame = CGRect(x: 10, y: 10, width: 100, height: 100)
        pie.backgroundColor = CGColor(gray: 1, alpha: 1)
        pie.part = 0.3
        pie.setNeedsDisplay()
        let star = CALayer()
        star.frame = CGRect(x: 130, y: 10, width: 100, height: 100)
        star.contentsScale = 2
        star.delegate = starDrawer
        star.setNeedsDisplay()
        root.addSublayer(pie)
        root.addSublayer(star)
        return root
    }

    static let animatedPie = DemoScene(
        name: "anim-pie",
        summary: "Seed 000's animated pie: part animates from 0 to 1 over 1 s (linear); at 0.5 s the presentation "
            + "layer redraws itself with part 0.5, a red half disc on the right.",
        size: size, time: 0.5
    ) {
        let root = SceneKit.root(size)
        let pie = PieLayer()
        pie.frame = CGRect(x: 70, y: 10, width: 100, height: 100)
        pie.setNeedsDisplay()
        let grow = CABasicAnimation(keyPath: "part")
        grow.fromValue = 0.0
        grow.toValue = 1.0
        grow.duration = 1
        pie.add(grow, forKey: "part")
        root.addSublayer(pie)
        return root
    }
}
