import Foundation
import OpenCoreGraphics

/// A layer whose sublayers are drawn `instanceCount` times, each copy transformed by one more
/// `instanceTransform` (about the replicator's centre) and tinted by `instanceColor` plus the
/// per-instance offsets (seed 000's mirror: two instances, the second flipped and fainter).
open class CAReplicatorLayer: CALayer {
    /// How many times the sublayers are drawn. Default: 1.
    @Animatable("instanceCount") open var instanceCount: Int = 1
    /// The transform from one instance to the next. Default: identity.
    @Animatable("instanceTransform") open var instanceTransform: CATransform3D = CATransform3DIdentity
    /// How much later in time each instance is than the previous. Default: 0.
    @Animatable("instanceDelay") open var instanceDelay: CFTimeInterval = 0
    /// The tint of the first instance, multiplying the sublayers' colours. Default: opaque white.
    @Animatable("instanceColor") open var instanceColor: CGColor? = CGColor.white
    /// Added to the tint's components for each further instance. Defaults: 0.
    @Animatable("instanceRedOffset") open var instanceRedOffset: Float = 0
    @Animatable("instanceGreenOffset") open var instanceGreenOffset: Float = 0
    @Animatable("instanceBlueOffset") open var instanceBlueOffset: Float = 0
    @Animatable("instanceAlphaOffset") open var instanceAlphaOffset: Float = 0
    /// Keep the instances in 3D, depth-sorted with each other (as a transform layer keeps its
    /// sublayers; the replicator then draws nothing of its own) instead of flattening them in
    /// instance order. Default: false.
    @Animatable("preservesDepth") open var preservesDepth: Bool = false

    /// For a presentation copy whose sublayers animate and whose instanceDelay is not 0: for
    /// instances 1, 2, ..., the sublayers presented `instanceDelay` seconds earlier each time.
    /// Empty otherwise (every instance shows `sublayers`).
    public internal(set) var delayedInstances: [[CALayer]] = [] {
        // The instances replaced leave this layer (their superlayer link must not outlive it).
        willSet { for layer in delayedInstances.joined() { unlinkIfChild(layer) } }
    }

    deinit {
        for layer in delayedInstances.joined() { unlinkIfChild(layer) }
    }

    /// More instances than this are not drawn (a diagnostic says so). Default: 10,000.
    public static let maxInstances = 10_000

    override class func libraryCopy(of layer: CALayer) -> CALayer { CAReplicatorLayer(layer: layer) }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "instanceCount": 1
        case "instanceTransform": CATransform3DIdentity
        case "instanceColor": CGColor.white
        case "instanceDelay": CFTimeInterval(0)
        case "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset": Float(0)
        case "preservesDepth": false
        default: super.defaultValue(forKey: key)
        }
    }

    open override class var implicitlyAnimatedKeys: Set<String> {
        ["instanceTransform", "instanceDelay", "instanceColor", "instanceRedOffset", "instanceGreenOffset",
         "instanceBlueOffset", "instanceAlphaOffset"]
    }

    /// The premultiplied tint of instance `i`: instanceColor plus i times the offsets, clamped.
    public func instanceTint(_ i: Int) -> (red: Double, green: Double, blue: Double, alpha: Double) {
        let base: (red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) = instanceColor?.rgba ?? (1, 1, 1, 1)
        func channel(_ value: CGFloat, _ offset: Float) -> Double {
            let v = Double(value) + Double(i) * Double(offset)
            return v.isNaN ? 0 : min(max(v, 0), 1)
        }
        let alpha = channel(base.alpha, instanceAlphaOffset)
        return (channel(base.red, instanceRedOffset) * alpha, channel(base.green, instanceGreenOffset) * alpha,
                channel(base.blue, instanceBlueOffset) * alpha, alpha)
    }
}
