import Foundation
import LayerModel
import OpenCoreGraphics

// A composition's layers ("layers" of the document or of a precomposition asset) as CALayers:
// each layer's content in a layer carrying its transform, opacity, masks, blend mode and drop
// shadow, inside layers carrying its parents' transforms, shown between its in and out frames;
// track mattes as masks of a layer holding the matted layer.

struct LottieCompositionBuilder {
    let document: LottieDocument
    let builder: LottieAnimationBuilder
    /// Layers made so far in the whole document, shared by the builders of its precompositions.
    let layersBuilt: LayerCount
    let depth: Int

    final class LayerCount {
        var value = 0
    }

    func build(_ layers: [LottieNode], size: CGSize, into container: CALayer) throws {
        var byIndex: [Int: LottieNode] = [:]
        for layer in layers { if let ind = try layer.optionalNumber("ind") { byIndex[Int(ind)] = layer } }
        // The first layer in the list is the top one: sublayers go in from the last.
        for (i, layer) in layers.enumerated().reversed() {
            if layer["td"]?.bool() == true { continue } // a matte, drawn only as the next layer's mask
            guard let node = try placed(layer, size: size, byIndex: byIndex) else { continue }
            let matteType = Int(try layer["tt"]?.number() ?? 0)
            if matteType > 0, i > 0, let matte = try placed(layers[i - 1], size: size, byIndex: byIndex, asMatte: true) {
                let holder = CALayer()
                holder.frame = CGRect(origin: .zero, size: size)
                holder.addSublayer(node)
                if matteType == 3 || matteType == 4 {
                    document.warn("\(layer.path).tt: luma mattes are drawn as alpha mattes")
                }
                if matteType == 2 || matteType == 4 {
                    // Inverted: the matte's alpha taken out of an opaque layer (Porter-Duff xor).
                    let inverted = CALayer()
                    inverted.frame = holder.bounds
                    let opaque = CALayer()
                    opaque.frame = CGRect(x: -1e5, y: -1e5, width: 2e5 + size.width, height: 2e5 + size.height)
                    opaque.backgroundColor = .black
                    matte.compositingFilter = "xor"
                    inverted.addSublayer(opaque)
                    inverted.addSublayer(matte)
                    holder.mask = inverted
                } else {
                    holder.mask = matte
                }
                container.addSublayer(holder)
            } else {
                container.addSublayer(node)
            }
        }
    }

    /// The layer with its parents' transforms around it; nil for a hidden layer.
    private func placed(_ layer: LottieNode, size: CGSize, byIndex: [Int: LottieNode], asMatte: Bool = false) throws -> CALayer? {
        if layer["hd"]?.bool() == true { return nil }
        layersBuilt.value += 1
        guard layersBuilt.value <= LottieDocument.maxLayers else {
            throw layer.fail("more than \(LottieDocument.maxLayers) layers")
        }
        var node = try content(layer, size: size)
        var parent = try layer.optionalNumber("parent").flatMap { byIndex[Int($0)] }
        var seen: Set<String> = [layer.path]
        while let p = parent {
            guard seen.insert(p.path).inserted else { throw layer.fail("its parents form a cycle") }
            let wrapper = CALayer()
            wrapper.bounds = CGRect(origin: .zero, size: size)
            try LottieTransform(p["ks"]).apply(to: wrapper, with: builder)
            wrapper.addSublayer(node)
            node = wrapper
            parent = try p.optionalNumber("parent").flatMap { byIndex[Int($0)] }
        }
        return node
    }

    /// The builder of a precomposition's layers: they run in its time, from the precomposition
    /// layer's start `st`, stretched by its `sr`. A layer's own keyframes are the composition's
    /// frames (measured against Apple's frames: retiming them by `st` too lost 25 of 475).
    private func retimed(_ layer: LottieNode) throws -> LottieAnimationBuilder {
        builder.retimed(start: try layer.optionalNumber("st") ?? 0, stretch: try layer.optionalNumber("sr") ?? 1)
    }

