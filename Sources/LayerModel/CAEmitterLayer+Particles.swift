import Foundation
import OpenCoreGraphics

/// A particle alive at a frame's time: where it is (the emitter layer's coordinates), how it is
/// turned and scaled, its colour, and what it draws.
public struct EmitterParticle: Sendable {
    public var x: Double
    public var y: Double
    public var z: Double
    /// Turned by this many radians about its centre.
    public var angle: Double
    /// The contents' size in points times this.
    public var scale: Double
    /// Straight colour, 0...1, multiplying the contents.
    public var red: Double, green: Double, blue: Double, alpha: Double
    public var image: CGImage
    public var contentsRect: CGRect
    public var contentsScale: Double
    public var minificationFilter: String
    public var magnificationFilter: String
    public var minificationFilterBias: Double
    /// The layer time it was born at (render modes order by it).
    public var birthTime: Double
}

// Emission as a pure function of time. Time is cut into ticks of 1/60 s of the layer's time;
// in tick j a cell gives birth to floor(R Δ (j + 1) + φ) - floor(R Δ j + φ) particles (R its
// rate then, Δ the tick, φ a phase of its own), spread evenly over the tick, each with random
// values from a hash of (seed, cell, tick, index): no state carried from frame to frame, and only
// the ticks of the particles' longest life before the frame are visited. Animated emitter
// properties are evaluated at each tick, so a particle keeps what held at its birth.
extension CAEmitterLayer {
    /// Seconds of layer time per emission tick.
    public static let emissionTick = 1.0 / 60
    /// More live particles than this are not drawn (a frame past it shows the first ones).
    public static let maxParticles = 200_000
    /// Most steps (a cell's tick, a birth) one frame's simulation takes: an emitter asking for
    /// more (lives of hours, millions of births a second) stops there, the same way every time.
    public static let maxSimulationSteps = 1_000_000

    /// The particles alive at this layer's presented time (a presentation copy), or at layer
    /// time `time`.
    public func particles(atLayerTime time: CFTimeInterval? = nil) -> [EmitterParticle] {
        simulateParticles(atLayerTime: time).particles
    }

    /// The particles, and whether the simulation got through every birth (false: it reached
    /// `maxParticles` or `maxSimulationSteps`, and later births are not drawn).
    public func simulateParticles(atLayerTime time: CFTimeInterval? = nil) -> (particles: [EmitterParticle], complete: Bool) {
        let result = simulateParticles(atLayerTime: time, stepLimit: CAEmitterLayer.maxSimulationSteps, particleLimit: CAEmitterLayer.maxParticles)
        return (result.particles, result.complete)
    }

    /// The same, within what is left of a frame's budget: at most `stepLimit` steps and
    /// `particleLimit` particles (each at most this emitter's own limits); also the steps taken,
    /// which the frame's budget counts (`RenderLimits.maxParticleSteps`).
    public func simulateParticles(atLayerTime time: CFTimeInterval? = nil, stepLimit: Int, particleLimit: Int)
        -> (particles: [EmitterParticle], complete: Bool, steps: Int) {
        let now = time ?? presentedLayerTime ?? layerTime(atMediaTime: CACurrentMediaTime())
        guard now.isFinite, now >= 0 else { return ([], true, 0) }
        let model = (modelLayer as? CAEmitterLayer) ?? self
        var simulation = EmitterSimulation(model: model, presented: self)
        simulation.stepLimit = min(max(stepLimit, 0), CAEmitterLayer.maxSimulationSteps)
        simulation.particleLimit = min(max(particleLimit, 0), CAEmitterLayer.maxParticles)
        let particles = simulation.particles(at: now)
        return (particles, !simulation.stopped, simulation.steps)
    }
}

/// One evaluation of the emitter's values: the layer's multipliers and shape, and its cells'.
struct EmitterSnapshot {
    struct Cell {
        var enabled: Bool
        var birthRate, lifetime, lifetimeRange: Double
        var latitude, longitude, range: Double
        var velocity, velocityRange: Double
        var acceleration: (x: Double, y: Double, z: Double)
        var scale, scaleRange, scaleSpeed, spin, spinRange: Double
        var color: (Double, Double, Double, Double)
        var colorRange: (Double, Double, Double, Double)
        var colorSpeed: (Double, Double, Double, Double)
        var image: CGImage?
        var contentsRect: CGRect
        var contentsScale: Double
        var minificationFilter, magnificationFilter: String
        var minificationFilterBias: Double
        var beginTime, duration, speed, timeOffset, repeatCount, repeatDuration: Double
        var autoreverses: Bool
        var cells: [Cell]

