import Foundation

/// How many sampled values one document may cost (a frame apart over a property's span, and
/// everything inside a time remap): each sample is a value worked out and kept in an animation,
/// so a hostile file's 20,000 layers of sampled properties over 1,200 frames would cost minutes
/// and gigabytes. Once spent, values are set still and `makeLayer()` refuses the document,
/// naming the layer and property where the budget ran out.
final class LottieSampleBudget {
    /// Samples the document may take in all (`LottieDocument.maxSamples` unless the caller lowers it).
    let limit: Int
    private(set) var used = 0
    /// Where the budget ran out: the layer's name and the property.
    private(set) var exhaustedAt: String?

    init(limit: Int) { self.limit = limit }

    /// Takes `count` samples for `keyPath` of `layer`; false (and noted) once the budget is spent.
    func take(_ count: Int, keyPath: String, layerName: String?) -> Bool {
        guard exhaustedAt == nil else { return false }
        guard used + count <= limit else {
            exhaustedAt = "\(keyPath) of layer \"\(layerName ?? "unnamed")\""
            return false
        }
        used += count
        return true
    }
}