    /// The layer itself: its transform, opacity, visibility, masks, effects and content.
    private func content(_ layer: LottieNode, size: CGSize) throws -> CALayer {
        let node = CALayer()
        node.bounds = CGRect(origin: .zero, size: size)
        node.name = try layer.optionalString("nm")
        let builder = self.builder
        let transform = try LottieTransform(layer["ks"])
        transform.apply(to: node, with: builder)
        builder.animate(node, "opacity", transform.opacity) { NSNumber(value: min(max($0 / 100, 0), 1)) }
        // In and out frames are the composition's.
        let inFrame = try layer.optionalNumber("ip") ?? document.inFrame, outFrame = try layer.optionalNumber("op") ?? document.outFrame
        self.builder.visibility(node, from: inFrame, to: outFrame)
        if let mode = try layer.optionalNumber("bm"), let name = LottieCompositionBuilder.blendModes[Int(mode)] {
            node.compositingFilter = name
        }
        if layer["ddd"]?.bool() == true { document.warn("\(layer.path).ddd: 3D layers are drawn flat") }

        switch Int(try layer["ty"]?.number() ?? -1) {
        case 0:
            if layer["tm"] != nil, outFrame > inFrame {
                // Its layers at the remapped time, sampled a frame apart while it is shown.
                let remap = try layer.numberProperty("tm", default: 0)
                try precomposition(layer, into: node, builder: self.builder.remapped(by: remap, frames: inFrame...outFrame))
            } else {
                try precomposition(layer, into: node, builder: try retimed(layer))
            }
        case 1:
            let solid = CALayer()
            solid.frame = CGRect(x: 0, y: 0, width: try layer.optionalNumber("sw") ?? 0, height: try layer.optionalNumber("sh") ?? 0)
            solid.backgroundColor = Self.hexColor(try layer.optionalString("sc") ?? "#000000")
            node.addSublayer(solid)
        case 2: try image(layer, into: node)
        case 3: break
        case 4:
            let items = try (layer["shapes"]?.array() ?? []).compactMap(LottieShapeItem.parse)
            LottieShapeRenderer(document: document, builder: builder, path: layer.path).render(items, into: node, trim: nil)
        case 5: try LottieText.build(layer, into: node, document: document)
        default: document.warn("\(layer.path).ty: an unknown layer type is not drawn")
        }
        if let masks = layer["masksProperties"] {
            node.mask = try LottieMasks(builder: builder, document: document).mask(try masks.array(), size: size)
        }
        for effect in try layer["ef"]?.array() ?? [] {
            try LottieEffects.apply(effect, to: node, builder: builder, document: document)
        }
        return node
    }

    private func precomposition(_ layer: LottieNode, into node: CALayer, builder: LottieAnimationBuilder) throws {
        guard let id = try layer.optionalString("refId"), let asset = document.assets[id], let layers = asset["layers"] else {
            document.warn("\(layer.path).refId: no such precomposition")
            return
        }
        guard depth < LottieDocument.maxPrecompDepth else { throw layer.fail("precompositions nest deeper than \(LottieDocument.maxPrecompDepth)") }
        let size = CGSize(width: try layer.optionalNumber("w") ?? asset.optionalNumber("w") ?? 0,
                          height: try layer.optionalNumber("h") ?? asset.optionalNumber("h") ?? 0)
        let holder = CALayer()
        holder.frame = CGRect(origin: .zero, size: size)
        holder.masksToBounds = true
        // Its layers count frames from the precomposition layer's start, stretched with it.
        try LottieCompositionBuilder(document: document, builder: builder, layersBuilt: layersBuilt, depth: depth + 1)
            .build(try layers.array(), size: size, into: holder)
        node.addSublayer(holder)
    }

    private func image(_ layer: LottieNode, into node: CALayer) throws {
        guard let id = try layer.optionalString("refId"), let asset = document.assets[id] else {
            document.warn("\(layer.path).refId: no such image")
            return
        }
        let name = try asset.optionalString("p") ?? ""
        var image: CGImage?
        if name.hasPrefix("data:"), let comma = name.firstIndex(of: ",") {
            if let data = Data(base64Encoded: String(name[name.index(after: comma)...]), options: .ignoreUnknownCharacters) {
                image = (try? ImageDecoder.decode(data, source: asset.path))?.first?.image
            }
        } else if let data = document.images.data(folder: try asset.optionalString("u") ?? "", file: name, maxBytes: LottieDocument.maxBytes) {
            image = (try? ImageDecoder.decode(data, source: asset.path))?.first?.image
        }
        guard let image else {
            document.warn("\(asset.path).p: the image could not be read")
            return
        }
        let picture = CALayer()
        picture.frame = CGRect(x: 0, y: 0, width: try asset.optionalNumber("w") ?? Double(image.width),
                               height: try asset.optionalNumber("h") ?? Double(image.height))
        picture.contents = image
        picture.contentsGravity = .resize
        node.addSublayer(picture)
    }

    static func hexColor(_ hex: String) -> CGColor {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard digits.count >= 6, let v = UInt32(digits.prefix(6), radix: 16) else { return .black }
        return deviceColor(Double(v >> 16 & 255) / 255, Double(v >> 8 & 255) / 255, Double(v & 255) / 255, 1)
    }

    /// Lottie's blend modes ("bm") as compositingFilter names.
    static let blendModes: [Int: String] = [
        1: "multiplyBlendMode", 2: "screenBlendMode", 3: "overlayBlendMode", 4: "darkenBlendMode", 5: "lightenBlendMode",
        6: "colorDodgeBlendMode", 7: "colorBurnBlendMode", 8: "hardLightBlendMode", 9: "softLightBlendMode",
        10: "differenceBlendMode", 11: "exclusionBlendMode", 12: "hueBlendMode", 13: "saturationBlendMode",
        14: "colorBlendMode", 15: "luminosityBlendMode",
    ]
}
