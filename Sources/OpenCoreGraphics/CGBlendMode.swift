import Foundation

// CGBlendMode: how a drawing combines with what the context holds, with Apple's raw values, and
// the arithmetic of every mode: the W3C Compositing and Blending Level 1 formulas for the blend
// modes (which Core Animation's, Core Graphics' and CSS's match) and CGBlendMode's documented
// Porter-Duff formulas, on premultiplied colours in 0...1 (the backdrop cb with alpha ab under a
// source cs with alpha as). CGContext draws with it; the compositor's blend modes map onto it, so
// the CPU reference renders with the same arithmetic, and the GPU's blend_modes.glsl mirrors it
// line for line.

/// Compositing operations for drawing (Core Graphics' modes and raw values).
public enum CGBlendMode: Int32, Sendable, CaseIterable {
    case normal = 0, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight,
         difference, exclusion, hue, saturation, color, luminosity
    /// R = 0, R = S, R = S Da, R = S (1 - Da), R = S Da + D (1 - Sa), R = S (1 - Da) + D, R = D Sa,
    /// R = D (1 - Sa), R = S (1 - Da) + D Sa, R = S (1 - Da) + D (1 - Sa).
    case clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn, destinationOut,
         destinationAtop, xor
    /// R = max(0, 1 - ((1 - D) + (1 - S))) and R = min(1, S + D).
    case plusDarker, plusLighter
}

extension CGBlendMode {
    /// A premultiplied colour: red, green, blue, alpha.
    public typealias Premultiplied = (red: Double, green: Double, blue: Double, alpha: Double)

    /// The source composited over the backdrop by this mode (premultiplied in and out): the W3C
    /// formula for the blend modes (normal is B = Cs), CGBlendMode's for the Porter-Duff operators.
    ///
    /// Per pixel on the CPU, so the colours are `SIMD3` values on the stack: the arrays it used
    /// to make cost four allocations a pixel (a chain of 16 blended layers over 1280 x 720 took
    /// 64 s). Each lane does the same operations in the same order as the spec's scalar form, so
    /// the bytes are the same.
    public func combine(source s: Premultiplied, backdrop b: Premultiplied) -> Premultiplied {
        let cs = SIMD3(s.red, s.green, s.blue), cb = SIMD3(b.red, b.green, b.blue)
        let sa = s.alpha, ba = b.alpha
        switch self {
        case .plusLighter: return Self.tuple(pointwiseMin(cs + cb, SIMD3(repeating: 1)), alpha: min(1, sa + ba))
        case .destinationIn: return Self.tuple(cb * sa, alpha: ba * sa)
        case .sourceAtop: return Self.tuple(cs * ba + cb * (1 - sa), alpha: ba)
        case .sourceIn: return Self.tuple(cs * ba, alpha: sa * ba)
        case .sourceOut: return Self.tuple(cs * (1 - ba), alpha: sa * (1 - ba))
        case .destinationOver: return Self.tuple(cb + cs * (1 - ba), alpha: ba + sa * (1 - ba))
        case .destinationOut: return Self.tuple(cb * (1 - sa), alpha: ba * (1 - sa))
        case .destinationAtop: return Self.tuple(cb * sa + cs * (1 - ba), alpha: sa)
        case .xor: return Self.tuple(cs * (1 - ba) + cb * (1 - sa), alpha: sa * (1 - ba) + ba * (1 - sa))
        case .clear: return (0, 0, 0, 0)
        case .copy: return s
        case .plusDarker:
            // CGBlendMode's R = max(0, 1 - ((1 - D) + (1 - S))) on premultiplied colours: each
            // colour's distance below its alpha is summed and taken from the summed alpha.
            let a = min(1, sa + ba)
            return Self.tuple(pointwiseMax(SIMD3(repeating: a) - ((SIMD3(repeating: ba) - cb) + (SIMD3(repeating: sa) - cs)),
                                           SIMD3(repeating: 0)), alpha: a)
        default: break
        }
        // Unpremultiplied colours for B; a transparent one is black (its weight is zero anyway).
        let Cs = sa > 0 ? pointwiseMin(cs / sa, SIMD3(repeating: 1)) : SIMD3<Double>()
        let Cb = ba > 0 ? pointwiseMin(cb / ba, SIMD3(repeating: 1)) : SIMD3<Double>()
        let mixed = blended(backdrop: Cb, source: Cs)
        let a = sa + ba - sa * ba
        return Self.tuple(cs * (1 - ba) + cb * (1 - sa) + (sa * ba) * mixed, alpha: a)
    }

