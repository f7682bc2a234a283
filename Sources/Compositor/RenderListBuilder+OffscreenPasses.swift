import Foundation
import LayerModel
import OpenCoreGraphics

// Offscreen passes: a subtree drawn into a target of its own, as large as what it covers,
// then composited back. Every pass is made through addPass, which holds the frame's budget
// (RenderLimits.maxPasses, maxPassPixels).

extension RenderListBuilder {
    /// Largest side of an offscreen pass; larger layers are drawn into it at a reduced scale.
    /// `ImageLimits` lowers it (a server's lower image limits bound passes too). Default: 8192.
    static var maxPassSide: Int { min(8192, ImageLimits.maxDimension, Int(Double(ImageLimits.maxPixelCount).squareRoot())) }

    /// Draws `root`'s subtree (the root's own placement, opacity, shadow, mask and transition left
    /// out) into a new offscreen pass that maps `rect` of the root's bounds space onto its pixels at
    /// `pixelsPerPoint` (the frame's scale by default; less where the pass would pass
    /// `maxPassSide`). Returns the pass's id.
    func drawIntoPass(_ root: CALayer, rect: CGRect? = nil, pixelsPerPoint: Double? = nil, depth: Int,
                      cached: Bool = false, state: inout BuildState) throws -> Int {
        let b = rect ?? root.bounds
        let s = pixelsPerPoint ?? Double(scale)
        let side = RenderListBuilder.maxPassSide
        let width = Int(clampingPixels: b.width * s - 1e-6, .up, to: 1...side)
        let height = Int(clampingPixels: b.height * s - 1e-6, .up, to: 1...side)
        let map = CATransform3DConcat(CATransform3DMakeTranslation(-b.minX, -b.minY, 0),
                                      CATransform3DMakeScale(Double(width) / b.width, Double(height) / b.height, 1))
        let saved = (state.ops, state.width, state.height)
        state.ops = []
        state.width = width
        state.height = height
        try walk(from: Visit(layer: root, parentPlaneToDevice: CATransform3DIdentity, opacity: 1,
                             clip: RenderListBuilder.guardBand(width, height), depth: depth + 1, passMap: map),
                 state: &state)
        let ops = state.ops
        (state.ops, state.width, state.height) = saved
        let id = try addPass(ops, width: width, height: height, state: &state)
        if cached, let index = state.passes.indices.last {
            state.passes[index].cacheKey = contentKey(of: id, state: &state)
        }
        return id
    }

    /// A key for what a pass draws: its size and ops, with every pass it reads replaced by that
    /// pass's own key (pass ids change from frame to frame; contents do not), memoized per build.
    func contentKey(of passID: Int, state: inout BuildState) -> Int {
        if let known = state.passKeys[passID] { return known }
        guard let pass = state.passes.last(where: { $0.id == passID }) else { return 0 }
        var hasher = Hasher()
        hasher.combine(pass.width)
        hasher.combine(pass.height)
        for op in pass.ops {
            switch op {
            case .quad(var quad):
                quad.source = "" // names layers, whose presentation copies differ frame to frame
                if case .texture(var fill) = quad.fill, case .pass(let source) = fill.source {
                    fill.source = .pass(contentKey(of: source, state: &state))
                    quad.fill = .texture(fill)
                }
                hasher.combine(DrawOp.quad(quad))
            case .blur(var blur):
                blur.source = contentKey(of: blur.source, state: &state)
                hasher.combine(DrawOp.blur(blur))
            case .halve(var halve):
                halve.source = contentKey(of: halve.source, state: &state)
                hasher.combine(DrawOp.halve(halve))
            case .path(var path):
                path.source = ""
                hasher.combine(DrawOp.path(path))
            }
        }
        let key = hasher.finalize()
        state.passKeys[passID] = key
        return key
    }

    /// Full-target quads adding weighted textures, each stretched over the target.
    func mixOps(_ layers: [(TextureSource, Double)], width: Int, height: Int, source: DrawSource) -> [DrawOp] {
        fullTargetOps(layers, width: width, height: height, filter: .linear, blend: .plus, source: source)
    }

