import Foundation
import LayerModel
import OpenCoreGraphics

// Layer effects ("ef") that Core Animation can draw: the drop shadow (After Effects' "Drop
// Shadow", type 25) as the layer's shadow, mapped as lottie-ios maps it (softness over 5 as the
// radius, opacity over 255, direction turned a quarter and measured clockwise). Others are named
// in the warnings and not drawn.

enum LottieEffects {
    static func apply(_ effect: LottieNode, to layer: CALayer, builder: LottieAnimationBuilder, document: LottieDocument) throws {
        if effect["en"].map({ (try? $0.number()) == 0 }) == true { return }
        guard Int(try effect["ty"]?.number() ?? -1) == 25 else {
            document.warn("\(effect.path): the effect \"\(try effect.optionalString("nm") ?? "?")\" is not drawn")
            return
        }
        var values: [String: LottieAnimatable<[Double]>] = [:]
        for value in try effect["ef"]?.array() ?? [] {
            guard let name = try value.optionalString("nm"), let v = value["v"] else { continue }
            values[name] = try v.animatable { try $0.numbers() }
        }
        func scalar(_ name: String, _ fallback: Double) -> LottieAnimatable<Double> {
            values[name]?.map { $0.first ?? fallback } ?? LottieAnimatable(constant: fallback)
        }
        if let color = values["Shadow Color"] { builder.animate(layer, "shadowColor", color.asColor(), lottieColor) }
        builder.animate(layer, "shadowOpacity", scalar("Opacity", 255)) { NSNumber(value: min(max($0 / 255, 0), 1)) }
        builder.animate(layer, "shadowRadius", scalar("Softness", 0)) { NSNumber(value: max($0 / 5, 0)) }
        let direction = scalar("Direction", 135), distance = scalar("Distance", 0)
        builder.sampled(layer, "shadowOffset", times: direction.keyTimes + distance.keyTimes) { frame in
            let mixed: (Double, Double, Double) -> Double = { $0 + ($1 - $0) * $2 }
            let angle = (direction.value(at: frame, interpolate: mixed) - 90) * .pi / 180, d = distance.value(at: frame, interpolate: mixed)
            return NSValue(size: CGSize(width: d * cos(angle), height: d * sin(angle)))
        }
    }
}
