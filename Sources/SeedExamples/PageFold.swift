import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 002's page fold: two half pages about the spine, each inside a container that casts
    /// the shadow (a rounded shadowPath, radius 100, opacity 0.9) because the page's rounded mask
    /// would clip its own; the pinch folds them (scale and turn about y) without actions.
    static func pageFoldTree() -> CALayer {
        let curtain = root(320, 240, rgb(0x6B7380))
        curtain.name = "curtain"
        let image = try? CGImage.load(contentsOf: examples.appendingPathComponent("page.png"))
        for left in [true, false] {
            let bounds = CGRect(x: 0, y: 0, width: 160, height: 240)
            let outline = CGMutablePath()
            outline.addRoundedRect(in: bounds, topLeft: left ? 25 : 0, topRight: left ? 0 : 25,
                                   bottomRight: left ? 0 : 25, bottomLeft: left ? 25 : 0)
            let shadow = CAShapeLayer()
            shadow.name = left ? "left shadow" : "right shadow"
            shadow.bounds = bounds
            shadow.position = CGPoint(x: 160, y: 120)
            shadow.anchorPoint = CGPoint(x: left ? 1 : 0, y: 0.5)
            shadow.transform = fold(left: left, scale: 1)
            shadow.shadowPath = outline
            shadow.shadowColor = .black
            shadow.shadowRadius = 100
            shadow.shadowOpacity = 0.9
            let page = CALayer()
            page.frame = bounds
            page.backgroundColor = .white
            page.contents = image
            page.contentsRect = CGRect(x: left ? 0 : 0.5, y: 0, width: 0.5, height: 1)
            var perspective = CATransform3DIdentity
            perspective.m34 = -1.0 / 2000
            page.transform = perspective
            let mask = CAShapeLayer()
            mask.frame = bounds
            mask.path = outline
            page.mask = mask
            shadow.addSublayer(page)
            curtain.addSublayer(shadow)
        }
        return curtain
    }

    /// The fold at pinch `scale`: turned by (1 - scale) pi about the spine, scaled, in perspective.
    static func fold(left: Bool, scale: CGFloat) -> CATransform3D {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 2000
        let turned = CATransform3DMakeRotation((left ? 1 : -1) * (1 - scale) * .pi, 0, 1, 0)
        return CATransform3DConcat(CATransform3DConcat(turned, CATransform3DMakeScale(scale, scale, scale)), perspective)
    }

    /// A pinch update: the finger drives the fold, so no actions.
    static func pinch(_ root: CALayer, to scale: CGFloat) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer("left shadow", in: root).transform = fold(left: true, scale: scale)
        layer("right shadow", in: root).transform = fold(left: false, scale: scale)
        CATransaction.commit()
    }
}
