import Foundation
import LayerModel
import OpenCoreGraphics

/// Turns a layer tree (as it looks at one time) into a `RenderList`: the preroll of a frame.
///
/// 1. Every layer's plane gets one map into device pixels: its transform to the superlayer, the
///    superlayer's plane flattened (z dropped, as an ordinary layer flattens its subtree), and so on
///    up to the viewport. Because of the flattening the map of a plane is a 3x3 homography.
/// 2. Each rectangle drawn is projected through that map and clipped in homogeneous space
///    (w > 0) before the divide, so nothing behind the eye is drawn or mirrored; a plane seen
///    edge-on projects to no area and draws nothing; back faces are culled where asked.
/// 3. Clips (masksToBounds) are convex polygons in device space, intersected with each draw.
///
/// Layers with non-finite geometry are left out with their subtree, and said so in `diagnostics`.
public struct RenderListBuilder {
    /// The rectangle of the root layer's superlayer space that becomes the image.
    public var viewport: CGRect
    /// Device pixels per point.
    public var scale: CGFloat

    /// How deep, how many layers: past these the frame is refused with an error naming the limit.
    /// Default: `RenderLimits.current`.
    public var limits = RenderLimits.current

    /// Trees deeper than this are refused rather than recursed into (`RenderLimits.current`).
    public static var maxDepth: Int { RenderLimits.current.maxDepth }

    public init(viewport: CGRect, scale: CGFloat = 1) {
        self.viewport = viewport
        self.scale = scale
    }

    /// The output size in pixels for a viewport and scale, or the reason there is none.
    public static func pixelSize(viewport: CGRect, scale: CGFloat) throws -> (width: Int, height: Int) {
        guard scale.isFinite, scale > 0 else { throw CompositorError.invalidViewport("scale \(scale) is not a positive number") }
        guard viewport.origin.x.isFinite, viewport.origin.y.isFinite, viewport.width.isFinite, viewport.height.isFinite else {
            throw CompositorError.invalidViewport("bounds \(viewport) are not finite")
        }
        let w = viewport.width * scale, h = viewport.height * scale
        guard w < Double(Int32.max), h < Double(Int32.max) else {
            throw CompositorError.invalidViewport("\(w)x\(h) pixels is too large")
        }
        // Round up, forgiving the last bits of floating-point error (100.00000001 is 100).
        let width = Int((w - 1e-6).rounded(.up)), height = Int((h - 1e-6).rounded(.up))
        if let violation = ImageLimits.violation(width: width, height: height) {
            throw CompositorError.invalidViewport(violation)
        }
        return (width, height)
    }

    public func build(root: CALayer) throws -> RenderList {
        try build(root: root, inOwnSpace: false)
    }

    /// The frame of `root`'s subtree drawn in `root`'s own bounds space (the viewport is in
    /// those coordinates), leaving out the root's placement, opacity and transition: what
    /// `CALayer.render(in:)` draws.
    public func build(contentOf root: CALayer) throws -> RenderList {
        try build(root: root, inOwnSpace: true)
    }

    private func build(root: CALayer, inOwnSpace: Bool) throws -> RenderList {
        let size = try RenderListBuilder.pixelSize(viewport: viewport, scale: scale)
        var state = BuildState(width: size.width, height: size.height)
        let toDevice = CATransform3DConcat(CATransform3DMakeTranslation(-viewport.minX, -viewport.minY, 0),
                                           CATransform3DMakeScale(scale, scale, 1))
        try walk(from: Visit(layer: root, parentPlaneToDevice: toDevice, opacity: 1,
                             clip: RenderListBuilder.guardBand(size.width, size.height), depth: 0,
                             passMap: inOwnSpace ? toDevice : nil), state: &state)
        let frame = RenderPass(id: state.nextPassID, width: size.width, height: size.height, ops: state.ops)
        return RenderList(width: size.width, height: size.height, passes: state.passes + [frame],
                          textures: state.textures, diagnostics: state.diagnostics)
    }

    private struct BuildState {
        /// The target being drawn: the frame, or an offscreen pass being built.
        var width: Int
        var height: Int
        var ops: [DrawOp] = []
        /// Finished offscreen passes, each before the passes that sample it.
        var passes: [RenderPass] = []
        var nextPassID = 0
        var textures: [UInt64: Bitmap] = [:]
        var diagnostics: [String] = []
        /// Masks being drawn on the way down: one met again is a cycle and is not applied.
        var masksInUse: Set<ObjectIdentifier> = []
        /// Content keys of passes, by id (see contentKey(of:state:)).
        var passKeys: [Int: Int] = [:]
        /// The pass of each rasterized layer drawn so far in this frame: its shadow's shape, a
        /// group or mask around it and the layer itself all sample the one pass. Drawn again for
        /// each, a chain of shadowed rasterized layers cost 2^depth passes.
        var rasterizedPasses: [RasterizedPassKey: Int] = [:]
        /// The blurred pass of each offscreen shadow drawn so far in this frame, and where it
        /// lies, by what its shape is drawn from: a layer's shadow is drawn again inside each
        /// shadow around it (its shape is the composited subtree), and made anew each time, nested
        /// shadowed layers cost 2^depth passes. Nil: the shadow lands nowhere.
        var shadowPasses: [ShadowShapeKey: (pass: Int, region: PixelRect)?] = [:]
        /// Pixels of the offscreen passes so far, against `RenderLimits.maxPassPixels`.
        var passPixels = 0
        /// Layers visited so far, against `RenderLimits.maxLayers`.
        var layersVisited = 0
    }

    /// A rectangle two pixels beyond the target: keeps projected coordinates bounded without
    /// changing the coverage of any pixel inside.
    private static func guardBand(_ width: Int, _ height: Int) -> [DevicePoint] {
        PolygonClipping.rectangle(minX: -2, minY: -2, maxX: Double(width) + 2, maxY: Double(height) + 2)
    }

