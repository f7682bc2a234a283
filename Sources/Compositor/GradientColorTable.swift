import Foundation
import OpenCoreGraphics

/// A Generic RGB gradient's colours worked out ahead, so that the CPU reference's pixel costs a
/// lookup where the conversion to sRGB cost six (`GenericRGB.toSRGB` after the mix): for each
/// pair of neighbouring stops, the straight sRGB colour at `steps + 1` evenly spaced points of
/// the way from one to the other, mixed in Generic RGB and converted exactly as a pixel's colour
/// was; a pixel's colour is the two entries around its place between its stops, mixed. Alpha is
/// not in the table: it mixes linearly, so the pixel works it out as before.
///
/// Within 0.005/255 of the per-pixel conversion where every channel is clear of 0 and 1, and
/// within 0.08/255 where a channel meets a clamp between two entries (the clamp's corner, which
/// the mix cuts across), over 402,000 colours of 200 random gradients (`GradientColorTableTests`);
/// so a byte moves by one where the exact colour lies that close to a rounding boundary, and
/// otherwise not at all. It bought back what mixing every CAGradientLayer's colours
/// in Generic RGB cost the CPU (docs/performance.md, "A gradient's pixel").
///
/// Tables are kept by their stops (a Lottie document's gradients keep theirs frame after frame)
/// in a cache shared by the process, thread-safe and bounded by the memory it holds; the CPU
/// reference asks for a fill's table once a draw, the GPU never.
public final class GradientColorTable: @unchecked Sendable {
    /// Intervals between a segment's entries.
    public static let steps = 1024

    /// The stops it was made from: Generic RGB components, sorted, at least one.
    public let stops: [GradientFill.Stop]
    /// Red, green, blue and a pad (0) of each entry, so that an entry and the next share a cache
    /// line and are read four lanes at a time; `steps + 1` entries a segment, one segment for each
    /// pair of neighbouring stops (one for a single stop, its colour throughout).
    public let values: [Double]

    public init(stops: [GradientFill.Stop]) {
        self.stops = stops
        let segments = max(stops.count - 1, 1)
        var values = [Double](repeating: 0, count: segments * (Self.steps + 1) * 4)
        for segment in 0..<segments {
            let s0 = stops[segment], s1 = stops[min(segment + 1, stops.count - 1)]
            for j in 0...Self.steps {
                // The mix as oq_gradient_over and CGGradient.straightColor make it, at f = j / steps.
                let f = Double(j) / Double(Self.steps)
                let c = GenericRGB.toSRGB(s0.red + (s1.red - s0.red) * f, s0.green + (s1.green - s0.green) * f,
                                          s0.blue + (s1.blue - s0.blue) * f)
                let at = (segment * (Self.steps + 1) + j) * 4
                values[at] = c.0
                values[at + 1] = c.1
                values[at + 2] = c.2
            }
        }
        self.values = values
    }

    /// The straight sRGB colour a fraction `f` (0...1) of the way through `segment`: the entries
    /// around it, mixed (oq_gradient_over reads the table the same way, operation for operation).
    public func color(segment: Int, fraction f: Double) -> (Double, Double, Double) {
        let s = f * Double(Self.steps)
        let j = min(Int(s), Self.steps - 1), w = s - Double(j)
        let at = (segment * (Self.steps + 1) + j) * 4
        return (values[at] + (values[at + 4] - values[at]) * w, values[at + 1] + (values[at + 5] - values[at + 1]) * w,
                values[at + 2] + (values[at + 6] - values[at + 2]) * w)
    }

    /// The premultiplied colour at `t` (clamped to 0...1): CGGradient.premultipliedColor's choice
    /// of stops and its alpha, the colour from the table.
    public func premultipliedColor(at t: Double) -> (Double, Double, Double, Double) {
        let t = min(max(t, 0), 1)
        let place = CGGradient.segment(at: t, stops: stops), alpha = CGGradient.straightColor(at: t, stops: stops).alpha
        let c = color(segment: place.index, fraction: place.fraction)
        return (c.0 * alpha, c.1 * alpha, c.2 * alpha, alpha)
    }

    // MARK: The cache

    private static let lock = NSLock()
    nonisolated(unsafe) private static var kept: [[GradientFill.Stop]: GradientColorTable] = [:]
    nonisolated(unsafe) private static var keptValues = 0
    /// Values (doubles) kept at most, 64 MiB: the cache starts again when a table would take it
    /// past that (a frame's gradients fill it again as they are drawn). A table of two stops is
    /// 4,100 values; one of 32 stops 127,100.
    static let capacity = 8 << 20

    /// The table of `stops` (Generic RGB components, sorted, at least one), made once and kept.
    public static func table(for stops: [GradientFill.Stop]) -> GradientColorTable {
        lock.lock()
        if let table = kept[stops] { lock.unlock(); return table }
        lock.unlock()
        let table = GradientColorTable(stops: stops)
        lock.lock()
        if keptValues + table.values.count > capacity {
            kept.removeAll()
            keptValues = 0
        }
        if kept.updateValue(table, forKey: stops) == nil { keptValues += table.values.count }
        lock.unlock()
        return table
    }
}
