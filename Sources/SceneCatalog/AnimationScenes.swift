import Foundation
import OpenQuartzCore

/// Scenes that show one frame of an animation (seed 000 6.3.6-6.3.10, seeds 002 and 003). Each
/// builds its animations to start at media time 0 and is shown at `time`; translucent markers
/// show where the motion starts, ends or passes, so a still frame can be judged.
enum AnimationScenes {
    static let size = CGSize(width: 240, height: 120)

    static var all: [DemoScene] {
        [implicitPosition, rotationKeyPath, keyframePaced, keyframeCubic, springOvershoot, groupCutShort,
         pausedLayer, nestedSpeeds, transformDecomposition, colorFade, transitions]
    }

    /// A 30x30 blue square centred at `center`.
    static func square(_ center: CGPoint, name: String = "square") -> CALayer {
        SceneKit.box(name, CGRect(x: center.x - 15, y: center.y - 15, width: 30, height: 30), SceneKit.color(0.2, 0.4, 0.9))
    }

    static let implicitPosition = DemoScene(
        name: "anim-implicit-position",
        summary: "Seed 003: a drawn layer's position set from x 40 to x 200 animates implicitly (0.25 s, default curve); "
            + "at 0.125 s it is past the middle (the default curve starts fast), between the two markers.",
        size: size, time: 0.125
    ) {
        let root = SceneKit.root(size)
        root.addSublayer(SceneKit.marker(CGPoint(x: 40, y: 60), size: 30))
        root.addSublayer(SceneKit.marker(CGPoint(x: 200, y: 60), size: 30))
        let layer = square(CGPoint(x: 40, y: 60))
        root.addSublayer(layer)
        root.markLive() // as if an earlier frame had drawn it
        layer.position = CGPoint(x: 200, y: 60)
        CATransaction.flush()
        return root
    }

    static let rotationKeyPath = DemoScene(
        name: "anim-rotation-y",
        summary: "Seed 000's 3D key path: transform.rotation.y from 0 to pi over 1 s under m34 = -0.005; at 0.35 s the "
            + "test card has turned 63 degrees, its right edge receding.",
        size: size, time: 0.35
    ) {
        let (root, stage) = ProjectionScenes.perspectiveStage(size, m34: -0.005)
        let card = CALayer()
        card.name = "card"
        card.frame = CGRect(x: 80, y: 20, width: 80, height: 80)
        card.contents = TestCard.image()
        let turn = CABasicAnimation(keyPath: "transform.rotation.y")
        turn.fromValue = 0.0
        turn.toValue = Double.pi
        turn.duration = 1
        card.add(turn, forKey: "turn")
        stage.addSublayer(card)
        return root
    }

    static let zigzag = [CGPoint(x: 30, y: 90), CGPoint(x: 70, y: 30), CGPoint(x: 90, y: 90), CGPoint(x: 210, y: 30)]

    static let keyframePaced = DemoScene(
        name: "anim-keyframe-paced",
        summary: "A paced keyframe animation through four points (markers), 1 s: at 0.6 s the square has covered 60% "
            + "of the zigzag's length, a fifth of the way along the long last leg, whatever the spacing of the points.",
        size: size, time: 0.6
    ) {
        let root = SceneKit.root(size)
        for point in zigzag { root.addSublayer(SceneKit.marker(point)) }
        let layer = square(zigzag[0])
        let move = CAKeyframeAnimation(keyPath: "position")
        move.values = zigzag
        move.calculationMode = .paced
        move.duration = 1
        layer.add(move, forKey: "move")
        root.addSublayer(layer)
        return root
    }

    static let keyframeCubic = DemoScene(
        name: "anim-keyframe-cubic",
        summary: "A cubic (Catmull-Rom) keyframe animation through the same four points: at 0.5 s the square is "
            + "halfway along the middle segment, at (75, 60), left of the straight line between the second and third markers.",
        size: size, time: 0.5
    ) {
        let root = SceneKit.root(size)
        for point in zigzag { root.addSublayer(SceneKit.marker(point)) }
        let layer = square(zigzag[0])
        let move = CAKeyframeAnimation(keyPath: "position")
        move.values = zigzag
        move.calculationMode = .cubic
        move.duration = 1
        layer.add(move, forKey: "move")
        root.addSublayer(layer)
        return root
    }