        init(_ cell: CAEmitterCell) {
            func d<T: BinaryFloatingPoint>(_ v: T) -> Double { let x = Double(v); return x.isFinite ? x : 0 }
            enabled = cell.isEnabled
            birthRate = d(cell.birthRate); lifetime = d(cell.lifetime); lifetimeRange = d(cell.lifetimeRange)
            latitude = d(cell.emissionLatitude); longitude = d(cell.emissionLongitude); range = d(cell.emissionRange)
            velocity = d(cell.velocity); velocityRange = d(cell.velocityRange)
            acceleration = (d(cell.xAcceleration), d(cell.yAcceleration), d(cell.zAcceleration))
            scale = d(cell.scale); scaleRange = d(cell.scaleRange); scaleSpeed = d(cell.scaleSpeed)
            spin = d(cell.spin); spinRange = d(cell.spinRange)
            let rgba: (red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) = cell.color?.rgba ?? (0, 0, 0, 0)
            color = (d(rgba.red), d(rgba.green), d(rgba.blue), d(rgba.alpha))
            colorRange = (d(cell.redRange), d(cell.greenRange), d(cell.blueRange), d(cell.alphaRange))
            colorSpeed = (d(cell.redSpeed), d(cell.greenSpeed), d(cell.blueSpeed), d(cell.alphaSpeed))
            image = cell.contents as? CGImage
            contentsRect = cell.contentsRect
            contentsScale = d(cell.contentsScale) > 0 ? d(cell.contentsScale) : 1
            minificationFilter = cell.minificationFilter; magnificationFilter = cell.magnificationFilter
            minificationFilterBias = d(cell.minificationFilterBias)
            beginTime = d(cell.beginTime); duration = d(cell.duration); speed = d(cell.speed); timeOffset = d(cell.timeOffset)
            repeatCount = d(cell.repeatCount); repeatDuration = d(cell.repeatDuration); autoreverses = cell.autoreverses
            cells = (cell.emitterCells ?? []).map(Cell.init)
        }

        /// Seconds a particle may live at most (its own and its descendants').
        var longestLife: Double {
            let own = max(0, lifetime + abs(lifetimeRange))
            return own + (cells.map(\.longestLife).max() ?? 0)
        }

        /// Whether the cell emits at its parent's time `t`, and how fast its time runs.
        func emits(atParentTime t: Double) -> Bool {
            guard enabled, speed != 0 else { return false }
            let local = (t - beginTime) * speed + timeOffset
            guard local >= 0 else { return false }
            guard duration > 0 else { return repeatDuration <= 0 || local < repeatDuration }
            let once = duration * (autoreverses ? 2 : 1)
            let active = repeatDuration > 0 ? repeatDuration : once * max(1, repeatCount)
            return local < active
        }
    }

    var birthRate, lifetime, velocity, scale, spin: Double
    var position: (x: Double, y: Double, z: Double)
    var size: (width: Double, height: Double, depth: Double)
    var shape: CAEmitterLayerEmitterShape
    var mode: CAEmitterLayerEmitterMode
    var renderMode: CAEmitterLayerRenderMode
    var cells: [Cell]

    init(_ layer: CAEmitterLayer) {
        func d<T: BinaryFloatingPoint>(_ v: T) -> Double { let x = Double(v); return x.isFinite ? x : 0 }
        birthRate = max(0, d(layer.birthRate)); lifetime = max(0, d(layer.lifetime))
        velocity = d(layer.velocity); scale = d(layer.scale); spin = d(layer.spin)
        position = (d(layer.emitterPosition.x), d(layer.emitterPosition.y), d(layer.emitterZPosition))
        size = (d(layer.emitterSize.width), d(layer.emitterSize.height), d(layer.emitterDepth))
        shape = layer.emitterShape; mode = layer.emitterMode; renderMode = layer.renderMode
        cells = (layer.emitterCells ?? []).map(Cell.init)
    }
}

/// The particles of one emitter at one time (see the comment above `particles(atLayerTime:)`).
struct EmitterSimulation {
    let model: CAEmitterLayer
    let seed: UInt64
    /// The emitter's values at the frame (the presentation copy's).
    let current: EmitterSnapshot
    /// Values per tick where the emitter animates; the current ones everywhere otherwise.
    var snapshots: [Int: EmitterSnapshot] = [:]
    let animated: Bool
    var particles: [EmitterParticle] = []
    /// Steps taken (`CAEmitterLayer.maxSimulationSteps`), and whether the limits stopped it.
    var steps = 0
    var stopped = false
    /// This simulation's limits: the emitter's own, or less where the frame's budget has less left.
    var stepLimit = CAEmitterLayer.maxSimulationSteps
    var particleLimit = CAEmitterLayer.maxParticles

