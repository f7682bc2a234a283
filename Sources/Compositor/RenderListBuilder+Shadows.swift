import Foundation
import LayerModel
import OpenCoreGraphics

// Shadows drawn offscreen: the shape (shadowPath, or the layer's composited alpha) blurred
// along x then y (on halved copies past sigma 8), tinted and shifted by shadowOffset under the
// layer; one blurred pass per layer and placement a frame. Plain shapes take the closed form,
// shadows seen through more than a similarity the layer's plane (+ShadowsInPlane).

extension RenderListBuilder {
    /// Largest Gaussian sigma, in pixels, blurred at full resolution; larger ones are blurred on a
    /// copy halved in size as often as it takes (Skia and Chromium do the same), which keeps the
    /// cost of a shadow nearly flat in its radius.
    static let maxFullResolutionSigma = 8.0

    /// Corner radii below this share of the shadow's sigma are drawn as square in closed form.
    static let negligibleCornerPerSigma = 0.165

    /// Largest shadow sigma in device pixels: a shadow this soft is already a faint haze, and
    /// larger ones would need passes far larger than the frame.
    static let maxShadowSigma = 256.0

    /// The layer's shadow: its shape (shadowPath, rasterized on the CPU, or the layer's own
    /// composited alpha, drawn offscreen) blurred along x then y with the shared Gaussian kernel
    /// (on a downsampled copy for large radii), then drawn in the shadow colour. shadowOffset and
    /// shadowRadius are lengths of the layer's own plane (`ShadowGeometry`): seen through a
    /// similarity the shape is drawn and blurred in device space (the offset and sigma mapped
    /// there exactly); through any other map it is drawn and blurred in the layer's plane and the
    /// result mapped like contents (`drawShadowInPlane`).
    func drawShadow(_ visit: Visit, map: ProjectiveTransform2D, opacity: Double, state: inout BuildState) throws {
        let layer = visit.layer
        let offset = layer.shadowOffset
        guard offset.width.isFinite, offset.height.isFinite, let color = layer.shadowColor?.premultiplied else { return }
        let strength = min(max(Double(layer.shadowOpacity), 0), 1)
        let shadowTint = visit.tint.multiplied(by: PremultipliedColor(red: color.red * strength, green: color.green * strength,
                                                                       blue: color.blue * strength, alpha: color.alpha * strength))
        var radius = Double(layer.shadowRadius)
        if !radius.isFinite {
            state.diagnostics.append("\(layer): shadowRadius \(layer.shadowRadius) is not finite; the shadow is drawn unblurred")
            radius = 0
        }
        radius = max(radius, 0)
        let geometry = ShadowGeometry(map: map)
        guard let pixelsPerPoint = geometry.similarityScale else {
            try drawShadowInPlane(visit, geometry: geometry, offset: offset, radius: radius, tint: shadowTint, opacity: opacity, state: &state)
            return
        }
        if drawClosedFormShadow(visit, map: map, offset: offset, radius: radius, pixelsPerPoint: pixelsPerPoint, tint: shadowTint,
                                opacity: opacity, state: &state) { return }
        let (dx, dy) = geometry.deviceOffset(offset)
        guard dx.isFinite, dy.isFinite else { return }
        // The shape below is cut to the target (and a 2-pixel band): moved further than the
        // target's size and the widest blur, none of it lands (and 1e30 pixels is not an Int).
        let farthest = Double(max(state.width, state.height)) + 3 * RenderListBuilder.maxShadowSigma + 8
        guard abs(dx) < farthest, abs(dy) < farthest else { return }
        // The blurred shape depends on the layer, its placement in the target, the target's size
        // and the masks in use on the way down; its opacity, tint and clip apply when composited.
        let key = visit.maskRounding == nil && !visit.maskApplied
            ? ShadowShapeKey(layer: ObjectIdentifier(layer), placement: visit.parentPlaneToDevice,
                             width: state.width, height: state.height, masksInUse: state.masksInUse)
            : nil
        if let key, let known = state.shadowPasses[key] {
            if let (pass, region) = known {
                composite(pass: pass, at: region, shiftedBy: (dx, dy), filter: .linear, alphaOnly: true, clip: visit.clip,
                          part: "shadow", layer: layer, opacity: opacity, tint: shadowTint, state: &state)
            }
            return
        }
        if let key { state.shadowPasses[key] = .some(nil) }

        // 1. The shape, in the target's device space.
        let shape = try collectOps(&state) { state in
            if let path = layer.shadowPath, !path.isEmpty {
                emitShadowPath(path, of: layer, map: map, state: &state)
            } else {
                var inner = visit
                inner.isolation = .group
                inner.opacity = 1
                inner.tint = .opaqueWhite
                inner.clip = RenderListBuilder.guardBand(state.width, state.height)
                // The shadow is cast by the layer's own shape, edges where they are.
                inner.outline = nil
                try walk(from: inner, state: &state)
            }
        }
        // 2. The blur: its sigma in device pixels and how often the shape is halved first.
        let sigma = boundedShadowSigma(radius * pixelsPerPoint, of: layer, state: &state)
        let halvings = RenderListBuilder.shadowHalvings(sigma)
        let factor = 1 << halvings
        // The pass holds what the shape covers, grown by the blur's reach, and only what can land
        // on the target once shifted; its sides are whole multiples of the halving factor.
        let reach = Int((3 * sigma).rounded(.up)) + 2 * factor
        let landing = PixelRect(minX: Int((-dx).rounded(.down)), minY: Int((-dy).rounded(.down)),
                                maxX: state.width + Int((-dx).rounded(.up)), maxY: state.height + Int((-dy).rounded(.up)))
        guard let covered = PixelRect.covering(shape),
              var region = covered.outset(by: reach).intersection(landing.outset(by: reach)) else { return }
        region.maxX = region.minX + (region.width + factor - 1) / factor * factor
        region.maxY = region.minY + (region.height + factor - 1) / factor * factor
        // At full resolution only the shape itself (on the halving grid) is drawn; the margin the
        // blur spreads into exists only in the halved passes.
        var shapeRegion = region
        if halvings > 0, let inside = covered.intersection(region) {
            func down(_ v: Int, _ origin: Int) -> Int { origin + (v - origin) / factor * factor }
            func up(_ v: Int, _ origin: Int) -> Int { origin + (v - origin + factor - 1) / factor * factor }
            shapeRegion = PixelRect(minX: down(inside.minX, region.minX), minY: down(inside.minY, region.minY),
                                    maxX: up(inside.maxX, region.minX), maxY: up(inside.maxY, region.minY))
        }
        var current = try addPass(moved(shape, into: shapeRegion), width: shapeRegion.width, height: shapeRegion.height, state: &state)
        var width = region.width, height = region.height
        for level in 0..<halvings {
            width /= 2
            height /= 2
            // The first halving puts the shape where it lies in the region; later ones halve all.
            let origin = level > 0 ? (0, 0) : ((shapeRegion.minX - region.minX) / 2, (shapeRegion.minY - region.minY) / 2)
            current = try addPass([.halve(HalveOp(source: current, originX: origin.0, originY: origin.1))],
                              width: width, height: height, state: &state)
        }
        // 3. One axis per pass, at the reduced size.
        let reducedSigma = sigma / Double(factor)
        let weights = GaussianBlur.weights(sigma: reducedSigma)
        if weights.count > 1 {
            for horizontal in [true, false] {
                current = try addPass([.blur(BlurOp(source: current, horizontal: horizontal, weights: weights))],
                                  width: width, height: height, state: &state)
            }
        }
        if let key { state.shadowPasses[key] = (current, region) }
        // 4. The blurred alpha in the shadow colour, shifted, scaled back up by the sampling.
        composite(pass: current, at: region, shiftedBy: (dx, dy), filter: .linear, alphaOnly: true, clip: visit.clip,
                  part: "shadow", layer: layer, opacity: opacity, tint: shadowTint, state: &state)
    }

