import Foundation

// The arithmetic of the blend modes, from the W3C Compositing and Blending Level 1 spec (which
// Core Animation's and CSS's match): on premultiplied colours in 0...1, the backdrop cb with
// alpha ab under a source cs with alpha as. The CPU reference evaluates this; the GPU's
// blend_modes.glsl mirrors it line for line.

extension BlendMode {
    /// A premultiplied colour: red, green, blue, alpha.
    public typealias Premultiplied = (red: Double, green: Double, blue: Double, alpha: Double)

    /// The source composited over the backdrop by this mode (premultiplied in and out), for the
    /// modes that read the backdrop; source-over is the spec's normal mode (B = Cs) here too. Plus
    /// and destination-in are the blenders' own equations (SourceOver.add, .scale on the CPU).
    public func combine(source s: Premultiplied, backdrop b: Premultiplied) -> Premultiplied {
        let (cs, cb) = ([s.red, s.green, s.blue], [b.red, b.green, b.blue])
        let sa = s.alpha, ba = b.alpha
        func each(_ f: (Double, Double) -> Double, alpha: Double) -> Premultiplied {
            (f(cs[0], cb[0]), f(cs[1], cb[1]), f(cs[2], cb[2]), alpha)
        }
        switch self {
        case .sourceAtop: return each({ $0 * ba + $1 * (1 - sa) }, alpha: ba)
        case .sourceIn: return each({ s, _ in s * ba }, alpha: sa * ba)
        case .sourceOut: return each({ s, _ in s * (1 - ba) }, alpha: sa * (1 - ba))
        default: break
        }
        // Unpremultiplied colours for B; a transparent one is black (its weight is zero anyway).
        let Cs = sa > 0 ? cs.map { min($0 / sa, 1) } : [0, 0, 0]
        let Cb = ba > 0 ? cb.map { min($0 / ba, 1) } : [0, 0, 0]
        let mixed = blended(backdrop: Cb, source: Cs)
        let a = sa + ba - sa * ba
        var out = [0.0, 0.0, 0.0]
        for i in 0..<3 { out[i] = cs[i] * (1 - ba) + cb[i] * (1 - sa) + sa * ba * mixed[i] }
        return (out[0], out[1], out[2], a)
    }

    /// B(Cb, Cs): the blended colour where both are opaque, on unpremultiplied colours.
    func blended(backdrop cb: [Double], source cs: [Double]) -> [Double] {
        switch self {
        case .hue: return BlendMode.setLum(BlendMode.setSat(cs, BlendMode.sat(cb)), BlendMode.lum(cb))
        case .saturation: return BlendMode.setLum(BlendMode.setSat(cb, BlendMode.sat(cs)), BlendMode.lum(cb))
        case .color: return BlendMode.setLum(cs, BlendMode.lum(cb))
        case .luminosity: return BlendMode.setLum(cb, BlendMode.lum(cs))
        default: return (0..<3).map { separable(backdrop: cb[$0], source: cs[$0]) }
        }
    }

    /// The separable modes' B on one component.
    func separable(backdrop cb: Double, source cs: Double) -> Double {
        switch self {
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return BlendMode.hardLight(source: cb, backdrop: cs)
        case .darken: return min(cb, cs)
        case .lighten: return max(cb, cs)
        case .colorDodge: return cb == 0 ? 0 : cs >= 1 ? 1 : min(1, cb / (1 - cs))
        case .colorBurn: return cb >= 1 ? 1 : cs <= 0 ? 0 : 1 - min(1, (1 - cb) / cs)
        case .hardLight: return BlendMode.hardLight(source: cs, backdrop: cb)
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

    static func lum(_ c: [Double]) -> Double { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }

    static func clipColor(_ c: [Double]) -> [Double] {
        let l = lum(c), n = c.min()!, x = c.max()!
        var out = c
        if n < 0 { out = out.map { l + ($0 - l) * l / (l - n) } }
        if x > 1 { out = out.map { l + ($0 - l) * (1 - l) / (x - l) } }
        return out
    }

    static func setLum(_ c: [Double], _ l: Double) -> [Double] {
        let d = l - lum(c)
        return clipColor(c.map { $0 + d })
    }

    static func sat(_ c: [Double]) -> Double { c.max()! - c.min()! }

    /// The colour with the saturation s: its largest component s, its smallest 0, the middle one
    /// in proportion (the spec's SetSat, on the components sorted).
    static func setSat(_ c: [Double], _ s: Double) -> [Double] {
        let order = [0, 1, 2].sorted { c[$0] < c[$1] }
        let (lo, mid, hi) = (order[0], order[1], order[2])
        var out = [0.0, 0.0, 0.0]
        if c[hi] > c[lo] {
            out[mid] = (c[mid] - c[lo]) * s / (c[hi] - c[lo])
            out[hi] = s
        }
        return out
    }
}
