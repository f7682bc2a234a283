// CATiledLayer: Apple's defaults and keys, tiles asked for one at a time (the clip's bounding box
// is the tile, the transform its resolution), the level of detail a frame's scale picks, the same
// picture as one backing store drawn by the same code, GPU and CPU within the bar, and the
// memory bound: a 20,000-point layer renders from the tiles a frame shows.

import Compositor
import Foundation
import OpenQuartzCore
import PixelDiff
import Testing

/// Draws a pattern of discs and lines over any rectangle, and records what each call was asked.
class PatternTiledLayer: CATiledLayer, @unchecked Sendable {
    struct Call { let clip: CGRect; let scale: CGFloat }
    private let lock = NSLock()
    private var recorded: [Call] = []
    var calls: [Call] { lock.withLock { recorded } }

    override func draw(in ctx: CGContext) {
        let clip = ctx.boundingBoxOfClipPath
        record(clip: clip, scale: abs(ctx.ctm.a))
        Pattern.draw(in: ctx, within: clip)
    }

    func record(clip: CGRect, scale: CGFloat) {
        lock.withLock { recorded.append(Call(clip: clip, scale: scale)) }
    }
}

/// A cheap drawing for the big maps (a colour per 256-point square, a bar in each): what those
/// tests count is tiles, not pixels, and the sanitizer builds run them too.
final class CheapTiledLayer: PatternTiledLayer, @unchecked Sendable {
    override func draw(in ctx: CGContext) {
        let clip = ctx.boundingBoxOfClipPath
        record(clip: clip, scale: abs(ctx.ctm.a))
        let cell = 256.0
        for row in Int((clip.minY / cell).rounded(.down))...Int((clip.maxY / cell).rounded(.down)) {
            for column in Int((clip.minX / cell).rounded(.down))...Int((clip.maxX / cell).rounded(.down)) {
                let hue = Double((column * 7 + row * 3) % 11) / 11
                ctx.setFillColor(red: 0.2 + 0.7 * hue, green: 0.8 - 0.5 * hue, blue: 0.4 + 0.3 * (1 - hue), alpha: 1)
                let square = CGRect(x: Double(column) * cell, y: Double(row) * cell, width: cell, height: cell).intersection(clip)
                ctx.fill(square)
                ctx.setFillColor(red: 0.1, green: 0.1, blue: 0.2, alpha: 1)
                ctx.fill(CGRect(x: Double(column) * cell + 40, y: Double(row) * cell + 100, width: 150, height: 30).intersection(clip))
            }
        }
    }
}

/// The same drawing as one backing store.
final class PatternLayer: CALayer, @unchecked Sendable {
    override func draw(in ctx: CGContext) { Pattern.draw(in: ctx, within: bounds) }
}

enum Pattern {
    /// Discs every 40 points and diagonal lines, in colours by cell: only what meets `rect` is drawn.
    static func draw(in ctx: CGContext, within rect: CGRect) {
        let cell = 40.0
        let c0 = Int((rect.minX / cell).rounded(.down)) - 1, c1 = Int((rect.maxX / cell).rounded(.up))
        let r0 = Int((rect.minY / cell).rounded(.down)) - 1, r1 = Int((rect.maxY / cell).rounded(.up))
        for row in r0...r1 {
            for column in c0...c1 {
                let hue = Double((column * 7 + row * 3) % 11) / 11
                ctx.setFillColor(red: 0.2 + 0.7 * hue, green: 0.8 - 0.5 * hue, blue: 0.4 + 0.3 * (1 - hue), alpha: 1)
                ctx.addEllipse(in: CGRect(x: Double(column) * cell + 6, y: Double(row) * cell + 4, width: 26, height: 30))
                ctx.fillPath()
            }
        }
        ctx.setStrokeColor(red: 0.1, green: 0.1, blue: 0.2, alpha: 1)
        ctx.setLineWidth(1.5)
        for k in stride(from: (rect.minX - rect.maxY) / 97 - 1, through: (rect.maxX - rect.minY) / 97 + 1, by: 1) {
            let x = k.rounded(.down) * 97
            ctx.move(to: CGPoint(x: x + rect.minY, y: rect.minY))
            ctx.addLine(to: CGPoint(x: x + rect.maxY, y: rect.maxY))
        }
        ctx.strokePath()
    }
}

