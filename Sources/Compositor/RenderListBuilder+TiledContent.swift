import Foundation
import LayerModel
import OpenCoreGraphics

// A CATiledLayer's content: the tiles of the part of its bounds the frame shows, at the level of
// detail its device scale asks for, each a textured quad. The tiles' shared edges are hard (a
// pixel belongs to the tile its centre is in), so no seam of two half-covered edges shows
// where they meet; the layer's own edges stay anti-aliased.

extension RenderListBuilder {
    /// Most tiles one layer may draw in a frame; past it a coarser level is taken, and where none
    /// is coarse enough the layer is left out with a diagnostic.
    static let maxTilesPerLayer = 4096

    func emitTiles(of layer: CATiledLayer, map: ProjectiveTransform2D, clip: [DevicePoint], opacity: Double,
                   tint: PremultipliedColor, state: inout BuildState) {
        guard clip.count >= 3, let deviceToLocal = map.inverted() else { return }
        // The part of the bounds the frame shows: the clip (within the layer's bounds) cut to the
        // frame and mapped back onto the layer's plane.
        let frame = [DevicePoint(x: 0, y: 0), DevicePoint(x: Double(state.width), y: 0),
                     DevicePoint(x: Double(state.width), y: Double(state.height)), DevicePoint(x: 0, y: Double(state.height))]
        var visible = CGRect.null
        for p in PolygonClipping.intersect(orient(clip), with: frame) {
            let q = deviceToLocal.applyHomogeneous(x: p.x, y: p.y)
            guard q.w > 0 else { continue }
            visible = visible.union(CGRect(x: q.x / q.w, y: q.y / q.w, width: 0, height: 0))
        }
        visible = visible.intersection(layer.bounds)
        guard !visible.isNull, visible.width > 0, visible.height > 0 else { return }
        // Device pixels per point: the most the map stretches a point anywhere in that part (in
        // perspective the near side asks for more than the far).
        let corners = [CGPoint(x: visible.minX, y: visible.minY), CGPoint(x: visible.maxX, y: visible.minY),
                       CGPoint(x: visible.minX, y: visible.maxY), CGPoint(x: visible.maxX, y: visible.maxY)]
        let stretch = corners.map { Self.stretch(of: map, at: $0) }.max() ?? 1
        var level = layer.levelOfDetail(devicePixelsPerPoint: stretch)
        var range = layer.tileRange(level: level, covering: visible)
        while let r = range, r.columns.count * r.rows.count > Self.maxTilesPerLayer,
              level < layer.levelOfDetail(devicePixelsPerPoint: 0.5 * pow(2, -30)) {
            level += 1
            range = layer.tileRange(level: level, covering: visible)
        }
        guard let range else { return }
        guard range.columns.count * range.rows.count <= Self.maxTilesPerLayer else {
            state.diagnostics.append("\(layer): \(range.columns.count * range.rows.count) tiles would show at its coarsest level of "
                + "detail, more than \(Self.maxTilesPerLayer); raise levelsOfDetail or tileSize. Its content is not drawn.")
            return
        }
        let flipped = layer.contentsAreFlipped()
        let filters = Self.samplingFilters(of: layer)
        for row in range.rows {
            for column in range.columns {
                // A tile about to be drawn counts against the frame's budget first (FrameWork).
                if let work = layer.workToDraw(level: level, column: column, row: row, limit: limits.maxDrawingItems - state.work.drawingItems) {
                    state.work.drawingItems += work.items
                    state.work.drawingPixels = state.work.drawingPixels.addingReportingOverflow(work.pixels).overflow
                        ? .max : state.work.drawingPixels + work.pixels
                    if let excess = state.work.excess(limits) {
                        state.overBudget = state.overBudget ?? excess
                        return
                    }
                }
                guard let tile = layer.tile(level: level, column: column, row: row) else { continue }
                let (image, rect, drawn) = (tile.image, tile.rect, tile.imageRect)
                // Local point -> the image's unit square: its pixels start at the drawn
                // rectangle's corner at the level's resolution (the last column and row may hold a
                // part of a pixel more); in a flipped geometry the image is mirrored within it.
                let r = layer.resolution(level: level)
                let su = r / Double(image.width), sv = r / Double(image.height)
                let localToTexture = ProjectiveTransform2D(
                    m11: su, m12: 0, m13: 0, m21: 0, m22: flipped ? -sv : sv, m23: 0,
                    m31: -drawn.minX * su, m32: flipped ? drawn.maxY * sv : -drawn.minY * sv, m33: 1)
                state.textures[image.identifier] = image.bitmap
                let fill = TextureFill(source: .image(image.identifier), deviceToTexture: deviceToLocal.concatenating(localToTexture),
                                       filter: filters.magnification, minification: filters.minification,
                                       lodBias: 0, slices: nil)
                // Edges shared with another tile are hard; the bounds' own edges are not.
                let b = layer.bounds
                var hard: [EdgeEquation] = []
                if rect.minX > b.minX { hard += deviceLines(along: CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.minX, y: rect.maxY), map: map) }
                if rect.maxX < b.maxX { hard += deviceLines(along: CGPoint(x: rect.maxX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.maxY), map: map) }
                if rect.minY > b.minY { hard += deviceLines(along: CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY), map: map) }
                if rect.maxY < b.maxY { hard += deviceLines(along: CGPoint(x: rect.minX, y: rect.maxY), CGPoint(x: rect.maxX, y: rect.maxY), map: map) }
                emit(rect: Rect(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height), map: map, clip: clip,
                     part: "tile \(level):\(column),\(row)", layer: layer, fill: .texture(fill), opacity: opacity, tint: tint,
                     hardEdges: hard, state: &state)
            }
        }
    }

    /// How many device pixels a point of the layer's plane at `p` spans: the longer of the images
    /// of a unit step along x and along y.
    static func stretch(of map: ProjectiveTransform2D, at p: CGPoint) -> Double {
        func device(_ q: CGPoint) -> CGPoint? {
            let h = map.applyHomogeneous(x: q.x, y: q.y)
            return h.w > 0 ? CGPoint(x: h.x / h.w, y: h.y / h.w) : nil
        }
        let e = 1e-3
        guard let o = device(p), let x = device(CGPoint(x: p.x + e, y: p.y)), let y = device(CGPoint(x: p.x, y: p.y + e)) else { return 1 }
        let sx = hypot(x.x - o.x, x.y - o.y) / e, sy = hypot(y.x - o.x, y.y - o.y) / e
        let s = max(sx, sy)
        return s.isFinite && s > 0 ? s : 1
    }
}
