import Foundation
import CPixelKernels
import Compositor
import OpenCoreGraphics

/// The CPU reference executor of a `RenderList`.
///
/// This file holds the frame: passes in order, their rows split into bands over the threads. Each
/// op kind is in a file of its own: `RasterRenderer+Quads` (coverage, fills and a card's pair),
/// `+Paths` (filled paths' coverage), `+Passes` (blurs and halvings), and the blend in
/// `SourceOver` (with its tables and a shadow's runs beside it).
///
/// It evaluates, for every pixel centre of every op's pixel bounds, exactly the functions the
/// render list defines: `CoveragePolygon.coverage`, the texture map, clamp-to-edge bilinear (or
/// nearest) sampling of premultiplied texels, and source-over in 8-bit encoded sRGB (the source
/// rounded to 8 bits, then blended and rounded again, as an 8-bit GPU target does). It is written
/// for clarity and determinism (double precision): the same list gives byte-identical pixels on
/// every run, with any number of threads. Shortcuts keep it from being slow without changing a
/// byte: inside a convex outline coverage is evaluated only until it reaches 1 from each end of
/// a row, a solid colour (or a long stretch of one colour however made, a shadow's flat middle)
/// is blended through per-channel tables of the same expression, and the blend itself is worked
/// out in integers (`SourceOver.over`, equal to the doubles' for every byte), a shadow's run
/// four pixels at a time.
///
/// Threads: a pass's rows are split into bands of about equal work (`bandEdges`), one a thread,
/// and each band is drawn through all of the pass's ops in order. A pixel's value depends on its
/// own history alone (each op reads the pixel under it and nothing beside it), so bands need no
/// coordination and every pixel goes through exactly the arithmetic it would alone; what reads a
/// whole pass (a blur, a halving) runs between the bands' stretches of ops, and a path's coverage,
/// summed row after row, is made once for all bands before they start.
public struct RasterRenderer: Sendable {
    /// Threads that draw a pass, each a band of its rows. Default: the machine's active cores
    /// (`OPENQUARTZ_CPU_THREADS` overrides). Any count gives the same bytes.
    public var threads: Int
    /// Whether the CPU's hot loops go through the C kernels where they apply (`Sources/
    /// CPixelKernels`): a layer's background and border drawn as one (`drawPair`), a rounded solid
    /// alone, a gradient's, a texture's and a filled path's rows, a blur's axis. Default: true;
    /// false draws each pixel in Swift, the same bytes (`KernelAgreement` holds the two together).
    package var usesKernels = true
    /// Whether a texture drawn through an axis-aligned map is sampled through its columns' and
    /// rows' texels worked out once (`SeparableSampler`). Default: true; false maps every pixel
    /// centre, the same bytes (`SeparableSamplerTests`).
    package var samplesSeparably = true
    /// The most path cells (floats) a stretch of a pass's ops holds at once (`pathStretches`):
    /// 64 MiB. Any value gives the same bytes.
    package var maxPathCells = 16 << 20
    /// Whether the quads before a mask drawn from its path skip the columns it clears
    /// (`MaskedColumns`). Default: true; false draws them, the same bytes (`MaskedColumnsTests`).
    package var skipsMaskedColumns = true
    /// The columns drawn (`span(of:in:footprint:)`): every one, but where a frame is drawn over
    /// the one before it, its damage's.
    var columns: Range<Int> = Int.min..<Int.max
    /// Per row, the columns a mask later in the pass keeps (`MaskedColumns`): the ops before it
    /// draw only those. Nil: every column of `columns`.
    var maskedColumns: MaskedColumns?

    public init(threads: Int = RasterRenderer.defaultThreads) {
        self.threads = min(max(threads, 1), 64)
    }

    /// The machine's active cores, or `OPENQUARTZ_CPU_THREADS` where set.
    public static let defaultThreads: Int = {
        if let text = ProcessInfo.processInfo.environment["OPENQUARTZ_CPU_THREADS"], let n = Int(text), n >= 1 { return min(n, 64) }
        return max(ProcessInfo.processInfo.activeProcessorCount, 1)
    }()

    /// Fewest rows a band is given: below this a thread costs more than it saves.
    static let minimumBandRows = 16

