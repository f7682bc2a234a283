import Foundation
import LayerModel
import OpenCoreGraphics

// Contents: the image placed by contentsGravity (or the drawn rectangle) and contentsRect,
// sampled through the projective map of the layer's plane; a contents change in progress
// samples a pass that mixes the old and new images.

extension RenderListBuilder {
    func emitContents(_ image: CGImage, of layer: CALayer, map: ProjectiveTransform2D,
                      clip: [DevicePoint], opacity: Double, tint: PremultipliedColor,
                      rounded: RoundedShape? = nil, parentClip: [DevicePoint]? = nil, outline: EnclosingOutline? = nil,
                      state: inout BuildState) throws {
        let cr = layer.contentsRect
        guard cr.width > 0, cr.height > 0 else { return }
        var contentsScale = layer.contentsScale
        if !(contentsScale.isFinite && contentsScale > 0) {
            state.diagnostics.append("\(layer): contentsScale \(contentsScale) is not a positive number; 1 is used")
            contentsScale = 1
        }
        let frame = contentsFrame(of: layer, image: image, contentsScale: contentsScale)
        guard frame.width > 0, frame.height > 0, let deviceToLocal = map.inverted() else { return }
        // In a flipped geometry (an odd number of isGeometryFlipped above and at the layer) the
        // layer's space is mirrored on the screen; images stay upright, so they are mirrored
        // back within their frame (drawn content was drawn flipped for it: contentsAreFlipped).
        let upright = layer.contentsAreFlipped()
        let slices = nineSlice(of: layer, image: image, frame: frame, contentsScale: contentsScale)
        // Local point -> normalized texture coordinate: the frame maps onto contentsRect; with a
        // nine-slice map, onto the unit square the slices then map.
        let target = slices == nil ? cr : CGRect(x: 0, y: 0, width: 1, height: 1)
        let sy = (upright ? -target.height : target.height) / frame.height
        let localToTexture = ProjectiveTransform2D(
            m11: target.width / frame.width, m12: 0, m13: 0,
            m21: 0, m22: sy, m23: 0,
            m31: target.minX - frame.minX * target.width / frame.width,
            m32: (upright ? target.maxY : target.minY) - frame.minY * sy, m33: 1)
        state.textures[image.identifier] = image.bitmap
        var source = TextureSource.image(image.identifier)
        if let fade = layer.contentsCrossFade, fade.fraction < 1 {
            source = .pass(try crossFadePass(from: fade.from, to: image, fraction: fade.fraction, layer: layer, state: &state))
        }
        let filters = Self.samplingFilters(of: layer)
        let fill = TextureFill(source: source, deviceToTexture: deviceToLocal.concatenating(localToTexture),
                               filter: filters.magnification, minification: filters.minification,
                               lodBias: filters.minification == nil ? 0 : Double(layer.minificationFilterBias), slices: slices)
        emit(rect: Rect(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height), map: map, clip: clip,
             part: "contents", layer: layer, fill: .texture(fill), opacity: opacity, tint: tint,
             rounded: rounded, clipOnly: parentClip, outline: outline, state: &state)
    }

    /// The layer's filters as the render list takes them: with both at their default (linear),
    /// one filter and no level of detail to compute; a trilinear magnification filter is linear.
    static func samplingFilters(of layer: CALayer) -> (magnification: SamplingFilter, minification: SamplingFilter?) {
        samplingFilters(magnification: layer.magnificationFilter.rawValue, minification: layer.minificationFilter.rawValue)
    }

    /// The same for filters by name (an emitter cell's).
    static func samplingFilters(magnification magnificationName: String, minification minificationName: String)
        -> (magnification: SamplingFilter, minification: SamplingFilter?) {
        func filter(_ name: String) -> SamplingFilter {
            switch CALayerContentsFilter(rawValue: name) {
            case .nearest: .nearest
            case .trilinear: .trilinear
            default: .linear // and unknown names, as Core Animation treats them
            }
        }
        let magnification = filter(magnificationName) == .nearest ? SamplingFilter.nearest : .linear
        let minification = filter(minificationName)
        if magnification == .linear, minification == .linear { return (.linear, nil) }
        return (magnification, minification)
    }

    /// The nine-slice map of `contentsCenter` over a frame: the corners outside the centre keep
    /// their size in points (image pixels / contentsScale), shrunk in proportion where the two
    /// on an axis do not fit the frame; nil for the unit centre (the whole image stretches).
    /// The centre is in unit coordinates of the `contentsRect` part of the image.
    func nineSlice(of layer: CALayer, image: CGImage, frame: CGRect, contentsScale: CGFloat) -> NineSlice? {
        let center = layer.contentsCenter.standardized
        guard center != CGRect(x: 0, y: 0, width: 1, height: 1), center.minX.isFinite, center.minY.isFinite,
              center.width.isFinite, center.height.isFinite else { return nil }
        func unit(_ v: CGFloat) -> CGFloat { min(max(v, 0), 1) }
        let cr = layer.contentsRect
        func axis(lowFraction: CGFloat, highFraction: CGFloat, partStart: CGFloat, partLength: CGFloat,
                  pixels: Int, drawn: CGFloat) -> NineSlice.Axis {
            let pointsPerUnit = partLength * CGFloat(pixels) / contentsScale
            var low = lowFraction * pointsPerUnit, high = (1 - highFraction) * pointsPerUnit
            if low + high > drawn, low + high > 0 {
                let shrink = drawn / (low + high)
                low *= shrink
                high *= shrink
            }
            return NineSlice.Axis(s1: Double(low / drawn), s2: Double(1 - high / drawn),
                                  t0: Double(partStart), t1: Double(partStart + lowFraction * partLength),
                                  t2: Double(partStart + highFraction * partLength), t3: Double(partStart + partLength))
        }
        return NineSlice(
            x: axis(lowFraction: unit(center.minX), highFraction: unit(center.maxX), partStart: cr.minX, partLength: cr.width,
                    pixels: image.width, drawn: frame.width),
            y: axis(lowFraction: unit(center.minY), highFraction: unit(center.maxY), partStart: cr.minY, partLength: cr.height,
                    pixels: image.height, drawn: frame.height))
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
                                  width: width, height: height, source: DrawSource(layer, part: "contents cross-fade")),
                           width: width, height: height, state: &state)
    }
}
