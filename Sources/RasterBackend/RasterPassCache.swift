import Compositor
import Foundation
import OpenCoreGraphics

/// Pass results kept across frames by `RenderPass.cacheKey` (rasterized layers), for a renderer
/// that draws many frames: a rasterized subtree that has not changed is not drawn again.
/// Results unused for `maxIdleFrames` frames are dropped. Safe to share between threads.
public final class RasterPassCache: @unchecked Sendable {
    /// Frames a result may go unused before it is dropped. Default: 60.
    public static let maxIdleFrames = 60

    private var entries: [Int: (bitmap: Bitmap, lastUsed: Int)] = [:]
    private var frame = 0
    private let lock = NSLock()
    /// Passes served from the cache, and passes run and stored, since the cache was made.
    public private(set) var hits = 0
    public private(set) var stores = 0

    public init() {}

    func lookUp(_ key: Int) -> Bitmap? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[key] else { return nil }
        entries[key] = (entry.bitmap, frame)
        hits += 1
        return entry.bitmap
    }

    func contains(_ key: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return entries[key] != nil
    }

    func store(_ bitmap: Bitmap, for key: Int) {
        lock.lock()
        defer { lock.unlock() }
        entries[key] = (bitmap, frame)
        stores += 1
    }

    func endFrame() {
        lock.lock()
        defer { lock.unlock() }
        entries = entries.filter { frame - $0.value.lastUsed <= RasterPassCache.maxIdleFrames }
        frame += 1
    }
}
