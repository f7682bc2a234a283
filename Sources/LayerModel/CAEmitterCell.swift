import Foundation
import OpenCoreGraphics

/// One source of particles of a `CAEmitterLayer`: what each particle looks like (`contents`,
/// `color`, `scale`), how many are born (`birthRate` per second) and how they live (`lifetime`,
/// `velocity`, acceleration, `spin`, the colour and scale speeds), each with a range a particle's
/// value is drawn from at random. A cell's own `emitterCells` are emitted by each of its particles
/// (sub-emitters). A cell is a timeline of its own (`CAMediaTiming`): it emits while active.
///
/// Every property is stored by its key, as Core Animation's key-value coding holds it, so
/// `value(forKey:)`, `setValue(_:forKey:)` and the emitter layer's key paths
/// (`emitterCells.spark.birthRate`) reach each one, and animations of those paths animate it.
open class CAEmitterCell: CAMediaTiming, @unchecked Sendable {
    /// The values set, by key; a key not set reads `defaultValue(forKey:)`.
    private var values: [String: Any] = [:]
    private let lock = NSLock()

    public required init() {}

    /// Apple's `CAEmitterCell.emitterCell()`.
    public class func emitterCell() -> Self { self.init() }

    public required init(copying other: CAEmitterCell) {
        values = other.lock.withLock { other.values }
        // Sub-cells are copied too: a copy (an emitter's presentation) animates its own.
        if let cells = values["emitterCells"] as? [CAEmitterCell] { values["emitterCells"] = cells.map { $0.copy() } }
    }

    /// A copy with copies of its sub-cells (NSCopying's copy).
    open func copy() -> Self { Self(copying: self) }

    // MARK: Key-value coding

    open func value(forKey key: String) -> Any? {
        let key = Self.canonical(key)
        return lock.withLock { values[key] } ?? Self.defaultValue(forKey: key)
    }

    /// Sets the value at `key`; a value of the wrong type for a number key is ignored.
    open func setValue(_ value: Any?, forKey key: String) {
        let key = Self.canonical(key)
        var stored = value
        if Self.numberKeys.contains(key), let value {
            guard let number = numberValue(value) else { return }
            stored = NSNumber(value: number)
        }
        lock.withLock { values[key] = stored }
    }

    /// `isEnabled` is stored under Apple's key, `enabled`.
    static func canonical(_ key: String) -> String { key == "isEnabled" ? "enabled" : key }

    /// A dotted path: "emitterCells.spark.birthRate" reaches a sub-cell by its name.
    open func value(forKeyPath keyPath: String) -> Any? {
        guard let (cell, key) = resolve(keyPath) else { return nil }
        return cell.value(forKey: key)
    }

    open func setValue(_ value: Any?, forKeyPath keyPath: String) {
        guard let (cell, key) = resolve(keyPath) else { return }
        cell.setValue(value, forKey: key)
    }

    /// The cell and key a path names: "emitterCells.NAME." steps into the sub-cell of that name.
    func resolve(_ keyPath: String) -> (CAEmitterCell, String)? {
        var cell = self
        var parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        while parts.count >= 3, parts[0] == "emitterCells" {
            guard let next = cell.emitterCells?.first(where: { $0.name == parts[1] }) else { return nil }
            cell = next
            parts.removeFirst(2)
        }
        return (cell, parts.joined(separator: "."))
    }

    static let numberKeys: Set<String> = [
        "birthRate", "lifetime", "lifetimeRange", "emissionLatitude", "emissionLongitude", "emissionRange", "velocity",
        "velocityRange", "xAcceleration", "yAcceleration", "zAcceleration", "scale", "scaleRange", "scaleSpeed", "spin", "spinRange",
        "redRange", "greenRange", "blueRange", "alphaRange", "redSpeed", "greenSpeed", "blueSpeed", "alphaSpeed", "contentsScale",
        "minificationFilterBias", "beginTime", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration",
    ]

