import Foundation
import OpenCoreGraphics

/// A layer whose content is drawn by tiles, at the level of detail a frame shows it at, so that
/// content far larger than any backing store (a 20,000-point map or document) renders from the
/// tiles a frame needs alone.
///
/// As on Apple's platforms, `draw(in:)` (or the delegate's `draw(_:in:)`) is asked for one tile
/// at a time: the context's clip bounding box is the tile's rectangle in the layer's bounds (and
/// a pixel around it within the bounds, which filtering across tile edges reads), and its
/// transform carries the tile's resolution. Apple asks on background threads and shows a
/// tile when it arrives (fading it in over `fadeDuration()`); rendering here is headless and
/// frame-exact, so the tiles a frame needs are drawn synchronously before it is composited and
/// shown whole: a still at t equals frame t of an animation, and there is nothing to fade.
/// Drawn tiles are kept (by level and position) for later frames, up to `tileCacheLimit` bytes,
/// least recently used first out; `setNeedsDisplay()` drops them all, `setNeedsDisplay(_:)`
/// those the rectangle touches. The layer never has a backing store of its full size.
open class CATiledLayer: CALayer {
    /// The time newly drawn tiles take to fade in on Apple's platforms. Default: 0.25 s. Tiles
    /// are drawn before the frame that needs them here, so no fade is shown (see above).
    open class func fadeDuration() -> CFTimeInterval { 0.25 }

    /// The number of levels of detail below full resolution, each half the resolution of the one
    /// before, the full one counted: 1 keeps full resolution only. Clamped where a level would
    /// make the layer less than a pixel across. Default: 1.
    @Animatable("levelsOfDetail") open var levelsOfDetail: Int = 1

    /// The number of magnified levels of detail: 2 adds levels at 2x and 4x the full resolution,
    /// drawn when the layer is shown enlarged. Default: 0.
    @Animatable("levelsOfDetailBias") open var levelsOfDetailBias: Int = 0

    /// The largest size of a tile, in pixels. Default: 256 x 256.
    @Animatable("tileSize") open var tileSize = CGSize(width: 256, height: 256)

    /// The tiles drawn so far, shared with the layer's presentation copies.
    let tiles: TiledLayerTiles

    public override init() {
        tiles = TiledLayerTiles()
        super.init()
    }

    public required init?(coder: NSCoder) {
        tiles = TiledLayerTiles()
        super.init(coder: coder)
    }

    public override init(layer: Any) {
        tiles = (layer as? CATiledLayer)?.tiles ?? TiledLayerTiles()
        super.init(layer: layer)
    }