    /// Counts a step; false once the limits are reached.
    mutating func step() -> Bool {
        steps += 1
        if steps > stepLimit || particles.count >= particleLimit { stopped = true }
        return !stopped
    }

    init(model: CAEmitterLayer, presented: CAEmitterLayer) {
        self.model = model
        seed = UInt64(presented.seed)
        current = EmitterSnapshot(presented)
        animated = !model.attachedAnimations.isEmpty
    }

    mutating func snapshot(atTick j: Int) -> EmitterSnapshot {
        guard animated else { return current }
        if let known = snapshots[j] { return known }
        let scratch = CAEmitterLayer(layer: model)
        let time = Double(j) * CAEmitterLayer.emissionTick
        for (_, animation) in model.attachedAnimations { animation.apply(to: scratch, atLayerTime: time) }
        let made = EmitterSnapshot(scratch)
        snapshots[j] = made
        return made
    }

    mutating func particles(at now: Double) -> [EmitterParticle] {
        let tick = CAEmitterLayer.emissionTick
        let window = (current.cells.map(\.longestLife).max() ?? 0) * max(current.lifetime, 1) + tick
        let last = Self.tickIndex(now), first = Self.tickIndex(now - window)
        guard last >= first else { return [] }
        for (index, _) in current.cells.enumerated() {
            let cellKey = Random.mix(seed, UInt64(index) &+ 1), phase = Random(key: cellKey).unit(0)
            for j in first...last {
                guard step() else { return order(particles) }
                let snap = snapshot(atTick: j)
                guard index < snap.cells.count else { continue }
                let cell = snap.cells[index]
                let start = Double(j) * tick
                guard cell.emits(atParentTime: start) else { continue }
                let rate = cell.birthRate * snap.birthRate * abs(cell.speed)
                let births = Self.births(rate: rate, tick: j, phase: phase)
                for i in 0..<births {
                    let born = start + (Double(i) + 0.5) / Double(births) * tick
                    guard born <= now else { break }
                    guard step() else { return order(particles) }
                    let key = Random.mix(Random.mix(cellKey, UInt64(j)), UInt64(i))
                    let origin = Self.origin(snap, Random(key: key))
                    emit(cell, layer: snap, key: key, origin: origin, born: born, now: now)
                }
            }
        }
        return order(particles)
    }

    /// The tick a time falls in, from 0; times past any frame's (NaN, infinities, 10^12 s) clamp.
    static func tickIndex(_ t: Double) -> Int {
        let index = (t / CAEmitterLayer.emissionTick).rounded(.down)
        guard index.isFinite, index > 0 else { return 0 }
        return Int(min(index, 1e14))
    }

    /// floor(R Δ (j + 1) + φ) - floor(R Δ j + φ): R Δ per tick on average, none carried over.
    static func births(rate: Double, tick j: Int, phase: Double) -> Int {
        guard rate.isFinite, rate > 0 else { return 0 }
        let perTick = rate * CAEmitterLayer.emissionTick
        let count = (perTick * Double(j + 1) + phase).rounded(.down) - (perTick * Double(j) + phase).rounded(.down)
        return Int(min(max(count, 0), 100_000))
    }

