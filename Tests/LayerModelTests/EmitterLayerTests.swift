// CAEmitterLayer and CAEmitterCell: Apple's defaults and keys, cell key paths through the layer
// (animated too), and the particles as a pure function of time: counts from the birth rates,
// places on each shape and mode, motion, ranges, render orders, sub-emitters, cell timing and
// animated emitter properties held at each particle's birth.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Emitter layer")
struct EmitterLayerTests {
    static let dot = CGImage(bitmap: Bitmap(width: 4, height: 4) { _, _ in (255, 255, 255, 255) })

    /// An emitter with one cell named "spark" that lives exactly `lifetime` seconds.
    static func emitter(rate: Float = 30, lifetime: Float = 1, velocity: CGFloat = 0, configure: (CAEmitterLayer, CAEmitterCell) -> Void = { _, _ in })
        -> CAEmitterLayer {
        let layer = CAEmitterLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        layer.emitterPosition = CGPoint(x: 100, y: 100)
        let cell = CAEmitterCell()
        cell.name = "spark"
        cell.birthRate = rate
        cell.lifetime = lifetime
        cell.velocity = velocity
        cell.contents = dot
        configure(layer, cell)
        layer.emitterCells = [cell]
        return layer
    }

    @Test("a new layer and cell read Apple's defaults, by property and by key")
    func defaults() {
        let layer = CAEmitterLayer()
        #expect(layer.birthRate == 1 && layer.lifetime == 1 && layer.velocity == 1 && layer.scale == 1 && layer.spin == 1)
        #expect(layer.emitterShape == .point && layer.emitterMode == .points && layer.renderMode == .unordered)
        #expect(layer.emitterPosition == .zero && layer.emitterSize == .zero && layer.seed == 0 && layer.emitterCells == nil)
        #expect(CAEmitterLayer.defaultValue(forKey: "emitterShape") as? String == "point")
        #expect(layer.value(forKey: "renderMode") as? String == "unordered")
        let cell = CAEmitterCell.emitterCell()
        #expect(cell.isEnabled && cell.birthRate == 0 && cell.lifetime == 0 && cell.scale == 1 && cell.speed == 1)
        #expect(cell.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1) && cell.contentsScale == 1)
        #expect(cell.color?.rgba.alpha == 1 && cell.minificationFilter == "linear" && cell.emissionRange == 0)
        #expect((CAEmitterCell.defaultValue(forKey: "scale") as? NSNumber)?.doubleValue == 1)
        #expect(CAEmitterCell.defaultValue(forKey: "notAKey") == nil)
    }

    @Test("cell keys by key-value coding, and cell key paths through the layer, at any depth")
    func keyPaths() {
        let layer = Self.emitter()
        let spark = layer.emitterCells![0]
        let ember = CAEmitterCell()
        ember.name = "ember"
        spark.emitterCells = [ember]
        layer.setValue(NSNumber(value: 55), forKeyPath: "emitterCells.spark.birthRate")
        #expect(spark.birthRate == 55)
        layer.setValue(12, forKeyPath: "emitterCells.spark.emitterCells.ember.velocity")
        #expect(ember.velocity == 12)
        #expect((layer.value(forKeyPath: "emitterCells.spark.emitterCells.ember.velocity") as? NSNumber)?.doubleValue == 12)
        spark.setValue(false, forKey: "isEnabled")
        #expect(!spark.isEnabled && spark.value(forKey: "enabled") as? Bool == false)
        spark.setValue("fast", forKey: "velocity")
        #expect(spark.velocity == 0, "a word is not a speed: ignored")
        #expect(layer.value(forKeyPath: "emitterCells.nobody.birthRate") == nil)
        let copy = spark.copy()
        copy.birthRate = 1
        #expect(spark.birthRate == 55 && copy.emitterCells?[0] !== ember, "a copy has copies of its sub-cells")
    }