    /// Draws a subtree depth first. An explicit stack instead of recursion: trees thousands of
    /// levels deep must not overflow the (small) stacks of the threads rendering may run on.
    private func walk(from start: Visit, state: inout BuildState) throws {
        var pending = [Step.visit(start)]
        while let next = pending.popLast() {
            switch next {
            case .visit(let visit):
                try self.visit(visit, state: &state, then: &pending)
            case .sublayers(let run, let index):
                if index + 1 < run.layers.count { pending.append(.sublayers(run, next: index + 1)) }
                try self.visit(run.visit(index), state: &state, then: &pending)
            }
        }
    }

    /// What the walk's stack holds: one visit (a border, a pass's root), or the rest of a layer's
    /// sublayers, whose visits are made as they come up. A layer with 10,000 sublayers takes one
    /// small entry rather than 10,000 visits, each copied as the stack grows.
    private enum Step {
        indirect case visit(Visit)
        case sublayers(SublayerRun, next: Int)
    }

    /// A layer's sublayers in drawing order and what their parent hands down to each.
    private final class SublayerRun {
        let layers: [CALayer]
        let parentPlaneToDevice: CATransform3D
        let opacity: Double
        let clip: [DevicePoint]
        let depth: Int
        let tint: PremultipliedColor

        init(layers: [CALayer], parentPlaneToDevice: CATransform3D, opacity: Double, clip: [DevicePoint], depth: Int,
             tint: PremultipliedColor) {
            self.layers = layers
            self.parentPlaneToDevice = parentPlaneToDevice
            self.opacity = opacity
            self.clip = clip
            self.depth = depth
            self.tint = tint
        }

        func visit(_ index: Int) -> Visit {
            Visit(layer: layers[index], parentPlaneToDevice: parentPlaneToDevice, opacity: opacity, clip: clip,
                  depth: depth, tint: tint)
        }
    }

    /// Flattening: an ordinary layer's plane keeps x, y and w of what is drawn into it and drops z.
    private static let flatten: CATransform3D = {
        var f = CATransform3DIdentity
        f.m33 = 0
        return f
    }()

    /// A layer to draw, with what its ancestors hand down.
    private struct Visit {
        let layer: CALayer
        /// Maps the superlayer's (flattened) plane into device pixels.
        let parentPlaneToDevice: CATransform3D
        var opacity: Double
        /// The convex clip region in device pixels, positively oriented.
        var clip: [DevicePoint]
        let depth: Int
        /// Replicator instance colours multiplied down the tree.
        var tint: PremultipliedColor = .opaqueWhite
        /// How much of the layer's own compositing an enclosing offscreen pass does instead.
        var isolation: Isolation = .none
        /// Set once the layer's mask has been turned into its clip (`maskAsClip`): the mask is
        /// not drawn again, and a rounded outline shapes the layer's own quads.
        var maskApplied = false
        // The rare parts are out of line: every layer's visit is copied onto the walk's stack.
        private var storedPassMap: Indirect<CATransform3D>?
        private var storedBorder: Indirect<BorderDraw>?
        private var storedMaskRounding: Indirect<RoundedShape>?

        init(layer: CALayer, parentPlaneToDevice: CATransform3D, opacity: Double, clip: [DevicePoint], depth: Int,
             passMap: CATransform3D? = nil, tint: PremultipliedColor = .opaqueWhite, border: BorderDraw? = nil) {
            self.layer = layer
            self.parentPlaneToDevice = parentPlaneToDevice
            self.opacity = opacity
            self.clip = clip
            self.depth = depth
            self.tint = tint
            storedPassMap = passMap.map(Indirect.value)
            storedBorder = border.map(Indirect.value)
        }

        /// For the root of an offscreen pass: its plane's map into the pass, used instead of its
        /// own placement; its own opacity and transition are applied where the pass is drawn.
        var passMap: CATransform3D? {
            get { storedPassMap?.value }
            set { storedPassMap = newValue.map(Indirect.value) }
        }
        /// Set for the item that draws `layer`'s border, after its sublayers.
        var border: BorderDraw? { storedBorder?.value }
        var maskRounding: RoundedShape? {
            get { storedMaskRounding?.value }
            set { storedMaskRounding = newValue.map(Indirect.value) }
        }
    }

    /// What an offscreen pass drawing a layer applies where it is composited, so the layer's visit
    /// must not apply it again.
    private enum Isolation {
        /// Nothing: the layer composites itself.
        case none
        /// Its opacity and rounded clip (group pass) and its shadow (shadow shape pass).
        case group
        /// Its mask and opacity; the shadow is drawn inside, for the mask clips it too.
        case masked
    }

    /// The one place that decides whether a layer is drawn offscreen first (as usvg's
    /// should_isolate): group opacity with sublayers that could overlap it or each other, and
    /// rounded corners that clip sublayers (masksToBounds with cornerRadius).
    static func needsOffscreenPass(_ layer: CALayer, opacity: Double) -> Bool {
        let hasSublayers = !(layer.sublayers ?? []).isEmpty
        guard hasSublayers else { return false }
        if opacity < 1 && layer.allowsGroupOpacity { return true }
        return layer.masksToBounds && layer.cornerRadius > 0
    }

    /// A border to draw once a layer's sublayers are drawn: on top of them, as Core Animation does.
    private struct BorderDraw {
        let map: ProjectiveTransform2D
        let clip: [DevicePoint]
        let opacity: Double
    }

