import Foundation
import LayerModel
import OpenCoreGraphics

// Contents: the image placed by contentsGravity (or the drawn rectangle) and contentsRect,
// sampled through the projective map of the layer's plane; a contents change in progress
// samples a pass that mixes the old and new images.

extension RenderListBuilder {
    func emitContents(_ image: CGImage, of layer: CALayer, map: ProjectiveTransform2D,
                      clip: [DevicePoint], opacity: Double, tint: PremultipliedColor,
                      rounded: RoundedShape? = nil, parentClip: [DevicePoint]? = nil, state: inout BuildState) throws {
        let cr = layer.contentsRect
        guard cr.width > 0, cr.height > 0 else { return }
        var contentsScale = layer.contentsScale
        if !(contentsScale.isFinite && contentsScale > 0) {
            state.diagnostics.append("\(layer): contentsScale \(contentsScale) is not a positive number; 1 is used")
            contentsScale = 1
        }
        let frame = contentsFrame(of: layer, image: image, contentsScale: contentsScale)
        guard frame.width > 0, frame.height > 0, let deviceToLocal = map.inverted() else { return }
        // Local point -> normalized texture coordinate: the frame maps onto contentsRect.
        let localToTexture = ProjectiveTransform2D(
            m11: cr.width / frame.width, m12: 0, m13: 0,
            m21: 0, m22: cr.height / frame.height, m23: 0,
            m31: cr.minX - frame.minX * cr.width / frame.width,
            m32: cr.minY - frame.minY * cr.height / frame.height, m33: 1)
        state.textures[image.identifier] = image.bitmap
        var source = TextureSource.image(image.identifier)
        if let fade = layer.contentsCrossFade, fade.fraction < 1 {
            source = .pass(try crossFadePass(from: fade.from, to: image, fraction: fade.fraction, layer: layer, state: &state))
        }
        let fill = TextureFill(source: source, deviceToTexture: deviceToLocal.concatenating(localToTexture),
                               filter: .linear)
        emit(rect: Rect(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height), map: map, clip: clip,
             part: "contents", layer: layer, fill: .texture(fill), opacity: opacity, tint: tint,
             rounded: rounded, clipOnly: parentClip, state: &state)
    }

    /// Where the layer's contents image lies in its bounds space: the drawn rectangle, or placed
    /// by contentsGravity.
    func contentsFrame(of layer: CALayer, image: CGImage, contentsScale: CGFloat) -> CGRect {
        let cr = layer.contentsRect
        let contentSize = CGSize(width: CGFloat(image.width) * cr.width / contentsScale,
                                 height: CGFloat(image.height) * cr.height / contentsScale)
        return layer.drawnContentsFrame
            ?? ContentsGeometry.frame(bounds: layer.bounds, contentSize: contentSize, gravity: layer.contentsGravity)
    }

    /// The two images of a contents cross-fade added in a pass the size of the end image, which the
    /// contents then sample instead of the image: `from` x (1 - fraction) + `to` x fraction.
    func crossFadePass(from: CGImage, to: CGImage, fraction: Double, layer: CALayer, state: inout BuildState) throws -> Int {
        let side = RenderListBuilder.maxPassSide
        let width = min(to.width, side), height = min(to.height, side)
        state.textures[from.identifier] = from.bitmap
        return try addPass(mixOps([(.image(from.identifier), 1 - fraction), (.image(to.identifier), fraction)],
                                  width: width, height: height, source: "\(layer) contents cross-fade"),
                           width: width, height: height, state: &state)
    }
}
