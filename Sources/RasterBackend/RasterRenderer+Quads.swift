import Foundation
import CPixelKernels
import Compositor
import OpenCoreGraphics

// The CPU reference's quads: an op's rows of coverage (its polygon's edges, or a rounded shape's
// footprint and outline), its fill (solid, texture, pass, closed-form shadow, gradient) and its blend, a band
// of rows at a time; a card's fill and ring drawn as one pair where the compositor pairs them.
extension RasterRenderer {
    func draw(_ quad: QuadOp, images: [UInt64: Bitmap], passes: [Int: Bitmap], rows: Range<Int>,
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
        case .gradient(let gradient):
            draw(quad, rows: firstRow..<endRow, gradient: gradient, into: pixels, width: width)
        case .texture(let fill):
            guard let bitmap = Self.bitmap(of: fill, images: images, passes: passes) else { return }
            TextureSampler.with(bitmap, fill: fill) { sampler in
                draw(quad, rows: firstRow..<endRow, sampler: sampler, into: pixels, width: width)
            }
        }
    }

    /// The texels a texture fill reads: an image of the list's, or a pass drawn before.
    static func bitmap(of fill: TextureFill, images: [UInt64: Bitmap], passes: [Int: Bitmap]) -> Bitmap? {
        switch fill.source {
        case .image(let id): images[id]
        case .pass(let id): passes[id]
        }
    }

    /// The colour table a Generic RGB gradient's quad reads its colours from: where the quad's
    /// pixels (`bounds`, the whole quad's, so that every band of rows chooses alike) are at least
    /// as many as the table's entries, since a table costs a conversion an entry once (kept by
    /// its stops) and a pixel without one a conversion each. Small gradients convert each pixel:
    /// 2,000 gradient layers of 20 x 16 points with their own colours drew in 143 ms a CPU frame
    /// through tables (their 16 million entries more than the cache keeps) against 31 ms
    /// converting each pixel. The two ways are within 0.08/255 of each other
    /// (GradientColorTableTests).
    public static func colorTable(for gradient: GradientFill, over bounds: PixelRect) -> GradientColorTable? {
        guard gradient.colorSpace == .genericRGB else { return nil }
        let entries = max(gradient.stops.count - 1, 1) * (GradientColorTable.steps + 1)
        return bounds.width * bounds.height >= entries ? gradient.colorTable : nil
    }

    /// The rows `rows` of a quad (within its bounds): its colour the texture `sampler` samples,
    /// or `solid` (times a closed-form shadow's alpha where `blurred` is given; its runs' alphas
    /// read from `kept` where it has them, and worked out into it where it has not).
    func draw(_ quad: QuadOp, rows: Range<Int>, solid: (Double, Double, Double, Double) = (0, 0, 0, 0),
                      blurred: BlurredRoundedRect? = nil, kept: ShadowAlphaCache.Alphas? = nil,
                      counts: UnsafeMutablePointer<(reused: Int, kept: Int)>? = nil, sampler: TextureSampler? = nil,
                      gradient: GradientFill? = nil, into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int) {
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
        let colorTable = gradient.flatMap { Self.colorTable(for: $0, over: bounds) }
        // The texture's colour through a closure that holds the sampler unwrapped: reading it
        // through the optional copied the whole sampler (some 200 bytes) per pixel.
        // Through an axis-aligned map, each column's and row's texels worked out once.
        let separable = samplesSeparably ? sampler?.separable(columns: bounds.minX..<bounds.maxX, rows: firstRow..<endRow) : nil
        let textured: ((Double, Double) -> (Double, Double, Double, Double))? = separable.map { separable in
            { cx, cy in separable.sample(Int(cx.rounded(.down)), Int(cy.rounded(.down))) }
        } ?? sampler.map { sampler in
            { cx, cy in sampler.sample(atX: cx, y: cy) }
        } ?? gradient.map { gradient in
            // A gradient from its formula at the pixel centre (GradientFill), as the GPU's shader.
            { cx, cy in gradient.color(atX: cx, y: cy, table: colorTable) }
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
        // A shadow's alphas along a run are worked out for the whole run at once
        // (RowEvaluator.alphas: the same values): eight at a time where its rows lie at one
        // height in its plane, in one loop from its grid (turned or tilted), or each pixel's
        // closed form but in its constant pieces (sharp and turned or tilted).
        let shadowRows = shadow != nil
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
        if spans, textured == nil, blurred == nil, blend != .destinationIn {
            let c = color(0, 0), k = opacity
            table = SourceOver.table(red: c.0 * k, green: c.1 * k, blue: c.2 * k, alpha: c.3 * k, adding: blend == .plus)
        }
        // Each pixel one texel, blended over or masking: a row's run through the texels' byte tables.
        let pickTable = separable?.picks == true && (blend == .sourceOver || blend == .destinationIn) && blurred == nil
            ? SeparableSampler.PickTable(tint: tint, opacity: opacity) : nil
        // A gradient's run blended over in C.
        let gradientRow = usesKernels && blend == .sourceOver && blurred == nil ? gradient.map {
            GradientRow($0, tint: tint, opacity: opacity, table: colorTable)
        } : nil
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
                if blend == .destinationIn {
                    // A mask's stretch of one alpha: SourceOver.scale's bytes, a stretch at a time.
                    SourceOver.scale(by: current.3 * k, pixels, from: (rowStart + x) * 4, to: (rowStart + next) * 4)
                    x = next
                    current = following
                    continue
                }
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
                    let row = span(of: y, in: bounds, footprint: footprint), start = base + y * width * 4
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
        // A turned shadow under its opaque card (`QuadOp.occluded`): the rows' pixels the card
        // paints over are left out (the same bytes), each row drawn as the parts either side.
        let occluded = shadow != nil ? quad.occluded : nil
        for y in firstRow..<endRow {
            // A polygon that does not cover its bounds wholly covers nothing past its edges'
            // reach: each row starts and ends there (a turned quad's empty corners).
            var whole = span(of: y, in: bounds, footprint: footprint)
            if !wholly { whole = whole.clamped(to: polygon.candidateColumns(row: y)) }
            guard !whole.isEmpty else { continue }
            // Kept alphas are worked out over the whole row, so a still shadow's cache holds it all.
            keptRow = keptAlphas(y, whole)
            var parts = (whole, 0..<0)
            if let occluded, y >= occluded.minY, y < occluded.maxY, occluded.minX < whole.upperBound, occluded.maxX > whole.lowerBound {
                parts = (whole.lowerBound..<max(occluded.minX, whole.lowerBound), min(occluded.maxX, whole.upperBound)..<whole.upperBound)
            }
            // The parts by index, not through an array literal (which may be allocated each row).
            for part in 0..<2 {
                let row = part == 0 ? parts.0 : parts.1
                guard !row.isEmpty else { continue }
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
                } else if let pickTable, let separable {
                    separable.blendPicks(row: y, from: first + 1, to: last, table: pickTable, masking: blend == .destinationIn,
                                         into: pixels, width: width, usesKernel: usesKernels)
                } else if let gradientRow {
                    gradientRow.blend(row: y, from: first + 1, to: last, into: pixels, width: width)
                } else if let separable, blend == .sourceOver, blurred == nil {
                    separable.blendRow(y, from: first + 1, to: last, tint: tint, opacity: opacity, into: pixels, width: width,
                                       usesKernel: usesKernels)
                } else if usesKernels, blend == .sourceOver, blurred == nil, let sampler, sampler.blendsRows {
                    // Turned, skewed or in perspective: each centre through the map, in C.
                    sampler.blendRow(y, from: first + 1, to: last, tint: tint, opacity: opacity, into: pixels, width: width)
                } else {
                    drawRun(first + 1, last, y, pixels)
                }
            }
        }
    }
}

extension RasterRenderer {
    /// The pixels of row `y` of `bounds` a rounded shape can cover: those on its footprint
    /// (`RoundedShape.footprint`), or the whole row without one (any quad's row, in `draw`).
    /// Only the columns `columns` of it are drawn: a frame drawn over the one before it
    /// draws only its damage (`render(_:cache:over:damage:)`), each pixel as a whole frame would;
    /// and only those a mask later in the pass keeps (`maskedColumns`).
    func span(of y: Int, in bounds: PixelRect, footprint: [DevicePoint]?) -> Range<Int> {
        let row = footprint.map { $0.pixelSpan(row: y).clamped(to: bounds.minX..<bounds.maxX) } ?? bounds.minX..<bounds.maxX
        guard let maskedColumns else { return row.clamped(to: columns) }
        return maskedColumns.clamp(row.clamped(to: columns), row: y)
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
                let row = span(of: y, in: bounds, footprint: footprint), start = base + y * width * 4, cy = Double(y) + 0.5
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
                let row = span(of: y, in: bounds, footprint: footprint)
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
