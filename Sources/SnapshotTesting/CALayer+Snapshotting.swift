#if os(Linux)
import Foundation
import OpenQuartzCore
import PixelDiff
import Testing

extension Snapshotting where Value == CALayer, Format == CGImage {
    /// A snapshot strategy for comparing layers based on pixel equality.
    public static var image: Snapshotting { .image() }

    /// A snapshot strategy for comparing layers, as the library's on Apple's platforms: the layer
    /// laid out (`setNeedsLayout`, `layoutIfNeeded`) and drawn as `render(in:)` draws it into an
    /// image of its bounds (its own transform and position left out, its opacity applied, layers
    /// turned in 3D not drawn);
    /// `precision` and `perceptualPrecision` as in `Diffing<CGImage>.image`.
    ///
    /// OpenQuartz's extras: `size` (the image's size in points from the bounds' origin, in place of
    /// the bounds' size), `scale` (device pixels per point; Apple's snapshots are at the screen's,
    /// so pass 2 or 3 to compare with references recorded on a Retina Mac or an iPhone), `time`
    /// (a media time to draw the animations at: without one the model tree is drawn, animations
    /// left out, as `render(in:)` draws it),
    /// `backend` (`.cpu`, the reference rasterizer, gives the same bytes on every machine; `.gpu`
    /// draws through GLES, best with a tolerant comparison) and `comparator` (one of PixelDiff's,
    /// in place of the precisions).
    public static func image(precision: Float = 1, perceptualPrecision: Float = 1, size: CGSize? = nil, scale: CGFloat = 1, time: Double? = nil,
                             backend: RenderBackend = .cpu, comparator: (any PixelComparator)? = nil) -> Snapshotting {
        Snapshotting<CGImage, CGImage>.image(precision: precision, perceptualPrecision: perceptualPrecision, comparator: comparator)
            .pullback { layer in
                do {
                    return try layer.renderedContentImage(size: size, scale: scale, backend: backend, atTime: time)
                } catch {
                    // The library's strategies cannot throw: an empty image fails the comparison
                    // ("Newly-taken snapshot is empty."), and the reason is recorded beside it.
                    let reason = "the layer could not be drawn: \(error)"
                    if Test.current != nil { Issue.record(Comment(rawValue: reason)) } else { FileHandle.standardError.write(Data("SnapshotTesting: \(reason)\n".utf8)) }
                    return MissingImage.emptySnapshot
                }
            }
    }
}
#endif
