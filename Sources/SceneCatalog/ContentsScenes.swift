import Foundation
import OpenQuartzCore

/// Scenes about `contents` images: contentsRect, contentsGravity, contentsScale.
enum ContentsScenes {
    static var all: [DemoScene] { [contentsRectHalves, contentsGravity, contentsScale2, roundedCorners, cornerCurves, groupOpacity, shadows, shadowRadii, shadowRadiiPath] }

    static let cornerCurves = DemoScene(
        name: "corner-curves",
        summary: "cornerCurve: the top row circular, the bottom row continuous, at radius 10, 24 and 40 on 90x70 cards with "
            + "a 3-point border; continuous corners curve in gently from further along each edge (1.528 radii out) and "
            + "reach closer to the corner at the diagonal, without the kink where a quarter circle meets the edge. Right: "
            + "a test card clipped by masksToBounds with continuous corners of radius 24.",
        size: CGSize(width: 440, height: 180)
    ) {
        let root = SceneKit.root(CGSize(width: 440, height: 180))
        for (row, curve) in [CALayerCornerCurve.circular, .continuous].enumerated() {
            for (column, radius) in [10.0, 24, 40].enumerated() {
                let card = SceneKit.box("card", CGRect(x: 15 + CGFloat(column) * 105, y: 15 + CGFloat(row) * 85, width: 90, height: 70),
                                        SceneKit.color(0.3, 0.5, 0.85))
                card.cornerRadius = radius
                card.cornerCurve = curve
                card.borderWidth = 3
                card.borderColor = SceneKit.color(0.1, 0.2, 0.45)
                root.addSublayer(card)
            }
        }
        let clipped = CALayer()
        clipped.frame = CGRect(x: 330, y: 50, width: 96, height: 80)
        clipped.contents = TestCard.image()
        clipped.cornerRadius = 24
        clipped.cornerCurve = .continuous
        clipped.masksToBounds = true
        root.addSublayer(clipped)
        return root
    }

    static let shadowRadii = shadowRadii(usingPath: false)
    static let shadowRadiiPath = shadowRadii(usingPath: true)

    /// Four cards with shadow radius 0, 3, 20 and 100. One scene per shape source rather than
    /// both in one: eight overlapping hazes would stack eight 8-bit blends on every pixel, and GL
    /// rounds each one (the CPU reference rounds once), which drifts past the agreement bar.
    static func shadowRadii(usingPath: Bool) -> DemoScene {
        DemoScene(
            name: usingPath ? "shadow-radii-path" : "shadow-radii",
            summary: "Shadow radius 0, 3, 20 and 100 (left to right) under white rounded cards with offset (0, 8) and "
                + "opacity 0.7: a hard shifted copy, a soft edge, a wide glow, and a faint haze spread far beyond the "
                + "card (blurred on halved copies), darkening its left neighbour too. "
                + (usingPath ? "The shadows come from a rounded shadowPath inset 6 points, so they are a little smaller than the cards."
                             : "The shadows come from the cards' alpha."),
            size: CGSize(width: 480, height: 130)
        ) {
            let root = SceneKit.root(CGSize(width: 480, height: 130), color: SceneKit.color(0.75, 0.8, 0.85))
            for (i, radius) in [0.0, 3, 20, 100].enumerated() {
                let card = SceneKit.box("card", CGRect(x: 30 + CGFloat(i) * 115, y: 25, width: 80, height: 70), .white)
                card.cornerRadius = 10
                card.shadowOpacity = 0.7
                card.shadowRadius = radius
                card.shadowOffset = CGSize(width: 0, height: 8)
                if usingPath {
                    card.shadowPath = CGPath(roundedRect: card.bounds.insetBy(dx: 6, dy: 6), cornerWidth: 8, cornerHeight: 8)
                }
                root.addSublayer(card)
            }
            return root
        }
    }