    @Test("an animation of a cell key path animates the presentation's cell and leaves the model's alone")
    func animatedCellKeyPath() {
        let layer = Self.emitter()
        let animation = CABasicAnimation(keyPath: "emitterCells.spark.birthRate")
        animation.fromValue = 0
        animation.toValue = 100
        animation.duration = 1
        animation.beginTime = 10
        layer.add(animation, forKey: "rate")
        let presented = layer.presentationTree(atMediaTime: 10.5) as! CAEmitterLayer
        #expect(abs((presented.emitterCells?[0].birthRate ?? 0) - 50) < 1e-3)
        #expect(layer.emitterCells?[0].birthRate == 30)
    }

    @Test("the particles at a time are the same however often and from whichever copy they are asked; another seed gives others")
    func deterministic() {
        func make(seed: UInt32) -> CAEmitterLayer {
            Self.emitter(velocity: 40) { layer, cell in layer.seed = seed; cell.emissionRange = 6.283; cell.velocityRange = 20 }
        }
        let a = make(seed: 3).particles(atLayerTime: 2.5), b = make(seed: 3).particles(atLayerTime: 2.5)
        #expect(!a.isEmpty && a.map(\.x) == b.map(\.x) && a.map(\.y) == b.map(\.y))
        let other = make(seed: 4).particles(atLayerTime: 2.5)
        #expect(other.map(\.x) != a.map(\.x))
        // A presentation at t is the model's particles at t.
        let layer = make(seed: 3)
        let presented = layer.presentationTree(atMediaTime: 2.5) as! CAEmitterLayer
        #expect(presented.particles().map(\.x) == a.map(\.x))
    }

    @Test("live particles: the birth rate times the lifetime, both multiplied by the layer's")
    func counts() {
        #expect(abs(Self.emitter(rate: 30, lifetime: 1).particles(atLayerTime: 3).count - 30) <= 1)
        #expect(abs(Self.emitter(rate: 30, lifetime: 2).particles(atLayerTime: 3).count - 60) <= 1)
        #expect(abs(Self.emitter { layer, _ in layer.birthRate = 2 }.particles(atLayerTime: 3).count - 60) <= 1)
        #expect(abs(Self.emitter { layer, _ in layer.lifetime = 0.5 }.particles(atLayerTime: 3).count - 15) <= 1)
        // Before a full lifetime has passed, only what was born so far.
        #expect(abs(Self.emitter(rate: 30, lifetime: 5).particles(atLayerTime: 1).count - 30) <= 1)
        #expect(Self.emitter { _, cell in cell.isEnabled = false }.particles(atLayerTime: 3).isEmpty)
        #expect(Self.emitter { _, cell in cell.contents = nil }.particles(atLayerTime: 3).isEmpty, "nothing to draw")
    }

    @Test("particles move by velocity and acceleration from where they were born, in the emission direction")
    func motion() {
        let layer = Self.emitter(rate: 10, lifetime: 4, velocity: 50) { _, cell in cell.yAcceleration = 20 }
        for p in layer.particles(atLayerTime: 3) {
            let age = 3 - p.birthTime
            #expect(abs(p.x - (100 + 50 * age)) < 1e-9 && abs(p.y - (100 + 10 * age * age)) < 1e-9)
        }
        let up = Self.emitter(rate: 10, lifetime: 4, velocity: 50) { _, cell in cell.emissionLongitude = -.pi / 2 }
        #expect(up.particles(atLayerTime: 3).allSatisfy { abs($0.x - 100) < 1e-9 && $0.y < 100 })
        // Within a cone of emissionRange about the direction: 1 radian wide, so at most 0.5 off.
        let cone = Self.emitter(rate: 200, lifetime: 4, velocity: 50) { _, cell in cell.emissionRange = 1 }
        let angles = cone.particles(atLayerTime: 3).filter { 3 - $0.birthTime > 0.1 }.map { atan2($0.y - 100, $0.x - 100) }
        #expect(angles.allSatisfy { abs($0) <= 0.5 + 1e-9 } && angles.contains { $0 > 0.3 } && angles.contains { $0 < -0.3 })
        // Every direction: as many going left as right.
        let all = Self.emitter(rate: 400, lifetime: 4, velocity: 50) { _, cell in cell.emissionRange = 2 * .pi }
        let xs = all.particles(atLayerTime: 3).map { $0.x - 100 }
        #expect(abs(Double(xs.filter { $0 < 0 }.count) / Double(xs.count) - 0.5) < 0.05)
    }

