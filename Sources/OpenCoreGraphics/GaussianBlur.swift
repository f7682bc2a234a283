import Foundation

/// Separable Gaussian blur weights and a reference blur of one channel: the kernel Core Graphics
/// shadows use here, and the one the compositor's shadow passes will share, so every blur in
/// OpenQuartz is the same function.
public enum GaussianBlur {
    /// Weights for offsets -r...r, r = ceil(3 sigma), normalized to sum 1. `[1]` for sigma <= 0.001.
    public static func weights(sigma: Double) -> [Float] {
        // Below a thousandth of a pixel the kernel is [0, 1, 0] anyway; a denormal sigma would
        // square to 0 and make 0 / 0 weights (layer-tree fuzzer).
        guard sigma.isFinite, sigma > 1e-3 else { return [1] }
        // Truncated at the widest image allowed: a kernel wider than the image changes nothing more.
        let radius = Int(min(3 * sigma, Double(ImageLimits.defaultMaxDimension)).rounded(.up))
        let raw = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = raw.reduce(0, +)
        return raw.map { Float($0 / total) }
    }

    /// `values` (width x height, rows top to bottom) blurred horizontally then vertically, edges
    /// treated as zero (transparent).
    public static func blur(_ values: [Float], width: Int, height: Int, sigma: Double) -> [Float] {
        let kernel = weights(sigma: sigma)
        guard kernel.count > 1 else { return values }
        let radius = kernel.count / 2
        var horizontal = [Float](repeating: 0, count: values.count)
        for y in 0..<height {
            let row = y * width
            for x in 0..<width {
                var sum: Float = 0
                for k in max(-radius, -x)...min(radius, width - 1 - x) { sum += values[row + x + k] * kernel[k + radius] }
                horizontal[row + x] = sum
            }
        }
        var result = [Float](repeating: 0, count: values.count)
        for y in 0..<height {
            for x in 0..<width {
                var sum: Float = 0
                for k in max(-radius, -y)...min(radius, height - 1 - y) { sum += horizontal[(y + k) * width + x] * kernel[k + radius] }
                result[y * width + x] = sum
            }
        }
        return result
    }
}