    /// Fewest pixels of one colour that go through a table (1,024 entries to make) rather than
    /// being blended one by one.
    static let minimumTableRun = 128
    /// Pixels a long source-over stretch blends one by one (`SourceOver.RepeatingBlend` working
    /// them out, not remembering them) before the rest goes through a table: a table is 1,024
    /// roundings, some 250 pixels' blends.
    static let blendsBeforeTable = 32

    /// The frame's pixels. With a cache, passes with a cache key come from it when it has them
    /// (and the passes only they read are skipped), and go into it when it does not.
    public func render(_ list: RenderList, cache: RasterPassCache? = nil) -> Bitmap {
        render(list, cache: cache, over: nil)
    }

    /// The frame's pixels, made from `previous` (an earlier frame of the same size) by drawing
    /// only `damage` (`RenderList.damage(since:)` of the list `previous` was drawn from): the
    /// frame pass's draws over those pixels alone, cleared first, each pixel through exactly the
    /// arithmetic of a whole frame, so the bytes are a whole frame's; of the offscreen passes only
    /// those the damage's draws read run. The whole frame is drawn instead where `drawsAlone`
    /// says so (another size, a blur of the frame itself, most of it damaged).
    public func render(_ list: RenderList, cache: RasterPassCache? = nil, over previous: Bitmap, damage: PixelRect) -> Bitmap {
        guard let frame = list.passes.last, RasterRenderer.drawsAlone(damage, of: frame, over: previous),
              let restricted = list.restricted(to: damage) else { return render(list, cache: cache, over: nil) }
        // Only the offscreen passes the damaged draws read run.
        return render(restricted, cache: cache, over: (previous, damage))
    }

    /// Whether `damage` of the frame pass `frame` is drawn alone over `previous`: not where the
    /// frame is another size, a draw reads the whole target, or three quarters of it are damaged
    /// (drawing it whole costs less than copying the frame before: page-fold at 84% and pie at 52%
    /// drew as fast either way, and the copy is the difference).
    static func drawsAlone(_ damage: PixelRect, of frame: RenderPass, over previous: Bitmap) -> Bool {
        previous.width == frame.width && previous.height == frame.height && !frame.ops.contains(where: \.readsWholeTarget)
            && damage.width * damage.height * 4 < frame.width * frame.height * 3
    }

    private func render(_ list: RenderList, cache: RasterPassCache?, over previous: (frame: Bitmap, damage: PixelRect)?) -> Bitmap {
        // Passes run in order; each starts transparent and may sample the ones before it.
        var passes: [Int: Bitmap] = [:]
        // The last pass drawn; a blank frame only if none was (a frame is 3.7 MB to zero at
        // 1280 x 720: made once, not once more for nothing).
        var last: Bitmap?
        let toRun = cache.map { cache in list.passesToRun { cache.contains($0) } }
        // A pass's pixels go once the last pass that reads them has run: memory grows with the
        // passes in flight, not with all the frame's passes.
        let lastRead = list.passesLastRead()
        defer { cache?.endFrame() }
        for (index, pass) in list.passes.enumerated() {
            defer { for id in lastRead[index] ?? [] { passes[id] = nil } }
            if let toRun, !toRun.contains(pass.id) {
                if let key = pass.cacheKey, let kept = cache?.lookUp(key) { passes[pass.id] = kept }
                continue
            }
            if index == list.passes.count - 1, let previous, let frame = RasterRenderer.frame(pass, over: previous) {
                var target = frame.target, renderer = self
                renderer.columns = frame.damage.minX..<frame.damage.maxX
                let ops = pass.ops.filter { $0.touches(frame.damage) }
                renderer.drawInBands(ops, into: &target, rows: frame.damage.minY..<frame.damage.maxY, images: list.textures,
                                     passes: passes, shadows: cache?.shadows)
                last = target
                continue
            }
            var target = RasterRenderer.blankTarget(for: pass)
            // Stretches of ops that draw pixel by pixel, in bands; between them what reads the
            // whole target.
            var start = pass.ops.startIndex
            while start < pass.ops.endIndex {
                var end = start
                while end < pass.ops.endIndex, !pass.ops[end].readsWholeTarget { end += 1 }
                if end > start {
                    drawInBands(Array(pass.ops[start..<end]), into: &target, images: list.textures, passes: passes, shadows: cache?.shadows)
                }
                if end < pass.ops.endIndex {
                    switch pass.ops[end] {
                    case .blur(let blur):
                        if let source = passes[blur.source] { target = Self.blur(source, blur, threads: threads, usesKernel: usesKernels) }
                    case .halve(let halve):
                        if let source = passes[halve.source] {
                            target = Self.halve(source, halve, width: pass.width, height: pass.height, threads: threads)
                        }
                    case .quad, .path: break
                    }
                    end += 1
                }
                start = end
            }
            passes[pass.id] = target
            if let cache, let key = pass.cacheKey { cache.store(target, for: key) }
            last = target
        }
        return last ?? Bitmap(width: list.width, height: list.height)
    }

