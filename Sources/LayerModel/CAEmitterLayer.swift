import Foundation
import OpenCoreGraphics

/// Where an emitter's particles are born: a point, a line, a rectangle, a cuboid, a circle or a
/// sphere, placed by `emitterPosition`, `emitterZPosition`, `emitterSize` and `emitterDepth`.
public struct CAEmitterLayerEmitterShape: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// At (emitterPosition, emitterZPosition).
    public static let point = CAEmitterLayerEmitterShape(rawValue: "point")
    /// Along x, emitterSize.width long, centred on the position.
    public static let line = CAEmitterLayerEmitterShape(rawValue: "line")
    /// emitterSize, centred on the position, in the plane z = emitterZPosition.
    public static let rectangle = CAEmitterLayerEmitterShape(rawValue: "rectangle")
    /// emitterSize by emitterDepth, centred on (position, zPosition).
    public static let cuboid = CAEmitterLayerEmitterShape(rawValue: "cuboid")
    /// Radius emitterSize.width, centred on the position, in the plane z = emitterZPosition.
    public static let circle = CAEmitterLayerEmitterShape(rawValue: "circle")
    /// Radius emitterSize.width, centred on (position, zPosition).
    public static let sphere = CAEmitterLayerEmitterShape(rawValue: "sphere")
}

/// Which part of the shape particles are born on: its points (anywhere on it), its outline, its
/// surface or its volume.
public struct CAEmitterLayerEmitterMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let points = CAEmitterLayerEmitterMode(rawValue: "points")
    public static let outline = CAEmitterLayerEmitterMode(rawValue: "outline")
    public static let surface = CAEmitterLayerEmitterMode(rawValue: "surface")
    public static let volume = CAEmitterLayerEmitterMode(rawValue: "volume")
}

/// The order particles are drawn in, or additive blending.
public struct CAEmitterLayerRenderMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// In the order of their cells and births (here: cell by cell, oldest first).
    public static let unordered = CAEmitterLayerRenderMode(rawValue: "unordered")
    /// The oldest particle at the back.
    public static let oldestFirst = CAEmitterLayerRenderMode(rawValue: "oldestFirst")
    /// The oldest particle in front.
    public static let oldestLast = CAEmitterLayerRenderMode(rawValue: "oldestLast")
    /// Sorted by depth (z), the farthest first.
    public static let backToFront = CAEmitterLayerRenderMode(rawValue: "backToFront")
    /// Added to what lies beneath (plus-lighter), so overlapping particles brighten.
    public static let additive = CAEmitterLayerRenderMode(rawValue: "additive")
}

/// A layer that emits particles: each of its `emitterCells` gives birth to particles at the
/// layer's emitter shape, which then move, turn, grow and change colour over their lives, and are
/// drawn above the layer's background and contents, below its sublayers. The layer's own
/// `birthRate`, `lifetime`, `velocity`, `scale` and `spin` multiply every cell's.
///
/// Deterministic by construction: the particles at a time are a pure function of `seed`, the
/// properties over the particles' lives (animations included) and the time (`particles(at:)`),
/// so a still at t equals frame t of an animation, and shards of a run equal one run.
open class CAEmitterLayer: CALayer {
    /// The cells emitting particles. Default: nil.
    @Animatable("emitterCells") open var emitterCells: [CAEmitterCell]? = nil
    /// Multiplies every cell's birth rate. Default: 1.
    @Animatable("birthRate") open var birthRate: Float = 1
    /// Multiplies every cell's lifetime. Default: 1.
    @Animatable("lifetime") open var lifetime: Float = 1
    /// The centre of the emitter shape, in the layer's coordinates. Default: (0, 0).
    @Animatable("emitterPosition") open var emitterPosition: CGPoint = .zero
    @Animatable("emitterZPosition") open var emitterZPosition: CGFloat = 0
    /// The emitter shape's size (a circle's and a sphere's radius is its width). Default: zero.
    @Animatable("emitterSize") open var emitterSize: CGSize = .zero
    @Animatable("emitterDepth") open var emitterDepth: CGFloat = 0
    @Animatable("emitterShape") open var emitterShape: CAEmitterLayerEmitterShape = .point
    @Animatable("emitterMode") open var emitterMode: CAEmitterLayerEmitterMode = .points
    @Animatable("renderMode") open var renderMode: CAEmitterLayerRenderMode = .unordered
    /// Kept as set; particles are drawn flattened into the layer's plane (their z orders them
    /// in `.backToFront`).
    @Animatable("preservesDepth") open var preservesDepth: Bool = false
    /// Multiplies every cell's velocity, scale and spin. Defaults: 1.
    @Animatable("velocity") open var velocity: Float = 1
    @Animatable("scale") open var scale: Float = 1
    @Animatable("spin") open var spin: Float = 1
    /// Seeds the particles' random values: the same seed, the same particles. Default: 0.
    @Animatable("seed") open var seed: UInt32 = 0

    /// The layer time this presentation copy shows (set when the presentation tree is made).
    var presentedLayerTime: CFTimeInterval?

    public override init() { super.init() }

    /// A copy of `layer`; its cells are copied too, so animations of a presentation copy's cell
    /// key paths never reach the model's cells.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let cells = customValues["emitterCells"] as? [CAEmitterCell] { customValues["emitterCells"] = cells.map { $0.copy() } }
        presentedLayerTime = (layer as? CAEmitterLayer)?.presentedLayerTime
    }

    public required init?(coder: NSCoder) { return nil }

    override class func libraryCopy(of layer: CALayer) -> CALayer { CAEmitterLayer(layer: layer) }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "birthRate", "lifetime", "velocity", "scale", "spin": Float(1)
        case "emitterPosition": CGPoint.zero
        case "emitterZPosition", "emitterDepth": CGFloat(0)
        case "emitterSize": CGSize.zero
        case "emitterShape": CAEmitterLayerEmitterShape.point.rawValue
        case "emitterMode": CAEmitterLayerEmitterMode.points.rawValue
        case "renderMode": CAEmitterLayerRenderMode.unordered.rawValue
        case "preservesDepth": false
        case "seed": UInt32(0)
        default: super.defaultValue(forKey: key)
        }
    }

    open override class var implicitlyAnimatedKeys: Set<String> {
        ["birthRate", "lifetime", "emitterPosition", "emitterZPosition", "emitterSize", "emitterDepth", "velocity", "scale", "spin"]
    }

    /// "emitterCells.NAME.key" (and deeper: "emitterCells.fire.emitterCells.spark.birthRate")
    /// reaches the cell of that name; anything else is the layer's own.
    open override func value(forKeyPath keyPath: String) -> Any? {
        if let (cell, key) = cellKeyPath(keyPath) { return cell.value(forKeyPath: key) }
        return super.value(forKeyPath: keyPath)
    }

    open override func setValue(_ value: Any?, forKeyPath keyPath: String) {
        if let (cell, key) = cellKeyPath(keyPath) {
            propertyWillChange(keyPath)
            cell.setValue(value, forKeyPath: key)
            propertyDidChange(keyPath)
            return
        }
        super.setValue(value, forKeyPath: keyPath)
    }

    private func cellKeyPath(_ keyPath: String) -> (CAEmitterCell, String)? {
        guard keyPath.hasPrefix("emitterCells.") else { return nil }
        let parts = keyPath.split(separator: ".", maxSplits: 2).map(String.init)
        guard parts.count == 3, let cell = emitterCells?.first(where: { $0.name == parts[1] }) else { return nil }
        return (cell, parts[2])
    }
}