    /// Quads covering the whole target, each a texture stretched over it with a weight (opacity).
    func fullTargetOps(_ layers: [(TextureSource, Double)], width: Int, height: Int, filter: SamplingFilter,
                       blend: BlendMode, source: DrawSource,
                       over area: PixelRect? = nil) -> [DrawOp] {
        // Textures are stretched over `area` of the target (default: all of it).
        let r = area ?? PixelRect(minX: 0, minY: 0, maxX: width, maxY: height)
        let rect = Rect(x: Double(r.minX), y: Double(r.minY), width: Double(r.width), height: Double(r.height))
        let corners = PolygonClipping.rectangle(minX: rect.x, minY: rect.y, maxX: rect.x + rect.width, maxY: rect.y + rect.height)
        let toUV = ProjectiveTransform2D.unitSquare(from: rect)
        return layers.compactMap { texture, weight in
            guard weight > 0 || blend == .destinationIn,
                  let polygon = CoveragePolygon(vertices: corners, targetWidth: width, targetHeight: height) else { return nil }
            return .quad(QuadOp(source: source, localRect: rect,
                                localToDevice: .identity, polygon: polygon,
                                fill: .texture(TextureFill(source: texture, deviceToTexture: toUV, filter: filter)),
                                opacity: weight, blend: blend))
        }
    }

    /// What `body` draws into the current target, taken out of it.
    func collectOps(_ state: inout BuildState, _ body: (inout BuildState) throws -> Void) rethrows -> [DrawOp] {
        let saved = state.ops
        state.ops = []
        defer { state.ops = saved }
        try body(&state)
        return state.ops
    }

    /// Ops drawn in the current target's device space moved into a pass covering `region` of it.
    func moved(_ ops: [DrawOp], into region: PixelRect) -> [DrawOp] {
        ops.compactMap { $0.translated(dx: -region.minX, dy: -region.minY, targetWidth: region.width, targetHeight: region.height) }
    }

    /// Appends a pass and returns its id. Every offscreen pass is made here, so the frame's budget
    /// (`RenderLimits.maxPasses`, `maxPassPixels`) is checked as the list is built, before any
    /// pixel of it is allocated or drawn.
    func addPass(_ ops: [DrawOp], width: Int, height: Int, state: inout BuildState) throws -> Int {
        guard state.passes.count < limits.maxPasses else { throw CompositorError.tooManyPasses(limit: limits.maxPasses) }
        state.passPixels += width * height
        guard state.passPixels <= limits.maxPassPixels else { throw CompositorError.tooManyPassPixels(limit: limits.maxPassPixels) }
        let id = state.nextPassID
        state.nextPassID += 1
        state.passes.append(RenderPass(id: id, width: width, height: height, ops: ops))
        return id
    }

    /// A pass that holds `region` of the target's device space (at any resolution) drawn back
    /// over that region, moved by `shift` device pixels.
    func composite(pass: Int, at region: PixelRect, shiftedBy shift: (Double, Double), filter: SamplingFilter,
                   alphaOnly: Bool = false, clip: [DevicePoint], part: String, layer: CALayer, opacity: Double,
                   tint: PremultipliedColor, rounded: RoundedShape? = nil, blend: BlendMode = .sourceOver, state: inout BuildState) {
        let rect = Rect(x: Double(region.minX) + shift.0, y: Double(region.minY) + shift.1,
                        width: Double(region.width), height: Double(region.height))
        let toTexture = ProjectiveTransform2D.unitSquare(from: rect)
        emit(rect: rect, map: .identity, clip: clip, part: part, layer: layer,
             fill: .texture(TextureFill(source: .pass(pass), deviceToTexture: toTexture, filter: filter, alphaOnly: alphaOnly)),
             opacity: opacity, blend: blend, tint: tint, rounded: rounded, clipOnly: rounded == nil ? nil : clip, state: &state)
    }
}