    static let shadows = DemoScene(
        name: "shadows",
        summary: "Shadows: a rounded card (radius 12) with shadowOpacity 0.5, shadowRadius 6 and offset (0, 6) whose "
            + "shadow follows its corners (from its alpha); the same card with a shadowPath (a rounded rectangle); a "
            + "test card whose shadow is taken from its image's alpha (the fading band fades the shadow too), in blue "
            + "with offset (6, 6).",
        size: CGSize(width: 320, height: 130)
    ) {
        let root = SceneKit.root(CGSize(width: 320, height: 130), color: .white)
        for (i, usePath) in [false, true].enumerated() {
            let card = SceneKit.box("card", CGRect(x: 15 + CGFloat(i) * 100, y: 15, width: 80, height: 90), SceneKit.color(0.98, 0.96, 0.9))
            card.cornerRadius = 12
            card.shadowOpacity = 0.5
            card.shadowRadius = 6
            card.shadowOffset = CGSize(width: 0, height: 6)
            if usePath { card.shadowPath = CGPath(roundedRect: card.bounds, cornerWidth: 12, cornerHeight: 12) }
            root.addSublayer(card)
        }
        let image = CALayer()
        image.frame = CGRect(x: 220, y: 20, width: 88, height: 66)
        image.contents = TestCard.image()
        image.shadowOpacity = 0.8
        image.shadowRadius = 3
        image.shadowOffset = CGSize(width: 6, height: 6)
        image.shadowColor = SceneKit.color(0.1, 0.2, 0.8)
        root.addSublayer(image)
        return root
    }

    static let groupOpacity = DemoScene(
        name: "group-opacity-rounded-clip",
        summary: "Left pair: two overlapping squares in a parent at opacity 0.5; with group opacity (left) the overlap "
            + "is one colour, without (middle) the red shows through the blue. Right: a round avatar, a layer with "
            + "cornerRadius 40 and masksToBounds clipping an oversized test card sublayer to a smooth circle.",
        size: CGSize(width: 320, height: 110)
    ) {
        let root = SceneKit.root(CGSize(width: 320, height: 110))
        root.addSublayer(SceneKit.box("bar", CGRect(x: 0, y: 48, width: 210, height: 14), .black))
        for (i, grouped) in [true, false].enumerated() {
            let parent = CALayer()
            parent.frame = CGRect(x: 10 + CGFloat(i) * 100, y: 10, width: 90, height: 90)
            parent.opacity = 0.5
            parent.allowsGroupOpacity = grouped
            parent.addSublayer(SceneKit.box("red", CGRect(x: 0, y: 0, width: 60, height: 60), SceneKit.color(0.9, 0.1, 0.1)))
            parent.addSublayer(SceneKit.box("blue", CGRect(x: 30, y: 30, width: 60, height: 60), SceneKit.color(0.1, 0.2, 0.9)))
            root.addSublayer(parent)
        }
        let avatar = CALayer()
        avatar.frame = CGRect(x: 220, y: 10, width: 90, height: 90)
        avatar.cornerRadius = 45
        avatar.masksToBounds = true
        avatar.borderWidth = 3
        avatar.borderColor = .white
        let card = CALayer()
        card.frame = CGRect(x: -20, y: -10, width: 130, height: 110)
        card.contents = TestCard.image()
        avatar.addSublayer(card)
        root.addSublayer(avatar)
        return root
    }

    static let roundedCorners = DemoScene(
        name: "corners-and-borders",
        summary: "cornerRadius and borders: a blue card with radius 16 and a 4-point white border drawn over its "
            + "sublayer; a test card clipped to radius 24 by masksToBounds; a card with only its top-left and "
            + "bottom-right corners rounded and a dark 2-point border; the first card turned 40 degrees about y "
            + "under perspective, its corners and border still smooth.",
        size: CGSize(width: 320, height: 130)
    ) {
        let root = SceneKit.root(CGSize(width: 320, height: 130))
        func card(_ x: CGFloat) -> CALayer {
            let layer = SceneKit.box("card", CGRect(x: x, y: 15, width: 70, height: 100), SceneKit.color(0.2, 0.4, 0.9))
            layer.cornerRadius = 16
            layer.borderWidth = 4
            layer.borderColor = .white
            layer.addSublayer(SceneKit.box("overlap", CGRect(x: 40, y: 60, width: 40, height: 30), SceneKit.color(0.95, 0.6, 0.1)))
            return layer
        }
        root.addSublayer(card(10))
        let clipped = CALayer()
        clipped.frame = CGRect(x: 95, y: 15, width: 70, height: 100)
        clipped.contents = TestCard.image()
        clipped.cornerRadius = 24
        clipped.masksToBounds = true
        root.addSublayer(clipped)
        let diagonal = SceneKit.box("diagonal", CGRect(x: 180, y: 15, width: 60, height: 100), SceneKit.color(0.9, 0.85, 0.75))
        diagonal.cornerRadius = 20
        diagonal.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        diagonal.borderWidth = 2
        diagonal.borderColor = SceneKit.color(0.3, 0.25, 0.2)
        root.addSublayer(diagonal)
        let (_, stage) = ProjectionScenes.perspectiveStage(CGSize(width: 320, height: 130), m34: -1.0 / 300)
        stage.frame = CGRect(x: 240, y: 0, width: 80, height: 130)
        let turned = card(5)
        turned.transform = CATransform3DMakeRotation(40 * .pi / 180, 0, 1, 0)
        stage.addSublayer(turned)
        root.addSublayer(stage)
        return root
    }

