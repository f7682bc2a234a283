import Foundation
import CPixelKernels
import Compositor
import OpenCoreGraphics

/// The CPU reference executor of a `RenderList`.
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
    /// Whether a layer's background and border drawn as one (`drawPair`), and a rounded solid
    /// alone, go through the C kernels where they apply (`oq_rounded_pair_run`,
    /// `oq_rounded_fill_run`). Default: true; false draws each pixel in Swift, the same bytes
    /// (`RoundedPairKernelTests` holds the two together).
    package var usesKernels = true

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
            var target = RasterRenderer.blankTarget(for: pass)
            // Stretches of ops that draw pixel by pixel, in bands; between them what reads the
            // whole target.
            var start = pass.ops.startIndex
            while start < pass.ops.endIndex {
                var end = start
                while end < pass.ops.endIndex, !RasterRenderer.readsWholeTarget(pass.ops[end]) { end += 1 }
                if end > start {
                    drawInBands(Array(pass.ops[start..<end]), into: &target, images: list.textures, passes: passes, shadows: cache?.shadows)
                }
                if end < pass.ops.endIndex {
                    switch pass.ops[end] {
                    case .blur(let blur):
                        if let source = passes[blur.source] { target = Self.blur(source, blur, threads: threads) }
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

    /// Ops that replace the whole target from another pass (a blur axis, a halving).
    static func readsWholeTarget(_ op: DrawOp) -> Bool {
        switch op {
        case .blur, .halve: true
        case .quad, .path: false
        }
    }

    /// `ops` (quads and paths) drawn into `target`, its rows split into bands drawn at once;
    /// shadows' alphas kept in and read from `shadows` where given.
    private func drawInBands(_ ops: [DrawOp], into target: inout Bitmap, images: [UInt64: Bitmap], passes: [Int: Bitmap],
                             shadows: ShadowAlphaCache? = nil) {
        let width = target.width, height = target.height
        // A path's coverage is summed row after row: made once, before the bands; so is each
        // shadow's place in the cache.
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
        let bands = min(threads, max(1, height / RasterRenderer.minimumBandRows))
        let edges = bands == 1 ? [0, height] : RasterRenderer.bandEdges(of: ops, width: width, height: height, bands: bands)
        target.pixels.withUnsafeMutableBufferPointer { buffer in
            let pixels = SharedPixels(buffer: buffer)
            let drawBand: @Sendable (Int) -> Void = { band in
                let rows = edges[band]..<edges[band + 1]
                var counts = (reused: 0, kept: 0)
                self.draw(ops, rows: rows, into: pixels.buffer, width: width, images: images, passes: passes, coverages: coverages,
                          alphas: alphas, counts: &counts)
                shadows?.count(reused: counts.reused, kept: counts.kept)
            }
            if bands == 1 { drawBand(0) } else { DispatchQueue.concurrentPerform(iterations: bands, execute: drawBand) }
        }
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
    /// among them (by index), `counts` their rows read and kept.
    private func draw(_ ops: [DrawOp], rows: Range<Int>, into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int,
                      images: [UInt64: Bitmap], passes: [Int: Bitmap], coverages: [Int: PathCoverage],
                      alphas: [Int: ShadowAlphaCache.Alphas], counts: inout (reused: Int, kept: Int)) {
        var index = 0
        while index < ops.count {
            let op = ops[index]
            index += 1
            // A background and its border straight after it: one step, as on the GPU.
            if case .quad(let fill) = op, index < ops.count, case .quad(let ring) = ops[index], ring.isBorder(over: fill) {
                drawPair(fill, ring, rows: rows, into: pixels, width: width)
                index += 1
                continue
            }
            switch op {
            case .quad(let quad):
                draw(quad, images: images, passes: passes, rows: rows, into: pixels, width: width, kept: alphas[index - 1], counts: &counts)
            case .path(let path):
                if let coverage = coverages[index - 1] { drawPath(path, coverage, rows: rows, into: pixels, width: width) }
            case .blur, .halve: break
            }
        }
    }

    private func draw(_ quad: QuadOp, images: [UInt64: Bitmap], passes: [Int: Bitmap], rows: Range<Int>,
                      into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int, kept: ShadowAlphaCache.Alphas?,
                      counts: inout (reused: Int, kept: Int)) {
        let bounds = quad.polygon.pixelBounds
        let firstRow = max(bounds.minY, rows.lowerBound), endRow = min(bounds.maxY, rows.upperBound)
        guard firstRow < endRow else { return }
        switch quad.fill {
        case .solid(let c):
            draw(quad, rows: firstRow..<endRow, solid: (c.red, c.green, c.blue, c.alpha), into: pixels, width: width)
        case .blurredRoundedRect(let shape):
            draw(quad, rows: firstRow..<endRow, solid: (shape.color.red, shape.color.green, shape.color.blue, shape.color.alpha),
                 blurred: shape, kept: kept, counts: &counts, into: pixels, width: width)
        case .texture(let fill):
            let texels: Bitmap? = switch fill.source {
            case .image(let id): images[id]
            case .pass(let id): passes[id]
            }
            guard let bitmap = texels else { return }
            TextureSampler.with(bitmap, fill: fill) { sampler in
                draw(quad, rows: firstRow..<endRow, sampler: sampler, into: pixels, width: width)
            }
        }
    }

    /// The rows `rows` of a quad (within its bounds): its colour the texture `sampler` samples,
    /// or `solid` (times a closed-form shadow's alpha where `blurred` is given; its runs' alphas
    /// read from `kept` where it has them, and worked out into it where it has not).
    private func draw(_ quad: QuadOp, rows: Range<Int>, solid: (Double, Double, Double, Double) = (0, 0, 0, 0),
                      blurred: BlurredRoundedRect? = nil, kept: ShadowAlphaCache.Alphas? = nil,
                      counts: UnsafeMutablePointer<(reused: Int, kept: Int)>? = nil, sampler: TextureSampler? = nil,
                      into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int) {
        let bounds = quad.polygon.pixelBounds
        let firstRow = rows.lowerBound, endRow = rows.upperBound
        // Read once, not per pixel (each read of an optional struct in the loop was a copy).
        let polygon = quad.polygon, rounded = quad.rounded, opacity = quad.opacity, blend = quad.blend
        let tint = quad.tint, tinted = quad.tint != .opaqueWhite

        // Chosen once: unwrapping the optional shape per pixel copied it.
        // A polygon that covers every pixel of its bounds wholly (a quad clipped only by the
        // frame) is not measured: its coverage is exactly 1 (`coversWholly`).
        let coverage: (Double, Double) -> Double
        let outline = rounded.map(RoundedShape.Sampler.init), wholly = polygon.coversWholly(bounds)
        switch (outline, wholly) {
        case (let outline?, true): coverage = { cx, cy in outline.coverage(atX: cx, y: cy) }
        case (let outline?, false):
            coverage = { cx, cy in
                let c = polygon.coverage(atX: cx, y: cy)
                return c > 0 ? c * outline.coverage(atX: cx, y: cy) : c
            }
        case (nil, true): coverage = { _, _ in 1 }
        case (nil, false): coverage = { cx, cy in polygon.coverage(atX: cx, y: cy) }
        }
        // A closed-form shadow's samples along y are made once per row (the same values).
        var shadow = blurred.map(BlurredRoundedRect.RowEvaluator.init)
        // The texture's colour through a closure that holds the sampler unwrapped: reading it
        // through the optional copied the whole sampler (some 200 bytes) per pixel.
        let textured: ((Double, Double) -> (Double, Double, Double, Double))? = sampler.map { sampler in
            { cx, cy in sampler.sample(atX: cx, y: cy) }
        }
        // The shadow's alphas over the row being drawn, where the cache keeps them (`keptAlphas`).
        var keptRow: (y: Int, columns: Range<Int>, values: UnsafePointer<Float>)?
        func color(_ cx: Double, _ cy: Double) -> (Double, Double, Double, Double) {
            if shadow != nil {
                if let keptRow, Int(cy.rounded(.down)) == keptRow.y, case let x = Int(cx.rounded(.down)), keptRow.columns.contains(x) {
                    return shaded(keptRow.values[x - keptRow.columns.lowerBound])
                }
                return shaded(shadow!.alpha(atX: cx, y: cy))
            }
            let color = textured?(cx, cy) ?? solid
            return tinted ? (color.0 * tint.red, color.1 * tint.green, color.2 * tint.blue, color.3 * tint.alpha) : color
        }
        /// The solid colour times a shadow's alpha, tinted.
        func shaded(_ alpha: Float) -> (Double, Double, Double, Double) {
            let a = Double(alpha)
            let color = (solid.0 * a, solid.1 * a, solid.2 * a, solid.3 * a)
            return tinted ? (color.0 * tint.red, color.1 * tint.green, color.2 * tint.blue, color.3 * tint.alpha) : color
        }
        // A shadow's alphas along a run are worked out for the whole run at once where its rows
        // lie at one height in its plane (RowEvaluator.alphas: the same values, eight at a time).
        let shadowRows = shadow?.rowsShareHeight == true
        let runAlphasStore = UnsafeMutableBufferPointer<Float>.allocate(capacity: shadowRows ? bounds.maxX - bounds.minX : 0)
        defer { runAlphasStore.deallocate() }
        func apply(_ color: (Double, Double, Double, Double), _ k: Double, _ pixels: UnsafeMutableBufferPointer<UInt8>, _ i: Int) {
            switch blend {
            case .plus:
                SourceOver.add(red: color.0 * k, green: color.1 * k, blue: color.2 * k, alpha: color.3 * k, into: pixels, at: i)
            case .sourceOver:
                SourceOver.blend(red: color.0 * k, green: color.1 * k, blue: color.2 * k, alpha: color.3 * k, into: pixels, at: i)
            case .destinationIn:
                SourceOver.scale(by: color.3 * k, pixels, at: i)
            default:
                SourceOver.mix(blend, red: color.0 * k, green: color.1 * k, blue: color.2 * k, alpha: color.3 * k, into: pixels, at: i)
            }
        }
        /// One pixel the slow way: coverage, colour, blend. Returns the coverage.
        func draw(_ x: Int, _ y: Int, _ pixels: UnsafeMutableBufferPointer<UInt8>) -> Double {
            let cx = Double(x) + 0.5, cy = Double(y) + 0.5
            let c = coverage(cx, cy)
            if c > 0 { apply(color(cx, cy), c * opacity, pixels, (y * width + x) * 4) }
            return c
        }
        func pixel(_ x: Int, _ y: Int, _ pixels: UnsafeMutableBufferPointer<UInt8>) -> Bool { draw(x, y, pixels) == 1 }

        // Inside a convex outline the pixels of full coverage on a row are one run: find its ends
        // pixel by pixel from both sides (the anti-aliased ramps, a pixel or two), then fill the
        // run without evaluating coverage. In a ring (a border) the hole is such a run of zero
        // coverage: found the same way, and skipped.
        let spans = rounded?.inner == nil
        // A solid colour over the run: each channel's result depends only on the byte under it,
        // so the blend is a table per channel, made with the very expression `apply` evaluates.
        var table: SourceOver.Table?
        if spans, sampler == nil, blurred == nil, blend != .destinationIn {
            let c = color(0, 0), k = opacity
            table = SourceOver.table(red: c.0 * k, green: c.1 * k, blue: c.2 * k, alpha: c.3 * k, adding: blend == .plus)
        }
        // A run whose colour holds over many pixels (a shadow's flat stretches, RowEvaluator) goes
        // through a table as a solid run does, made with the same expressions: the same bytes.
        let tablesRuns = blend == .sourceOver || blend == .plus
        /// Pixels start..<end of row y, wholly covered: their colours, one after another, each
        /// stretch of one colour blended pixel by pixel or, when long, through a table.
        func drawRun(_ start: Int, _ end: Int, _ y: Int, _ pixels: UnsafeMutableBufferPointer<UInt8>) {
            let cy = Double(y) + 0.5, rowStart = y * width
            // The run's shadow alphas: the row's kept ones (any shadow, turned or tilted too), or
            // worked out where its rows lie level.
            var alphas: UnsafePointer<Float>?
            if let keptRow, keptRow.y == y, keptRow.columns.lowerBound <= start, keptRow.columns.upperBound >= end {
                alphas = keptRow.values + (start - keptRow.columns.lowerBound)
            } else if shadowRows {
                let values = runAlphasStore.baseAddress!
                shadow!.alphas(row: cy, from: start, count: end - start, into: values)
                alphas = UnsafePointer(values)
            }
            if let alphas {
                // Source-over of the shadow's colour times each alpha: the bytes of the stretches
                // below, blended in integers (SourceOver.blend(_:times:...)).
                if blend == .sourceOver {
                    SourceOver.blend(solid, times: alphas, count: end - start, tint: tinted ? (tint.red, tint.green, tint.blue, tint.alpha) : nil,
                                     opacity: opacity, into: pixels.baseAddress! + (rowStart + start) * 4)
                    return
                }
            }
            func colorAt(_ x: Int) -> (Double, Double, Double, Double) {
                if let alphas { return shaded(alphas[x - start]) }
                return color(Double(x) + 0.5, cy)
            }
            var x = start, repeating = SourceOver.RepeatingBlend()
            var current = colorAt(x)
            while x < end {
                // The stretch x..<next of `current`; `following` is the colour at next.
                var next = x + 1, following = current
                while next < end {
                    following = colorAt(next)
                    guard following == current else { break }
                    next += 1
                }
                let k = opacity
                var i = x
                if blend == .sourceOver {
                    // Over pixels that repeat this is a store a pixel, cheaper than a table; over
                    // pixels that do not, a long stretch goes on through a table after a few.
                    var worked = 0
                    while i < next, worked < RasterRenderer.blendsBeforeTable || next - i < RasterRenderer.minimumTableRun {
                        if repeating.blend(red: current.0 * k, green: current.1 * k, blue: current.2 * k, alpha: current.3 * k,
                                           into: pixels, at: (rowStart + i) * 4) { worked += 1 }
                        i += 1
                    }
                }
                if tablesRuns, next - i >= RasterRenderer.minimumTableRun {
                    let table = SourceOver.table(red: current.0 * k, green: current.1 * k, blue: current.2 * k, alpha: current.3 * k,
                                                 adding: blend == .plus)
                    SourceOver.apply(table, to: pixels, from: (rowStart + i) * 4, to: (rowStart + next) * 4)
                } else {
                    for i in i..<next { apply(current, opacity, pixels, (rowStart + i) * 4) }
                }
                x = next
                current = following
            }
        }
        // A rounded shape covers nothing off its footprint: each row starts and ends there.
        let footprint = rounded?.footprint(within: bounds)
        // A rounded solid over its quad's pixels, wholly: each row's ends eight pixels at a time
        // in C (`oq_rounded_fill_run`, the same arithmetic as `draw`), the run between from the table.
        if spans, wholly, usesKernels, blend == .sourceOver, shadow == nil, textured == nil, let table, let outline {
            let rowCoverage = RoundedShape.RowCoverage(outline)
            if let parts = rowCoverage.kernelParts {
                let c = color(0, 0), colour = [c.0, c.1, c.2, c.3], base = pixels.baseAddress!
                for y in firstRow..<endRow {
                    let row = RasterRenderer.span(of: y, in: bounds, footprint: footprint), start = base + y * width * 4
                    let cy = Double(y) + 0.5
                    guard let (first, last) = RasterRenderer.rowEnds(row, { x0, count, backwards in
                        oq_rounded_fill_run(parts, colour, opacity, cy, x0, count, backwards ? 1 : 0, start)
                    }) else { continue }
                    if last - first > 1 { SourceOver.apply(table, to: pixels, from: (y * width + first + 1) * 4, to: (y * width + last) * 4) }
                }
                withExtendedLifetime(rowCoverage) {}
                return
            }
        }
        /// The shadow's alphas over `columns` of row `y` from the cache: those kept, or worked out
        /// into it (every pixel the row can cover, its edges' too); nil where it keeps none.
        func keptAlphas(_ y: Int, _ columns: Range<Int>) -> (y: Int, columns: Range<Int>, values: UnsafePointer<Float>)? {
            guard shadow != nil, let kept, kept.holds(row: y, columns) else { return nil }
            if let reused = kept.kept(row: y, columns) {
                counts?.pointee.reused += 1
                return (y, columns, reused)
            }
            let values = kept.pointer(row: y, columns)
            shadow!.alphas(row: Double(y) + 0.5, from: columns.lowerBound, count: columns.count, into: values)
            kept.keep(row: y, columns)
            counts?.pointee.kept += 1
            return (y, columns, UnsafePointer(values))
        }
        for y in firstRow..<endRow {
            let row = RasterRenderer.span(of: y, in: bounds, footprint: footprint)
            guard !row.isEmpty else { continue }
            keptRow = keptAlphas(y, row)
            if !spans, let outline {
                // A ring (a border): its hole is where the inner outline covers a pixel wholly,
                // which gives the ring nothing there, and the inner outline being convex, that
                // is one run per row. Draw from the left up to the run and from the right up
                // to it. (Stopping where the coverage fell back to zero lost a side of a ring
                // near the horizon, where a row crosses the ring three times.)
                let cy = Double(y) + 0.5
                func inHole(_ x: Int) -> Bool { outline.outlineCoverage(atX: Double(x) + 0.5, y: cy).inner >= 1 }
                var x = row.lowerBound
                while x < row.upperBound, !inHole(x) {
                    _ = draw(x, y, pixels)
                    x += 1
                }
                var right = row.upperBound - 1
                while right > x, !inHole(right) {
                    _ = draw(right, y, pixels)
                    right -= 1
                }
                continue
            }
            var first = row.lowerBound
            while first < row.upperBound, !pixel(first, y, pixels) { first += 1 }
            guard first < row.upperBound else { continue }
            var last = row.upperBound - 1
            while last > first, !pixel(last, y, pixels) { last -= 1 }
            // first and last are done; the run between them has coverage 1.
            guard last - first > 1 else { continue }
            let rowStart = y * width
            if let table {
                SourceOver.apply(table, to: pixels, from: (rowStart + first + 1) * 4, to: (rowStart + last) * 4)
            } else {
                drawRun(first + 1, last, y, pixels)
            }
        }
    }
}

extension RasterRenderer {
    /// The pixels of row `y` of `bounds` a rounded shape can cover: those on its footprint
    /// (`RoundedShape.footprint`), or the whole row without one.
    static func span(of y: Int, in bounds: PixelRect, footprint: [DevicePoint]?) -> Range<Int> {
        footprint.map { $0.pixelSpan(row: y).clamped(to: bounds.minX..<bounds.maxX) } ?? bounds.minX..<bounds.maxX
    }

    /// A layer's background and its border (`QuadOp.isBorder(over:)`) in one step: at each pixel
    /// the ring's colour over the fill's, in float, then one blend (rounded to 8 bits once).
    /// Inside the border, where only the fill shows, each row's run is filled from a table.
    func drawPair(_ fill: QuadOp, _ ring: QuadOp, rows: Range<Int>, into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int) {
        guard case .solid(let f) = fill.fill, case .solid(let r) = ring.fill, let shape = ring.rounded else { return }
        let polygon = fill.polygon, bounds = polygon.pixelBounds
        let firstRow = max(bounds.minY, rows.lowerBound), endRow = min(bounds.maxY, rows.upperBound)
        guard firstRow < endRow else { return }
        let fc = f.multiplied(by: fill.tint), rc = r.multiplied(by: ring.tint)
        let fillOpacity = fill.opacity, ringOpacity = ring.opacity
        let outlines = RoundedShape.RowCoverage(RoundedShape.Sampler(shape))
        let wholly = polygon.coversWholly(bounds)
        /// One pixel, its outlines' coverage `c`; returns whether only the fill showed there,
        /// wholly (the run's state).
        func pixel(_ x: Int, _ y: Int, _ c: (outer: Double, inner: Double), _ pixels: UnsafeMutableBufferPointer<UInt8>) -> Bool {
            let k = wholly ? 1 : polygon.coverage(atX: Double(x) + 0.5, y: Double(y) + 0.5)
            guard k > 0, c.outer > 0 else { return false }
            // By area: the ring covers what lies between the outlines, over the fill there; the rest
            // of the outer outline shows the fill alone. Multiplying the fill's whole coverage by
            // what the ring leaves let the fill bleed through an opaque border's outer edge.
            let ringArea = k * max(c.outer - c.inner, 0)
            let kr = ringArea * ringOpacity
            let kf = (k * c.outer - rc.alpha * kr) * fillOpacity
            SourceOver.blend(red: rc.red * kr + fc.red * kf, green: rc.green * kr + fc.green * kf,
                             blue: rc.blue * kr + fc.blue * kf, alpha: rc.alpha * kr + fc.alpha * kf,
                             into: pixels, at: (y * width + x) * 4)
            return k == 1 && c.outer == 1 && c.inner == 1
        }
        let table = SourceOver.table(red: fc.red * fillOpacity, green: fc.green * fillOpacity, blue: fc.blue * fillOpacity,
                                     alpha: fc.alpha * fillOpacity)
        let footprint = shape.footprint(within: bounds)
        if wholly, usesKernels, let parts = outlines.kernelParts {
            var colours = oq_pair_colours(fill_red: fc.red, fill_green: fc.green, fill_blue: fc.blue, fill_alpha: fc.alpha,
                                          fill_opacity: fillOpacity, ring_red: rc.red, ring_green: rc.green, ring_blue: rc.blue,
                                          ring_alpha: rc.alpha, ring_opacity: ringOpacity)
            let base = pixels.baseAddress!
            for y in firstRow..<endRow {
                let row = RasterRenderer.span(of: y, in: bounds, footprint: footprint), start = base + y * width * 4, cy = Double(y) + 0.5
                guard let (first, last) = RasterRenderer.rowEnds(row, { x0, count, backwards in
                    oq_rounded_pair_run(parts, &colours, cy, x0, count, backwards ? 1 : 0, start)
                }) else { continue }
                if last - first > 1 { SourceOver.apply(table, to: pixels, from: (y * width + first + 1) * 4, to: (y * width + last) * 4) }
            }
            return
        }
        // Each row from either end until only the fill shows, the outlines' coverage worked out
        // a few pixels ahead (`RowCoverage`; the pixels past the stop are worked out and unused).
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * RasterRenderer.coverageRun) { buffer in
            let outer = buffer.baseAddress!, inner = outer + RasterRenderer.coverageRun
            for y in firstRow..<endRow {
                let row = RasterRenderer.span(of: y, in: bounds, footprint: footprint)
                guard let (first, last) = RasterRenderer.rowEnds(row, { x0, count, backwards in
                    outlines.coverages(row: y, from: x0, count: count, outer: outer, inner: inner)
                    for j in 0..<count {
                        let i = backwards ? count - 1 - j : j
                        if pixel(x0 + i, y, (outer[i], inner[i]), pixels) { return j + 1 }
                    }
                    return 0
                }) else { continue }
                // first and last are done; between them only the fill shows, wholly.
                if last - first > 1 { SourceOver.apply(table, to: pixels, from: (y * width + first + 1) * 4, to: (y * width + last) * 4) }
            }
        }
    }

    /// A rounded shape's row `row` drawn from either end: `run(x0, count, backwards)` draws up to
    /// `coverageRun` pixels from x0 in scan order (from the right where `backwards`) until and
    /// with the first where the shape (only the fill, for a pair) covers wholly, and returns how
    /// many it took to it, or 0 where none did. The pixels where each end stopped: nil where the
    /// row has none (every pixel drawn); between them the caller's run of full coverage.
    static func rowEnds(_ row: Range<Int>, _ run: (_ x0: Int, _ count: Int, _ backwards: Bool) -> Int) -> (first: Int, last: Int)? {
        var first = row.lowerBound, found = false
        while first < row.upperBound {
            let n = min(coverageRun, row.upperBound - first), taken = run(first, n, false)
            if taken > 0 { first += taken - 1; found = true; break }
            first += n
        }
        guard found else { return nil }
        var last = row.upperBound - 1
        while last > first {
            let n = min(coverageRun, last - first), from = last - n + 1, taken = run(from, n, true)
            if taken > 0 { last -= taken - 1; break }
            last = from - 1
        }
        return (first, last)
    }

    /// How many pixels of a row a rounded shape's coverage is worked out at once: one AVX-512
    /// register of doubles. A card's edge, from either end until only its fill shows, is some 8
    /// pixels a row.
    static let coverageRun = 8
}

extension RasterRenderer {
    /// Rows `0..<height` in bands on up to `threads` threads (each output row is its own).
    static func forEachBand(of height: Int, threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let bands = min(threads, max(1, height / minimumBandRows))
        guard bands > 1 else { return body(0..<height) }
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            body((height * band / bands)..<(height * (band + 1) / bands))
        }
    }

    /// One axis of the separable blur, every channel, texels outside transparent.
    static func blur(_ source: Bitmap, _ op: BlurOp, threads: Int = 1) -> Bitmap {
        let w = source.width, h = source.height, r = op.weights.count / 2
        var out = Bitmap(width: w, height: h)
        source.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                let src = SharedSource(buffer: src), dst = SharedPixels(buffer: dst)
                forEachBand(of: h, threads: threads) { rows in
                let src = src.buffer, dst = dst.buffer
                for y in rows {
                    for x in 0..<w {
                        var sum = (0.0, 0.0, 0.0, 0.0)
                        for k in 0..<op.weights.count {
                            let qx = op.horizontal ? x + k - r : x, qy = op.horizontal ? y : y + k - r
                            guard qx >= 0, qy >= 0, qx < w, qy < h else { continue }
                            let i = (qy * w + qx) * 4, weight = Double(op.weights[k]) / 255
                            sum.0 += Double(src[i]) * weight; sum.1 += Double(src[i + 1]) * weight
                            sum.2 += Double(src[i + 2]) * weight; sum.3 += Double(src[i + 3]) * weight
                        }
                        let o = (y * w + x) * 4
                        dst[o] = SourceOver.rounded(sum.0); dst[o + 1] = SourceOver.rounded(sum.1)
                        dst[o + 2] = SourceOver.rounded(sum.2); dst[o + 3] = SourceOver.rounded(sum.3)
                    }
                }
                }
            }
        }
        return out
    }
}

