import Foundation
import OpenQuartzCore

/// Scenes about CATransformLayer: layers kept in 3D and drawn in depth order.
enum Scene3DScenes {
    static var all: [DemoScene] { [cube, intersectingPlanes, carousel, wideLayer] }

    static let carousel = DemoScene(
        name: "replicator-preserves-depth",
        summary: "Two carousels of eight translucent cards on a ring of radius 60, made by a replicator (instanceTransform "
            + "a 45-degree turn about y, instance colour shading blue to red), seen tilted under perspective. Left, "
            + "preservesDepth false: the instances are flattened into the replicator's plane, so the ring collapses "
            + "to three columns of overlapping cards drawn in instance order (the two edge-on ones vanish). "
            + "Right, preservesDepth true: the cards are depth-sorted, the near ones (larger) in front.",
        size: CGSize(width: 360, height: 170)
    ) {
        let root = SceneKit.root(CGSize(width: 360, height: 170))
        for (i, preserves) in [false, true].enumerated() {
            let stage = CALayer()
            stage.frame = CGRect(x: CGFloat(i) * 180, y: 0, width: 180, height: 170)
            var perspective = CATransform3DIdentity
            perspective.m34 = -1.0 / 350
            stage.sublayerTransform = perspective
            let ring = CAReplicatorLayer()
            ring.bounds = CGRect(x: 0, y: 0, width: 40, height: 56)
            ring.position = CGPoint(x: 90, y: 85)
            ring.instanceCount = 8
            ring.instanceTransform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
            ring.instanceColor = SceneKit.color(0.2, 0.4, 1)
            ring.instanceRedOffset = 0.1
            ring.instanceBlueOffset = -0.1
            ring.preservesDepth = preserves
            ring.transform = CATransform3DMakeRotation(-0.35, 1, 0, 0)
            let card = SceneKit.box("card", ring.bounds, SceneKit.color(1, 1, 1, 0.85))
            card.borderWidth = 2
            card.borderColor = CGColor(gray: 0.1, alpha: 1)
            card.transform = CATransform3DMakeTranslation(0, 0, 60)
            ring.addSublayer(card)
            stage.addSublayer(ring)
            root.addSublayer(stage)
        }
        return root
    }

    static let wideLayer = DemoScene(
        name: "wide-layer-20000",
        summary: "A layer 20,000 points wide whose contents are a 20,000-pixel image (wider than the GL texture "
            + "limit, so the GPU draws it in tiles): twenty 1,000-pixel blocks shading from dark to light blue, "
            + "each with an orange bar at its left end, shrunk 50 times to fit 400 points: an even row of "
            + "blocks with no seam or jump where the tiles meet.",
        size: CGSize(width: 420, height: 70)
    ) {
        let root = SceneKit.root(CGSize(width: 420, height: 70))
        let bitmap = Bitmap(width: 20_000, height: 40) { x, _ in
            let block = x / 1000, within = x % 1000
            if within < 150 { return (240, 140, 20, 255) }
            let shade = UInt8(60 + block * 9)
            return (shade / 3, shade / 2 + 40, shade + 20, 255)
        }
        let wide = CALayer()
        wide.name = "wide"
        wide.bounds = CGRect(x: 0, y: 0, width: 20_000, height: 40)
        wide.contents = CGImage(bitmap: bitmap)
        wide.position = CGPoint(x: 210, y: 35)
        wide.transform = CATransform3DMakeScale(0.02, 0.02 * 25, 1)
        root.addSublayer(wide)
        return root
    }

    static let cube = DemoScene(
        name: "transform-layer-cube",
        summary: "A cube of six coloured 80-point faces (front red, back cyan, right green, left magenta, top blue, "
            + "bottom yellow) in a CATransformLayer, turned 30 degrees about y and -25 about x under perspective "
            + "(m34 = -1/500): its right side swings away, so the front, left and top faces show, the others hidden "
            + "behind them by the depth sort.",
        size: CGSize(width: 200, height: 200)
    ) {
        let (root, stage) = ProjectionScenes.perspectiveStage(CGSize(width: 200, height: 200), m34: -1.0 / 500)
        let cube = CATransformLayer()
        cube.name = "cube"
        cube.bounds = CGRect(x: 0, y: 0, width: 80, height: 80)
        cube.position = CGPoint(x: stage.bounds.midX, y: stage.bounds.midY)
        let faces: [(String, CATransform3D, CGColor)] = [
            ("front", CATransform3DMakeTranslation(0, 0, 40), SceneKit.color(0.9, 0.2, 0.2)),
            ("back", CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -40), .pi, 0, 1, 0), SceneKit.color(0.2, 0.8, 0.85)),
            ("right", CATransform3DRotate(CATransform3DMakeTranslation(40, 0, 0), .pi / 2, 0, 1, 0), SceneKit.color(0.2, 0.7, 0.3)),
            ("left", CATransform3DRotate(CATransform3DMakeTranslation(-40, 0, 0), -.pi / 2, 0, 1, 0), SceneKit.color(0.8, 0.3, 0.8)),
            ("top", CATransform3DRotate(CATransform3DMakeTranslation(0, -40, 0), .pi / 2, 1, 0, 0), SceneKit.color(0.2, 0.35, 0.9)),
            ("bottom", CATransform3DRotate(CATransform3DMakeTranslation(0, 40, 0), -.pi / 2, 1, 0, 0), SceneKit.color(0.95, 0.85, 0.2)),
        ]
        for (name, transform, color) in faces {
            let face = SceneKit.box(name, CGRect(x: 0, y: 0, width: 80, height: 80), color)
            face.borderWidth = 2
            face.borderColor = CGColor(gray: 0, alpha: 0.5)
            face.transform = transform
            cube.addSublayer(face)
        }
        cube.transform = CATransform3DRotate(CATransform3DMakeRotation(.pi / 6, 0, 1, 0), -25 * .pi / 180, 1, 0, 0)
        stage.addSublayer(cube)
        return root
    }

    static let intersectingPlanes = DemoScene(
        name: "transform-layer-intersecting",
        summary: "Two 120x80 planes crossing at right angles along a vertical line (red turned +45 degrees about y, "
            + "blue -45), in a CATransformLayer under perspective: each is split where they cross, so the near half "
            + "of each covers the far half of the other: red in front on the left, blue in front on the right.",
        size: CGSize(width: 220, height: 140)
    ) {
        let (root, stage) = ProjectionScenes.perspectiveStage(CGSize(width: 220, height: 140), m34: -1.0 / 400)
        let scene = CATransformLayer()
        scene.bounds = CGRect(x: 0, y: 0, width: 120, height: 80)
        scene.position = CGPoint(x: stage.bounds.midX, y: stage.bounds.midY)
        for (name, angle, color) in [("red", CGFloat.pi / 4, SceneKit.color(0.9, 0.2, 0.2)),
                                     ("blue", -CGFloat.pi / 4, SceneKit.color(0.2, 0.35, 0.9))] {
            let plane = SceneKit.box(name, CGRect(x: 0, y: 0, width: 120, height: 80), color)
            plane.transform = CATransform3DMakeRotation(angle, 0, 1, 0)
            scene.addSublayer(plane)
        }
        stage.addSublayer(scene)
        return root
    }
}
