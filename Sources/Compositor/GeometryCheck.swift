import Foundation
import LayerModel

/// The bad-input rule for layer geometry: a non-finite number anywhere in what places a layer
/// makes the layer (and so its subtree) undrawable; the compositor says which value it was.
enum GeometryCheck {
    static func problem(in layer: CALayer) -> String? {
        let b = layer.bounds
        // Every layer is checked on every frame: the finite case must not build the list below.
        let sum = b.origin.x + b.origin.y + b.size.width + b.size.height + layer.position.x + layer.position.y
            + layer.zPosition + layer.anchorPoint.x + layer.anchorPoint.y + layer.anchorPointZ
        if sum.isFinite && layer.transform.isFinite && layer.sublayerTransform.isFinite { return nil }
        let values: [(String, CGFloat)] = [
            ("bounds.origin.x", b.origin.x), ("bounds.origin.y", b.origin.y),
            ("bounds.size.width", b.size.width), ("bounds.size.height", b.size.height),
            ("position.x", layer.position.x), ("position.y", layer.position.y),
            ("zPosition", layer.zPosition),
            ("anchorPoint.x", layer.anchorPoint.x), ("anchorPoint.y", layer.anchorPoint.y),
            ("anchorPointZ", layer.anchorPointZ),
        ]
        if let bad = values.first(where: { !$0.1.isFinite }) { return "\(bad.0) is \(bad.1)" }
        if !layer.transform.isFinite { return "transform has a non-finite entry" }
        if !layer.sublayerTransform.isFinite { return "sublayerTransform has a non-finite entry" }
        return nil
    }
}
