import Foundation
import OpenCoreGraphics

// The arithmetic of the render list's blend modes is Core Graphics' (CGBlendMode.combine, in
// OpenCoreGraphics): each mode here is one of CGBlendMode's, so a layer's compositingFilter and a
// drawing's setBlendMode blend by one set of formulas, which the GPU's blend_modes.glsl mirrors.

extension BlendMode {
    /// A premultiplied colour: red, green, blue, alpha.
    public typealias Premultiplied = CGBlendMode.Premultiplied

    /// The Core Graphics mode with this mode's formula.
    public var cgBlendMode: CGBlendMode {
        switch self {
        case .sourceOver: .normal
        case .plus: .plusLighter
        case .destinationIn: .destinationIn
        case .multiply: .multiply
        case .screen: .screen
        case .overlay: .overlay
        case .darken: .darken
        case .lighten: .lighten
        case .colorDodge: .colorDodge
        case .colorBurn: .colorBurn
        case .hardLight: .hardLight
        case .softLight: .softLight
        case .difference: .difference
        case .exclusion: .exclusion
        case .hue: .hue
        case .saturation: .saturation
        case .color: .color
        case .luminosity: .luminosity
        case .sourceAtop: .sourceAtop
        case .sourceIn: .sourceIn
        case .sourceOut: .sourceOut
        case .destinationOver: .destinationOver
        case .destinationOut: .destinationOut
        case .destinationAtop: .destinationAtop
        case .xor: .xor
        case .clear: .clear
        case .copy: .copy
        case .plusDarker: .plusDarker
        }
    }

    /// The source composited over the backdrop by this mode (premultiplied in and out), for the
    /// modes that read the backdrop. Plus and destination-in are drawn by the blenders' own
    /// equations (SourceOver.add, .scale on the CPU), which this gives too.
    @inline(__always)
    public func combine(source s: Premultiplied, backdrop b: Premultiplied) -> Premultiplied {
        cgBlendMode.combine(source: s, backdrop: b)
    }
}