    override class func libraryCopy(of layer: CALayer) -> CALayer { CATiledLayer(layer: layer) }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "levelsOfDetail": 1
        case "levelsOfDetailBias": 0
        case "tileSize": CGSize(width: 256, height: 256)
        default: super.defaultValue(forKey: key)
        }
    }

    /// Tiles, not a backing store, hold the content.
    override var drawsIntoBackingStore: Bool { false }

    /// Drops every drawn tile: the next frame draws the tiles it needs again.
    open override func setNeedsDisplay() {
        tiles.invalidate { _ in true }
        super.setNeedsDisplay()
    }

    /// Drops the drawn tiles that `r` (in the bounds) touches.
    open override func setNeedsDisplay(_ r: CGRect) {
        guard !r.isNull, !r.isEmpty else { return }
        let rect = r.standardized
        // Not super's, which would mark (and here drop) the whole layer.
        tiles.invalidate { key in self.tileRect(level: key.level, column: key.column, row: key.row).intersects(rect) }
    }

    // MARK: Levels and tiles

    /// Bytes of drawn tiles kept across frames (the model's and its copies' together); the
    /// least recently used go first beyond it. Default: 64 MiB.
    public var tileCacheLimit: Int {
        get { tiles.limit }
        set { tiles.limit = max(newValue, 0) }
    }

    /// Bytes of drawn tiles held now, and how many tiles have been drawn since the layer was made.
    public var tileCacheBytes: Int { tiles.bytes }
    public var tilesDrawn: Int { tiles.drawnCount }

    /// The valid pixel size of a tile: `tileSize`, rounded, from 16 to 4,096 pixels a side
    /// (256 for a value that is not a number).
    public var tilePixelSize: (width: Int, height: Int) {
        func side(_ v: CGFloat) -> Int { v.isFinite ? Int(min(max(v.rounded(), 16), 4096)) : 256 }
        return (side(tileSize.width), side(tileSize.height))
    }

    /// Pixels per point at `level`: contentsScale x 2^-level (level -1 is twice the full resolution).
    public func resolution(level: Int) -> CGFloat {
        let scale = contentsScale.isFinite && contentsScale > 0 ? contentsScale : 1
        return scale * pow(2, -CGFloat(level))
    }

    /// The level whose resolution is the least that is at least `devicePixelsPerPoint` (so the
    /// frame never magnifies a tile when a level of enough detail exists), within the levels the
    /// layer keeps: from -levelsOfDetailBias to levelsOfDetail - 1, the coarsest still at least
    /// a pixel across.
    public func levelOfDetail(devicePixelsPerPoint s: CGFloat) -> Int {
        let finest = -min(max(levelsOfDetailBias, 0), 16)
        var coarsest = min(max(levelsOfDetail, 1), 31) - 1
        let size = bounds.size
        while coarsest > 0, min(size.width, size.height) * resolution(level: coarsest) < 1 { coarsest -= 1 }
        guard s.isFinite, s > 0 else { return max(finest, min(0, coarsest)) }
        let ideal = Int((log2(resolution(level: 0) / s) + 1e-9).rounded(.down))
        return min(max(ideal, finest), coarsest)
    }

    /// The rectangle of the bounds a tile covers at `level` (the last column and row may reach
    /// past the bounds; what a tile draws is clipped to them).
    public func tileRect(level: Int, column: Int, row: Int) -> CGRect {
        let r = resolution(level: level), (w, h) = tilePixelSize
        let width = CGFloat(w) / r, height = CGFloat(h) / r
        return CGRect(x: bounds.minX + CGFloat(column) * width, y: bounds.minY + CGFloat(row) * height, width: width, height: height)
    }

    /// The columns and rows of tiles at `level` that `rect` (in the bounds) touches.
    public func tileRange(level: Int, covering rect: CGRect) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        let visible = rect.standardized.intersection(bounds)
        guard !visible.isNull, visible.width > 0, visible.height > 0 else { return nil }
        let unit = tileRect(level: level, column: 0, row: 0)
        func index(_ v: CGFloat, _ origin: CGFloat, _ side: CGFloat) -> Int {
            let i = ((v - origin) / side).rounded(.down)
            return i.isFinite ? Int(min(max(i, 0), 1e9)) : 0
        }
        let c0 = index(visible.minX, bounds.minX, unit.width), r0 = index(visible.minY, bounds.minY, unit.height)
        let c1 = max(c0, index(visible.maxX.nextDown, bounds.minX, unit.width))
        let r1 = max(r0, index(visible.maxY.nextDown, bounds.minY, unit.height))
        return (c0...c1, r0...r1)
    }

    /// A tile: the part of the bounds it shows, and its image, which holds a pixel more on each
    /// side within the bounds (`imageRect`), so that filtering across the edge between two tiles
    /// reads what one backing store would hold there.
    public struct Tile {
        public let image: CGImage
        public let rect: CGRect
        public let imageRect: CGRect
    }

    /// The tile at `level`, `column`, `row`, drawn now if it is not kept from an earlier frame;
    /// nil for a tile outside the bounds.
    public func tile(level: Int, column: Int, row: Int) -> Tile? {
        let owner = (modelLayer as? CATiledLayer) ?? self
        guard let (rect, imageRect) = owner.tileRects(level: level, column: column, row: row) else { return nil }
        let key = TiledLayerTiles.Key(level: level, column: column, row: row)
        guard let image = tiles.image(for: key, draw: { owner.drawTile(imageRect, level: level) }) else { return nil }
        return Tile(image: image, rect: rect, imageRect: imageRect)
    }

    /// The part of the bounds a tile shows and the part its image holds (a pixel more a side).
    private func tileRects(level: Int, column: Int, row: Int) -> (rect: CGRect, imageRect: CGRect)? {
        let b = bounds
        let rect = tileRect(level: level, column: column, row: row).intersection(b)
        guard !rect.isNull, rect.width > 0, rect.height > 0 else { return nil }
        let pixel = 1 / resolution(level: level)
        let imageRect = CGRect(x: max(rect.minX - pixel, b.minX), y: max(rect.minY - pixel, b.minY), width: 0, height: 0)
            .union(CGRect(x: min(rect.maxX + pixel, b.maxX), y: min(rect.maxY + pixel, b.maxY), width: 0, height: 0))
        return (rect, imageRect)
    }

    // MARK: The frame's work budget

    /// What drawing a part of the bounds costs, where the layer can say before drawing it: the
    /// items drawn and the pixels they cover at a resolution (pixels per point), counting stopped
    /// once past `limit` items. A scene document's tiled layer sets it from its drawing; a layer
    /// drawn by code has none (its tiles are not counted). The render list builder asks it for
    /// each tile about to be drawn (`RenderLimits.maxDrawingItems`, `maxDrawingPixels`).
    package var drawingWork: (@Sendable (_ rect: CGRect, _ pixelsPerPoint: CGFloat, _ limit: Int) -> (items: Int, pixels: Int))? {
        get { ((modelLayer as? CATiledLayer) ?? self).storedDrawingWork }
        set { storedDrawingWork = newValue }
    }
    private var storedDrawingWork: (@Sendable (CGRect, CGFloat, Int) -> (items: Int, pixels: Int))?

    /// The work of drawing the tile at `level`, `column`, `row` now: nil when it is kept from an
    /// earlier frame (it costs nothing), outside the bounds, or the layer cannot say.
    package func workToDraw(level: Int, column: Int, row: Int, limit: Int) -> (items: Int, pixels: Int)? {
        let owner = (modelLayer as? CATiledLayer) ?? self
        guard let work = owner.storedDrawingWork, !tiles.holds(TiledLayerTiles.Key(level: level, column: column, row: row)),
              let (_, imageRect) = owner.tileRects(level: level, column: column, row: row) else { return nil }
        return work(imageRect, owner.resolution(level: level), limit)
    }

    /// One tile drawn by `draw(in:)`: a context of the tile's pixels, its clip the tile's
    /// rectangle, its transform the bounds at the level's resolution, exactly as a backing store
    /// of the whole layer would hold that part (in a flipped geometry, as drawBackingStore
    /// draws it: the store's mirrored part, which the renderers mirror back).
    private func drawTile(_ rect: CGRect, level: Int) -> CGImage? {
        let r = resolution(level: level)
        let w = (rect.width * r).rounded(.up), h = (rect.height * r).rounded(.up)
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, let context = CGContext(width: Int(w), height: Int(h)) else { return nil }
        let flipped = drawingFollowsFlippedGeometry && contentsAreFlipped()
        let top = flipped ? bounds.minY + bounds.maxY - rect.maxY : rect.minY
        context.translateBy(x: 0, y: h)
        context.scaleBy(x: r, y: -r)
        context.translateBy(x: -rect.minX, y: -top)
        if flipped {
            context.translateBy(x: 0, y: bounds.minY + bounds.maxY)
            context.scaleBy(x: 1, y: -1)
        }
        context.clip(to: rect)
        draw(in: context)
        return context.makeImage()
    }
}