    /// The layer's rounded bounds, or nil when its corners are square.
    func roundedBounds(of layer: CALayer, inset: Double = 0) -> RoundedRectangle? {
        let b = layer.bounds
        let limit = min(b.width, b.height) / 2
        let r = layer.cornerRadius.isFinite ? min(max(layer.cornerRadius, 0), limit) : 0
        let corners = layer.maskedCorners
        func radius(_ corner: CACornerMask) -> Double { corners.contains(corner) ? max(r - inset, 0) : 0 }
        return RoundedRectangle(rect: Rect(x: b.minX + inset, y: b.minY + inset,
                                           width: max(b.width - 2 * inset, 0), height: max(b.height - 2 * inset, 0)),
                                topLeft: radius(.layerMinXMinYCorner), topRight: radius(.layerMaxXMinYCorner),
                                bottomRight: radius(.layerMaxXMaxYCorner), bottomLeft: radius(.layerMinXMaxYCorner),
                                continuous: layer.cornerCurve == .continuous)
    }

    /// The border ring of a visited layer (after its sublayers).
    private func emitBorder(of layer: CALayer, _ border: BorderDraw, tint: PremultipliedColor, state: inout BuildState) {
        let b = layer.bounds
        let width = layer.borderWidth.isFinite ? min(max(layer.borderWidth, 0), min(b.width, b.height) / 2) : 0
        guard width > 0, let color = layer.borderColor?.premultiplied, color.alpha > 0,
              let deviceToLocal = border.map.inverted(), let outer = roundedBounds(of: layer) else { return }
        let shape = RoundedShape(deviceToLocal: deviceToLocal, outer: outer, inner: roundedBounds(of: layer, inset: width))
        emit(rect: Rect(x: b.minX, y: b.minY, width: b.width, height: b.height), map: border.map, clip: border.clip,
             part: "border", layer: layer,
             fill: .solid(PremultipliedColor(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)),
             opacity: border.opacity, tint: tint, rounded: shape, state: &state)
    }

    /// Draws what `visit` draws itself and pushes what follows it onto `pending`, the walk's stack,
    /// last to be drawn first: its border, then its sublayers.
    private func visit(_ visit: Visit, state: inout BuildState, then pending: inout [Step]) throws {
        let layer = visit.layer, clip = visit.clip, passMap = visit.passMap
        if let border = visit.border {
            emitBorder(of: layer, border, tint: visit.tint, state: &state)
            return
        }
        guard visit.depth < limits.maxDepth else { throw CompositorError.treeTooDeep(limit: limits.maxDepth) }
        state.layersVisited += 1
        guard state.layersVisited <= limits.maxLayers else { throw CompositorError.tooManyLayers(limit: limits.maxLayers) }
        if layer.isHidden { return }
        if let problem = GeometryCheck.problem(in: layer) {
            state.diagnostics.append("\(layer) and its sublayers are not drawn: \(problem)")
            return
        }
        let layerOpacity = layer.opacity.isNaN ? 0 : min(max(Double(layer.opacity), 0), 1)
        if visit.opacity * layerOpacity == 0 { return }
        let composites = passMap == nil && visit.isolation == .none
        let opacity = composites ? visit.opacity * layerOpacity : 1

        let planeToDevice = passMap ?? CATransform3DConcat(layer.transformToSuperlayer, visit.parentPlaneToDevice)
        let map = planeToDevice.planeTransform
        let bounds = layer.bounds
        let boundsRect = Rect(x: bounds.minX, y: bounds.minY, width: bounds.width, height: bounds.height)

        // Facing: the bounds' corners keep their on-screen winding when the front faces the eye.
        let projectedBounds = PolygonClipping.project(boundsRect, through: map)
        let facesFront = PolygonClipping.signedArea(projectedBounds) >= 0
        // A layer's sublayers are flattened into its plane, so a culled layer takes them along.
        if !layer.isDoubleSided && !facesFront { return }

        // A transform layer draws nothing of its own; its sublayers form a depth-sorted 3D scene
        // (so do a depth-preserving replicator's instances).
        if RenderListBuilder.keepsDepth(layer) {
            try drawScene3D(visit, layerOpacity: layerOpacity, state: &state)
            return
        }

        // A mask multiplies everything the layer composites, its shadow included: all of it is
        // drawn offscreen first.
        if composites, layer.transitionFrame == nil, !visit.maskApplied, let mask = usableMask(of: layer, state: &state) {
            switch maskAsClip(mask, of: visit, map: map, planeToDevice: planeToDevice) {
            case .clipped(let clipped): return try self.visit(clipped, state: &state, then: &pending)
            case .nothingVisible: return
            case nil: break
            }
            try drawIsolated(visit, map: map, planeToDevice: planeToDevice, opacity: opacity, mask: mask, state: &state)
            return
        }

        // The shadow goes down first, under everything the layer draws (not again for the copy of
        // the layer drawn offscreen to make it, or for a group's inner pass).
        if passMap == nil, visit.isolation != .group, layer.shadowOpacity > 0, let color = layer.shadowColor, color.alpha > 0 {
            try drawShadow(visit, map: map, opacity: visit.isolation == .masked ? 1 : opacity, state: &state)
        }

        if passMap == nil, visit.isolation != .group, layer.transitionFrame == nil,
           RenderListBuilder.needsOffscreenPass(layer, opacity: visit.isolation == .masked ? 1 : layerOpacity) {
            try drawIsolated(visit, map: map, planeToDevice: planeToDevice, opacity: opacity, state: &state)
            return
        }

        if passMap == nil, let transition = layer.transitionFrame {
            try drawTransition(transition, of: layer, map: map, clip: clip, opacity: opacity, tint: visit.tint,
                               depth: visit.depth, state: &state)
            return
        }

        if passMap == nil, layer.shouldRasterize, layer.transitionFrame == nil {
            try drawRasterized(visit, map: map, opacity: opacity, state: &state)
            return
        }

        var ownClip = clip
        if layer.masksToBounds {
            ownClip = PolygonClipping.intersect(orient(projectedBounds), with: clip)
        }

        // `CGRect.width` is standardized (never negative), so the sign is read from the size.
        let hasArea = bounds.size.width > 0 && bounds.size.height > 0
        // Rounded corners shape the background always, the contents only with masksToBounds.
        let rounding = visit.maskRounding ?? (layer.cornerRadius > 0 && hasArea
            ? map.inverted().flatMap { inverse in roundedBounds(of: layer).map { RoundedShape(deviceToLocal: inverse, outer: $0) } }
            : nil)
        if hasArea, let color = layer.backgroundColor {
            let c = color.premultiplied
            if c.alpha > 0 {
                emit(rect: boundsRect, map: map, clip: ownClip, part: "background", layer: layer,
                     fill: .solid(PremultipliedColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)),
                     opacity: opacity, tint: visit.tint, rounded: rounding, clipOnly: clip, state: &state)
            }
        }
        // Drawn content may cover its own rectangle (a shape layer's path), bounds or not.
        if hasArea || layer.drawnContentsFrame != nil, let image = layer.contents as? CGImage {
            try emitContents(image, of: layer, map: map, clip: ownClip, opacity: opacity, tint: visit.tint,
                         rounded: layer.masksToBounds || visit.maskRounding != nil ? rounding : nil, parentClip: clip, state: &state)
        }
        if bounds.size.width < 0 || bounds.size.height < 0 {
            state.diagnostics.append("\(layer) draws no background or contents: its bounds size \(bounds.size) is negative")
        }