extension RasterRenderer {
    /// The source at half size: 2x2 means, texels outside transparent.
    static func halve(_ source: Bitmap, _ op: HalveOp, width: Int, height: Int, threads: Int = 1) -> Bitmap {
        var out = Bitmap(width: width, height: height)
        out.pixels.withUnsafeMutableBufferPointer { buffer in
          let pixels = SharedPixels(buffer: buffer)
          forEachBand(of: height, threads: threads) { rows in
          let out = pixels.buffer
          for y in rows {
            for x in 0..<width {
                let sx = 2 * (x - op.originX), sy = 2 * (y - op.originY)
                var sum = (0, 0, 0, 0)
                for j in 0..<2 {
                    for i in 0..<2 {
                        let qx = sx + i, qy = sy + j
                        guard qx >= 0, qy >= 0, qx < source.width, qy < source.height else { continue }
                        let t = source[qx, qy]
                        sum = (sum.0 + Int(t.0), sum.1 + Int(t.1), sum.2 + Int(t.2), sum.3 + Int(t.3))
                    }
                }
                let o = (y * width + x) * 4
                out[o] = SourceOver.rounded(Double(sum.0) / 1020); out[o + 1] = SourceOver.rounded(Double(sum.1) / 1020)
                out[o + 2] = SourceOver.rounded(Double(sum.2) / 1020); out[o + 3] = SourceOver.rounded(Double(sum.3) / 1020)
            }
          }
          }
        }
        return out
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

/// Source-over (plus, destination-in) of a premultiplied colour onto an 8-bit premultiplied pixel, rounded to
/// nearest.
package enum SourceOver {
    @inline(__always)
    package static func add(red: Double, green: Double, blue: Double, alpha: Double,
                            into pixels: UnsafeMutableBufferPointer<UInt8>, at i: Int) {
        pixels[i] = quantize(unorm8(red) + ByteUnits.value(pixels[i]))
        pixels[i + 1] = quantize(unorm8(green) + ByteUnits.value(pixels[i + 1]))
        pixels[i + 2] = quantize(unorm8(blue) + ByteUnits.value(pixels[i + 2]))
        pixels[i + 3] = quantize(unorm8(alpha) + ByteUnits.value(pixels[i + 3]))
    }

    @inline(__always)
    package static func blend(red: Double, green: Double, blue: Double, alpha: Double,
                              into pixels: UnsafeMutableBufferPointer<UInt8>, at i: Int) {
        blend(r: rounded(red), g: rounded(green), b: rounded(blue), a: rounded(alpha), into: pixels, at: i)
    }

    /// `blend` of a source already rounded to the bytes a draw writes.
    @inline(__always)
    package static func blend(r: UInt8, g: UInt8, b: UInt8, a: UInt8, into pixels: UnsafeMutableBufferPointer<UInt8>, at i: Int) {
        // A source of no bytes adds nothing and takes nothing away: quantize(p / 255) is p
        // (ByteUnitsTests), so the pixel stays as it is (a faint shadow's tail, most of it).
        guard r | g | b | a != 0 else { return }
        let keep = 255 - Int(a)
        pixels[i] = over(r, keep, pixels[i])
        pixels[i + 1] = over(g, keep, pixels[i + 1])
        pixels[i + 2] = over(b, keep, pixels[i + 2])
        pixels[i + 3] = over(a, keep, pixels[i + 3])
    }

    /// One channel of `blend`: `quantize(value(s) + value(d) * (1 - value(a)))`, in integers,
    /// with `keep` = 255 - a. The same byte for every s, a and d (`SourceOverTests` tries all
    /// 16.7 million): the exact value times 255 plus a half is (2 (255 s + d keep) + 255) / 510,
    /// an odd number over an even one, never nearer a whole number than 1/510, where the
    /// doubles' rounding is some 1e-13, so dropping its fraction drops the same fraction. A
    /// division by a constant where the doubles made two conversions from a table, a multiply,
    /// an add and a clamp (a wide shadow's pixels, all blended, were half its frame).
    @inline(__always)
    package static func over(_ s: UInt8, _ keep: Int, _ d: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: min((2 * (255 * Int(s) + Int(d) * keep) + 255) / 510, 255))
    }

    /// `blend` of colour after colour along a row, remembering the last source and pixel it
    /// met and what it made of them: where both repeat (a shadow's slowly changing colour over
    /// a plain background) the result is stored again rather than worked out. The same bytes:
    /// `blend`'s result depends on the source's bytes and the pixel's alone.
    package struct RepeatingBlend {
        private var source: UInt32 = 0, pixel: UInt32 = 0, result: UInt32 = 0, known = false

        package init() {}

        /// Returns whether it worked the blend out (false: the remembered result was stored).
        @inline(__always) @discardableResult
        package mutating func blend(red: Double, green: Double, blue: Double, alpha: Double,
                                    into pixels: UnsafeMutableBufferPointer<UInt8>, at i: Int) -> Bool {
            let r = rounded(red), g = rounded(green), b = rounded(blue), a = rounded(alpha)
            let source = UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
            precondition(i >= 0 && i + 4 <= pixels.count)
            let address = UnsafeMutableRawPointer(pixels.baseAddress! + i)
            let pixel = address.loadUnaligned(as: UInt32.self)
            if known, source == self.source, pixel == self.pixel {
                address.storeBytes(of: result, as: UInt32.self)
                return false
            }
            SourceOver.blend(r: r, g: g, b: b, a: a, into: pixels, at: i)
            (self.source, self.pixel, result, known) = (source, pixel, address.loadUnaligned(as: UInt32.self), true)
            return true
        }
    }

    /// The source combined with the pixel by a blend mode that reads it (`BlendMode.combine`): the
    /// source rounded to 8 bits as the GPU's shader rounds its colour, the result rounded as the
    /// shader writes it.
    static func mix(_ mode: BlendMode, red: Double, green: Double, blue: Double, alpha: Double,
                    into pixels: UnsafeMutableBufferPointer<UInt8>, at i: Int) {
        let source = (unorm8(red), unorm8(green), unorm8(blue), unorm8(alpha))
        let backdrop = (ByteUnits.value(pixels[i]), ByteUnits.value(pixels[i + 1]), ByteUnits.value(pixels[i + 2]), ByteUnits.value(pixels[i + 3]))
        let out = mode.combine(source: source, backdrop: backdrop)
        pixels[i] = rounded(out.red)
        pixels[i + 1] = rounded(out.green)
        pixels[i + 2] = rounded(out.blue)
        pixels[i + 3] = rounded(out.alpha)
    }

    /// D x alpha: a mask applied to what is there.
    @inline(__always)
    static func scale(by alpha: Double, _ pixels: UnsafeMutableBufferPointer<UInt8>, at i: Int) {
        let alpha = unorm8(alpha)
        for c in i..<(i + 4) { pixels[c] = quantize(ByteUnits.value(pixels[c]) * alpha) }
    }

    /// The source as an 8-bit blender sees it: the fragment's colour converted to the target's
    /// precision before it is blended, as llvmpipe does (and a GPU blending at its target's
    /// precision). Blending the exact value drifted from the GPU by up to a step per draw where
    /// translucent draws pile up (stacked shadows, faint layers): `quartz fuzz-differential`
    /// found 58 of 1,000 random trees apart beyond the bar, 18 after.
    @inline(__always)
    static func unorm8(_ v: Double) -> Double { ByteUnits.value(rounded(v)) }

    @inline(__always)
    package static func quantize(_ v: Double) -> UInt8 {
        UInt8(min(max(v * 255 + 0.5, 0), 255))
    }

    /// A value rounded to 8 bits as every fragment shader writes it (TargetSteps: half a step and
    /// 1/1024 of one). Blends, which the GPU's fixed-function hardware rounds, keep `quantize`.
    @inline(__always)
    static func rounded(_ v: Double) -> UInt8 { TargetSteps.byte(v) }
}
