import Foundation
import LayerModel
import OpenCoreGraphics

// shouldRasterize: the subtree drawn once a frame into a pass at rasterizationScale pixels per
// point of the layer's own space, composited like contents; the pass carries a content key so
// executors keep it across frames while nothing inside changes.

extension RenderListBuilder {
    /// Most pixels per point a rasterized layer's bitmap gets, as a multiple of the frame's scale:
    /// more buys nothing visible and costs memory quadratically.
    static let maxRasterizationFactor = 8.0

    /// A rasterized layer: its subtree drawn once into a bitmap at rasterizationScale pixels per
    /// point of its own space, covering its bounds and its sublayers' frames, and composited in
    /// its plane; the pass carries a cache key so executors can keep it across frames.
    func drawRasterized(_ visit: Visit, map: ProjectiveTransform2D, opacity: Double, state: inout BuildState) throws {
        let layer = visit.layer
        var s = Double(layer.rasterizationScale)
        if !(s.isFinite && s > 0) {
            state.diagnostics.append("\(layer): rasterizationScale \(layer.rasterizationScale) is not a positive number; 1 is used")
            s = 1
        }
        if s > RenderListBuilder.maxRasterizationFactor * Double(scale) {
            state.diagnostics.append("\(layer): rasterizationScale \(layer.rasterizationScale) is over "
                + "\(Int(RenderListBuilder.maxRasterizationFactor)) times the frame's scale; that is used")
            s = RenderListBuilder.maxRasterizationFactor * Double(scale)
        }
        guard let deviceToLocal = map.inverted() else { return }
        // The subtree's extent, cut to the part of the layer's plane the frame can show: a
        // sublayer under perspective near the eye projects thousands of points across, and the
        // pass need not hold what falls outside the frame (a fuzzed tree made twenty passes of
        // 7,700 x 4,800 pixels for a 240-point frame, 100 s on the CPU).
        guard let extent = Self.visiblePart(of: RenderListBuilder.rasterExtent(of: layer), clip: visit.clip,
                                            deviceToLocal: deviceToLocal, pixelsPerPoint: s),
              extent.width > 0, extent.height > 0 else { return }
        // What the pass holds depends on the layer, the part of its space drawn, the resolution
        // and the masks in use on the way down (a mask met again is not applied): nothing else.
        let key = RasterizedPassKey(layer: ObjectIdentifier(layer), extent: [extent.minX, extent.minY, extent.width, extent.height],
                                    pixelsPerPoint: s, masksInUse: state.masksInUse)
        let pass: Int
        if let drawn = state.rasterizedPasses[key] {
            pass = drawn
        } else {
            pass = try drawIntoPass(layer, rect: extent, pixelsPerPoint: s, depth: visit.depth, cached: true, state: &state)
            state.rasterizedPasses[key] = pass
        }
        let rect = Rect(x: extent.minX, y: extent.minY, width: extent.width, height: extent.height)
        let localToTexture = ProjectiveTransform2D.unitSquare(from: rect)
        emit(rect: rect, map: map, clip: visit.clip, part: "rasterized", layer: layer,
             fill: .texture(TextureFill(source: .pass(pass), deviceToTexture: deviceToLocal.concatenating(localToTexture),
                                        filter: .linear)),
             opacity: opacity, tint: visit.tint, state: &state)
    }

    /// `extent` (in a layer's plane) cut to the bounding box of `clip` (device) mapped back onto
    /// that plane, widened by a point so that filtering at the cut reads what lies beyond, and
    /// rounded out to the whole extent's pixel grid at `pixelsPerPoint`, so the pass's texels are
    /// the very ones the whole extent's pass would hold there (a cut at a fraction of a pixel
    /// resampled the layer: softpipe's drift on fuzzed seed 7340344 grew from 4 to 5); the whole
    /// extent where part of the clip maps from behind the eye; nil where nothing of it shows.
    static func visiblePart(of extent: CGRect, clip: [DevicePoint], deviceToLocal: ProjectiveTransform2D,
                            pixelsPerPoint s: Double) -> CGRect? {
        guard clip.count >= 3 else { return nil }
        var seen = CGRect.null
        for p in clip {
            let q = deviceToLocal.applyHomogeneous(x: p.x, y: p.y)
            guard q.w > 0, (q.x / q.w).isFinite, (q.y / q.w).isFinite else { return extent }
            seen = seen.union(CGRect(x: q.x / q.w, y: q.y / q.w, width: 0, height: 0))
        }
        let visible = extent.intersection(seen.insetBy(dx: -1, dy: -1))
        guard !visible.isNull, visible.width > 0, visible.height > 0 else { return nil }
        func down(_ v: Double, _ origin: Double) -> Double { origin + ((v - origin) * s).rounded(.down) / s }
        func up(_ v: Double, _ origin: Double) -> Double { origin + ((v - origin) * s).rounded(.up) / s }
        let minX = down(visible.minX, extent.minX), minY = down(visible.minY, extent.minY)
        let maxX = min(up(visible.maxX, extent.minX), extent.maxX), maxY = min(up(visible.maxY, extent.minY), extent.maxY)
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// What a rasterized layer's pass is drawn from (see `BuildState.rasterizedPasses`).
    struct RasterizedPassKey: Hashable {
        let layer: ObjectIdentifier
        let extent: [Double]
        let pixelsPerPoint: Double
        let masksInUse: Set<ObjectIdentifier>
    }

    /// The part of a layer's bounds space its subtree draws in: the bounds, and unless it clips
    /// them, its descendants' bounds there (their shadows are not counted).
    package static func rasterExtent(of layer: CALayer) -> CGRect {
        var extent = layer.bounds
        guard !layer.masksToBounds else { return extent }
        var pending = layer.sublayers ?? []
        while let next = pending.popLast() {
            let r = layer.convert(next.bounds, from: next)
            if r.origin.x.isFinite, r.origin.y.isFinite, r.width.isFinite, r.height.isFinite, !next.isHidden {
                extent = extent.union(r)
            }
            if !next.masksToBounds { pending.append(contentsOf: next.sublayers ?? []) }
        }
        return extent
    }
}
