import Foundation
import LayerModel
import OpenCoreGraphics

// Shadows drawn offscreen: the shape (shadowPath, or the layer's composited alpha) blurred
// along x then y (on halved copies past sigma 8), tinted and shifted by shadowOffset under the
// layer; one blurred pass per layer and placement a frame. Plain shapes take the closed form.

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
    /// (on a downsampled copy for large radii), then drawn in the shadow colour, shifted by
    /// shadowOffset (in the superlayer's space).
    func drawShadow(_ visit: Visit, map: ProjectiveTransform2D, opacity: Double, state: inout BuildState) throws {
        let layer = visit.layer
        // The offset is in the superlayer's space: its device displacement is taken at the
        // layer's position.
        let parent = visit.parentPlaneToDevice.planeTransform
        let anchor = layer.position, offset = layer.shadowOffset
        let from = parent.apply(anchor), to = parent.apply(CGPoint(x: anchor.x + offset.width, y: anchor.y + offset.height))
        let dx = to.x - from.x, dy = to.y - from.y
        guard dx.isFinite, dy.isFinite, let color = layer.shadowColor?.premultiplied else { return }
        let strength = min(max(Double(layer.shadowOpacity), 0), 1)
        let shadowTint = visit.tint.multiplied(by: PremultipliedColor(red: color.red * strength, green: color.green * strength,
                                                                       blue: color.blue * strength, alpha: color.alpha * strength))
        if drawClosedFormShadow(visit, map: map, offset: (dx, dy), tint: shadowTint, opacity: opacity, state: &state) { return }
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
        var sigma = max(Double(layer.shadowRadius) * Double(scale), 0)
        if !sigma.isFinite {
            state.diagnostics.append("\(layer): shadowRadius \(layer.shadowRadius) is not finite; the shadow is drawn unblurred")
            sigma = 0
        }
        if sigma > RenderListBuilder.maxShadowSigma {
            state.diagnostics.append("\(layer): shadowRadius \(layer.shadowRadius) is blurred as "
                + "\(RenderListBuilder.maxShadowSigma / Double(scale)) points, the largest blur drawn")
            sigma = RenderListBuilder.maxShadowSigma
        }
        var halvings = 0
        while sigma / Double(1 << halvings) > RenderListBuilder.maxFullResolutionSigma { halvings += 1 }
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
