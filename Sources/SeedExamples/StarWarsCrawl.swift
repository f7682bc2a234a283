import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 001's crawl: the text view's layer transform with m24 = -0.005, the text scrolled
    /// linearly for 35 s.
    static func starWarsCrawl() -> CALayer {
        let screen = root(1280, 720, .black)
        var trans = CATransform3DIdentity
        trans.m24 = -0.005
        let view = CALayer()
        view.frame = CGRect(x: 460, y: 180, width: 360, height: 540)
        view.backgroundColor = .black
        view.masksToBounds = true
        view.transform = trans
        let credits = CATextLayer()
        credits.bounds = CGRect(x: 0, y: 0, width: 360, height: 960)
        credits.position = CGPoint(x: 180, y: 720)
        credits.font = "Helvetica-Bold"
        credits.fontSize = 20
        credits.foregroundColor = rgb(0xFFFF00)
        credits.alignmentMode = .center
        credits.isWrapped = true
        credits.contentsScale = 2
        credits.string = crawlText
        let scroll = CABasicAnimation(keyPath: "position.y")
        scroll.fromValue = 720.0
        scroll.toValue = 160.0
        scroll.duration = 35
        scroll.timingFunction = CAMediaTimingFunction(name: .linear)
        scroll.fillMode = .forwards
        scroll.isRemovedOnCompletion = false
        credits.add(scroll, forKey: "scroll")
        view.addSublayer(credits)
        screen.addSublayer(view)
        return screen
    }

    static let crawlText = "Episode IV\n\nA NEW RENDERER\n\nIt is a period of headless servers. Rebel engineers, striking from a hidden repository, have won their first victory against the blank framebuffer.\n\nDuring the battle, they managed to steal secret plans to Core Animation's layer model, a compositor with enough power to draw an entire layer tree.\n\nPursued by flaky snapshot tests, they race home aboard their continuous integration, custodians of the stolen plans that can save their pixels and restore freedom to Linux..."
}