    static let springOvershoot = DemoScene(
        name: "anim-spring",
        summary: "A spring (damping 5) moving the square from x 40 to x 180: at 0.25 s it has overshot the target "
            + "marker to the right (x 223).",
        size: size, time: 0.25
    ) {
        let root = SceneKit.root(size)
        root.addSublayer(SceneKit.marker(CGPoint(x: 40, y: 60), size: 30))
        root.addSublayer(SceneKit.marker(CGPoint(x: 180, y: 60), size: 30))
        let layer = square(CGPoint(x: 180, y: 60))
        let spring = CASpringAnimation(keyPath: "position.x")
        spring.fromValue = 40.0
        spring.toValue = 180.0
        spring.damping = 5
        spring.duration = spring.settlingDuration
        layer.add(spring, forKey: "spring")
        root.addSublayer(layer)
        return root
    }

    static let groupCutShort = DemoScene(
        name: "anim-group-cut-short",
        summary: "Seed 000's group: a 4 s child growing a bar from 0 to 160 points inside a 1 s group (fill forwards): "
            + "at 2 s the bar holds at 40, a quarter, short of the 160 marker.",
        size: size, time: 2
    ) {
        let root = SceneKit.root(size)
        root.addSublayer(SceneKit.box("full length", CGRect(x: 40, y: 50, width: 160, height: 20), CGColor(gray: 0, alpha: 0.15)))
        let bar = CALayer()
        bar.name = "bar"
        bar.anchorPoint = CGPoint(x: 0, y: 0.5)
        bar.bounds = CGRect(x: 0, y: 0, width: 160, height: 20)
        bar.position = CGPoint(x: 40, y: 60)
        bar.backgroundColor = SceneKit.color(0.9, 0.5, 0.1)
        let grow = CABasicAnimation(keyPath: "bounds.size.width")
        grow.fromValue = 0.0
        grow.toValue = 160.0
        grow.duration = 4
        let group = CAAnimationGroup()
        group.animations = [grow]
        group.duration = 1
        group.fillMode = .forwards
        group.isRemovedOnCompletion = false
        bar.add(group, forKey: "group")
        root.addSublayer(bar)
        return root
    }

    static let pausedLayer = DemoScene(
        name: "anim-paused",
        summary: "Seed 000's pause recipe: a layer's speed set to 0 with timeOffset 0.5 freezes its 1 s quarter-turn "
            + "halfway; shown at 10 s it is still turned 45 degrees, like the reference outline.",
        size: size, time: 10
    ) {
        let root = SceneKit.root(size)
        let reference = SceneKit.box("reference", CGRect(x: 100, y: 40, width: 40, height: 40), CGColor(gray: 0, alpha: 0.2))
        reference.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        root.addSublayer(reference)
        let holder = CALayer()
        holder.frame = CGRect(origin: .zero, size: size)
        let layer = square(CGPoint(x: 120, y: 60))
        let turn = CABasicAnimation(keyPath: "transform.rotation.z")
        turn.fromValue = 0.0
        turn.toValue = Double.pi / 2
        turn.duration = 1
        turn.fillMode = .both
        turn.isRemovedOnCompletion = false
        layer.add(turn, forKey: "turn")
        holder.addSublayer(layer)
        holder.speed = 0
        holder.timeOffset = 0.5
        root.addSublayer(holder)
        return root
    }

    static let nestedSpeeds = DemoScene(
        name: "anim-nested-speeds",
        summary: "Seed 000's nested time spaces: speeds 3, 0.5 and 4 multiply to 6, so at 0.05 s the left square has "
            + "turned as far as the right one, with speed 1, does at 0.3 s (about 54 degrees of a 1 s half-turn).",
        size: size, time: 0.05
    ) {
        let root = SceneKit.root(size)
        var parent = root
        for speed in [Float(3), 0.5, 4] {
            let level = CALayer()
            level.frame = CGRect(origin: .zero, size: size)
            level.speed = speed
            parent.addSublayer(level)
            parent = level
        }
        func turning(_ center: CGPoint, beginTime: Double) -> CALayer {
            let layer = square(center)
            let turn = CABasicAnimation(keyPath: "transform.rotation.z")
            turn.fromValue = 0.0
            turn.toValue = Double.pi
            turn.duration = 1
            turn.beginTime = beginTime
            layer.add(turn, forKey: "turn")
            return layer
        }
        parent.addSublayer(turning(CGPoint(x: 70, y: 60), beginTime: 0))
        // The reference runs in media time, offset so that media 0.05 is 0.3 s into it.
        root.addSublayer(turning(CGPoint(x: 170, y: 60), beginTime: -0.25))
        return root
    }

