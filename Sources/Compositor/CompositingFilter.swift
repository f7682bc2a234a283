import Foundation
import LayerModel

// `CALayer.compositingFilter`: how a layer is composited with what lies beneath it. Core
// Animation takes a Core Image filter of the composite-operation category, or on iOS the filter's
// name as a string (`layer.compositingFilter = "multiplyBlendMode"`), which is what code written
// for Apple sets and what this renderer reads: the Core Image names without their "CI" prefix,
// or with it, and Core Animation's own Porter-Duff filter names (`"xor"`, `"destOut"`, ...,
// CGBlendMode's operators: lottie-ios inverts a matte by compositing it `"xor"` over black). A layer with one is drawn as an isolated group (its subtree into a pass) whose
// composite blends with the backdrop of the target it lands in: the frame, or the enclosing
// group's pass (its isolation group, as CSS's mix-blend-mode).

extension BlendMode {
    /// Core Image's composite-operation names this renderer composites, and their modes.
    public static let compositingFilterNames: [(name: String, mode: BlendMode)] = [
        ("multiplyBlendMode", .multiply), ("screenBlendMode", .screen), ("overlayBlendMode", .overlay),
        ("darkenBlendMode", .darken), ("lightenBlendMode", .lighten), ("colorDodgeBlendMode", .colorDodge),
        ("colorBurnBlendMode", .colorBurn), ("hardLightBlendMode", .hardLight), ("softLightBlendMode", .softLight),
        ("differenceBlendMode", .difference), ("exclusionBlendMode", .exclusion), ("hueBlendMode", .hue),
        ("saturationBlendMode", .saturation), ("colorBlendMode", .color), ("luminosityBlendMode", .luminosity),
        ("sourceAtopCompositing", .sourceAtop), ("sourceInCompositing", .sourceIn), ("sourceOutCompositing", .sourceOut),
        ("sourceOverCompositing", .sourceOver), ("additionCompositing", .plus),
        // Core Animation's Porter-Duff filters (CGBlendMode's operators, by CA's names).
        ("clear", .clear), ("copy", .copy), ("sourceOver", .sourceOver), ("sourceIn", .sourceIn),
        ("sourceOut", .sourceOut), ("sourceAtop", .sourceAtop), ("destOver", .destinationOver),
        ("destIn", .destinationIn), ("destOut", .destinationOut), ("destAtop", .destinationAtop), ("xor", .xor),
        ("plusL", .plus), ("plusD", .plusDarker),
    ]

    /// Every string `init(compositingFilter:)` takes: each name as Core Animation's string form
    /// (`multiplyBlendMode`, `xor`) and, for Core Image's filters, as Core Image's filter name
    /// (`CIMultiplyBlendMode`). Readers of outside data (scene documents) accept exactly these,
    /// so what the renderer honours and what a document may say are one list.
    public static let acceptedCompositingFilterNames: [String] = compositingFilterNames.flatMap { entry in
        [entry.name] + (isCoreImageName(entry.name) ? ["CI" + entry.name.prefix(1).uppercased() + entry.name.dropFirst()] : [])
    }

    /// Core Image's composite filters end so (`multiplyBlendMode`, `sourceInCompositing`); Core
    /// Animation's own Porter-Duff names (`sourceIn`, `xor`) have no Core Image form.
    private static func isCoreImageName(_ name: String) -> Bool {
        name.hasSuffix("BlendMode") || name.hasSuffix("Compositing")
    }

    /// The mode a compositingFilter value names: a name above, with or without Core Image's "CI"
    /// prefix (`CIMultiplyBlendMode`); nil for anything else.
    public init?(compositingFilter value: Any) {
        guard var name = value as? String else { return nil }
        if name.hasPrefix("CI"), name.count > 2 {
            name = name.dropFirst(2).prefix(1).lowercased() + name.dropFirst(3)
            guard BlendMode.isCoreImageName(name) else { return nil }
        }
        guard let entry = BlendMode.compositingFilterNames.first(where: { $0.name == name }) else { return nil }
        self = entry.mode
    }
}

extension RenderListBuilder {
    /// The mode `layer`'s compositingFilter blends it with the backdrop by; nil for none, for
    /// source-over, for a value this renderer does not know (`unknownCompositingFilter`), and
    /// under `render(in:)`'s rules for the non-separable modes (`DrawingRules.renderInContext`).
    func compositingMode(of layer: CALayer) -> BlendMode? {
        guard let mode = layer.compositingFilter.flatMap({ BlendMode(compositingFilter: $0) }), mode != .sourceOver else { return nil }
        if rules == .renderInContext, [.hue, .saturation, .color, .luminosity].contains(mode) { return nil }
        return mode
    }

    /// What the diagnostics say of a compositingFilter that names no mode known here (the layer
    /// is drawn source-over); nil when there is none or it names one.
    static func unknownCompositingFilter(of layer: CALayer) -> String? {
        guard let filter = layer.compositingFilter, BlendMode(compositingFilter: filter) == nil else { return nil }
        return "\(layer): compositingFilter \(filter) is not a blend mode this renderer knows "
            + "(\(BlendMode.compositingFilterNames.map(\.name).joined(separator: ", "))); composited source-over"
    }
}
