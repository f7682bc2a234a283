import Foundation

/// A basic animation that moves like a damped spring from `fromValue` to `toValue`:
/// m x'' + c x' + k x = 0, solved in closed form. Time runs in seconds from the start (set
/// `duration` to `settlingDuration` to see the whole motion).
open class CASpringAnimation: CABasicAnimation {
    /// Default: 1.
    open var mass: CGFloat = 1
    /// Default: 100.
    open var stiffness: CGFloat = 100
    /// Default: 10.
    open var damping: CGFloat = 10
    /// Speed toward the target at the start, in distances (from -> to) per second. Default: 0.
    open var initialVelocity: CGFloat = 0
    /// Let the damping ratio exceed 1 (no oscillation, slower approach). Default: false: the
    /// ratio is clamped to 1, critical damping.
    open var allowsOverdamping = false

    /// A spring that settles in about `perceptualDuration` seconds and overshoots by `bounce`
    /// (0 none, up to 1; negative values overdamp), as Apple's initializer: stiffness (2π / d)^2,
    /// damping ratio 1 - bounce.
    public convenience init(perceptualDuration: CFTimeInterval, bounce: CGFloat) {
        self.init()
        let d = max(perceptualDuration, 1e-3), bounce = Double(bounce)
        mass = 1
        stiffness = CGFloat(pow(2 * .pi / d, 2))
        let ratio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        damping = CGFloat(4 * .pi * ratio / d)
        allowsOverdamping = bounce < 0
        duration = settlingDuration
    }

    /// The time the spring takes to look settled, by Apple's definition behind
    /// `init(perceptualDuration:bounce:)`: 2π / ω, ω = √(stiffness / mass).
    open var perceptualDuration: CFTimeInterval {
        let (omega, _) = parameters
        return omega > 0 ? 2 * .pi / omega : .infinity
    }

    /// How much the spring overshoots: 1 - damping ratio (negative when overdamped, as
    /// `init(perceptualDuration:bounce:)` takes it).
    open var bounce: CGFloat {
        let (omega, zeta) = parameters
        guard omega > 0 else { return 0 }
        return CGFloat(zeta <= 1 ? 1 - zeta : 1 / zeta - 1)
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone)
        if let copy = copy as? CASpringAnimation {
            copy.mass = mass
            copy.stiffness = stiffness
            copy.damping = damping
            copy.initialVelocity = initialVelocity
            copy.allowsOverdamping = allowsOverdamping
        }
        return copy
    }

    /// The time after which the spring stays within 1/1200 of the distance it travels (measured
    /// on the decay envelope of the displacement, amplitude included). Apple does not document
    /// its threshold; this one gives both figures its documentation states for stiffness 100 and
    /// mass 1: damping 5 "approximately 2.85 seconds" (2.849) and damping 15 "just over 1
    /// second" (1.0004). 0.001 gave 2.776 and 0.976.
    open var settlingDuration: CFTimeInterval {
        let (omega, zeta) = parameters
        guard omega > 0, zeta > 0 else { return .infinity }
        let epsilon = 1.0 / 1200
        if zeta < 1 {
            let omegaD = omega * (1 - zeta * zeta).squareRoot()
            let b = (zeta * omega - Double(initialVelocity)) / omegaD
            let amplitude = (1 + b * b).squareRoot()
            return max(0, log(amplitude / epsilon) / (zeta * omega))
        }
        // No oscillation: step until the displacement stays under epsilon (it decays monotonically
        // after at most one crossing).
        var t = 0.0
        while t < 1000, abs(displacement(at: t)) >= epsilon || abs(displacement(at: t + 0.01)) >= epsilon { t += 0.001 }
        return t
    }

    /// Natural frequency and the damping ratio in effect.
    private var parameters: (omega: Double, zeta: Double) {
        let mass = Double(mass), stiffness = Double(stiffness), damping = Double(damping)
        guard mass > 0, stiffness > 0, damping >= 0, mass.isFinite, stiffness.isFinite, damping.isFinite else { return (0, 0) }
        let omega = (stiffness / mass).squareRoot()
        var zeta = damping / (2 * (stiffness * mass).squareRoot())
        if !allowsOverdamping { zeta = min(zeta, 1) }
        return (omega, zeta)
    }

    /// Distance from the target at `t` seconds, as a fraction of the whole move (1 at the start).
    package func displacement(at t: Double) -> Double {
        let (omega, zeta) = parameters
        guard omega > 0 else { return 0 }
        let v0 = -Double(initialVelocity) // moving toward the target shrinks the displacement
        if zeta < 1 {
            let omegaD = omega * (1 - zeta * zeta).squareRoot()
            let b = (zeta * omega + v0) / omegaD
            return exp(-zeta * omega * t) * (cos(omegaD * t) + b * sin(omegaD * t))
        }
        if zeta == 1 {
            return (1 + (v0 + omega) * t) * exp(-omega * t)
        }
        let root = (zeta * zeta - 1).squareRoot()
        let r1 = -omega * (zeta - root), r2 = -omega * (zeta + root)
        let c2 = (v0 - r1) / (r2 - r1)
        return (1 - c2) * exp(r1 * t) + c2 * exp(r2 * t)
    }

    override func paced(_ progress: Double) -> Double {
        1 - displacement(at: progress * attachedDuration)
    }
}
