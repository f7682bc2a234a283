import Foundation
import OpenQuartzCore

/// Scenes about 2D geometry, order and visibility.
enum GeometryScenes {
    static let size = CGSize(width: 240, height: 180)

    static var all: [DemoScene] {
        [anchorPoints, nestedTransforms, zPositionOrder, opacityProducts, hiddenSubtree, masksToBounds, antiAliasing]
    }

    static let anchorPoints = DemoScene(
        name: "anchor-points",
        summary: "Three 60x40 layers share position (120, 90) with anchor points (0,0), (0.5,0.5) and (1,1): "
            + "red hangs right-down of the centre, green sits on it, blue left-up; each turned 15 degrees about its anchor.",
        size: size
    ) {
        let root = SceneKit.root(size)
        let colors = [SceneKit.color(0.85, 0.2, 0.2, 0.8), SceneKit.color(0.2, 0.7, 0.3, 0.8), SceneKit.color(0.2, 0.4, 0.85, 0.8)]
        for (i, anchor) in [CGPoint(x: 0, y: 0), CGPoint(x: 0.5, y: 0.5), CGPoint(x: 1, y: 1)].enumerated() {
            let layer = CALayer()
            layer.name = "anchor \(anchor)"
            layer.bounds = CGRect(x: 0, y: 0, width: 60, height: 40)
            layer.anchorPoint = anchor
            layer.position = CGPoint(x: 120, y: 90)
            layer.backgroundColor = colors[i]
            layer.transform = CATransform3DMakeRotation(.pi / 12, 0, 0, 1)
            root.addSublayer(layer)
        }
        let dot = SceneKit.box("position marker", CGRect(x: 118, y: 88, width: 4, height: 4), .black)
        root.addSublayer(dot)
        return root
    }

    static let nestedTransforms = DemoScene(
        name: "nested-transforms",
        summary: "A parent turned 30 degrees and scaled 1.2 holds a child turned a further 30 (60 in all) "
            + "and a grandchild scaled 0.5 and translated; the child's sublayerTransform shifts the grandchild 10 points.",
        size: size
    ) {
        let root = SceneKit.root(size)
        let parent = SceneKit.box("parent", CGRect(x: 60, y: 40, width: 120, height: 100), SceneKit.color(0.9, 0.8, 0.3))
        parent.transform = CATransform3DScale(CATransform3DMakeRotation(.pi / 6, 0, 0, 1), 1.2, 1.2, 1)
        let child = SceneKit.box("child", CGRect(x: 30, y: 25, width: 60, height: 50), SceneKit.color(0.3, 0.5, 0.9))
        child.transform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        child.sublayerTransform = CATransform3DMakeTranslation(10, 0, 0)
        let grandchild = SceneKit.box("grandchild", CGRect(x: 10, y: 10, width: 40, height: 30), SceneKit.color(0.9, 0.3, 0.3))
        grandchild.setAffineTransform(CGAffineTransform(scaleX: 0.5, y: 0.5).translatedBy(x: 10, y: 0))
        child.addSublayer(grandchild)
        parent.addSublayer(child)
        root.addSublayer(parent)
        return root
    }

    static let zPositionOrder = DemoScene(
        name: "zposition-order",
        summary: "Five overlapping squares added left to right; zPosition puts the second on top (z 2), the fourth "
            + "at the bottom (z -1), and the other three tie at z 0 and keep their order, later over earlier.",
        size: size
    ) {
        let root = SceneKit.root(size)
        let z: [CGFloat] = [0, 2, 0, -1, 0]
        for i in 0..<5 {
            let hue = CGFloat(i) / 5
            let layer = SceneKit.box("square \(i)", CGRect(x: 20 + CGFloat(i) * 35, y: 40 + CGFloat(i % 2) * 30, width: 70, height: 70),
                                     SceneKit.color(0.3 + 0.6 * hue, 0.8 - 0.5 * hue, 0.4 + 0.3 * (1 - hue)))
            layer.zPosition = z[i]
            root.addSublayer(layer)
        }
        return root
    }