/// A tiled layer's drawn tiles by level and position, kept across frames within a byte limit.
/// Frames built on several threads may ask at once, so it locks.
final class TiledLayerTiles: @unchecked Sendable {
    struct Key: Hashable {
        let level: Int
        let column: Int
        let row: Int
    }

    private struct Entry {
        let image: CGImage
        let bytes: Int
        var lastUse: Int
    }

    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    private var uses = 0
    private var heldBytes = 0
    private var drawn = 0
    private var byteLimit = 64 << 20

    var limit: Int {
        get { lock.withLock { byteLimit } }
        set { lock.withLock { byteLimit = newValue; evict() } }
    }

    var bytes: Int { lock.withLock { heldBytes } }
    var drawnCount: Int { lock.withLock { drawn } }

    /// The kept image for `key`, or the one `draw` makes (kept, evicting the least recently used
    /// beyond the limit). Drawing runs outside the lock: a layer's drawing may be slow.
    /// Whether the tile is kept (drawing it again costs nothing).
    func holds(_ key: Key) -> Bool { lock.withLock { entries[key] != nil } }

    func image(for key: Key, draw: () -> CGImage?) -> CGImage? {
        if let image = lock.withLock({ () -> CGImage? in
            uses += 1
            entries[key]?.lastUse = uses
            return entries[key]?.image
        }) { return image }
        guard let image = draw() else { return nil }
        lock.withLock {
            drawn += 1
            uses += 1
            let bytes = image.width * image.height * 4
            if let old = entries.updateValue(Entry(image: image, bytes: bytes, lastUse: uses), forKey: key) { heldBytes -= old.bytes }
            heldBytes += bytes
            evict()
        }
        return image
    }

    func invalidate(where matches: (Key) -> Bool) {
        lock.withLock {
            for (key, entry) in entries where matches(key) {
                entries[key] = nil
                heldBytes -= entry.bytes
            }
        }
    }

    /// Least recently used out until within the limit. Call with the lock held.
    private func evict() {
        guard heldBytes > byteLimit else { return }
        for (key, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard heldBytes > byteLimit else { break }
            entries[key] = nil
            heldBytes -= entry.bytes
        }
    }
}
