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
        let extent = RenderListBuilder.rasterExtent(of: layer)
        guard extent.width > 0, extent.height > 0, let deviceToLocal = map.inverted() else { return }
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

    /// What a rasterized layer's pass is drawn from (see `BuildState.rasterizedPasses`).
    struct RasterizedPassKey: Hashable {
        let layer: ObjectIdentifier
        let extent: [Double]
        let pixelsPerPoint: Double
        let masksInUse: Set<ObjectIdentifier>
    }

    /// The part of a layer's bounds space its subtree draws in: the bounds, and unless it clips
    /// them, its descendants' bounds there (their shadows are not counted).
    static func rasterExtent(of layer: CALayer) -> CGRect {
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