    /// The frame pass's target over an earlier frame: its pixels, the damage cleared (clamped to
    /// the frame); nil where the whole frame is to be drawn (`drawsAlone`).
    static func frame(_ pass: RenderPass, over previous: (frame: Bitmap, damage: PixelRect)) -> (target: Bitmap, damage: PixelRect)? {
        guard drawsAlone(previous.damage, of: pass, over: previous.frame) else { return nil }
        var target = previous.frame
        guard let damage = previous.damage.intersection(PixelRect(minX: 0, minY: 0, maxX: pass.width, maxY: pass.height)) else {
            return (target, PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0))
        }
        target.pixels.withUnsafeMutableBytes { bytes in
            for y in damage.minY..<damage.maxY {
                let start = (y * pass.width + damage.minX) * 4
                memset(bytes.baseAddress! + start, 0, damage.width * 4)
            }
        }
        return (target, damage)
    }

    /// A pass's target before its ops: transparent, except where its first op paints every
    /// pixel in its own opaque colour whatever lies beneath (`QuadOp.opaquePixels`: a frame's
    /// opaque background, nearly every frame), which is left unwritten for that op to fill
    /// rather than zeroed first (3.7 MB at 1280 x 720, a third of an empty frame's time).
    static func blankTarget(for pass: RenderPass) -> Bitmap {
        let width = pass.width, height = pass.height
        // Worth it when the op covers much of the target (the rest is zeroed row by row).
        guard case .quad(let first) = pass.ops.first, let covered = first.opaquePixels,
              case let rows = max(covered.minY, 0)..<max(min(covered.maxY, height), max(covered.minY, 0)),
              case let columns = max(covered.minX, 0)..<max(min(covered.maxX, width), max(covered.minX, 0)),
              rows.count * columns.count >= width * height / 2 else {
            return Bitmap(width: width, height: height)
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            let base = buffer.baseAddress!
            func zero(_ start: Int, _ end: Int) {
                if end > start { (base + start).initialize(repeating: 0, count: end - start) }
            }
            #if DEBUG
            // What the op is to paint, marked: a pixel it left would show (the tests run debug).
            (base + 0).initialize(repeating: 0xA5, count: width * height * 4)
            #endif
            zero(0, rows.lowerBound * width * 4)
            for y in rows {
                zero(y * width * 4, (y * width + columns.lowerBound) * 4)
                zero((y * width + columns.upperBound) * 4, (y + 1) * width * 4)
            }
            zero(rows.upperBound * width * 4, height * width * 4)
            count = width * height * 4
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// `ops` (quads and paths) drawn into `target`, its rows split into bands drawn at once;
    /// shadows' alphas kept in and read from `shadows` where given. Ops whose paths' cells would
    /// together pass `maxPathCells` are drawn in stretches, one after another (`pathStretches`).
    private func drawInBands(_ ops: [DrawOp], into target: inout Bitmap, rows drawn: Range<Int>? = nil, images: [UInt64: Bitmap],
                             passes: [Int: Bitmap], shadows: ShadowAlphaCache? = nil) {
        let width = target.width, height = target.height
        let drawn = drawn ?? 0..<height
        guard !drawn.isEmpty, !ops.isEmpty else { return }
        let bands = min(threads, max(1, drawn.count / RasterRenderer.minimumBandRows))
        // A damaged stretch of rows is split evenly; a whole pass by its ops' work.
        let edges = bands == 1 ? [drawn.lowerBound, drawn.upperBound]
            : drawn.count < height ? (0...bands).map { drawn.lowerBound + drawn.count * $0 / bands }
            : RasterRenderer.bandEdges(of: ops, width: width, height: height, bands: bands)
        for stretch in RasterRenderer.pathStretches(of: ops, maxPathCells: maxPathCells) {
            drawStretch(stretch.count == ops.count ? ops : Array(ops[stretch]), into: &target, edges: edges, images: images,
                        passes: passes, shadows: shadows)
        }
    }

    /// `ops` drawn by the bands between `edges`.
    private func drawStretch(_ ops: [DrawOp], into target: inout Bitmap, edges: [Int], images: [UInt64: Bitmap],
                             passes: [Int: Bitmap], shadows: ShadowAlphaCache?) {
        let width = target.width, height = target.height
        // A path's edges are summed into its rasterizer's cells once, before the bands (each
        // folds its own rows); so is each shadow's place in the cache.
        var made: [Int: PathCoverage] = [:], kept: [Int: ShadowAlphaCache.Alphas] = [:]
        for (i, op) in ops.enumerated() {
            switch op {
            case .path(let path): made[i] = PathCoverage(path)
            case .quad(let quad):
                guard let shadows, case .blurredRoundedRect(let shape) = quad.fill else { continue }
                let b = quad.polygon.pixelBounds
                let bounds = PixelRect(minX: max(b.minX, 0), minY: max(b.minY, 0), maxX: min(b.maxX, width), maxY: min(b.maxY, height))
                kept[i] = shadows.alphas(for: shape, bounds: bounds)
            case .blur, .halve: break
            }
        }
        let coverages = made, alphas = kept
        made = [:]
        let masked = skipsMaskedColumns ? MaskedColumns.lastMask(in: ops, coverages: coverages) : nil
        let bands = edges.count - 1
        target.pixels.withUnsafeMutableBufferPointer { buffer in
            let pixels = SharedPixels(buffer: buffer)
            let drawBand: @Sendable (Int) -> Void = { band in
                let rows = edges[band]..<edges[band + 1]
                var counts = (reused: 0, kept: 0)
                self.draw(ops, rows: rows, into: pixels.buffer, width: width, images: images, passes: passes, coverages: coverages,
                          alphas: alphas, masked: masked, counts: &counts)
                shadows?.count(reused: counts.reused, kept: counts.kept)
            }
            if bands == 1 { drawBand(0) } else { DispatchQueue.concurrentPerform(iterations: bands, execute: drawBand) }
        }
        // The bands are done with the paths' cells: zeroed and kept for the next paths. Each is
        // taken out of the dictionary first, so its buffers have no other owner: recycling one
        // still shared (iterating the dictionary's keys holds its storage) copied it whole.
        var drawnPaths = consume coverages
        for index in Array(drawnPaths.keys) {
            var drawnPath = drawnPaths.removeValue(forKey: index)
            drawnPath?.recycle()
        }
    }

    /// The stretches `ops` is drawn in, in order: cut before a path whose cells (a float a pixel
    /// of its bounds and two columns more, twice with a stroke) would take the stretch's paths
    /// past `maxPathCells`; a stretch holds at least one op. Every pixel still meets the ops in
    /// their order, so the cut changes no byte; it bounds the memory a pass of many large paths
    /// holds at once (290 full-frame shape layers held 1.1 GB of cells). A cut falls only before
    /// a path, never inside a background and border drawn as one.
    package static func pathStretches(of ops: [DrawOp], maxPathCells: Int) -> [Range<Int>] {
        var stretches: [Range<Int>] = [], start = 0, cells = 0
        for (i, op) in ops.enumerated() {
            guard case .path(let path) = op else { continue }
            let b = path.pixelBounds
            let size = (max(b.width, 0) + 2) * max(b.height, 0) * (path.stroke == nil ? 1 : 2)
            if i > start, cells + size > maxPathCells {
                stretches.append(start..<i)
                start = i
                cells = 0
            }
            cells += size
        }
        stretches.append(start..<ops.count)
        return stretches
    }

    /// What a row of an op costs in `bandEdges`' estimate, in pixels blended through a table
    /// (rough proportions from this backend's profiles, 2026-11-27; the split needs no more): a
    /// shadow's pixel about 8 (its closed form), a texture's 4 (bilinear sampling), a solid one 1;
    /// a row with anti-aliased edges (a rounded shape's, a turned polygon's: each pixel there is
    /// worked out until the coverage reaches 1) some 256 more, a plain rectangle's row 16. With
    /// the pixel bounds the op draws in; nil for what reads a whole pass.
    package static func rowCost(of op: DrawOp) -> (bounds: PixelRect, perPixel: Int, perRow: Int)? {
        switch op {
        case .quad(let quad):
            let edges = quad.rounded != nil || !quad.polygon.isRectangle ? 256 : 16
            switch quad.fill {
            case .solid: return (quad.polygon.pixelBounds, 1, edges)
            case .texture: return (quad.polygon.pixelBounds, 4, edges)
            case .blurredRoundedRect: return (quad.polygon.pixelBounds, 8, edges)
            case .gradient: return (quad.polygon.pixelBounds, 4, edges)
            }
        case .path(let path): return (path.pixelBounds, 1, 256)
        case .blur, .halve: return nil
        }
    }

    /// Where `bands` bands of a `height`-row target start and end (`bands + 1` rows, the first 0,
    /// the last `height`), each with about the same work by `rowCost(of:)` over every row of each
    /// op's pixel bounds. Equal rows left a frame whose layers crowd its top quarter to one
    /// thread (the peer's 1,000 cards squeezed there: 71 ms on two threads, 40 split by work).
    /// Which thread draws a row changes no byte.
    package static func bandEdges(of ops: [DrawOp], width: Int, height: Int, bands: Int) -> [Int] {
        // Each op adds its cost to its rows: +cost where its rows start, -cost where they end.
        var steps = [Int](repeating: 0, count: height + 1)
        for op in ops {
            guard let rowCost = rowCost(of: op) else { continue }
            let b = rowCost.bounds
            let top = max(b.minY, 0), bottom = min(b.maxY, height)
            guard top < bottom else { continue }
            let cost = max(min(b.maxX, width) - max(b.minX, 0), 0) * rowCost.perPixel + rowCost.perRow
            steps[top] += cost
            steps[bottom] -= cost
        }
        // Work before each row.
        var before = [Int](repeating: 0, count: height + 1)
        var perRow = 0
        for y in 0..<height {
            perRow += steps[y]
            before[y + 1] = before[y] + perRow
        }
        let total = before[height]
        guard total > 0 else { return (0...bands).map { height * $0 / bands } }
        // The first row by which each band's share of the work is done (rows only move down).
        var edges = [0]
        var y = 0
        for band in 1..<bands {
            while y < height, before[y] < total * band / bands { y += 1 }
            edges.append(y)
        }
        edges.append(height)
        return edges
    }

    /// `ops` in order over the rows `rows` of the target; `alphas` the kept alphas of the shadows
    /// among them (by index), `counts` their rows read and kept; the quads before `masked`'s
    /// index only over the columns its mask keeps.
    private func draw(_ ops: [DrawOp], rows: Range<Int>, into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int,
                      images: [UInt64: Bitmap], passes: [Int: Bitmap], coverages: [Int: PathCoverage],
                      alphas: [Int: ShadowAlphaCache.Alphas], masked: (index: Int, columns: MaskedColumns)? = nil,
                      counts: inout (reused: Int, kept: Int)) {
        var beforeMask = self
        beforeMask.maskedColumns = masked?.columns
        let maskIndex = masked?.index ?? 0
        var index = 0
        while index < ops.count {
            let op = ops[index]
            index += 1
            let quads = index - 1 < maskIndex ? beforeMask : self
            // A background and its border straight after it: one step, as on the GPU.
            if case .quad(let fill) = op, index < ops.count, case .quad(let ring) = ops[index], ring.isBorder(over: fill) {
                quads.drawPair(fill, ring, rows: rows, into: pixels, width: width)
                index += 1
                continue
            }
            switch op {
            case .quad(let quad):
                quads.draw(quad, images: images, passes: passes, rows: rows, into: pixels, width: width, kept: alphas[index - 1],
                           counts: &counts)
            case .path(let path):
                if let coverage = coverages[index - 1] { drawPath(path, coverage, rows: rows, into: pixels, width: width) }
            case .blur, .halve: break
            }
        }
    }
}

/// A pass's pixels, written by the bands' threads at once, each in rows of its own.
struct SharedPixels: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<UInt8>
}

/// A pass's pixels read by the bands' threads at once.
struct SharedSource: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<UInt8>
}
