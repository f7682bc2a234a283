import Foundation
import OpenQuartzCore
import PixelDiff

/// How a value becomes a snapshot image and how two snapshots are compared: the counterpart of
/// swift-snapshot-testing's `Snapshotting<Value, UIImage>` (whose image strategies exist only on
/// Apple platforms), with the same spelling at the call site: `assertSnapshot(of: layer, as: .image)`.
public struct Snapshotting<Value> {
    /// The image of a value.
    public var snapshot: (Value) throws -> CGImage
    /// Whether a new snapshot matches the reference.
    public var comparator: any PixelComparator

    public init(comparator: any PixelComparator, snapshot: @escaping (Value) throws -> CGImage) {
        self.comparator = comparator
        self.snapshot = snapshot
    }

    /// A strategy for another type, by turning its values into this one's (swift-snapshot-testing's
    /// `pullback`): `Snapshotting<CALayer>.image.pullback(BadgeView.makeLayer)`.
    public func pullback<NewValue>(_ transform: @escaping (NewValue) throws -> Value) -> Snapshotting<NewValue> {
        let snapshot = self.snapshot
        return Snapshotting<NewValue>(comparator: comparator) { try snapshot(transform($0)) }
    }

    /// swift-snapshot-testing's default precisions mean byte-for-byte; ours let each pixel be off
    /// by at most ΔE00 2 (`perceptualPrecision` 0.98), which no person sees, so that a reference
    /// recorded on one machine holds on another.
    public static var defaultComparator: any PixelComparator { CIEDE2000Comparator(precision: 1, perceptualPrecision: 0.98) }
}

extension Snapshotting where Value == CGImage {
    /// The image itself, compared with the default comparator.
    public static var image: Snapshotting { image() }

    /// The image itself, compared with `comparator`.
    public static func image(comparator: any PixelComparator = defaultComparator) -> Snapshotting {
        Snapshotting(comparator: comparator) { $0 }
    }

    /// swift-snapshot-testing's spelling: `precision` is the share of pixels that must match and
    /// `perceptualPrecision` how alike a pixel must look (ΔE00 up to (1 - it) x 100).
    public static func image(precision: Double, perceptualPrecision: Double = 1) -> Snapshotting {
        image(comparator: CIEDE2000Comparator(precision: precision, perceptualPrecision: perceptualPrecision))
    }
}

extension Snapshotting where Value == CALayer {
    /// The layer and its sublayers at time 0, its frame's size, scale 1, on the CPU reference
    /// backend (the same pixels on every machine).
    public static var image: Snapshotting { image() }

    /// The layer and its sublayers rendered at `time`, over `size` points from its frame's origin
    /// (default: its frame's size), at `scale` device pixels per point, on `backend`.
    public static func image(size: CGSize? = nil, scale: CGFloat = 1, time: Double = 0, backend: RenderBackend = .cpu,
                             comparator: any PixelComparator = defaultComparator) -> Snapshotting {
        Snapshotting(comparator: comparator) { layer in
            let frame = layer.frame
            let bounds = CGRect(origin: frame.origin, size: size ?? frame.size)
            return try layer.renderedImage(bounds: bounds, scale: scale, backend: backend, atTime: time)
        }
    }

    /// swift-snapshot-testing's spelling, with the precisions of `Snapshotting<CGImage>.image(precision:perceptualPrecision:)`.
    public static func image(precision: Double, perceptualPrecision: Double = 1, size: CGSize? = nil, scale: CGFloat = 1,
                             time: Double = 0, backend: RenderBackend = .cpu) -> Snapshotting {
        image(size: size, scale: scale, time: time, backend: backend,
              comparator: CIEDE2000Comparator(precision: precision, perceptualPrecision: perceptualPrecision))
    }
}