    static let transformDecomposition = DemoScene(
        name: "anim-transform-decomposition",
        summary: "A transform animation from the identity to a 120-degree turn with scale 2: halfway it is a rigid "
            + "60-degree turn at scale 1.5 (decomposed interpolation), not a shrunken matrix blend.",
        size: size, time: 0.5
    ) {
        let root = SceneKit.root(size)
        let layer = square(CGPoint(x: 120, y: 60))
        let change = CABasicAnimation(keyPath: "transform")
        change.fromValue = CATransform3DIdentity
        change.toValue = CATransform3DScale(CATransform3DMakeRotation(2 * .pi / 3, 0, 0, 1), 2, 2, 1)
        change.duration = 1
        layer.add(change, forKey: "change")
        root.addSublayer(layer)
        return root
    }

    static let colorFade = DemoScene(
        name: "anim-color-opacity",
        summary: "backgroundColor from red to blue and opacity from 1 to 0.2 over 1 s: at 0.5 s the square is purple "
            + "at opacity 0.6 over the black bar.",
        size: size, time: 0.5
    ) {
        let root = SceneKit.root(size)
        root.addSublayer(SceneKit.box("bar", CGRect(x: 0, y: 55, width: 240, height: 10), .black))
        let layer = square(CGPoint(x: 120, y: 60))
        let color = CABasicAnimation(keyPath: "backgroundColor")
        color.fromValue = SceneKit.color(1, 0, 0)
        color.toValue = SceneKit.color(0, 0, 1)
        color.duration = 1
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.2
        fade.duration = 1
        layer.add(color, forKey: "color")
        layer.add(fade, forKey: "fade")
        root.addSublayer(layer)
        return root
    }

    /// A 100x80 card: a coloured field with a white bar, different for the old and new states.
    static func card(old: Bool) -> CALayer {
        let card = SceneKit.box(old ? "old card" : "new card", CGRect(x: 0, y: 0, width: 100, height: 80),
                                old ? SceneKit.color(0.95, 0.55, 0.1) : SceneKit.color(0.2, 0.45, 0.9))
        card.addSublayer(SceneKit.box("bar", old ? CGRect(x: 10, y: 10, width: 80, height: 14) : CGRect(x: 43, y: 8, width: 14, height: 64),
                                      .white))
        return card
    }

    static let transitions = DemoScene(
        name: "anim-transitions",
        summary: "Four containers swap an orange card (horizontal bar) for a blue one (vertical bar) with a 1 s linear "
            + "CATransition, shown halfway: fade (both at half strength), moveIn from the left (blue half over orange), "
            + "push from the right (orange leaving left, blue entering from the right), reveal from the top (orange "
            + "sliding down off the blue). Each is clipped to its container.",
        size: CGSize(width: 460, height: 100), time: 0.5
    ) {
        let root = SceneKit.root(CGSize(width: 460, height: 100))
        let kinds: [(CATransitionType, CATransitionSubtype)] = [(.fade, .fromLeft), (.moveIn, .fromLeft), (.push, .fromRight), (.reveal, .fromTop)]
        var containers: [CALayer] = []
        for i in kinds.indices {
            let container = CALayer()
            container.name = "container \(kinds[i].0.rawValue)"
            container.frame = CGRect(x: 10 + CGFloat(i) * 112, y: 10, width: 100, height: 80)
            container.addSublayer(card(old: true))
            root.addSublayer(container)
            containers.append(container)
        }
        root.markLive()
        CATransaction.flush() // the old cards are committed
        for (container, kind) in zip(containers, kinds) {
            container.sublayers = [card(old: false)]
            let transition = CATransition()
            transition.type = kind.0
            transition.subtype = kind.1
            transition.duration = 1
            transition.timingFunction = CAMediaTimingFunction(name: .linear)
            container.add(transition, forKey: kCATransition)
        }
        CATransaction.flush()
        return root
    }
}