        // The border comes after everything the sublayers draw: it is the last item of the list.
        if hasArea && layer.borderWidth > 0 {
            pending.append(.visit(Visit(layer: layer, parentPlaneToDevice: visit.parentPlaneToDevice, opacity: opacity,
                                        clip: clip, depth: visit.depth, tint: visit.tint,
                                        border: BorderDraw(map: map, clip: clip, opacity: opacity))))
        }
        guard let sublayers = layer.sublayers, !sublayers.isEmpty, ownClip.count >= 3 else { return }
        let childParent = CATransform3DConcat(RenderListBuilder.flatten, planeToDevice)
        let ordered = layer.sublayersInDrawingOrder
        guard let replicator = layer as? CAReplicatorLayer else {
            pending.append(.sublayers(SublayerRun(layers: ordered, parentPlaneToDevice: childParent, opacity: opacity,
                                                  clip: ownClip, depth: visit.depth + 1, tint: visit.tint), next: 0))
            return
        }
        pending.append(contentsOf: replicatedVisits(ordered, of: replicator, childParent: childParent, opacity: opacity,
                                                    clip: ownClip, visit: visit, state: &state).reversed().map(Step.visit))
    }

    /// Layers by zPosition, ties in the given order (as `CALayer.sublayersInDrawingOrder`).
    static func drawingOrder(_ layers: [CALayer]) -> [CALayer] {
        layers.enumerated().sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }.map(\.element)
    }

    /// A replicator's sublayers once per instance: instance i one more instanceTransform on (about
    /// the replicator's centre) and tinted by instance i's colour.
    private func replicatedVisits(_ sublayers: [CALayer], of replicator: CAReplicatorLayer, childParent: CATransform3D,
                                  opacity: Double, clip: [DevicePoint], visit: Visit, state: inout BuildState) -> [Visit] {
        ReplicatorInstance.instances(of: replicator, sublayers: sublayers, diagnostics: &state.diagnostics).flatMap { instance in
            let parent = CATransform3DConcat(instance.transform, childParent)
            let tint = visit.tint.multiplied(by: instance.tint)
            return instance.sublayers.map {
                Visit(layer: $0, parentPlaneToDevice: parent, opacity: opacity, clip: clip, depth: visit.depth + 1, tint: tint)
            }
        }
    }

    private func emitContents(_ image: CGImage, of layer: CALayer, map: ProjectiveTransform2D,
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
    private func contentsFrame(of layer: CALayer, image: CGImage, contentsScale: CGFloat) -> CGRect {
        let cr = layer.contentsRect
        let contentSize = CGSize(width: CGFloat(image.width) * cr.width / contentsScale,
                                 height: CGFloat(image.height) * cr.height / contentsScale)
        return layer.drawnContentsFrame
            ?? ContentsGeometry.frame(bounds: layer.bounds, contentSize: contentSize, gravity: layer.contentsGravity)
    }

    /// Adds one quad. With a rounded shape, the shape's own outline gives the coverage at the
    /// layer's edges, and the polygon keeps only the edges of `clipOnly` (the clip the layer is
    /// drawn in), so no edge counts twice.
    private func emit(rect: Rect, map: ProjectiveTransform2D, clip: [DevicePoint], part: String, layer: CALayer,
                      fill: Fill, opacity: Double, blend: BlendMode = .sourceOver,
                      tint: PremultipliedColor = .opaqueWhite, rounded: RoundedShape? = nil,
                      clipOnly: [DevicePoint]? = nil, state: inout BuildState) {
        let projected = orient(PolygonClipping.project(rect, through: map))
        guard projected.count >= 3, clip.count >= 3 else { return }
        let visible = PolygonClipping.intersect(projected, with: clip)
        guard var polygon = CoveragePolygon(vertices: visible, targetWidth: state.width, targetHeight: state.height) else { return }
        if rounded != nil {
            let outer = clipOnly ?? clip
            polygon = polygon.withEdges(of: CoveragePolygon(vertices: outer, targetWidth: state.width, targetHeight: state.height))
        }
        state.ops.append(.quad(QuadOp(source: "\(layer) \(part)", localRect: rect, localToDevice: map,
                                      polygon: polygon, fill: fill, opacity: opacity, blend: blend, tint: tint,
                                      rounded: rounded)))
    }

    // MARK: Offscreen passes and transitions

    /// Largest side of an offscreen pass; larger layers are drawn into it at a reduced scale.
    /// `ImageLimits` lowers it (a server's lower image limits bound passes too). Default: 8192.
    static var maxPassSide: Int { min(8192, ImageLimits.maxDimension, Int(Double(ImageLimits.maxPixelCount).squareRoot())) }

    /// Draws `root`'s subtree (the root's own placement, opacity, shadow, mask and transition left
    /// out) into a new offscreen pass that maps `rect` of the root's bounds space onto its pixels at
    /// `pixelsPerPoint` (the frame's scale by default; less where the pass would pass
    /// `maxPassSide`). Returns the pass's id.
    private func drawIntoPass(_ root: CALayer, rect: CGRect? = nil, pixelsPerPoint: Double? = nil, depth: Int,
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
    private func contentKey(of passID: Int, state: inout BuildState) -> Int {
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
            }
        }
        let key = hasher.finalize()
        state.passKeys[passID] = key
        return key
    }

    /// Most pixels per point a rasterized layer's bitmap gets, as a multiple of the frame's scale:
    /// more buys nothing visible and costs memory quadratically.
    static let maxRasterizationFactor = 8.0

    /// A rasterized layer: its subtree drawn once into a bitmap at rasterizationScale pixels per
    /// point of its own space, covering its bounds and its sublayers' frames, and composited in
    /// its plane; the pass carries a cache key so executors can keep it across frames.
    private func drawRasterized(_ visit: Visit, map: ProjectiveTransform2D, opacity: Double, state: inout BuildState) throws {
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

    /// What an offscreen shadow's blurred shape is drawn from (see `BuildState.shadowPasses`).
    struct ShadowShapeKey: Hashable {
        let layer: ObjectIdentifier
        let placement: CATransform3D
        let width: Int, height: Int
        let masksInUse: Set<ObjectIdentifier>
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

    /// The two images of a contents cross-fade added in a pass the size of the end image, which the
    /// contents then sample instead of the image: `from` x (1 - fraction) + `to` x fraction.
    private func crossFadePass(from: CGImage, to: CGImage, fraction: Double, layer: CALayer, state: inout BuildState) throws -> Int {
        let side = RenderListBuilder.maxPassSide
        let width = min(to.width, side), height = min(to.height, side)
        state.textures[from.identifier] = from.bitmap
        return try addPass(mixOps([(.image(from.identifier), 1 - fraction), (.image(to.identifier), fraction)],
                                  width: width, height: height, source: "\(layer) contents cross-fade"),
                           width: width, height: height, state: &state)
    }

    /// Full-target quads adding weighted textures, each stretched over the target.
    private func mixOps(_ layers: [(TextureSource, Double)], width: Int, height: Int, source: String) -> [DrawOp] {
        fullTargetOps(layers, width: width, height: height, filter: .linear, blend: .plus, source: source)
    }

    /// Quads covering the whole target, each a texture stretched over it with a weight (opacity).
    private func fullTargetOps(_ layers: [(TextureSource, Double)], width: Int, height: Int, filter: SamplingFilter,
                               blend: BlendMode, source: String,
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

    /// The layer's mask when it can be applied; a mask that is the layer, one of its ancestors,
    /// or a mask being drawn further up is left out, and the list says so.
    private func usableMask(of layer: CALayer, state: inout BuildState) -> CALayer? {
        guard let mask = layer.mask else { return nil }
        if layer.isDescendant(of: mask) || state.masksInUse.contains(ObjectIdentifier(mask)) {
            state.diagnostics.append("\(layer): its mask \(mask) is the layer itself, one of its ancestors or a mask that "
                + "contains it; the layer is drawn unmasked")
            return nil
        }
        return mask
    }

    /// What a shape mask turned into a clip leaves to draw.
    private enum MaskClip {
        /// The layer's visit with the mask applied as its clip.
        case clipped(Visit)
        /// The mask covers nothing on screen, so neither does the layer.
        case nothingVisible
    }

    /// The mask as a clip instead of an offscreen pass, where that is exact (see MaskOutline.swift):
    /// the layer must draw a single quad (a background or contents, no sublayers, border, shadow
    /// or rounded corners of its own), since clipping several quads separately would blend each
    /// one's partial coverage at the mask's edge where the mask multiplies their composite once.
    /// A rectangular outline then joins the quad's convex device clip; a rounded one becomes the
    /// quad's rounded coverage when the quad holds the whole outline (its own edges then cannot
    /// show). Nil when the mask needs its offscreen pass.
    private func maskAsClip(_ mask: CALayer, of visit: Visit, map: ProjectiveTransform2D,
                            planeToDevice: CATransform3D) -> MaskClip? {
        let layer = visit.layer
        let drawsBackground = (layer.backgroundColor?.alpha ?? 0) > 0, image = layer.contents as? CGImage
        guard drawsBackground != (image != nil), (layer.sublayers ?? []).isEmpty, !(layer.cornerRadius > 0),
              !layer.shouldRasterize, layer.borderWidth <= 0 || (layer.borderColor?.alpha ?? 0) == 0,
              layer.shadowOpacity <= 0 || (layer.shadowColor?.alpha ?? 0) == 0,
              let outline = exactOutline(of: mask) else { return nil }
        let maskToLayer = CATransform3DConcat(mask.transformToSuperlayer, RenderListBuilder.flatten)
        let maskMap = CATransform3DConcat(maskToLayer, planeToDevice).planeTransform
        let projected = PolygonClipping.project(outline.rect, through: maskMap)
        if !mask.isDoubleSided && PolygonClipping.signedArea(projected) < 0 { return .nothingVisible }
        let inside = PolygonClipping.intersect(orient(projected), with: visit.clip)
        guard inside.count >= 3 else { return .nothingVisible }
        var clipped = visit
        clipped.maskApplied = true
        let radii = [outline.topLeft, outline.topRight, outline.bottomRight, outline.bottomLeft]
        if radii.allSatisfy({ $0 <= 0 }) {
            clipped.clip = inside
            return .clipped(clipped)
        }
        // Rounded: the outline gives all the coverage itself (its rectangle in the clip polygon
        // too would count its straight edges twice), so the quad must hold all of it.
        guard let deviceToMask = maskMap.inverted() else { return nil }
        let toLayer = maskToLayer.planeTransform
        let r = outline.rect
        let corners = [(r.x, r.y), (r.x + r.width, r.y), (r.x + r.width, r.y + r.height), (r.x, r.y + r.height)]
            .map { toLayer.apply(CGPoint(x: $0.0, y: $0.1)) }
        var quad = layer.bounds
        if let image {
            let scale = layer.contentsScale.isFinite && layer.contentsScale > 0 ? layer.contentsScale : 1
            quad = contentsFrame(of: layer, image: image, contentsScale: scale)
        }
        let slack = 1e-6 * max(1, quad.width, quad.height)
        guard corners.allSatisfy({ $0.x >= quad.minX - slack && $0.x <= quad.maxX + slack
                                    && $0.y >= quad.minY - slack && $0.y <= quad.maxY + slack }) else { return nil }
        clipped.maskRounding = RoundedShape(deviceToLocal: deviceToMask, outer: outline)
        return .clipped(clipped)
    }

    /// The layer's subtree drawn offscreen, in a pass as large as what it covers, then composited
    /// over the target with the layer's opacity and either, with a mask, the mask's alpha (the
    /// mask drawn into a pass of its own in the layer's plane) or, with masksToBounds and
    /// cornerRadius, its rounded outline.
    private func drawIsolated(_ visit: Visit, map: ProjectiveTransform2D, planeToDevice: CATransform3D, opacity: Double,
                              mask: CALayer? = nil, state: inout BuildState) throws {
        let layer = visit.layer
        var inner = visit
        inner.isolation = mask == nil ? .group : .masked
        inner.opacity = 1
        inner.tint = .opaqueWhite
        inner.clip = RenderListBuilder.guardBand(state.width, state.height)
        let content = try collectOps(&state) { try walk(from: inner, state: &$0) }
        guard let region = PixelRect.covering(content) else { return }
        var ops = moved(content, into: region)
        if let mask {
            let maskOps = try drawMask(mask, planeToDevice: planeToDevice, depth: visit.depth, state: &state)
            let maskPass = try addPass(moved(maskOps, into: region), width: region.width, height: region.height, state: &state)
            ops += fullTargetOps([(.pass(maskPass), 1)], width: region.width, height: region.height, filter: .nearest,
                                 blend: .destinationIn, source: "\(layer) mask")
        }
        let id = try addPass(ops, width: region.width, height: region.height, state: &state)
        var rounded: RoundedShape?
        if mask == nil, layer.masksToBounds, layer.cornerRadius > 0, let inverse = map.inverted(), let outline = roundedBounds(of: layer) {
            rounded = RoundedShape(deviceToLocal: inverse, outer: outline)
        }
        composite(pass: id, at: region, shiftedBy: (0, 0), filter: .nearest, clip: visit.clip, part: "group", layer: layer,
                  opacity: opacity, tint: visit.tint, rounded: rounded, state: &state)
    }

    /// What `body` draws into the current target, taken out of it.
    private func collectOps(_ state: inout BuildState, _ body: (inout BuildState) throws -> Void) rethrows -> [DrawOp] {
        let saved = state.ops
        state.ops = []
        defer { state.ops = saved }
        try body(&state)
        return state.ops
    }

    /// Ops drawn in the current target's device space moved into a pass covering `region` of it.
    private func moved(_ ops: [DrawOp], into region: PixelRect) -> [DrawOp] {
        ops.compactMap { $0.translated(dx: -region.minX, dy: -region.minY, targetWidth: region.width, targetHeight: region.height) }
    }

    /// Appends a pass and returns its id. Every offscreen pass is made here, so the frame's budget
    /// (`RenderLimits.maxPasses`, `maxPassPixels`) is checked as the list is built, before any
    /// pixel of it is allocated or drawn.
    private func addPass(_ ops: [DrawOp], width: Int, height: Int, state: inout BuildState) throws -> Int {
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
    private func composite(pass: Int, at region: PixelRect, shiftedBy shift: (Double, Double), filter: SamplingFilter,
                           alphaOnly: Bool = false, clip: [DevicePoint], part: String, layer: CALayer, opacity: Double,
                           tint: PremultipliedColor, rounded: RoundedShape? = nil, state: inout BuildState) {
        let rect = Rect(x: Double(region.minX) + shift.0, y: Double(region.minY) + shift.1,
                        width: Double(region.width), height: Double(region.height))
        let toTexture = ProjectiveTransform2D.unitSquare(from: rect)
        emit(rect: rect, map: .identity, clip: clip, part: part, layer: layer,
             fill: .texture(TextureFill(source: .pass(pass), deviceToTexture: toTexture, filter: filter, alphaOnly: alphaOnly)),
             opacity: opacity, tint: tint, rounded: rounded, clipOnly: rounded == nil ? nil : clip, state: &state)
    }

    /// The mask layer's subtree drawn into the current target: placed in the masked layer's plane
    /// as a sublayer would be, but without its sublayerTransform (a mask has no superlayer).
    private func drawMask(_ mask: CALayer, planeToDevice: CATransform3D, depth: Int, state: inout BuildState) throws -> [DrawOp] {
        let key = ObjectIdentifier(mask)
        state.masksInUse.insert(key)
        defer { state.masksInUse.remove(key) }
        let parent = CATransform3DConcat(RenderListBuilder.flatten, planeToDevice)
        let visit = Visit(layer: mask, parentPlaneToDevice: parent, opacity: 1,
                          clip: RenderListBuilder.guardBand(state.width, state.height), depth: depth + 1)
        return try collectOps(&state) { try walk(from: visit, state: &$0) }
    }

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
    private func drawShadow(_ visit: Visit, map: ProjectiveTransform2D, opacity: Double, state: inout BuildState) throws {
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

    /// The outline and alpha of a layer's shadow shape when it is a rounded rectangle with one
    /// radius: a shadowPath recognized as a rectangle, rounded rectangle or circle (opaque), or
    /// without one, a layer that composites to its background alone (no contents, sublayers,
    /// mask, or a border that would show through a translucent background). Nil otherwise.
    private func roundedShadowShape(of layer: CALayer) -> (outline: RoundedRectangle, alpha: Double)? {
        guard layer.mask == nil, !layer.shouldRasterize else { return nil }
        if let path = layer.shadowPath {
            guard let shape = RoundedRectPath(path) else { return nil }
            let r = shape.cornerRadius
            return (RoundedRectangle(rect: Rect(x: shape.rect.minX, y: shape.rect.minY, width: shape.rect.width, height: shape.rect.height),
                                     topLeft: r, topRight: r, bottomRight: r, bottomLeft: r), 1)
        }
        guard layer.contents == nil, (layer.sublayers ?? []).isEmpty, let background = layer.backgroundColor?.premultiplied,
              background.alpha >= 1 || layer.borderWidth <= 0 || layer.borderColor == nil,
              let outline = roundedBounds(of: layer) else { return nil }
        // The closed form integrates circular corners; continuous ones take the offscreen blur.
        if outline.continuous, [outline.topLeft, outline.topRight, outline.bottomRight, outline.bottomLeft].contains(where: { $0 > 0 }) {
            return nil
        }
        return (outline, background.alpha)
    }

    /// The shadow of a layer whose shadow shape is a rounded rectangle (see `roundedShadowShape`),
    /// seen through a similarity (rotation, uniform scale, translation: a Gaussian stays a
    /// Gaussian), in closed form: one quad, no offscreen pass. Returns false when the layer does
    /// not qualify.
    private func drawClosedFormShadow(_ visit: Visit, map: ProjectiveTransform2D, offset: (Double, Double),
                                      tint: PremultipliedColor, opacity: Double, state: inout BuildState) -> Bool {
        let layer = visit.layer
        guard let (outline, alpha) = roundedShadowShape(of: layer) else { return false }
        // A similarity: no perspective, orthogonal axes of equal length.
        let ax = (map.m11, map.m12), ay = (map.m21, map.m22)
        let sx = (ax.0 * ax.0 + ax.1 * ax.1).squareRoot(), sy = (ay.0 * ay.0 + ay.1 * ay.1).squareRoot()
        guard abs(map.m13) < 1e-12, abs(map.m23) < 1e-12, abs(map.m33 - 1) < 1e-12, sx > 1e-9,
              abs(sx - sy) <= 1e-9 * sx, abs(ax.0 * ay.0 + ax.1 * ay.1) <= 1e-9 * sx * sx else { return false }
        var sigma = max(Double(layer.shadowRadius) * Double(scale), 0)
        guard sigma.isFinite, sigma > 0.25, sigma <= RenderListBuilder.maxShadowSigma,
              outline.rect.width > 0, outline.rect.height > 0 else { return false }
        // One radius for all four corners (the closed form's assumption).
        let radii = [outline.topLeft, outline.topRight, outline.bottomRight, outline.bottomLeft]
        guard radii.allSatisfy({ abs($0 - radii[0]) < 1e-9 }) else { return false }
        sigma /= sx // in the layer's plane
        // The shifted map: the shadow is the shape moved by the offset in device space.
        let shifted = map.concatenating(ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0,
                                                              m31: offset.0, m32: offset.1, m33: 1))
        guard let deviceToLocal = shifted.inverted() else { return false }
        let reach = 3 * sigma + 1 / sx
        let r = outline.rect
        let area = Rect(x: r.x - reach, y: r.y - reach, width: r.width + 2 * reach, height: r.height + 2 * reach)
        // A corner small beside the blur hardly shows: the blurred rectangle's exact form (four
        // erf, no sampling along y) differs from the rounded one by at most the corners' missing
        // area, (4 - pi) r^2, times the Gaussian's peak, 1 / (2 pi sigma^2): under 1/255 while
        // r < 0.165 sigma. It keeps wide shadows, whose quads are large, about as cheap as narrow ones.
        let corner = radii[0] < RenderListBuilder.negligibleCornerPerSigma * sigma ? 0 : radii[0]
        let shape = BlurredRoundedRect(deviceToLocal: deviceToLocal, rect: r, cornerRadius: corner, sigma: sigma,
                                       color: PremultipliedColor(red: tint.red * alpha, green: tint.green * alpha,
                                                                 blue: tint.blue * alpha, alpha: tint.alpha * alpha))
        emit(rect: area, map: shifted, clip: visit.clip, part: "shadow", layer: layer, fill: .blurredRoundedRect(shape),
             opacity: opacity, state: &state)
        return true
    }

    /// A shadowPath rasterized on the CPU (exact-area coverage) at the frame's scale and drawn
    /// as a texture in the layer's plane, into the current (shape) pass.
    private func emitShadowPath(_ path: CGPath, of layer: CALayer, map: ProjectiveTransform2D, state: inout BuildState) {
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

    /// A running transition: the old and new subtrees each drawn offscreen, then composited in the
    /// layer's plane (clipped to its bounds), faded or moved by the transition's progress.
    private func drawTransition(_ transition: TransitionFrame, of layer: CALayer, map: ProjectiveTransform2D,
                                clip: [DevicePoint], opacity: Double, tint: PremultipliedColor, depth: Int,
                                state: inout BuildState) throws {
        let b = layer.bounds
        guard b.size.width > 0, b.size.height > 0, let deviceToLocal = map.inverted() else { return }
        let newPass = try drawIntoPass(layer, depth: depth, state: &state)
        let oldPass = try drawIntoPass(transition.oldTree, depth: depth, state: &state)
        let boundsRect = Rect(x: b.minX, y: b.minY, width: b.width, height: b.height)
        let boundsClip = PolygonClipping.intersect(orient(PolygonClipping.project(boundsRect, through: map)), with: clip)
        let p = min(max(transition.progress, 0), 1)
        let d = transition.direction

        /// The pass drawn over the bounds shifted by (dx, dy) bounds sizes.
        func composite(_ pass: Int, shift: (Double, Double), opacity: Double, part: String) {
            let rect = Rect(x: b.minX + shift.0 * b.width, y: b.minY + shift.1 * b.height, width: b.width, height: b.height)
            let localToTexture = ProjectiveTransform2D.unitSquare(from: rect)
            let fill = TextureFill(source: .pass(pass), deviceToTexture: deviceToLocal.concatenating(localToTexture),
                                   filter: .linear)
            emit(rect: rect, map: map, clip: boundsClip, part: part, layer: layer, fill: .texture(fill),
                 opacity: opacity, tint: tint, state: &state)
        }

        switch transition.type {
        case .moveIn:
            composite(oldPass, shift: (0, 0), opacity: opacity, part: "transition old")
            composite(newPass, shift: (d.x * (1 - p), d.y * (1 - p)), opacity: opacity, part: "transition new")
        case .push:
            composite(oldPass, shift: (-d.x * p, -d.y * p), opacity: opacity, part: "transition old")
            composite(newPass, shift: (d.x * (1 - p), d.y * (1 - p)), opacity: opacity, part: "transition new")
        case .reveal:
            composite(newPass, shift: (0, 0), opacity: opacity, part: "transition new")
            composite(oldPass, shift: (-d.x * p, -d.y * p), opacity: opacity, part: "transition old")
        default:
            // A cross-dissolve: old x (1 - p) + new x p, added in a pass of their own so the sum
            // is then composited over what lies below like any layer.
            let newTarget = state.passes.first { $0.id == newPass }
            let width = newTarget?.width ?? 1, height = newTarget?.height ?? 1
            let mixed = try addPass(mixOps([(.pass(oldPass), 1 - p), (.pass(newPass), p)], width: width, height: height,
                                           source: "\(layer) transition fade"),
                                    width: width, height: height, state: &state)
            composite(mixed, shift: (0, 0), opacity: opacity, part: "transition")
        }
    }

    /// A transform layer's 3D scene: each plane drawn offscreen, the planes split and sorted
    /// back to front, each piece drawn from its plane's pass.
    private func drawScene3D(_ visit: Visit, layerOpacity: Double, state: inout BuildState) throws {
        let layer = visit.layer
        // The scene's space is the transform layer's superlayer plane before flattening; a
        // scene at the root of a pass is in the pass's space.
        let sceneToDevice = visit.passMap == nil ? visit.parentPlaneToDevice.planeTransform : .identity
        let rootToScene = visit.passMap ?? layer.transformToSuperlayer
        let opacity = visit.passMap == nil ? visit.opacity * layerOpacity : 1
        let planes = scenePlanes(of: layer, rootToScene: rootToScene, opacity: 1, diagnostics: &state.diagnostics)
        var polygons: [DepthPolygon] = []
        var passes: [Int: (pass: Int, extent: CGRect, planeToDevice: ProjectiveTransform2D)] = [:]
        for (index, plane) in planes.enumerated() {
            let extent = RenderListBuilder.rasterExtent(of: plane.layer)
            guard extent.width > 0, extent.height > 0 else { continue }
            let rect = Rect(x: extent.minX, y: extent.minY, width: extent.width, height: extent.height)
            let planeToDevice = plane.toScene.planeTransform.concatenating(sceneToDevice)
            let facesFront = PolygonClipping.signedArea(PolygonClipping.project(rect, through: planeToDevice)) >= 0
            if !plane.layer.isDoubleSided && !facesFront { continue }
            guard let polygon = DepthPolygon(points: PolygonClipping.project3D(rect, through: plane.toScene), item: index) else { continue }
            let pass = try drawIntoPass(plane.layer, rect: extent, depth: visit.depth + 1, state: &state)
            passes[index] = (pass, extent, planeToDevice)
            polygons.append(polygon)
        }
        for piece in DepthSorting.backToFront(polygons) {
            guard let (pass, extent, planeToDevice) = passes[piece.item], let deviceToLocal = planeToDevice.inverted() else { continue }
            let device = orient(PolygonClipping.project(piece.points.map { (x: $0.x, y: $0.y) }, through: sceneToDevice))
            guard device.count >= 3 else { continue }
            let visible = PolygonClipping.intersect(device, with: visit.clip)
            guard let coverage = CoveragePolygon(vertices: visible, targetWidth: state.width, targetHeight: state.height) else { continue }
            let rect = Rect(x: extent.minX, y: extent.minY, width: extent.width, height: extent.height)
            let localToTexture = ProjectiveTransform2D.unitSquare(from: rect)
            let fill = TextureFill(source: .pass(pass), deviceToTexture: deviceToLocal.concatenating(localToTexture), filter: .linear)
            state.ops.append(.quad(QuadOp(source: "\(planes[piece.item].layer) in 3D", localRect: rect, localToDevice: planeToDevice,
                                          polygon: coverage, fill: .texture(fill), opacity: opacity * planes[piece.item].opacity,
                                          tint: visit.tint.multiplied(by: planes[piece.item].tint))))
        }
    }

    /// The polygon with positive orientation (back faces come out reversed).
    private func orient(_ points: [DevicePoint]) -> [DevicePoint] {
        PolygonClipping.signedArea(points) < 0 ? points.reversed() : points
    }
}
