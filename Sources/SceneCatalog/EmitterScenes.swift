import Foundation
import OpenQuartzCore

/// Scenes of `CAEmitterLayer`: a fountain of sparks added together with trails of embers
/// (sub-emitters), confetti turning as it falls, and still particles that trace each emitter
/// shape and mode.
public enum EmitterScenes {
    static var all: [DemoScene] { [fountain, confetti, shapes] }

    /// A white disc whose alpha falls off from the centre: a spark, tinted by its cell's colour.
    static let softDot: CGImage = CGImage(bitmap: Bitmap(width: 16, height: 16) { x, y in
        let d = ((Double(x) - 7.5) * (Double(x) - 7.5) + (Double(y) - 7.5) * (Double(y) - 7.5)).squareRoot() / 8
        let a = max(0, 1 - d)
        let alpha = UInt8((a * a * 255).rounded())
        return (alpha, alpha, alpha, alpha)
    })

    /// A white 8 x 5 card: a piece of confetti.
    static let card: CGImage = CGImage(bitmap: Bitmap(width: 8, height: 5) { _, _ in (255, 255, 255, 255) })

    static let fountain = DemoScene(
        name: "emitter-fountain",
        summary: "CAEmitterLayer: sparks from a 60-point line rise at 150 pt/s within a 0.7-radian cone and fall back "
            + "(yAcceleration 120), shrinking and fading, added together (renderMode additive) so crowded sparks "
            + "brighten to yellow-white; each spark leaves a trail of small red embers (a sub-cell it emits as it moves). "
            + "Seed 11, at 2.5 s.",
        size: CGSize(width: 400, height: 300), time: 2.5
    ) {
        let root = SceneKit.root(CGSize(width: 400, height: 300), color: SceneKit.color(0.05, 0.05, 0.1))
        let emitter = CAEmitterLayer()
        emitter.name = "fountain"
        emitter.frame = root.bounds
        emitter.emitterPosition = CGPoint(x: 200, y: 270)
        emitter.emitterShape = .line
        emitter.emitterSize = CGSize(width: 60, height: 0)
        emitter.renderMode = .additive
        emitter.seed = 11
        let spark = CAEmitterCell()
        spark.name = "spark"
        spark.contents = softDot
        spark.birthRate = 90
        spark.lifetime = 2.2
        spark.lifetimeRange = 0.4
        spark.velocity = 150
        spark.velocityRange = 30
        spark.emissionLongitude = -.pi / 2
        spark.emissionRange = 0.7
        spark.yAcceleration = 120
        spark.scale = 1.1
        spark.scaleRange = 0.3
        spark.scaleSpeed = -0.3
        spark.color = SceneKit.color(1, 0.55, 0.15)
        spark.greenRange = 0.2
        spark.alphaSpeed = -0.35
        let ember = CAEmitterCell()
        ember.name = "ember"
        ember.contents = softDot
        ember.birthRate = 12
        ember.lifetime = 0.5
        ember.scale = 0.35
        ember.color = SceneKit.color(1, 0.2, 0.1, 0.8)
        ember.alphaSpeed = -1.6
        spark.emitterCells = [ember]
        emitter.emitterCells = [spark]
        root.addSublayer(emitter)
        return root
    }

