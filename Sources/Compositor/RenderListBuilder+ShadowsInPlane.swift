import Foundation
import LayerModel
import OpenCoreGraphics

// A shadow seen through more than a similarity (a non-uniform scale, a skew, perspective): the
// shadow lives in the layer's plane (`ShadowGeometry`), where its blur is round and its offset a
// plain shift, but on screen the blur is stretched, sheared or foreshortened with the layer. So
// the shape is drawn into a pass in the layer's own plane (as a rasterized layer draws itself),
// blurred there with shadowRadius, and that pass is mapped onto the screen like contents,
// shifted by shadowOffset in the plane.

extension RenderListBuilder {
    /// The shadow of `visit`'s layer drawn and blurred in its own plane, then mapped by `geometry`.
    func drawShadowInPlane(_ visit: Visit, geometry: ShadowGeometry, offset: CGSize, radius: Double, tint: PremultipliedColor,
                           opacity: Double, state: inout BuildState) throws {
        let layer = visit.layer
        let map = geometry.map
        guard let deviceToLocal = map.inverted() else { return }
        let path = layer.shadowPath.flatMap { $0.isEmpty ? nil : $0 }
        let shape = path.map { $0.boundingBoxOfPath } ?? RenderListBuilder.rasterExtent(of: layer)
        guard shape.minX.isFinite, shape.minY.isFinite, shape.width.isFinite, shape.height.isFinite,
              shape.width > 0, shape.height > 0 else { return }
        // The blur reaches 3 sigma past the shape (in points of the plane).
        let reach = 3 * radius
        let cast = shape.insetBy(dx: -reach, dy: -reach).offsetBy(dx: offset.width, dy: offset.height)
        // Pixels per point: the most the map stretches the plane where the shadow lies (so the
        // pass is never coarser than the screen), at most what rasterized layers get.
        guard var pixelsPerPoint = geometry.largestStretch(over: cast), pixelsPerPoint > 0 else { return }
        pixelsPerPoint = min(pixelsPerPoint, RenderListBuilder.maxRasterizationFactor * Double(scale))
        // What of the cast shadow the clip can show, and the part of the shape that lands there
        // (the shape within the blur's reach of it).
        guard let seen = Self.visiblePart(of: cast, clip: visit.clip, deviceToLocal: deviceToLocal, pixelsPerPoint: pixelsPerPoint) else {
            return
        }
        var rect = seen.offsetBy(dx: -offset.width, dy: -offset.height).insetBy(dx: -reach, dy: -reach)
            .intersection(shape.insetBy(dx: -reach, dy: -reach))
        guard !rect.isNull, rect.width > 0, rect.height > 0 else { return }
        // A pass no wider than passes may be, and halvings that keep its sides whole.
        let side = Double(RenderListBuilder.maxPassSide - 16)
        pixelsPerPoint = min(pixelsPerPoint, side / rect.width, side / rect.height)
        let sigma = boundedShadowSigma(radius * pixelsPerPoint, of: layer, state: &state)
        let halvings = RenderListBuilder.shadowHalvings(sigma)
        let factor = Double(1 << halvings)
        let width = max((rect.width * pixelsPerPoint / factor).rounded(.up), 1) * factor
        let height = max((rect.height * pixelsPerPoint / factor).rounded(.up), 1) * factor
        rect.size = CGSize(width: width / pixelsPerPoint, height: height / pixelsPerPoint)

        // 1. The shape in the plane.
        var current: Int
        if let path {
            let localToPass = ProjectiveTransform2D.translation(-rect.minX, -rect.minY)
                .concatenating(ProjectiveTransform2D(m11: pixelsPerPoint, m12: 0, m13: 0, m21: 0, m22: pixelsPerPoint, m23: 0,
                                                     m31: 0, m32: 0, m33: 1))
            let saved = (state.width, state.height)
            (state.width, state.height) = (Int(width), Int(height))
            let ops = collectOps(&state) { state in emitShadowPath(path, of: layer, map: localToPass, state: &state) }
            (state.width, state.height) = saved
            current = try addPass(ops, width: Int(width), height: Int(height), state: &state)
        } else {
            current = try drawIntoPass(layer, rect: rect, pixelsPerPoint: pixelsPerPoint, depth: visit.depth, state: &state)
        }
        // 2. Halved, then blurred one axis at a time at the reduced size.
        var (w, h) = (Int(width), Int(height))
        for _ in 0..<halvings {
            w /= 2
            h /= 2
            current = try addPass([.halve(HalveOp(source: current))], width: w, height: h, state: &state)
        }
        let weights = GaussianBlur.weights(sigma: sigma / factor)
        if weights.count > 1 {
            for horizontal in [true, false] {
                current = try addPass([.blur(BlurOp(source: current, horizontal: horizontal, weights: weights))],
                                      width: w, height: h, state: &state)
            }
        }
        // 3. The blurred alpha in the shadow colour, shifted in the plane, mapped like contents.
        let shifted = rect.offsetBy(dx: offset.width, dy: offset.height)
        let placed = Rect(x: shifted.minX, y: shifted.minY, width: shifted.width, height: shifted.height)
        emit(rect: placed, map: map, clip: visit.clip, part: "shadow", layer: layer,
             fill: .texture(TextureFill(source: .pass(current),
                                        deviceToTexture: deviceToLocal.concatenating(ProjectiveTransform2D.unitSquare(from: placed)),
                                        filter: .linear, alphaOnly: true)),
             opacity: opacity, tint: tint, state: &state)
    }
}