    private static func tuple(_ c: SIMD3<Double>, alpha: Double) -> Premultiplied { (c.x, c.y, c.z, alpha) }

    /// B(Cb, Cs): the blended colour where both are opaque, on unpremultiplied colours.
    func blended(backdrop cb: SIMD3<Double>, source cs: SIMD3<Double>) -> SIMD3<Double> {
        switch self {
        case .hue: return CGBlendMode.setLum(CGBlendMode.setSat(cs, CGBlendMode.sat(cb)), CGBlendMode.lum(cb))
        case .saturation: return CGBlendMode.setLum(CGBlendMode.setSat(cb, CGBlendMode.sat(cs)), CGBlendMode.lum(cb))
        case .color: return CGBlendMode.setLum(cs, CGBlendMode.lum(cb))
        case .luminosity: return CGBlendMode.setLum(cb, CGBlendMode.lum(cs))
        default: return SIMD3(separable(backdrop: cb.x, source: cs.x), separable(backdrop: cb.y, source: cs.y),
                               separable(backdrop: cb.z, source: cs.z))
        }
    }

    /// The separable modes' B on one component.
    func separable(backdrop cb: Double, source cs: Double) -> Double {
        switch self {
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return CGBlendMode.hardLight(source: cb, backdrop: cs)
        case .darken: return min(cb, cs)
        case .lighten: return max(cb, cs)
        case .colorDodge: return cb == 0 ? 0 : cs >= 1 ? 1 : min(1, cb / (1 - cs))
        case .colorBurn: return cb >= 1 ? 1 : cs <= 0 ? 0 : 1 - min(1, (1 - cb) / cs)
        case .hardLight: return CGBlendMode.hardLight(source: cs, backdrop: cb)
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        case .difference: return abs(cb - cs)
        case .exclusion: return cb + cs - 2 * cb * cs
        default: return cs
        }
    }

    static func hardLight(source cs: Double, backdrop cb: Double) -> Double {
        cs <= 0.5 ? cb * 2 * cs : cb + (2 * cs - 1) - cb * (2 * cs - 1)
    }

    static func lum(_ c: SIMD3<Double>) -> Double { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

    static func clipColor(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let l = lum(c), n = c.min(), x = c.max()
        var out = c
        if n < 0 { out = l + (out - l) * l / (l - n) }
        if x > 1 { out = l + (out - l) * (1 - l) / (x - l) }
        return out
    }

    static func setLum(_ c: SIMD3<Double>, _ l: Double) -> SIMD3<Double> {
        let d = l - lum(c)
        return clipColor(c + d)
    }

    static func sat(_ c: SIMD3<Double>) -> Double { c.max() - c.min() }

    /// The colour with the saturation s: its largest component s, its smallest 0, the middle one
    /// in proportion (the spec's SetSat, on the components sorted; ties keep their order, as a
    /// stable sort of the indices by value leaves them).
    static func setSat(_ c: SIMD3<Double>, _ s: Double) -> SIMD3<Double> {
        var order = (0, 1, 2)
        if c[order.1] < c[order.0] { order = (order.1, order.0, order.2) }
        if c[order.2] < c[order.1] {
            order = (order.0, order.2, order.1)
            if c[order.1] < c[order.0] { order = (order.1, order.0, order.2) }
        }
        let (lo, mid, hi) = order
        var out = SIMD3<Double>()
        if c[hi] > c[lo] {
            out[mid] = (c[mid] - c[lo]) * s / (c[hi] - c[lo])
            out[hi] = s
        }
        return out
    }
}
