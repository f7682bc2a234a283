import Compositor
import Foundation
import OpenCoreGraphics

/// What a renderer that draws many frames keeps across them: pass results by
/// `RenderPass.cacheKey` (rasterized layers: a subtree that has not changed is not drawn again;
/// results unused for `maxIdleFrames` frames are dropped), and closed-form shadows' alphas
/// (`shadows`). Safe to share between threads.
public final class RasterPassCache: @unchecked Sendable {
    /// Frames a result may go unused before it is dropped. Default: 60.
    public static let maxIdleFrames = 60

    private var entries: [Int: (bitmap: Bitmap, lastUsed: Int)] = [:]
    private var frame = 0
    private let lock = NSLock()
    /// Passes served from the cache, and passes run and stored, since the cache was made.
    public private(set) var hits = 0
    public private(set) var stores = 0
    /// Shadows' alphas: a shadow that has not moved is not worked out again.
    public let shadows: ShadowAlphaCache

    /// A cache keeping at most `shadowByteBudget` bytes of shadows' alphas.
    public init(shadowByteBudget: Int = ShadowAlphaCache.defaultByteBudget) {
        shadows = ShadowAlphaCache(byteBudget: shadowByteBudget)
    }

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
        shadows.endFrame()
        lock.lock()
        defer { lock.unlock() }
        entries = entries.filter { frame - $0.value.lastUsed <= RasterPassCache.maxIdleFrames }
        frame += 1
    }
}