    @Test("particles are born on each shape where its mode says")
    func shapesAndModes() {
        func origins(_ shape: CAEmitterLayerEmitterShape, _ mode: CAEmitterLayerEmitterMode) -> [EmitterParticle] {
            Self.emitter(rate: 300) { layer, _ in
                layer.emitterShape = shape
                layer.emitterMode = mode
                layer.emitterSize = CGSize(width: 40, height: 20)
                layer.emitterDepth = 10
            }.particles(atLayerTime: 2)
        }
        let e = 1e-9
        #expect(origins(.point, .points).allSatisfy { $0.x == 100 && $0.y == 100 })
        #expect(origins(.line, .points).allSatisfy { abs($0.x - 100) <= 20 && $0.y == 100 })
        #expect(origins(.line, .outline).allSatisfy { abs(abs($0.x - 100) - 20) < e })
        #expect(origins(.rectangle, .surface).allSatisfy { abs($0.x - 100) <= 20 && abs($0.y - 100) <= 10 && $0.z == 0 })
        #expect(origins(.rectangle, .outline).allSatisfy { abs(abs($0.x - 100) - 20) < e || abs(abs($0.y - 100) - 10) < e })
        #expect(origins(.cuboid, .volume).allSatisfy { abs($0.x - 100) <= 20 && abs($0.y - 100) <= 10 && abs($0.z) <= 5 })
        #expect(origins(.cuboid, .volume).contains { abs($0.z) > 1 })
        #expect(origins(.cuboid, .surface).allSatisfy { abs(abs($0.x - 100) - 20) < e || abs(abs($0.y - 100) - 10) < e || abs(abs($0.z) - 5) < e })
        func radius(_ p: EmitterParticle) -> Double { ((p.x - 100) * (p.x - 100) + (p.y - 100) * (p.y - 100) + p.z * p.z).squareRoot() }
        #expect(origins(.circle, .points).allSatisfy { radius($0) <= 40 + e && $0.z == 0 })
        #expect(origins(.circle, .outline).allSatisfy { abs(radius($0) - 40) < 1e-6 })
        #expect(origins(.sphere, .surface).allSatisfy { abs(radius($0) - 40) < 1e-6 })
        #expect(origins(.sphere, .volume).allSatisfy { radius($0) <= 40 + e } && origins(.sphere, .volume).contains { radius($0) < 30 })
    }

    @Test("render modes order the particles: oldest first, oldest last, back to front")
    func renderModes() {
        func particles(_ mode: CAEmitterLayerRenderMode) -> [EmitterParticle] {
            Self.emitter(rate: 50, lifetime: 2, velocity: 30) { layer, cell in
                layer.renderMode = mode
                cell.emissionLatitude = 0.7
                cell.emissionRange = 3
            }.particles(atLayerTime: 3)
        }
        let oldestFirst = particles(.oldestFirst).map(\.birthTime), oldestLast = particles(.oldestLast).map(\.birthTime)
        #expect(oldestFirst == oldestFirst.sorted() && oldestLast == oldestLast.sorted(by: >))
        let depths = particles(.backToFront).map(\.z)
        #expect(depths == depths.sorted() && Set(depths).count > 10)
    }

    @Test("a cell's sub-cells are emitted by each of its particles, from where it is")
    func subEmitters() {
        let layer = Self.emitter(rate: 2, lifetime: 1, velocity: 100) { _, cell in
            cell.contents = nil
            let trail = CAEmitterCell()
            trail.birthRate = 20
            trail.lifetime = 0.2
            trail.contents = Self.dot
            cell.emitterCells = [trail]
        }
        let particles = layer.particles(atLayerTime: 3)
        #expect(!particles.isEmpty)
        // Trails lie on the parents' path: y 100, x from 100 to 200 (a parent moves 100 pt in its life).
        #expect(particles.allSatisfy { $0.y == 100 && $0.x >= 100 && $0.x <= 200 + 1e-9 })
    }