    static let confetti = DemoScene(
        name: "emitter-confetti",
        summary: "CAEmitterLayer: confetti cards fall from a line along the top (rectangle of zero height), turning "
            + "(spin 3 +- 4 rad/s), drifting within a 1-radian cone, in random hues (colour ranges about a mid grey) and "
            + "drawn oldest last (the oldest in front); a second emitter sends blue dots outwards in every direction from a "
            + "circle's outline, fading as they go: a cloud about the centre. Seed 5, at 3 s.",
        size: CGSize(width: 400, height: 300), time: 3
    ) {
        let root = SceneKit.root(CGSize(width: 400, height: 300), color: SceneKit.color(0.97, 0.96, 0.93))
        let rain = CAEmitterLayer()
        rain.name = "confetti"
        rain.frame = root.bounds
        rain.emitterPosition = CGPoint(x: 200, y: -10)
        rain.emitterShape = .rectangle
        rain.emitterSize = CGSize(width: 420, height: 0)
        rain.renderMode = .oldestLast
        rain.seed = 5
        let piece = CAEmitterCell()
        piece.name = "piece"
        piece.contents = card
        piece.birthRate = 40
        piece.lifetime = 6
        piece.velocity = 70
        piece.velocityRange = 20
        piece.emissionLongitude = .pi / 2
        piece.emissionRange = 1
        piece.yAcceleration = 10
        piece.spin = 3
        piece.spinRange = 4
        piece.scale = 1.2
        piece.scaleRange = 0.4
        piece.color = SceneKit.color(0.55, 0.55, 0.55)
        piece.redRange = 0.45
        piece.greenRange = 0.45
        piece.blueRange = 0.45
        rain.emitterCells = [piece]
        root.addSublayer(rain)

        let ring = CAEmitterLayer()
        ring.name = "ring"
        ring.frame = CGRect(x: 100, y: 75, width: 200, height: 150)
        ring.emitterPosition = CGPoint(x: 100, y: 75)
        ring.emitterShape = .circle
        ring.emitterMode = .outline
        ring.emitterSize = CGSize(width: 20, height: 0)
        ring.seed = 9
        let dot = CAEmitterCell()
        dot.name = "dot"
        dot.contents = softDot
        dot.birthRate = 60
        dot.lifetime = 1.5
        dot.velocity = 50
        dot.emissionRange = 2 * .pi
        dot.scale = 0.6
        dot.color = SceneKit.color(0.1, 0.4, 0.95)
        dot.alphaSpeed = -0.6
        ring.emitterCells = [dot]
        root.addSublayer(ring)
        return root
    }

    static let shapes = DemoScene(
        name: "emitter-shapes",
        summary: "Where CAEmitterLayer gives birth, traced by still dots (30 a second, velocity 0, lifetime 10 s), one panel per shape "
            + "and mode on dark cells: point; line; line outline (its two ends); rectangle; rectangle outline; circle; "
            + "circle outline; and a sphere's surface, a cuboid's volume and a cuboid's edges, seen flat from the front. "
            + "Where every birth is at one spot (the point, the line's ends) the dots drift outwards at 10 pt/s for 2 s "
            + "instead, a small starburst, so they do not pile hundreds deep on the same pixels. At 4 s.",
        size: CGSize(width: 500, height: 200), time: 4
    ) {
        let root = SceneKit.root(CGSize(width: 500, height: 200), color: SceneKit.color(1, 1, 1))
        let panels: [(CAEmitterLayerEmitterShape, CAEmitterLayerEmitterMode)] = [
            (.point, .points), (.line, .points), (.line, .outline), (.rectangle, .surface), (.rectangle, .outline),
            (.circle, .points), (.circle, .outline), (.sphere, .surface), (.cuboid, .volume), (.cuboid, .outline),
        ]
        for (i, (shape, mode)) in panels.enumerated() {
            let cell = SceneKit.box("\(shape.rawValue) \(mode.rawValue)",
                                    CGRect(x: 5 + CGFloat(i % 5) * 99, y: 5 + CGFloat(i / 5) * 99, width: 94, height: 94),
                                    SceneKit.color(0.12, 0.13, 0.16))
            let emitter = CAEmitterLayer()
            emitter.frame = cell.bounds
            emitter.emitterPosition = CGPoint(x: 47, y: 47)
            emitter.emitterShape = shape
            emitter.emitterMode = mode
            emitter.emitterSize = shape == .circle || shape == .sphere ? CGSize(width: 34, height: 0) : CGSize(width: 70, height: 40)
            emitter.emitterDepth = 30
            emitter.seed = UInt32(i)
            let still = CAEmitterCell()
            still.contents = softDot
            still.birthRate = 30
            still.lifetime = 10
            still.scale = 0.35
            still.color = SceneKit.color(0.4, 0.9, 0.6)
            if shape == .point || (shape == .line && mode == .outline) {
                still.velocity = 10
                still.emissionRange = 2 * .pi
                still.lifetime = 2
            }
            emitter.emitterCells = [still]
            cell.addSublayer(emitter)
            root.addSublayer(cell)
        }
        return root
    }
}
