import Foundation
import OpenQuartzCore

/// Scenes about `CALayer.mask`: hard and soft masks of every layer kind, and the page-fold
/// tutorial's discovery that a mask clips its layer's shadow.
public enum MaskScenes {
    static var all: [DemoScene] { [masks, maskedShadow, shapeMasks] + [1.0, 0.75, 0.48].map(pageFold) }

    static let shapeMasks = shapeMasks(viaPasses: false)

    /// Masks whose alpha is exactly a rectangle, rounded rectangle or circle, which the compositor
    /// applies as clips without an offscreen pass. `viaPasses` gives every mask an empty sublayer,
    /// which sends it through the general route (drawn offscreen, destination-in) instead: the two
    /// must look the same.
    public static func shapeMasks(viaPasses: Bool) -> DemoScene {
        DemoScene(
            name: viaPasses ? "shape-masks-via-passes" : "shape-masks",
            summary: "Shape masks: a test card cut to a circle by a CAShapeLayer (an avatar); a test card turned by 22.5 "
                + "degrees, cut by a smaller square plain layer turned the other way (a square tilted slightly left, two of its corners cut off by the card's edges); an orange card "
                + "swung about y under perspective, masked by a plain layer with cornerRadius 14 (its rounded corners "
                + "follow the perspective); a green card masked by a rounded-rectangle CAShapeLayer (a pill).",
            size: CGSize(width: 400, height: 110)
        ) {
            let root = SceneKit.root(CGSize(width: 400, height: 110))
            func finish(_ mask: CALayer) -> CALayer {
                if viaPasses { mask.addSublayer(CALayer()) }
                return mask
            }

            let avatar = CALayer()
            avatar.frame = CGRect(x: 10, y: 10, width: 90, height: 90)
            avatar.contents = TestCard.image()
            avatar.contentsGravity = .resizeAspectFill
            let circle = CAShapeLayer()
            circle.frame = avatar.bounds
            circle.path = CGPath(ellipseIn: avatar.bounds, transform: nil)
            avatar.mask = finish(circle)
            root.addSublayer(avatar)

            let card = CALayer()
            card.frame = CGRect(x: 115, y: 15, width: 80, height: 80)
            card.contents = TestCard.image()
            card.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 8))
            let square = SceneKit.box("mask", CGRect(x: 12, y: 12, width: 56, height: 56), .black)
            square.setAffineTransform(CGAffineTransform(rotationAngle: -.pi / 5))
            card.mask = finish(square)
            root.addSublayer(card)

            let stage = CALayer()
            stage.frame = CGRect(x: 200, y: 0, width: 100, height: 110)
            var perspective = CATransform3DIdentity
            perspective.m34 = -1.0 / 200
            stage.sublayerTransform = perspective
            let swung = SceneKit.box("orange", CGRect(x: 10, y: 15, width: 80, height: 80), SceneKit.color(1, 0.55, 0.1))
            swung.transform = CATransform3DMakeRotation(0.9, 0, 1, 0)
            let rounded = SceneKit.box("mask", CGRect(x: 6, y: 6, width: 68, height: 68), .black)
            rounded.cornerRadius = 14
            swung.mask = finish(rounded)
            stage.addSublayer(swung)
            root.addSublayer(stage)