@Suite("CATiledLayer")
struct TiledLayerTests {
    @Test("Apple's defaults: 256 x 256 tiles, one level, no bias, a fade of 0.25 s; the keys by key-value coding")
    func defaults() {
        let layer = CATiledLayer()
        #expect(layer.tileSize == CGSize(width: 256, height: 256) && layer.levelsOfDetail == 1 && layer.levelsOfDetailBias == 0)
        #expect(CATiledLayer.fadeDuration() == 0.25)
        #expect(CATiledLayer.defaultValue(forKey: "tileSize") as? CGSize == CGSize(width: 256, height: 256))
        layer.setValue(3, forKey: "levelsOfDetail")
        layer.setValue(CGSize(width: 128, height: 64), forKey: "tileSize")
        #expect(layer.levelsOfDetail == 3 && layer.tileSize == CGSize(width: 128, height: 64))
        #expect(layer.value(forKey: "levelsOfDetailBias") as? Int == 0)
        #expect(layer.contents == nil)
    }

    static func scene(_ content: CALayer, size: CGSize = CGSize(width: 300, height: 220), transform: CATransform3D? = nil,
                      flipped: Bool = false) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.backgroundColor = CGColor(gray: 0.97, alpha: 1)
        root.isGeometryFlipped = flipped
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 600
        root.sublayerTransform = perspective
        content.frame = CGRect(x: 20, y: 15, width: 260, height: 190)
        if let transform { content.transform = transform }
        content.setNeedsDisplay()
        root.addSublayer(content)
        return root
    }

    @Test("tiles show what one backing store drawn by the same code shows, upright, turned, in perspective and flipped",
          arguments: ["upright", "turned", "perspective", "flipped"])
    func sameAsBackingStore(arrangement: String) throws {
        let transform: CATransform3D? = switch arrangement {
        case "turned": CATransform3DMakeRotation(0.4, 0, 0, 1)
        case "perspective": CATransform3DMakeRotation(0.6, 0, 1, 0)
        default: nil
        }
        let bounds = CGRect(x: 0, y: 0, width: 300, height: 220)
        for backend in RenderBackend.allCases {
            let tiled = PatternTiledLayer()
            tiled.tileSize = CGSize(width: 64, height: 48)
            let a = try CARenderer.image(of: Self.scene(tiled, transform: transform, flipped: arrangement == "flipped"),
                                         bounds: bounds, backend: backend)
            let b = try CARenderer.image(of: Self.scene(PatternLayer(), transform: transform, flipped: arrangement == "flipped"),
                                         bounds: bounds, backend: backend)
            let report = try ImageComparison.compare(b.bitmap, a.bitmap, tolerance: 2)
            // Upright, tiles meet on pixel edges and the images are the store's to the rounding.
            // Turned, the edges between tiles are hard (a pixel is the tile's its centre is in,
            // which seams of two half-covered pixels would show otherwise), and a tile on the
            // layer's edge covers its pixels by the product of its edges' ramps, not by exact area
            // (docs/design.md): pixels along the turned outline part by a few 255ths.
            let bar = transform == nil ? AgreementBar.gpuAgainstCPU : AgreementBar(tolerance: 2, minFractionWithin: 0.997, minPSNR: 40)
            #expect(bar.failure(of: report) == nil, "\(arrangement) on \(backend): \(report)")
            if transform == nil { #expect(report.maxChannelDelta <= 1, "\(report)") }
            #expect(tiled.calls.count == 20, "\(tiled.calls.count) tiles drawn")
        }
    }

    @Test("each call draws one tile: the clip's bounding box is the tile's rectangle, the transform the level's resolution")
    func oneTilePerCall() throws {
        let tiled = PatternTiledLayer()
        tiled.tileSize = CGSize(width: 100, height: 80)
        let root = Self.scene(tiled)
        _ = try CARenderer.image(of: root, bounds: CGRect(x: 0, y: 0, width: 300, height: 220), backend: .cpu)
        // 260 x 190 points at scale 1 in tiles of 100 x 80: three columns, three rows.
        let clips = Set(tiled.calls.map { "\($0.clip)" })
        #expect(tiled.calls.count == 9 && clips.count == 9)
        // A tile's rectangle and a pixel around it within the bounds.
        #expect(tiled.calls.contains { $0.clip == CGRect(x: 99, y: 79, width: 102, height: 82) })
        #expect(tiled.calls.contains { $0.clip == CGRect(x: 199, y: 159, width: 61, height: 31) }, "the corner tile, cut by the bounds")
        #expect(tiled.calls.contains { $0.clip == CGRect(x: 0, y: 0, width: 101, height: 81) })
        #expect(tiled.calls.allSatisfy { $0.scale == 1 })
        // A second frame draws nothing again; a region marked redraws only the tiles it touches.
        _ = try CARenderer.image(of: root, bounds: CGRect(x: 0, y: 0, width: 300, height: 220), backend: .gpu)
        #expect(tiled.calls.count == 9 && tiled.tilesDrawn == 9)
        tiled.setNeedsDisplay(CGRect(x: 150, y: 10, width: 10, height: 10))
        _ = try CARenderer.image(of: root, bounds: CGRect(x: 0, y: 0, width: 300, height: 220), backend: .cpu)
        #expect(tiled.tilesDrawn == 10 && tiled.calls.last?.clip == CGRect(x: 99, y: 0, width: 102, height: 81))
        tiled.setNeedsDisplay()
        _ = try CARenderer.image(of: root, bounds: CGRect(x: 0, y: 0, width: 300, height: 220), backend: .cpu)
        #expect(tiled.tilesDrawn == 19)
    }

    @Test("the level of detail follows the frame's scale within levelsOfDetail and levelsOfDetailBias")
    func levels() {
        let layer = CATiledLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 20_000, height: 20_000)
        #expect(layer.levelOfDetail(devicePixelsPerPoint: 0.05) == 0, "one level: full resolution only")
        layer.levelsOfDetail = 8
        // 1/16 (level 4) is the least resolution at least 0.05.
        #expect(layer.levelOfDetail(devicePixelsPerPoint: 0.05) == 4 && layer.resolution(level: 4) == 1.0 / 16)
        #expect(layer.levelOfDetail(devicePixelsPerPoint: 0.001) == 7)
        #expect(layer.levelOfDetail(devicePixelsPerPoint: 3) == 0, "no bias: no magnified level")
        layer.levelsOfDetailBias = 2
        #expect(layer.levelOfDetail(devicePixelsPerPoint: 3) == -2 && layer.resolution(level: -2) == 4)
        #expect(layer.levelOfDetail(devicePixelsPerPoint: 1.5) == -1)
        layer.contentsScale = 2
        #expect(layer.levelOfDetail(devicePixelsPerPoint: 1.5) == 0 && layer.levelOfDetail(devicePixelsPerPoint: 0.5) == 2)
        // A level where the layer would be less than a pixel across is not kept.
        let small = CATiledLayer()
        small.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        small.levelsOfDetail = 10
        #expect(small.levelOfDetail(devicePixelsPerPoint: 0.0001) == 3)
    }

    /// A 20,000 x 20,000 point layer, whose one backing store would be 1.6 GB.
    static func map() -> PatternTiledLayer {
        let map = CheapTiledLayer()
        map.levelsOfDetail = 8
        map.anchorPoint = .zero
        map.bounds = CGRect(x: 0, y: 0, width: 20_000, height: 20_000)
        map.setNeedsDisplay()
        return map
    }

    @Test("a 20,000-point layer renders from the tiles the frame shows, at scale 1 and zoomed out, on both backends")
    func memoryBound() throws {
        for backend in RenderBackend.allCases {
            let map = Self.map()
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
            root.addSublayer(map)
            map.position = CGPoint(x: -5_120, y: -3_072)
            _ = try CARenderer.image(of: root, backend: backend)
            // 1280 x 720 from a tile's corner (20, 12): 5 columns and 3 rows of 256-pixel tiles.
            #expect(map.tilesDrawn == 15 && map.calls.allSatisfy { $0.scale == 1 }, "\(map.tilesDrawn)")
            // Each image holds its tile and a pixel around it.
            #expect(map.tileCacheBytes > 15 * 256 * 256 * 4 && map.tileCacheBytes <= 15 * 258 * 258 * 4, "\(map.tileCacheBytes)")
            // Zoomed out to the whole map at 0.03 pixels a point: level 5 (1/32 a point, the least
            // resolution at least 0.03); 20,000 / 32 = 625 pixels, 3 x 3 tiles.
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            map.position = .zero
            map.transform = CATransform3DMakeScale(0.03, 0.03, 1)
            CATransaction.commit()
            let whole = try CARenderer.image(of: root, backend: backend)
            #expect(map.tilesDrawn == 24 && map.calls.suffix(9).allSatisfy { $0.scale == 1.0 / 32 }, "\(map.tilesDrawn)")
            #expect(map.tileCacheBytes <= 24 * 258 * 258 * 4)
            // It shows the pattern: not blank.
            var colours = Set<UInt32>()
            for y in stride(from: 0, to: 600, by: 5) { for x in stride(from: 0, to: 600, by: 5) {
                let p = whole.bitmap[x, y]
                colours.insert(UInt32(p.0) << 16 | UInt32(p.1) << 8 | UInt32(p.2))
            } }
            #expect(colours.count > 50)
        }
    }

    @Test("panning keeps at most tileCacheLimit bytes of tiles, the least recently used dropped first")
    func cacheLimit() throws {
        let map = Self.map()
        // A 640 x 360 view shows at most 4 x 3 tiles; 20 are kept (a 1280 x 720 view and 40 tiles
        // took 26 s in a debug build for the same sequence of evictions).
        map.tileCacheLimit = 20 * 258 * 258 * 4
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 640, height: 360)
        root.addSublayer(map)
        var peak = 0
        func move(to point: CGPoint) {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            map.position = point
            CATransaction.commit()
        }
        for step in 0..<12 {
            move(to: CGPoint(x: -Double(step) * 300, y: -Double(step) * 170))
            _ = try CARenderer.image(of: root, backend: .cpu)
            peak = max(peak, map.tileCacheBytes)
        }
        #expect(peak <= map.tileCacheLimit, "peak \(peak) bytes")
        #expect(map.tilesDrawn > 20, "the pan showed more tiles than are kept: \(map.tilesDrawn)")
        // Panning back to the start redraws its tiles: they were the least recently used.
        let before = map.tilesDrawn
        move(to: .zero)
        _ = try CARenderer.image(of: root, backend: .cpu)
        #expect(map.tilesDrawn > before)
    }

    @Test("with a bias, a magnified layer is drawn at the finer level: crisper than full resolution magnified")
    func magnified() throws {
        func sharpness(bias: Int) throws -> (Double, [CGFloat]) {
            let tiled = PatternTiledLayer()
            tiled.levelsOfDetailBias = bias
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
            tiled.anchorPoint = .zero
            tiled.bounds = CGRect(x: 0, y: 0, width: 60, height: 60)
            tiled.transform = CATransform3DMakeScale(3, 3, 1)
            tiled.setNeedsDisplay()
            root.addSublayer(tiled)
            let image = try CARenderer.image(of: root, backend: .cpu)
            // Squared steps between neighbours: an edge magnified from full resolution spreads
            // over three pixels in three smaller steps, whose squares sum to a third.
            var total = 0.0
            for y in 0..<180 { for x in 0..<179 {
                let d = Double(Int(image.bitmap[x, y].1) - Int(image.bitmap[x + 1, y].1))
                total += d * d
            } }
            return (total, tiled.calls.map(\.scale))
        }
        let (plain, plainScales) = try sharpness(bias: 0)
        let (biased, biasedScales) = try sharpness(bias: 2)
        #expect(plainScales.allSatisfy { $0 == 1 } && biasedScales.allSatisfy { $0 == 4 })
        #expect(biased > plain * 1.5, "biased \(biased), plain \(plain)")
    }
}
