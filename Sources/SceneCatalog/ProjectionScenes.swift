import Foundation
import OpenQuartzCore

/// Scenes about 3D transforms and perspective.
enum ProjectionScenes {
    static let size = CGSize(width: 240, height: 180)

    static var all: [DemoScene] {
        [rotateXPerspective, rotateYPerspective, crawl, edgeOn, behindTheEye, backFaceCulling, masksToBounds3D]
    }

    /// A container whose sublayerTransform has perspective m34 = -1/d, centred in the scene.
    static func perspectiveStage(_ size: CGSize, m34: CGFloat) -> (root: CALayer, stage: CALayer) {
        let root = SceneKit.root(size)
        let stage = CALayer()
        stage.name = "stage"
        stage.frame = CGRect(origin: .zero, size: size)
        var perspective = CATransform3DIdentity
        perspective.m34 = m34
        stage.sublayerTransform = perspective
        root.addSublayer(stage)
        return (root, stage)
    }

    static let rotateXPerspective = DemoScene(
        name: "rotate-x-m34-500",
        summary: "Under m34 = -1/500, a test card turned 50 degrees about x: its top edge recedes (narrower), its "
            + "bottom comes forward (wider), and the checker stays straight-lined and perspective-correct.",
        size: size
    ) {
        let (root, stage) = perspectiveStage(size, m34: -1.0 / 500)
        let card = CALayer()
        card.name = "card"
        card.frame = CGRect(x: 50, y: 30, width: 140, height: 105)
        card.contents = TestCard.image()
        card.transform = CATransform3DMakeRotation(50 * .pi / 180, 1, 0, 0)
        stage.addSublayer(card)
        return root
    }

    static let rotateYPerspective = DemoScene(
        name: "rotate-y-m34-0.005",
        summary: "The seed's perspective m34 = -0.005: two panels turned +40 and -40 degrees about y, like an open "
            + "book seen from the front; each panel's outer edge comes forward (taller) and its inner edge recedes.",
        size: size
    ) {
        let (root, stage) = perspectiveStage(size, m34: -0.005)
        for (i, angle) in [CGFloat(40), -40].enumerated() {
            let panel = CALayer()
            panel.name = "panel \(angle)"
            panel.bounds = CGRect(x: 0, y: 0, width: 90, height: 110)
            panel.anchorPoint = CGPoint(x: i == 0 ? 1 : 0, y: 0.5)
            panel.position = CGPoint(x: 120, y: 90)
            panel.contents = TestCard.image()
            panel.backgroundColor = SceneKit.color(0.2, 0.2, 0.25)
            panel.transform = CATransform3DMakeRotation(angle * .pi / 180, 0, 1, 0)
            stage.addSublayer(panel)
        }
        return root
    }

    static let crawl = DemoScene(
        name: "crawl-m24",
        summary: "Seed 001's crawl: a tall striped text column with transform.m24 = -0.005 leans back, its "
            + "top shrinking toward a vanishing point and its stripes getting thinner and closer.",
        size: size
    ) {
        let root = SceneKit.root(size, color: .black)
        let column = CALayer()
        column.name = "crawl"
        column.bounds = CGRect(x: 0, y: 0, width: 160, height: 320)
        column.anchorPoint = CGPoint(x: 0.5, y: 1)
        column.position = CGPoint(x: 120, y: 175)
        var lean = CATransform3DIdentity
        lean.m24 = -0.005
        column.transform = lean
        for line in 0..<16 {
            let width: CGFloat = line % 5 == 4 ? 90 : 150
            column.addSublayer(SceneKit.box("line \(line)", CGRect(x: (160 - width) / 2, y: CGFloat(line) * 20, width: width, height: 10),
                                            SceneKit.color(0.98, 0.82, 0.2)))
        }
        root.addSublayer(column)
        return root
    }