            let green = SceneKit.box("green", CGRect(x: 305, y: 15, width: 85, height: 80), SceneKit.color(0.15, 0.65, 0.3))
            let pill = CAShapeLayer()
            pill.path = CGPath(roundedRect: CGRect(x: 5, y: 5, width: 75, height: 70), cornerWidth: 20, cornerHeight: 20)
            green.mask = finish(pill)
            root.addSublayer(green)
            return root
        }
    }

    static let masks = DemoScene(
        name: "masks",
        summary: "Masks: a red-yellow-blue gradient seen through the text 'Mask' (a CATextLayer as the mask, the seed's "
            + "gradient in letters); a test card through a five-pointed star (a CAShapeLayer, even-odd, so the star's "
            + "centre is cut out); a test card faded left to right by a soft mask (a gradient from opaque to "
            + "transparent); a rotated group of two squares masked by a circle that is itself a sublayer of an "
            + "unfilled mask layer.",
        size: CGSize(width: 400, height: 110)
    ) {
        let root = SceneKit.root(CGSize(width: 400, height: 110))
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 10, y: 15, width: 110, height: 80)
        gradient.colors = [SceneKit.color(0.9, 0.1, 0.1), SceneKit.color(1, 0.85, 0.1), SceneKit.color(0.1, 0.2, 0.9)]
        gradient.startPoint = CGPoint(x: 0, y: 0)
        gradient.endPoint = CGPoint(x: 1, y: 1)
        let text = DrawingScenes.textLayer("Mask", CGRect(x: 0, y: 12, width: 110, height: 60), font: "Helvetica-Bold", size: 40,
                                           alignment: .center)
        gradient.mask = text
        root.addSublayer(gradient)

        let starred = CALayer()
        starred.frame = CGRect(x: 125, y: 10, width: 90, height: 90)
        starred.contents = TestCard.image()
        let star = CAShapeLayer()
        star.frame = starred.bounds
        star.path = starPath(center: CGPoint(x: 45, y: 48), radius: 44)
        star.fillRule = .evenOdd
        starred.mask = star
        root.addSublayer(starred)

        let faded = CALayer()
        faded.frame = CGRect(x: 220, y: 20, width: 90, height: 70)
        faded.contents = TestCard.image()
        let fade = CAGradientLayer()
        fade.frame = faded.bounds
        fade.colors = [CGColor(gray: 0, alpha: 1), CGColor(gray: 0, alpha: 0)]
        fade.startPoint = CGPoint(x: 0, y: 0.5)
        fade.endPoint = CGPoint(x: 1, y: 0.5)
        faded.mask = fade
        root.addSublayer(faded)

        let group = CALayer()
        group.frame = CGRect(x: 320, y: 20, width: 70, height: 70)
        group.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 8))
        group.addSublayer(SceneKit.box("red", CGRect(x: 0, y: 0, width: 45, height: 45), SceneKit.color(0.9, 0.1, 0.1)))
        group.addSublayer(SceneKit.box("blue", CGRect(x: 25, y: 25, width: 45, height: 45), SceneKit.color(0.1, 0.2, 0.9)))
        let holder = CALayer()
        holder.frame = group.bounds
        let circle = CAShapeLayer()
        circle.path = CGPath(ellipseIn: CGRect(x: 5, y: 5, width: 60, height: 60), transform: nil)
        holder.addSublayer(circle)
        group.mask = holder
        root.addSublayer(group)
        return root
    }

    static let maskedShadow = DemoScene(
        name: "masked-shadow",
        summary: "The page-fold tutorial's shadow problem and its fix. Left: a white page with rounded outer corners "
            + "(a CAShapeLayer mask) and a shadow of its own: the mask clips the shadow away, only the page shows. "
            + "Right: the same page inside a container layer that carries the shadow (a rounded shadowPath, radius 8, "
            + "opacity 0.9): the shadow shows around the masked page.",
        size: CGSize(width: 300, height: 150)
    ) {
        let root = SceneKit.root(CGSize(width: 300, height: 150), color: SceneKit.color(0.55, 0.6, 0.65))
        let pageBounds = CGRect(x: 0, y: 0, width: 110, height: 110)
        let rounded = CGMutablePath()
        rounded.addRoundedRect(in: pageBounds, topLeft: 25, topRight: 0, bottomRight: 0, bottomLeft: 25)

        func page() -> CALayer {
            let page = SceneKit.box("page", pageBounds, .white)
            page.borderColor = CGColor(gray: 0.3, alpha: 1)
            page.borderWidth = 1
            let mask = CAShapeLayer()
            mask.frame = pageBounds
            mask.path = rounded
            page.mask = mask
            return page
        }
        let clipped = page()
        clipped.position = CGPoint(x: 80, y: 75)
        clipped.shadowColor = .black
        clipped.shadowOpacity = 0.9
        clipped.shadowRadius = 8
        root.addSublayer(clipped)

        let container = CALayer()
        container.name = "shadow container"
        container.bounds = pageBounds
        container.position = CGPoint(x: 220, y: 75)
        container.shadowPath = rounded
        container.shadowColor = .black
        container.shadowOpacity = 0.9
        container.shadowRadius = 8
        container.addSublayer(page())
        container.sublayers?.first?.position = CGPoint(x: 55, y: 55)
        root.addSublayer(container)
        return root
    }

    /// The page-fold tutorial (seed 002) at one pinch scale, ported line by line: two half-page
    /// shadow layers hinged at the spine (anchor points (1, 0.5) and (0, 0.5)) carrying
    /// rounded-rect shadowPaths with shadowRadius 100 and opacity 0.9, each holding a page that
    /// shows half of one image (contentsRect) and is masked to rounded outer corners by a
    /// CAShapeLayer; scaled by the pinch and turned (1 - scale) x pi about y, under the
    /// tutorial's perspective (m34 = -1/2000, from part one of the series).
    static func pageFold(scale pinch: Double) -> DemoScene {
        DemoScene(
            name: "page-fold-\(String(format: "%.2f", pinch))",
            summary: "The page fold at pinch scale \(pinch): "
                + (pinch == 1 ? "the book lies open and flat, its soft shadow (radius 100) darkening the curtain at the edges."
                   : "both pages turn towards the viewer about the spine and shrink, the right half of the test card on the "
                   + "right page, the left half on the left, rounded outer corners, a wide soft shadow around them."),
            size: CGSize(width: 320, height: 240)
        ) {
            let view = CGSize(width: 320, height: 240)
            let curtain = SceneKit.root(view, color: SceneKit.color(0.42, 0.45, 0.5))
            func makePerspectiveTransform() -> CATransform3D {
                var transform = CATransform3DIdentity
                transform.m34 = 1.0 / -2000
                return transform
            }
            let image = TestCard.image()
            for (side, corners) in [(0, [true, false, false, true]), (1, [false, true, true, false])] {
                let shadowLayer = CAShapeLayer()
                shadowLayer.name = side == 0 ? "left page shadow" : "right page shadow"
                shadowLayer.anchorPoint = CGPoint(x: side == 0 ? 1 : 0, y: 0.5)
                shadowLayer.position = CGPoint(x: view.width / 2, y: view.height / 2)
                shadowLayer.bounds = CGRect(x: 0, y: 0, width: view.width / 2, height: view.height)
                let rounded = CGMutablePath()
                rounded.addRoundedRect(in: shadowLayer.bounds, topLeft: corners[0] ? 25 : 0, topRight: corners[1] ? 25 : 0,
                                       bottomRight: corners[2] ? 25 : 0, bottomLeft: corners[3] ? 25 : 0)
                shadowLayer.shadowPath = rounded
                shadowLayer.shadowColor = .black
                shadowLayer.shadowRadius = 100
                shadowLayer.shadowOpacity = 0.9
                let page = CALayer()
                page.name = side == 0 ? "left page" : "right page"
                page.frame = shadowLayer.bounds
                page.backgroundColor = .white
                page.contents = image
                page.contentsRect = CGRect(x: side == 0 ? 0 : 0.5, y: 0, width: 0.5, height: 1)
                page.transform = makePerspectiveTransform()
                let mask = CAShapeLayer()
                mask.frame = page.bounds
                mask.path = rounded
                page.mask = mask
                var transform = makePerspectiveTransform()
                transform = CATransform3DScale(transform, pinch, pinch, pinch)
                transform = CATransform3DRotate(transform, (side == 0 ? 1 : -1) * (1 - pinch) * .pi, 0, 1, 0)
                shadowLayer.transform = transform
                shadowLayer.addSublayer(page)
                curtain.addSublayer(shadowLayer)
            }
            return curtain
        }
    }

    /// A pentagram: five points joined every second one, so the outline crosses itself and
    /// even-odd leaves the pentagon in the middle empty.
    static func starPath(center: CGPoint, radius: CGFloat) -> CGPath {
        let path = CGMutablePath()
        for i in 0..<5 {
            let angle = -CGFloat.pi / 2 + CGFloat(i) * 4 * .pi / 5
            let p = CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
            if i == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.closeSubpath()
        return path
    }
}