    static let opacityProducts = DemoScene(
        name: "opacity-products",
        summary: "A parent without background at opacity 0.5 holds side-by-side children at 1, 0.5 and 0.25 over a "
            + "black bar: with group opacity (the default) the parent is composed first and faded as one, so they "
            + "show at 0.5, 0.25 and 0.125, and the white grandchild (0.5) sits on its opaque blue parent before "
            + "the fade, reading light blue rather than showing the bar through both.",
        size: size
    ) {
        let root = SceneKit.root(size)
        root.addSublayer(SceneKit.box("black bar", CGRect(x: 0, y: 70, width: 240, height: 40), .black))
        let parent = CALayer()
        parent.name = "parent"
        parent.frame = CGRect(x: 10, y: 30, width: 220, height: 120)
        parent.opacity = 0.5
        for (i, opacity) in [Float(1), 0.5, 0.25].enumerated() {
            let child = SceneKit.box("child \(opacity)", CGRect(x: CGFloat(i) * 75, y: 0, width: 65, height: 120), SceneKit.color(0.1, 0.3, 0.9))
            child.opacity = opacity
            parent.addSublayer(child)
        }
        let grandchild = SceneKit.box("grandchild", CGRect(x: 10, y: 90, width: 45, height: 20), SceneKit.color(1, 1, 1))
        grandchild.opacity = 0.5
        parent.sublayers?.first?.addSublayer(grandchild)
        root.addSublayer(parent)
        return root
    }

    static let hiddenSubtree = DemoScene(
        name: "hidden-subtree",
        summary: "Left: a visible green parent with a child. Right: a hidden parent whose visible child and "
            + "grandchild do not draw either; only the backdrop shows there.",
        size: size
    ) {
        let root = SceneKit.root(size)
        for (i, hidden) in [false, true].enumerated() {
            let parent = SceneKit.box(hidden ? "hidden parent" : "visible parent",
                                      CGRect(x: 20 + CGFloat(i) * 110, y: 40, width: 90, height: 100), SceneKit.color(0.2, 0.7, 0.3))
            parent.isHidden = hidden
            let child = SceneKit.box("child", CGRect(x: 15, y: 15, width: 60, height: 40), SceneKit.color(0.9, 0.4, 0.1))
            child.addSublayer(SceneKit.box("grandchild", CGRect(x: 10, y: 10, width: 20, height: 20), .white))
            parent.addSublayer(child)
            root.addSublayer(parent)
        }
        return root
    }

    static let masksToBounds = DemoScene(
        name: "masks-to-bounds",
        summary: "Left: a parent turned 20 degrees clips an overflowing child and, nested inside, a grandchild clipped "
            + "by both. Right: the same tree without masksToBounds, everything overflowing.",
        size: size
    ) {
        let root = SceneKit.root(size)
        for (i, clips) in [true, false].enumerated() {
            let parent = SceneKit.box("parent", CGRect(x: 25 + CGFloat(i) * 120, y: 45, width: 80, height: 90), SceneKit.color(0.85, 0.85, 0.9))
            parent.transform = CATransform3DMakeRotation(.pi / 9, 0, 0, 1)
            parent.masksToBounds = clips
            let child = SceneKit.box("child", CGRect(x: 40, y: -20, width: 70, height: 70), SceneKit.color(0.9, 0.5, 0.1, 0.9))
            child.masksToBounds = clips
            child.transform = CATransform3DMakeRotation(-.pi / 6, 0, 0, 1)
            let grandchild = SceneKit.box("grandchild", CGRect(x: -15, y: 30, width: 50, height: 60), SceneKit.color(0.2, 0.3, 0.8, 0.9))
            child.addSublayer(grandchild)
            parent.addSublayer(child)
            root.addSublayer(parent)
        }
        return root
    }

    static let antiAliasing = DemoScene(
        name: "anti-aliasing",
        summary: "A fan of 1-point-wide bars at 0 to 85 degrees and squares at quarter-pixel offsets: edges ramp "
            + "over one pixel with no gaps or jaggies.",
        size: size
    ) {
        let root = SceneKit.root(size, color: .white)
        for i in 0..<18 {
            let bar = CALayer()
            bar.name = "bar \(i)"
            bar.bounds = CGRect(x: 0, y: 0, width: 100, height: 1)
            bar.anchorPoint = CGPoint(x: 0, y: 0.5)
            bar.position = CGPoint(x: 15, y: 165)
            bar.backgroundColor = .black
            bar.transform = CATransform3DMakeRotation(-CGFloat(i) * 5 * .pi / 180, 0, 0, 1)
            root.addSublayer(bar)
        }
        for i in 0..<4 {
            let offset = CGFloat(i) * 0.25
            root.addSublayer(SceneKit.box("square +\(offset)", CGRect(x: 140 + CGFloat(i) * 22 + offset, y: 30 + offset, width: 15.5, height: 15.5),
                                          SceneKit.color(0.8, 0.1, 0.1)))
        }
        return root
    }
}