    /// What a new cell reads for each key (Apple's defaults); nil for keys it does not declare.
    open class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "enabled": true
        case "scale", "contentsScale", "speed": NSNumber(value: 1)
        case "color": CGColor.white
        case "contentsRect": CGRect(x: 0, y: 0, width: 1, height: 1)
        case "minificationFilter", "magnificationFilter": CALayerContentsFilter.linear.rawValue
        case "fillMode": CAMediaTimingFillMode.removed.rawValue
        case "autoreverses": false
        default: numberKeys.contains(key) ? NSNumber(value: 0) : nil
        }
    }

    /// Whether archiving keeps the key's value: every declared key (there is no archiving here;
    /// kept for code written for Apple's platforms).
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    private func number(_ key: String) -> Double { numberValue(value(forKey: key)) ?? 0 }
    private func setNumber(_ key: String, _ v: Double) { setValue(NSNumber(value: v), forKey: key) }

    // MARK: Properties, as Apple declares them

    /// The name key paths use (`emitterCells.NAME.birthRate`). Default: nil.
    open var name: String? { get { value(forKey: "name") as? String } set { setValue(newValue, forKey: "name") } }
    /// Whether the cell emits. Default: true.
    open var isEnabled: Bool { get { (value(forKey: "enabled") as? Bool) ?? true } set { setValue(newValue, forKey: "enabled") } }
    /// Particles born per second (times the layer's `birthRate`). Default: 0.
    open var birthRate: Float { get { Float(number("birthRate")) } set { setNumber("birthRate", Double(newValue)) } }
    /// Seconds a particle lives (times the layer's `lifetime`), give or take `lifetimeRange`.
    open var lifetime: Float { get { Float(number("lifetime")) } set { setNumber("lifetime", Double(newValue)) } }
    open var lifetimeRange: Float { get { Float(number("lifetimeRange")) } set { setNumber("lifetimeRange", Double(newValue)) } }
    /// The emission direction: `emissionLongitude` turns it in the xy plane from +x, and
    /// `emissionLatitude` tilts it out of that plane; particles leave uniformly within a cone of
    /// angle `emissionRange` about it (2π: every direction). Radians; defaults 0.
    open var emissionLatitude: CGFloat { get { CGFloat(number("emissionLatitude")) } set { setNumber("emissionLatitude", Double(newValue)) } }
    open var emissionLongitude: CGFloat { get { CGFloat(number("emissionLongitude")) } set { setNumber("emissionLongitude", Double(newValue)) } }
    open var emissionRange: CGFloat { get { CGFloat(number("emissionRange")) } set { setNumber("emissionRange", Double(newValue)) } }
    /// Speed in points per second (times the layer's `velocity`), give or take `velocityRange`.
    open var velocity: CGFloat { get { CGFloat(number("velocity")) } set { setNumber("velocity", Double(newValue)) } }
    open var velocityRange: CGFloat { get { CGFloat(number("velocityRange")) } set { setNumber("velocityRange", Double(newValue)) } }
    /// Acceleration in points per second squared. Defaults 0.
    open var xAcceleration: CGFloat { get { CGFloat(number("xAcceleration")) } set { setNumber("xAcceleration", Double(newValue)) } }
    open var yAcceleration: CGFloat { get { CGFloat(number("yAcceleration")) } set { setNumber("yAcceleration", Double(newValue)) } }
    open var zAcceleration: CGFloat { get { CGFloat(number("zAcceleration")) } set { setNumber("zAcceleration", Double(newValue)) } }
    /// The contents' scale (times the layer's `scale`), give or take `scaleRange`, changing by
    /// `scaleSpeed` per second. Defaults 1, 0, 0.
    open var scale: CGFloat { get { CGFloat(number("scale")) } set { setNumber("scale", Double(newValue)) } }
    open var scaleRange: CGFloat { get { CGFloat(number("scaleRange")) } set { setNumber("scaleRange", Double(newValue)) } }
    open var scaleSpeed: CGFloat { get { CGFloat(number("scaleSpeed")) } set { setNumber("scaleSpeed", Double(newValue)) } }
    /// Turning speed in radians per second (times the layer's `spin`), give or take `spinRange`.
    open var spin: CGFloat { get { CGFloat(number("spin")) } set { setNumber("spin", Double(newValue)) } }
    open var spinRange: CGFloat { get { CGFloat(number("spinRange")) } set { setNumber("spinRange", Double(newValue)) } }
    /// The colour the contents are multiplied by. Default: opaque white.
    open var color: CGColor? {
        get { value(forKey: "color").flatMap { $0 as? CGColor } }
        set { setValue(newValue, forKey: "color") }
    }
    /// How far each component may be from `color`'s, at random. Defaults 0.
    open var redRange: Float { get { Float(number("redRange")) } set { setNumber("redRange", Double(newValue)) } }
    open var greenRange: Float { get { Float(number("greenRange")) } set { setNumber("greenRange", Double(newValue)) } }
    open var blueRange: Float { get { Float(number("blueRange")) } set { setNumber("blueRange", Double(newValue)) } }
    open var alphaRange: Float { get { Float(number("alphaRange")) } set { setNumber("alphaRange", Double(newValue)) } }
    /// How fast each component changes over a particle's life, per second. Defaults 0.
    open var redSpeed: Float { get { Float(number("redSpeed")) } set { setNumber("redSpeed", Double(newValue)) } }
    open var greenSpeed: Float { get { Float(number("greenSpeed")) } set { setNumber("greenSpeed", Double(newValue)) } }
    open var blueSpeed: Float { get { Float(number("blueSpeed")) } set { setNumber("blueSpeed", Double(newValue)) } }
    open var alphaSpeed: Float { get { Float(number("alphaSpeed")) } set { setNumber("alphaSpeed", Double(newValue)) } }
    /// The particle's image (a `CGImage`; without one a particle draws nothing). Default: nil.
    open var contents: Any? { get { value(forKey: "contents") } set { setValue(newValue, forKey: "contents") } }
    /// The part of `contents` drawn, in unit coordinates. Default: the whole image.
    open var contentsRect: CGRect {
        get { (value(forKey: "contentsRect") as? CGRect) ?? CGRect(x: 0, y: 0, width: 1, height: 1) }
        set { setValue(newValue, forKey: "contentsRect") }
    }
    /// Image pixels per point. Default: 1.
    open var contentsScale: CGFloat { get { CGFloat(number("contentsScale")) } set { setNumber("contentsScale", Double(newValue)) } }
    /// How the contents are sampled. Defaults: linear.
    open var minificationFilter: String {
        get { (value(forKey: "minificationFilter") as? String) ?? CALayerContentsFilter.linear.rawValue }
        set { setValue(newValue, forKey: "minificationFilter") }
    }
    open var magnificationFilter: String {
        get { (value(forKey: "magnificationFilter") as? String) ?? CALayerContentsFilter.linear.rawValue }
        set { setValue(newValue, forKey: "magnificationFilter") }
    }
    open var minificationFilterBias: Float { get { Float(number("minificationFilterBias")) } set { setNumber("minificationFilterBias", Double(newValue)) } }
    /// Cells each particle of this cell emits. Default: nil.
    open var emitterCells: [CAEmitterCell]? {
        get { value(forKey: "emitterCells") as? [CAEmitterCell] }
        set { setValue(newValue, forKey: "emitterCells") }
    }
    /// Extra values by key (Apple's `style`). Default: nil.
    open var style: [AnyHashable: Any]? { get { value(forKey: "style") as? [AnyHashable: Any] } set { setValue(newValue, forKey: "style") } }

    // MARK: CAMediaTiming

    open var beginTime: CFTimeInterval { get { number("beginTime") } set { setNumber("beginTime", newValue) } }
    open var duration: CFTimeInterval { get { number("duration") } set { setNumber("duration", newValue) } }
    open var speed: Float { get { Float(number("speed")) } set { setNumber("speed", Double(newValue)) } }
    open var timeOffset: CFTimeInterval { get { number("timeOffset") } set { setNumber("timeOffset", newValue) } }
    open var repeatCount: Float { get { Float(number("repeatCount")) } set { setNumber("repeatCount", Double(newValue)) } }
    open var repeatDuration: CFTimeInterval { get { number("repeatDuration") } set { setNumber("repeatDuration", newValue) } }
    open var autoreverses: Bool { get { (value(forKey: "autoreverses") as? Bool) ?? false } set { setValue(newValue, forKey: "autoreverses") } }
    open var fillMode: CAMediaTimingFillMode {
        get { (value(forKey: "fillMode") as? String).map(CAMediaTimingFillMode.init(rawValue:)) ?? .removed }
        set { setValue(newValue.rawValue, forKey: "fillMode") }
    }
}