/// Scenes about `shouldRasterize`.
enum RasterizationScenes {
    static var all: [DemoScene] { [rasterize] }

    static let rasterize = DemoScene(
        name: "rasterize",
        summary: "The same badge (a rounded test card, a border and a text sublayer) scaled 2.5 times: rasterized "
            + "at rasterizationScale 1 (left) it is drawn into a 40-point bitmap first, so it comes out soft and "
            + "blocky, as in Core Animation; not rasterized (middle) it is crisp; rasterized at scale 3 (right) "
            + "it is crisp again.",
        size: CGSize(width: 330, height: 120)
    ) {
        let root = SceneKit.root(CGSize(width: 330, height: 120))
        for (i, mode) in [(true, 1.0), (false, 1.0), (true, 3.0)].enumerated() {
            let badge = CALayer()
            badge.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
            badge.position = CGPoint(x: 55 + CGFloat(i) * 110, y: 60)
            badge.contents = TestCard.image()
            badge.contentsGravity = .resizeAspectFill
            badge.cornerRadius = 8
            badge.masksToBounds = true
            badge.borderWidth = 1.5
            badge.borderColor = CGColor(gray: 0.1, alpha: 1)
            badge.addSublayer(DrawingScenes.textLayer("Qz", CGRect(x: 4, y: 10, width: 32, height: 20), font: "Helvetica-Bold",
                                                      size: 15, color: .white, alignment: .center))
            badge.transform = CATransform3DMakeScale(2.5, 2.5, 1)
            badge.shouldRasterize = mode.0
            badge.rasterizationScale = mode.1
            root.addSublayer(badge)
        }
        return root
    }
}