    /// A particle born at layer time `born` from `origin` (and, recursively, the particles its
    /// own cells emit while it lives).
    mutating func emit(_ cell: EmitterSnapshot.Cell, layer: EmitterSnapshot, key: UInt64,
                       origin: (x: Double, y: Double, z: Double), born: Double, now: Double) {
        let random = Random(key: key)
        func spread(_ n: UInt64, _ base: Double, _ range: Double) -> Double { base + (2 * random.unit(n) - 1) * range }
        let speed = abs(cell.speed)
        let lifetime = max(0, spread(10, cell.lifetime, cell.lifetimeRange)) * layer.lifetime
        let age = (now - born) * speed
        let velocity = spread(11, cell.velocity, cell.velocityRange) * layer.velocity
        let direction = Self.direction(latitude: cell.latitude, longitude: cell.longitude, range: cell.range,
                                       u: random.unit(12), v: random.unit(13))
        let a = cell.acceleration
        func position(atAge t: Double) -> (x: Double, y: Double, z: Double) {
            (origin.x + velocity * direction.x * t + 0.5 * a.x * t * t,
             origin.y + velocity * direction.y * t + 0.5 * a.y * t * t,
             origin.z + velocity * direction.z * t + 0.5 * a.z * t * t)
        }
        // Its sub-cells, emitted from where it is while it lives.
        if !cell.cells.isEmpty {
            let tick = CAEmitterLayer.emissionTick
            let lived = min(age, lifetime)
            let window = cell.cells.map(\.longestLife).max() ?? 0
            let last = Self.tickIndex(lived), first = Self.tickIndex(age - window * layer.lifetime)
            if last >= first {
                for (index, sub) in cell.cells.enumerated() {
                    let subKey = Random.mix(key, UInt64(index) &+ 101), phase = Random(key: subKey).unit(0)
                    for j in first...last {
                        guard step() else { return }
                        let startAge = Double(j) * tick
                        guard sub.emits(atParentTime: startAge) else { continue }
                        let births = Self.births(rate: sub.birthRate * layer.birthRate * abs(sub.speed), tick: j, phase: phase)
                        for i in 0..<births {
                            let bornAge = startAge + (Double(i) + 0.5) / Double(births) * tick
                            guard bornAge <= lived else { break }
                            guard step() else { return }
                            emit(sub, layer: layer, key: Random.mix(Random.mix(subKey, UInt64(j)), UInt64(i)),
                                 origin: position(atAge: bornAge), born: born + bornAge / max(speed, 1e-9), now: now)
                        }
                    }
                }
            }
        }
        guard age < lifetime, let image = cell.image else { return }
        let scale = (spread(14, cell.scale, cell.scaleRange) + cell.scaleSpeed * age) * layer.scale
        guard scale > 0 else { return }
        func channel(_ n: UInt64, _ base: Double, _ range: Double, _ rate: Double) -> Double {
            min(max(spread(n, base, range) + rate * age, 0), 1)
        }
        let alpha = channel(18, cell.color.3, cell.colorRange.3, cell.colorSpeed.3)
        guard alpha > 0 else { return }
        let place = position(atAge: age)
        let spin = spread(19, cell.spin, cell.spinRange) * layer.spin
        particles.append(EmitterParticle(
            x: place.x, y: place.y, z: place.z, angle: spin * age, scale: scale,
            red: channel(15, cell.color.0, cell.colorRange.0, cell.colorSpeed.0),
            green: channel(16, cell.color.1, cell.colorRange.1, cell.colorSpeed.1),
            blue: channel(17, cell.color.2, cell.colorRange.2, cell.colorSpeed.2), alpha: alpha,
            image: image, contentsRect: cell.contentsRect, contentsScale: cell.contentsScale,
            minificationFilter: cell.minificationFilter, magnificationFilter: cell.magnificationFilter,
            minificationFilterBias: cell.minificationFilterBias, birthTime: born))
    }

    /// The emission direction: longitude turns it in the xy plane from +x, latitude out of it
    /// (towards +z); within the cone of angle `range` about it, uniformly over the cap of
    /// directions (a range of 2π: every direction).
    static func direction(latitude: Double, longitude: Double, range: Double, u: Double, v: Double) -> (x: Double, y: Double, z: Double) {
        let axis = (x: cos(latitude) * cos(longitude), y: cos(latitude) * sin(longitude), z: sin(latitude))
        let half = min(abs(range) / 2, Double.pi)
        guard half > 0 else { return axis }
        let cosTheta = 1 - u * (1 - cos(half)), sinTheta = (max(0, 1 - cosTheta * cosTheta)).squareRoot()
        let phi = 2 * Double.pi * v
        // Two directions square to the axis: the one in the xy plane (the longitude's normal),
        // and their cross product.
        let e1 = (x: -sin(longitude), y: cos(longitude), z: 0.0)
        let e2 = (x: axis.y * e1.z - axis.z * e1.y, y: axis.z * e1.x - axis.x * e1.z, z: axis.x * e1.y - axis.y * e1.x)
        let c1 = sinTheta * cos(phi), c2 = sinTheta * sin(phi)
        return (axis.x * cosTheta + e1.x * c1 + e2.x * c2, axis.y * cosTheta + e1.y * c1 + e2.y * c2,
                axis.z * cosTheta + e1.z * c1 + e2.z * c2)
    }