    static let contentsRectHalves = DemoScene(
        name: "contents-rect-halves",
        summary: "As seed 002's page halves: one test card shown whole at the top, and below it two layers with "
            + "contentsRect (0,0,0.5,1) and (0.5,0,0.5,1) that show its left and right halves, set apart by a gap.",
        size: CGSize(width: 240, height: 180)
    ) {
        let root = SceneKit.root(CGSize(width: 240, height: 180))
        let image = TestCard.image()
        let whole = CALayer()
        whole.name = "whole"
        whole.frame = CGRect(x: 72, y: 8, width: 96, height: 72)
        whole.contents = image
        root.addSublayer(whole)
        for (i, half) in [CGRect(x: 0, y: 0, width: 0.5, height: 1), CGRect(x: 0.5, y: 0, width: 0.5, height: 1)].enumerated() {
            let layer = CALayer()
            layer.name = i == 0 ? "left half" : "right half"
            layer.frame = CGRect(x: 24 + CGFloat(i) * 100, y: 92, width: 92, height: 80)
            layer.contents = image
            layer.contentsRect = half
            root.addSublayer(layer)
        }
        return root
    }

    static let contentsGravity = DemoScene(
        name: "contents-gravity",
        summary: "Twelve 72x52 cells, one per contentsGravity, each showing a 48x36 test card (contentsScale 1) "
            + "placed as its gravity says; the resize gravities stretch, fit or fill the cell.",
        size: CGSize(width: 320, height: 200)
    ) {
        let root = SceneKit.root(CGSize(width: 320, height: 200))
        let image = TestCard.image(width: 48, height: 36)
        for (i, gravity) in CALayerContentsGravity.allCases.enumerated() {
            let cell = CALayer()
            cell.name = gravity.rawValue
            cell.frame = CGRect(x: 8 + CGFloat(i % 4) * 78, y: 8 + CGFloat(i / 4) * 64, width: 72, height: 52)
            cell.backgroundColor = SceneKit.color(0.75, 0.75, 0.8)
            cell.contents = image
            cell.contentsGravity = gravity
            root.addSublayer(cell)
        }
        return root
    }

    static let contentsScale2 = DemoScene(
        name: "contents-scale-2",
        summary: "At renderer scale 2, a 96x72-pixel card with contentsScale 2 and center gravity is 48x36 points, "
            + "pixel for pixel sharp; beside it the same image at contentsScale 1 is 96x72 points.",
        size: CGSize(width: 200, height: 100), scale: 2
    ) {
        let root = SceneKit.root(CGSize(width: 200, height: 100))
        let image = TestCard.image(width: 96, height: 72)
        for (i, contentsScale) in [CGFloat(2), 1].enumerated() {
            let layer = CALayer()
            layer.name = "contentsScale \(contentsScale)"
            layer.frame = CGRect(x: 2 + CGFloat(i) * 100, y: 2, width: 96, height: 96)
            layer.backgroundColor = SceneKit.color(0.75, 0.75, 0.8)
            layer.contents = image
            layer.contentsGravity = .center
            layer.contentsScale = contentsScale
            root.addSublayer(layer)
        }
        return root
    }
}