    static let edgeOn = DemoScene(
        name: "edge-on",
        summary: "Three layers turned exactly 90 degrees draw nothing: about y and about x without perspective, "
            + "and about y under perspective with the eye in its plane (centred). Only the green reference square "
            + "and, right, a fourth 90-degree layer under perspective but off-centre show: the eye is not in that "
            + "layer's plane, so it is seen as a thin sliver, as in any real projection.",
        size: size
    ) {
        let (root, stage) = perspectiveStage(size, m34: -1.0 / 500)
        stage.addSublayer(SceneKit.box("reference", CGRect(x: 15, y: 60, width: 50, height: 50), SceneKit.color(0.2, 0.6, 0.3)))
        let turned: [(name: String, x: CGFloat, axis: (CGFloat, CGFloat), perspective: Bool)] = [
            ("about y, flat", 80, (0, 1), false), ("about x, flat", 140, (1, 0), false),
            ("about y, centred under perspective", 100, (0, 1), true), ("about y, off-centre under perspective", 190, (0, 1), true),
        ]
        for item in turned {
            let layer = SceneKit.box(item.name, CGRect(x: item.x, y: 50, width: 40, height: 70), SceneKit.color(0.9, 0.1, 0.1))
            layer.transform = CATransform3DMakeRotation(.pi / 2, item.axis.0, item.axis.1, 0)
            (item.perspective ? stage : root).addSublayer(layer)
        }
        return root
    }

    static let behindTheEye = DemoScene(
        name: "behind-the-eye",
        summary: "Under m34 = -1/200, a long floor turned 80 degrees about x reaches past the eye: the part in front "
            + "fans out toward the bottom edge, the part behind the eye is clipped away, nothing is mirrored above.",
        size: size
    ) {
        let (root, stage) = perspectiveStage(size, m34: -1.0 / 200)
        let floor = CALayer()
        floor.name = "floor"
        floor.bounds = CGRect(x: 0, y: 0, width: 100, height: 600)
        floor.position = CGPoint(x: 120, y: 120)
        floor.contents = TestCard.image()
        floor.backgroundColor = SceneKit.color(0.3, 0.3, 0.35)
        floor.transform = CATransform3DMakeRotation(80 * .pi / 180, 1, 0, 0)
        stage.addSublayer(floor)
        return root
    }

    static let backFaceCulling = DemoScene(
        name: "back-face-culling",
        summary: "Two cards turned 150 degrees about y show their backs: the left (isDoubleSided true) draws "
            + "mirrored, the right (isDoubleSided false) is culled. Two unturned cards below draw normally.",
        size: size
    ) {
        let (root, stage) = perspectiveStage(size, m34: -1.0 / 500)
        for row in 0..<2 {
            for (i, doubleSided) in [true, false].enumerated() {
                let card = CALayer()
                card.name = "card \(doubleSided ? "double" : "single")-sided \(row == 0 ? "turned" : "front")"
                card.frame = CGRect(x: 40 + CGFloat(i) * 100, y: 12 + CGFloat(row) * 88, width: 80, height: 68)
                card.contents = TestCard.image()
                card.isDoubleSided = doubleSided
                if row == 0 { card.transform = CATransform3DMakeRotation(150 * .pi / 180, 0, 1, 0) }
                stage.addSublayer(card)
            }
        }
        return root
    }

    static let masksToBounds3D = DemoScene(
        name: "masks-to-bounds-3d",
        summary: "A panel turned 35 degrees about y under m34 = -1/400 clips its overflowing children to its own "
            + "trapezoid: the clip follows the perspective, with anti-aliased edges.",
        size: size
    ) {
        let (root, stage) = perspectiveStage(size, m34: -1.0 / 400)
        let panel = SceneKit.box("panel", CGRect(x: 50, y: 30, width: 140, height: 120), SceneKit.color(0.9, 0.9, 0.95))
        panel.masksToBounds = true
        panel.transform = CATransform3DMakeRotation(35 * .pi / 180, 0, 1, 0)
        for i in 0..<4 {
            let stripe = SceneKit.box("stripe \(i)", CGRect(x: -30, y: 10 + CGFloat(i) * 30, width: 200, height: 18),
                                      SceneKit.color(0.2 + 0.2 * CGFloat(i), 0.3, 0.8 - 0.15 * CGFloat(i)))
            stripe.transform = CATransform3DMakeRotation(CGFloat(i - 2) * 0.15, 0, 0, 1)
            panel.addSublayer(stripe)
        }
        stage.addSublayer(panel)
        return root
    }
}