    /// Where a particle is born on the emitter shape, in the part the mode names: `points`
    /// anywhere on the shape (its area, or its volume for a cuboid or sphere), `outline` on its
    /// edge (a line's two ends, a rectangle's or circle's outline, a cuboid's edges, a sphere's
    /// surface), `surface` its area (a cuboid's faces, a sphere's surface), `volume` its inside.
    static func origin(_ layer: EmitterSnapshot, _ random: Random) -> (x: Double, y: Double, z: Double) {
        let (px, py, pz) = layer.position
        let (w, h, d) = layer.size
        let u = random.unit(1), v = random.unit(2), s = random.unit(3)
        switch layer.shape {
        case .line:
            if layer.mode == .outline { return (px + (u < 0.5 ? -w / 2 : w / 2), py, pz) }
            return (px + (u - 0.5) * w, py, pz)
        case .rectangle:
            if layer.mode == .outline {
                let (x, y) = perimeter(w, h, u)
                return (px + x, py + y, pz)
            }
            return (px + (u - 0.5) * w, py + (v - 0.5) * h, pz)
        case .cuboid:
            switch layer.mode {
            case .outline:
                // The 12 edges, by length: four along each axis, at the four corners across it.
                let total = w + h + d
                guard total > 0 else { return (px, py, pz) }
                let corner = [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)][min(3, Int(v * 4))]
                let along = s - 0.5
                if u * total < w { return (px + along * w, py + corner.0 * h, pz + corner.1 * d) }
                if u * total < w + h { return (px + corner.0 * w, py + along * h, pz + corner.1 * d) }
                return (px + corner.0 * w, py + corner.1 * h, pz + along * d)
            case .surface:
                // The six faces, by area.
                let areas = [w * h, w * h, w * d, w * d, h * d, h * d]
                let total = areas.reduce(0, +)
                guard total > 0 else { return (px, py, pz) }
                var pick = s * total, face = 0
                while face < 5 && pick >= areas[face] { pick -= areas[face]; face += 1 }
                let a = u - 0.5, b = v - 0.5, side = face % 2 == 0 ? -0.5 : 0.5
                switch face / 2 {
                case 0: return (px + a * w, py + b * h, pz + side * d)
                case 1: return (px + a * w, py + side * h, pz + b * d)
                default: return (px + side * w, py + a * h, pz + b * d)
                }
            default:
                return (px + (u - 0.5) * w, py + (v - 0.5) * h, pz + (s - 0.5) * d)
            }
        case .circle:
            let angle = 2 * Double.pi * u
            let r = layer.mode == .outline ? w : w * v.squareRoot()
            return (px + r * cos(angle), py + r * sin(angle), pz)
        case .sphere:
            let z = 2 * u - 1, angle = 2 * Double.pi * v, ring = (max(0, 1 - z * z)).squareRoot()
            let r = layer.mode == .volume || layer.mode == .points ? w * Foundation.cbrt(s) : w
            return (px + r * ring * cos(angle), py + r * ring * sin(angle), pz + r * z)
        default:
            return (px, py, pz)
        }
    }

    /// A point `u` (0...1) of the way round a w x h rectangle centred on the origin.
    static func perimeter(_ w: Double, _ h: Double, _ u: Double) -> (Double, Double) {
        let total = 2 * (w + h)
        guard total > 0 else { return (0, 0) }
        var along = u * total
        if along < w { return (along - w / 2, -h / 2) }
        along -= w
        if along < h { return (w / 2, along - h / 2) }
        along -= h
        if along < w { return (w / 2 - along, h / 2) }
        along -= w
        return (-w / 2, h / 2 - along)
    }

    /// The drawing order the render mode asks for (additive: the order does not matter).
    func order(_ particles: [EmitterParticle]) -> [EmitterParticle] {
        switch current.renderMode {
        case .oldestFirst: particles.enumerated().sorted { ($0.element.birthTime, $0.offset) < ($1.element.birthTime, $1.offset) }.map(\.element)
        case .oldestLast: particles.enumerated().sorted { ($1.element.birthTime, $0.offset) < ($0.element.birthTime, $1.offset) }.map(\.element)
        case .backToFront: particles.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }.map(\.element)
        default: particles
        }
    }
}

/// Random values as a pure function of a key (SplitMix64's finaliser over key and counter).
struct Random {
    let key: UInt64

    static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 { finalize(a ^ (b &* 0x9E37_79B9_7F4A_7C15) &+ 0x632B_E59B_D9B4_E019) }

    static func finalize(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The n-th value in [0, 1).
    func unit(_ n: UInt64) -> Double { Double(Random.mix(key, n) >> 11) * 0x1p-53 }
}