    /// A shadow's Gaussian sigma in device pixels, at most `maxShadowSigma` (said when cut).
    func boundedShadowSigma(_ sigma: Double, of layer: CALayer, state: inout BuildState) -> Double {
        guard sigma > RenderListBuilder.maxShadowSigma else { return sigma }
        // Said as a number, not converted to an Int: a hostile radius (1e300) is past Int's range.
        state.diagnostics.append("\(layer): shadowRadius \(layer.shadowRadius) spans \(String(format: "%.0f", sigma)) pixels here and is blurred "
            + "as \(String(format: "%.0f", RenderListBuilder.maxShadowSigma)), the largest blur drawn")
        return RenderListBuilder.maxShadowSigma
    }

    /// How often a shape is halved before a blur of `sigma` pixels (each halving halves it).
    static func shadowHalvings(_ sigma: Double) -> Int {
        var halvings = 0
        while sigma / Double(1 << halvings) > maxFullResolutionSigma { halvings += 1 }
        return halvings
    }

    /// What an offscreen shadow's blurred shape is drawn from (see `BuildState.shadowPasses`).
    struct ShadowShapeKey: Hashable {
        let layer: ObjectIdentifier
        let placement: CATransform3D
        let width: Int, height: Int
        let masksInUse: Set<ObjectIdentifier>
    }

    /// A shadowPath rasterized on the CPU (exact-area coverage) at the frame's scale and drawn
    /// as a texture in the layer's plane, into the current (shape) pass.
    func emitShadowPath(_ path: CGPath, of layer: CALayer, map: ProjectiveTransform2D, state: inout BuildState) {
        let box = path.boundingBoxOfPath.insetBy(dx: -1, dy: -1)
        let s = Double(scale)
        guard box.minX.isFinite, box.minY.isFinite, box.width.isFinite, box.height.isFinite,
              box.width * s < Double(Int32.max), box.height * s < Double(Int32.max) else {
            state.diagnostics.append("\(layer): its shadowPath has non-finite or huge coordinates; no shadow is drawn")
            return
        }
        let width = Int((box.width * s).rounded(.up)), height = Int((box.height * s).rounded(.up))
        if let violation = ImageLimits.violation(width: width, height: height) {
            state.diagnostics.append("\(layer): its shadowPath is too large to draw (\(violation)); no shadow is drawn")
            return
        }
        guard let ctx = CGContext(width: width, height: height), let deviceToLocal = map.inverted() else { return }
        ctx.translateBy(x: 0, y: CGFloat(height))
        ctx.scaleBy(x: s, y: -s)
        ctx.translateBy(x: -box.minX, y: -box.minY)
        ctx.addPath(path)
        ctx.fillPath()
        guard let image = ctx.makeImage() else { return }
        state.textures[image.identifier] = image.bitmap
        let rect = Rect(x: box.minX, y: box.minY, width: Double(width) / s, height: Double(height) / s)
        let localToTexture = ProjectiveTransform2D.unitSquare(from: rect)
        emit(rect: rect, map: map, clip: RenderListBuilder.guardBand(state.width, state.height), part: "shadow path", layer: layer,
             fill: .texture(TextureFill(source: .image(image.identifier), deviceToTexture: deviceToLocal.concatenating(localToTexture),
                                        filter: .linear)),
             opacity: 1, state: &state)
    }
}
