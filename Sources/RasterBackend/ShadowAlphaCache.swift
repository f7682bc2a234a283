import Compositor
import Foundation
import OpenCoreGraphics

/// Closed-form shadows' alphas kept across frames (part of a `RasterPassCache`), for a renderer
/// that draws many frames: a shadow that has not moved is not worked out again.
///
/// A shadow's alpha at a pixel is a function of its shape (`BlurredRoundedRect`'s map, rectangle,
/// corner radius and sigma) and the pixel alone (`RowEvaluator.alphas` gives `alpha(atX:y:)`'s
/// bits whatever run a pixel is worked out in, `alpha(atX:y:)` itself where a shadow is turned or
/// tilted), so alphas kept for the same shape are the very
/// values the frame would work out: the bytes do not change. Its colour, opacity and tint are
/// applied at the blend, each frame. A wide shadow's rows were half its frame on the CPU (its erfs,
/// weighted sums and their set-up; the blend is the rest), as Skia keeps a blurred rounded
/// rectangle's mask.
///
/// What is kept: each shape's alphas over its quad's pixel bounds (a float a pixel), row by row,
/// the run of each row that was worked out. A shape is kept from the second consecutive frame
/// that draws it (a moving shadow, a new shape every frame, costs no memory and no copies), and
/// dropped after a frame without it; at most `byteBudget` bytes in all (a shape past it is worked
/// out every frame, as without a cache).
///
/// Threads: `alphas(for:bounds:)` runs before a pass's bands start; each band then reads and
/// writes only its own rows of an `Alphas`, so they need no lock (a row is drawn by one band).
public final class ShadowAlphaCache: @unchecked Sendable {
    /// Bytes of alphas kept at most by default: 64 MiB (a radius-100 shadow over a 1280 x 720
    /// frame is some 3.5 MiB).
    public static let defaultByteBudget = 64 << 20
    /// Bytes of alphas this cache keeps at most.
    public let byteBudget: Int

    /// The shape's geometry (what its alphas depend on) and the pixels they are kept over.
    struct Key: Hashable {
        var deviceToLocal: ProjectiveTransform2D
        var rect: Rect
        var cornerRadius: Double
        var sigma: Double
        var bounds: PixelRect

        init(_ shape: BlurredRoundedRect, bounds: PixelRect) {
            deviceToLocal = shape.deviceToLocal
            rect = shape.rect
            cornerRadius = shape.cornerRadius
            sigma = shape.sigma
            self.bounds = bounds
        }
    }

    /// One shape's alphas over `bounds`: a float a pixel, and for each row the columns kept.
    final class Alphas: @unchecked Sendable {
        let bounds: PixelRect
        private let values: UnsafeMutablePointer<Float>
        /// Each row's kept columns, `start..<end` (empty: none yet).
        private let runs: UnsafeMutablePointer<(start: Int32, end: Int32)>
        var bytes: Int { bounds.width * bounds.height * MemoryLayout<Float>.size }

        init(bounds: PixelRect) {
            self.bounds = bounds
            values = .allocate(capacity: bounds.width * bounds.height)
            runs = .allocate(capacity: bounds.height)
            runs.initialize(repeating: (0, 0), count: bounds.height)
        }

        deinit {
            values.deallocate()
            runs.deallocate()
        }

        /// Whether `columns` of `row` lie in the bounds.
        func holds(row: Int, _ columns: Range<Int>) -> Bool {
            row >= bounds.minY && row < bounds.maxY && columns.lowerBound >= bounds.minX && columns.upperBound <= bounds.maxX
        }

        /// Where `columns` of `row` (within the bounds) are kept.
        func pointer(row: Int, _ columns: Range<Int>) -> UnsafeMutablePointer<Float> {
            values + (row - bounds.minY) * bounds.width + (columns.lowerBound - bounds.minX)
        }

        /// The kept alphas of `columns` of `row`, or nil where some are not kept.
        func kept(row: Int, _ columns: Range<Int>) -> UnsafePointer<Float>? {
            guard holds(row: row, columns) else { return nil }
            let run = runs[row - bounds.minY]
            guard Int(run.start) <= columns.lowerBound, Int(run.end) >= columns.upperBound else { return nil }
            return UnsafePointer(pointer(row: row, columns))
        }

        /// Marks `columns` of `row` kept (their values written at `pointer(row:_:)`), in place of
        /// the row's run before.
        func keep(row: Int, _ columns: Range<Int>) {
            runs[row - bounds.minY] = (Int32(columns.lowerBound), Int32(columns.upperBound))
        }
    }

    private var entries: [Key: (alphas: Alphas, lastUsed: Int)] = [:]
    /// Shapes drawn in the frame before without being kept, and those drawn in this one.
    private var seenBefore: Set<Key> = [], seenNow: Set<Key> = []
    private var frame = 0, bytes = 0
    private let lock = NSLock()
    /// Rows of alphas read from the cache and rows worked out into it, since it was made.
    public private(set) var rowsReused = 0
    public private(set) var rowsKept = 0
    /// Bytes of alphas now kept.
    public var keptBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return bytes
    }

    public init(byteBudget: Int = ShadowAlphaCache.defaultByteBudget) {
        self.byteBudget = byteBudget
    }

    /// The alphas kept for `shape` over `bounds`, or made to be filled where it was drawn in the
    /// frame before too and the budget allows; nil otherwise (the frame works them out itself).
    func alphas(for shape: BlurredRoundedRect, bounds: PixelRect) -> Alphas? {
        guard bounds.width > 0, bounds.height > 0 else { return nil }
        let key = Key(shape, bounds: bounds)
        lock.lock()
        defer { lock.unlock() }
        if let entry = entries[key] {
            entries[key] = (entry.alphas, frame)
            return entry.alphas
        }
        guard seenBefore.contains(key) else {
            seenNow.insert(key)
            return nil
        }
        let size = bounds.width * bounds.height * MemoryLayout<Float>.size
        guard bytes + size <= byteBudget else {
            seenNow.insert(key)
            return nil
        }
        let alphas = Alphas(bounds: bounds)
        entries[key] = (alphas, frame)
        bytes += size
        return alphas
    }

    /// Counts a band's rows read and rows kept (called once a band, after it).
    func count(reused: Int, kept: Int) {
        guard reused > 0 || kept > 0 else { return }
        lock.lock()
        defer { lock.unlock() }
        rowsReused += reused
        rowsKept += kept
    }

    /// The frame is done: shapes it did not draw are dropped.
    func endFrame() {
        lock.lock()
        defer { lock.unlock() }
        for (key, entry) in entries where entry.lastUsed != frame {
            bytes -= entry.alphas.bytes
            entries[key] = nil
        }
        seenBefore = seenNow
        seenNow = []
        frame += 1
    }
}