    @Test("a cell emits only while its timing is active")
    func cellTiming() {
        let late = Self.emitter(rate: 30, lifetime: 5) { _, cell in cell.beginTime = 1 }
        #expect(late.particles(atLayerTime: 0.9).isEmpty)
        #expect(late.particles(atLayerTime: 2).allSatisfy { $0.birthTime >= 1 })
        let short = Self.emitter(rate: 30, lifetime: 5) { _, cell in cell.duration = 0.5 }
        let born = short.particles(atLayerTime: 3).map(\.birthTime)
        #expect(!born.isEmpty && born.allSatisfy { $0 < 0.5 + CAEmitterLayer.emissionTick })
    }

    @Test("an animated emitter position moves where particles are born, not the particles already born")
    func historyOfProperties() {
        let layer = Self.emitter(rate: 20, lifetime: 5)
        let move = CABasicAnimation(keyPath: "emitterPosition")
        move.fromValue = NSValue(cgPoint: CGPoint(x: 0, y: 100))
        move.toValue = NSValue(cgPoint: CGPoint(x: 100, y: 100))
        move.duration = 1
        move.beginTime = 10
        layer.add(move, forKey: "move")
        // Still particles (no velocity) stay where the emitter was at their birth: x 100 (the
        // model's) before the animation began at 10 s, then 0 to 100 as it runs.
        let particles = layer.particles(atLayerTime: 10.9)
        #expect(particles.count > 90)
        for p in particles {
            let tick = (p.birthTime / CAEmitterLayer.emissionTick).rounded(.down) * CAEmitterLayer.emissionTick
            let expected = tick < 10 - 1e-9 ? 100 : 100 * (tick - 10)
            #expect(abs(p.x - expected) < 1e-6, "born at \(p.birthTime) at x \(p.x)")
        }
    }

    @Test("scale, spin and colour: ranges around the cell's values, speeds over the life, the layer's multipliers")
    func appearance() {
        let layer = Self.emitter(rate: 100, lifetime: 2) { layer, cell in
            layer.scale = 2
            cell.scale = 1
            cell.scaleRange = 0.25
            cell.spin = 1
            cell.color = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
            cell.redRange = 0.2
            cell.alphaSpeed = -0.25
        }
        let particles = layer.particles(atLayerTime: 3)
        #expect(particles.allSatisfy { $0.scale >= 1.5 - 1e-9 && $0.scale <= 2.5 + 1e-9 })
        #expect(particles.allSatisfy { abs($0.angle - (3 - $0.birthTime)) < 1e-9 })
        #expect(particles.allSatisfy { $0.red >= 0.3 - 1e-9 && $0.red <= 0.7 + 1e-9 && $0.green == 0.5 })
        #expect(particles.allSatisfy { abs($0.alpha - (1 - 0.25 * (3 - $0.birthTime))) < 1e-9 })
    }

    @Test("a frame's particles and simulation steps are bounded, and no time or life traps")
    func limits() {
        let flood = Self.emitter(rate: 1_000_000, lifetime: 10_000) { layer, cell in
            layer.birthRate = 1000
            let sub = CAEmitterCell()
            sub.birthRate = 1_000_000
            sub.lifetime = 1e30
            cell.emitterCells = [sub]
        }
        let result = flood.simulateParticles(atLayerTime: 3000)
        #expect(!result.complete && result.particles.count <= CAEmitterLayer.maxParticles)
        for time in [1e300, .infinity, -.infinity, .nan, -5] {
            #expect(Self.emitter().simulateParticles(atLayerTime: time).particles.isEmpty || time == 1e300)
        }
        let infinite = Self.emitter { _, cell in cell.lifetime = .greatestFiniteMagnitude }
        #expect(!infinite.particles(atLayerTime: 2).isEmpty)
    }
}
