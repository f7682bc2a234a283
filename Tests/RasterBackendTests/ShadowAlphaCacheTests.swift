// Shadows' alphas kept across frames (ShadowAlphaCache, in a RasterPassCache): each frame drawn
// with the cache has the bytes of the same frame drawn without one, whatever was kept before
// (the same shape, a moved one, wider runs, a full budget), and a still shadow is read back from
// its third frame on.
import Compositor
import Foundation
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("Shadows' alphas kept across frames")
struct ShadowAlphaCacheTests {
    static let width = 160, height = 120

    /// A shadow's quad: its rectangle grown by three sigma, through `map` (device to its plane).
    static func shadow(_ rect: Rect, corner: Double, sigma: Double, map: ProjectiveTransform2D = .identity,
                       color: PremultipliedColor = PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0.5),
                       opacity: Double = 1, blend: BlendMode = .sourceOver, tint: PremultipliedColor = .opaqueWhite,
                       clip: RoundedShape? = nil) -> DrawOp {
        let shape = BlurredRoundedRect(deviceToLocal: map, rect: rect, cornerRadius: corner, sigma: sigma, color: color)
        let reach = 3 * sigma
        let x0 = rect.x - reach, y0 = rect.y - reach, x1 = rect.x + rect.width + reach, y1 = rect.y + rect.height + reach
        guard case .quad(var quad) = DrawOp.rectangle(x0, y0, x1, y1, fill: .blurredRoundedRect(shape), opacity: opacity,
                                                      targetWidth: width, targetHeight: height, blend: blend) else {
            fatalError("a rectangle is a quad")
        }
        quad.tint = tint
        quad.rounded = clip
        return .quad(quad)
    }

    /// Bytes of `list` drawn with `cache` that differ from it drawn without one.
    static func differing(_ list: RenderList, _ cache: RasterPassCache, threads: Int = 1) -> Int {
        let cached = RasterRenderer(threads: threads).render(list, cache: cache), plain = RasterRenderer(threads: threads).render(list)
        return zip(cached.pixels, plain.pixels).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }

    static func shifted(_ dx: Double, _ dy: Double) -> ProjectiveTransform2D {
        ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: -dx, m32: -dy, m33: 1)
    }

    /// A frame: a background, four shadows (rounded, square and coloured, added, turned: the
    /// last's rows not at one height in its plane) and a card, the first shadow `dx` to the right.
    static func frame(dx: Double = 0, clip: RoundedShape? = nil) -> RenderList {
        let background = DrawOp.rectangle(0, 0, Double(width), Double(height),
                                          fill: .solid(PremultipliedColor(red: 0.9, green: 0.92, blue: 0.95, alpha: 1)),
                                          targetWidth: width, targetHeight: height)
        let turn = 0.3
        let turned = ProjectiveTransform2D(m11: cos(turn), m12: -sin(turn), m13: 0, m21: sin(turn), m22: cos(turn), m23: 0,
                                           m31: -40, m32: 10, m33: 1)
        return RenderList.singlePass(width, height, [
            background,
            shadow(Rect(x: 30, y: 25, width: 60, height: 40), corner: 10, sigma: 9, map: shifted(dx, 0), clip: clip),
            shadow(Rect(x: 100, y: 60, width: 70, height: 50), corner: 0, sigma: 6,
                   color: PremultipliedColor(red: 0.1, green: 0.2, blue: 0.4, alpha: 0.6), opacity: 0.7,
                   tint: PremultipliedColor(red: 0.9, green: 0.8, blue: 0.7, alpha: 0.9)),
            shadow(Rect(x: -10, y: 80, width: 50, height: 30), corner: 6, sigma: 4, blend: .plus),
            shadow(Rect(x: 10, y: 10, width: 40, height: 20), corner: 5, sigma: 3, map: turned),
            DrawOp.rectangle(40, 30, 80, 60, fill: .solid(PremultipliedColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1)),
                             targetWidth: width, targetHeight: height),
        ])
    }

    @Test("a still shadow is kept from its second frame and read from its third, the bytes of frames drawn without a cache",
          arguments: [1, 3])
    func still(threads: Int) {
        let cache = RasterPassCache(), list = Self.frame()
        var keptAfterSecond = 0
        for frame in 1...4 {
            #expect(Self.differing(list, cache, threads: threads) == 0, "frame \(frame)")
            switch frame {
            case 1: #expect(cache.shadows.rowsKept == 0 && cache.shadows.rowsReused == 0)
            case 2:
                keptAfterSecond = cache.shadows.rowsKept
                #expect(keptAfterSecond > 100 && cache.shadows.rowsReused == 0)
            default:
                // Every row kept is read back, each frame, and none is worked out again.
                #expect(cache.shadows.rowsKept == keptAfterSecond)
                #expect(cache.shadows.rowsReused == keptAfterSecond * (frame - 2))
            }
        }
        #expect(cache.shadows.keptBytes > 0)
    }

    @Test("a shadow moved by a quarter pixel is worked out again, and what it replaced is dropped")
    func moved() {
        let cache = RasterPassCache()
        var keptBytes: [Int] = []
        for (frame, dx) in [0, 0, 0, 0.25, 0.25, 0.25].enumerated() {
            // The first shadow alone.
            guard case .quad(let background) = Self.frame().passes[0].ops[0] else { return }
            let list = RenderList.singlePass(Self.width, Self.height, [.quad(background), Self.frame(dx: dx).passes[0].ops[1]])
            #expect(Self.differing(list, cache) == 0, "frame \(frame + 1)")
            keptBytes.append(cache.shadows.keptBytes)
        }
        // Kept twice (the still shape, then the moved one), each read back from its third frame;
        // the still one dropped after the first frame without it.
        let rows = cache.shadows.rowsKept
        #expect(rows > 0 && rows % 2 == 0 && cache.shadows.rowsReused == rows)
        #expect(keptBytes[0] == 0 && keptBytes[1] > 0 && keptBytes[2] == keptBytes[1])
        #expect(keptBytes[3] == 0 && keptBytes[4] == keptBytes[1] && keptBytes[5] == keptBytes[1])
    }

    @Test("a shadow that moves every frame keeps nothing")
    func moving() {
        let cache = RasterPassCache()
        let steps = (0..<5).map { 0.25 * Double($0) }
        for dx in steps {
            let list = Self.frame(dx: dx)
            #expect(Self.differing(list, cache) == 0)
        }
        // Only the three still shadows are kept.
        let still = RasterPassCache()
        for _ in steps { _ = RasterRenderer().render(Self.frame(), cache: still) }
        #expect(cache.shadows.rowsKept < still.shadows.rowsKept && cache.shadows.rowsKept > 0)
        #expect(cache.shadows.keptBytes < still.shadows.keptBytes)
    }

    @Test("rows kept for a shadow's narrower runs (under a rounded clip) are worked out again where a frame draws more of them")
    func widerRuns() {
        let clip = RoundedShape(deviceToLocal: .identity,
                                outer: RoundedRectangle(rect: Rect(x: 20, y: 15, width: 70, height: 60), topLeft: 30, topRight: 30,
                                                        bottomRight: 30, bottomLeft: 30))
        let cache = RasterPassCache()
        for clipped in [true, true, true, false, false] {
            let list = Self.frame(clip: clipped ? clip : nil)
            #expect(Self.differing(list, cache) == 0, "clipped: \(clipped)")
        }
        let kept = cache.shadows.rowsKept
        // The unclipped frame after the clipped ones worked the first shadow's rows out again.
        let unclipped = RasterPassCache()
        for _ in 0..<2 { _ = RasterRenderer().render(Self.frame(), cache: unclipped) }
        #expect(kept > unclipped.shadows.rowsKept)
    }

    @Test("a shadow past the byte budget is worked out every frame; the budget holds")
    func budget() {
        // Room for the smallest shadow's alphas alone (the third: 74 x 54 pixels on the frame).
        let cache = RasterPassCache(shadowByteBudget: 80 * 60 * 4)
        for frame in 1...3 {
            let list = Self.frame()
            #expect(Self.differing(list, cache) == 0, "frame \(frame)")
            #expect(cache.shadows.keptBytes <= 80 * 60 * 4)
        }
        #expect(cache.shadows.keptBytes > 0 && cache.shadows.rowsReused > 0)
    }

    @Test("a turned shadow, its rows not level in its plane, is kept too and read back: the bytes of frames without a cache")
    func turned() {
        let turn = 0.45
        let map = ProjectiveTransform2D(m11: cos(turn), m12: -sin(turn), m13: 0, m21: sin(turn), m22: cos(turn), m23: 0,
                                        m31: -50, m32: 30, m33: 1)
        guard case .quad(let background) = Self.frame().passes[0].ops[0] else { return }
        let list = RenderList.singlePass(Self.width, Self.height, [
            .quad(background), Self.shadow(Rect(x: 20, y: 20, width: 70, height: 40), corner: 12, sigma: 8, map: map),
        ])
        let cache = RasterPassCache()
        for frame in 1...3 { #expect(Self.differing(list, cache) == 0, "frame \(frame)") }
        #expect(cache.shadows.rowsKept > 50 && cache.shadows.rowsReused == cache.shadows.rowsKept)
    }

    @Test("a shadow not drawn for a frame is dropped")
    func dropped() {
        let cache = RasterPassCache()
        for _ in 0..<3 { _ = RasterRenderer().render(Self.frame(), cache: cache) }
        #expect(cache.shadows.keptBytes > 0)
        _ = RasterRenderer().render(RenderList.singlePass(Self.width, Self.height, []), cache: cache)
        #expect(cache.shadows.keptBytes == 0)
    }
}
