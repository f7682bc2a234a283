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
///
/// This file holds the walk: the state of a build, the visit of each layer (which decides what
/// a layer needs, in order: mask, shadow, isolated group, transition, rasterization, then its
/// background, contents, border and sublayers) and `emit`, which every quad goes through. Each
/// concern is an extension named after it: +Contents, +Borders, +Shadows, +ClosedFormShadows,
/// +Masks, +GroupPasses, +OffscreenPasses, +Rasterization, +Transitions, +Scene3D.
public struct RenderListBuilder {
    /// The rectangle of the root layer's superlayer space that becomes the image.
    public var viewport: CGRect
    /// Device pixels per point.
    public var scale: CGFloat

    /// How deep, how many layers: past these the frame is refused with an error naming the limit.
    /// Default: `RenderLimits.current`.
    public var limits = RenderLimits.current

    /// Shape layers' flattened outlines kept between the frames this builder's owner builds one
    /// after another (`ShapeOutlineCache`): a renderer's or `quartz animate`'s. Default: nil,
    /// every outline made anew (the same lists either way).
    public var outlineCache: ShapeOutlineCache?

    /// Whether a rounded clip of sublayers first tries whether it cuts anything (when it cuts
    /// nothing it needs no pass: `roundedClipCutsNothing`). Default: true; false draws every
    /// such clip through its group pass, the route to compare with.
    public var triesRoundedClips = true

    /// Whether a closed-form shadow under an opaque background skips the pixels the background
    /// covers (`RenderPass.cuttingOccludedShadows`: the same bytes, fewer shadow pixels). Default:
    /// true; false draws every shadow whole, the route to compare with.
    public var cutsOccludedShadows = true

    /// Whether a closed-form shadow's quad, where it is an axis-aligned rectangle, grows out to
    /// whole pixels (`outToWholePixels`: the pixels gained lie past its negligible reach, byte 0 on
    /// both backends, and the GL shadow batch draws a whole-pixel quad without its edges). Default: true;
    /// false keeps the reach's own rectangle, the route to compare with.
    public var shadowQuadsInWholePixels = true

    /// Whose rules the frame is drawn by. Default: `.compositor`.
    public var rules = DrawingRules.compositor

    /// What draws a layer tree on Apple, and so what a frame of it shows.
    public enum DrawingRules: Sendable {
        /// Core Animation's compositor (`CARenderer`, the screen): every layer and compositing
        /// filter this renderer knows.
        case compositor
        /// `render(in:)`'s, which drew Apple's frames of lottie-ios and which snapshot tests on
        /// Apple draw through. A layer turned out of the plane (its transform, or its
        /// superlayer's sublayerTransform, turning it about x or y or adding perspective:
        /// `CATransform3D.turnsOutOfPlane`) is not drawn, nor its sublayers: Apple documents
        /// that "layers that use 3D transforms are not rendered", and its frames of
        /// `issue_1932` show the letters missing while they turn about y. A compositingFilter
        /// of a non-separable blend mode (hue, saturation, color, luminosity) is drawn
        /// source-over: its frames of `blend_mode_test` show the luminosity group stacked
        /// plainly while the separable modes blend (every frame matches so, and none
        /// otherwise).
        case renderInContext
    }

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

    func build(root: CALayer, inOwnSpace: Bool) throws -> RenderList {
        let size = try RenderListBuilder.pixelSize(viewport: viewport, scale: scale)
        outlineCache?.beginFrame()
        var state = BuildState(width: size.width, height: size.height)
        let toDevice = CATransform3DConcat(CATransform3DMakeTranslation(-viewport.minX, -viewport.minY, 0),
                                           CATransform3DMakeScale(scale, scale, 1))
        try walk(from: Visit(layer: root, parentPlaneToDevice: toDevice, opacity: 1,
                             clip: RenderListBuilder.guardBand(size.width, size.height), depth: 0,
                             passMap: inOwnSpace ? toDevice : nil), state: &state)
        if let excess = state.overBudget { throw excess }
        var passes = state.passes + [RenderPass(id: state.nextPassID, width: size.width, height: size.height, ops: state.ops)]
        if cutsOccludedShadows { passes = passes.map { $0.cuttingOccludedShadows() } }
        let list = RenderList(width: size.width, height: size.height, passes: passes,
                              textures: state.textures, diagnostics: state.diagnostics)
        // The pixels the frame draws, counted on the finished list (what the backends will do).
        (state.work.drawnPixels, state.work.blendPixels) = FrameWork.pixels(of: list)
        if let excess = state.work.excess(limits) { throw excess }
        return list
    }

    struct BuildState {
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
        /// The frame's work so far (`FrameWork`), and the first budget it passed: the walk stops
        /// at the next layer and the build throws it.
        var work = FrameWork()
        var overBudget: CompositorError?
        /// Set while a subtree is built only to see where it draws (`roundedClipCutsNothing`).
        var inTrial = false
        /// The last clip made a polygon of for a rounded shape's edges, and that polygon: most
        /// shapes of a frame share one clip (the target's guard band), made once, not per shape.
        private var lastClip: (vertices: [DevicePoint], width: Int, height: Int, polygon: CoveragePolygon?)?

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// The layer last named by a quad, as draws name it: a card's background and border name
        /// it one after the other. Held, so no other layer can take its identity meanwhile.
        private var lastNamed: (layer: CALayer, name: DrawSource.Layer)?

        /// `DrawSource.Layer(layer)`, made once for consecutive quads of one layer.
        mutating func name(of layer: CALayer) -> DrawSource.Layer {
            if let last = lastNamed, last.layer === layer { return last.name }
            let name = DrawSource.Layer(layer)
            lastNamed = (layer, name)
            return name
        }

        /// `CoveragePolygon(vertices: clip, ...)` for this target, kept for the next shape with
        /// the same clip.
        mutating func clipPolygon(_ clip: [DevicePoint]) -> CoveragePolygon? {
            if let last = lastClip, last.width == width, last.height == height, last.vertices == clip { return last.polygon }
            let polygon = CoveragePolygon(vertices: clip, targetWidth: width, targetHeight: height)
            lastClip = (clip, width, height, polygon)
            return polygon
        }
    }

    /// A rectangle two pixels beyond the target: keeps projected coordinates bounded without
    /// changing the coverage of any pixel inside.
    static func guardBand(_ width: Int, _ height: Int) -> [DevicePoint] {
        PolygonClipping.rectangle(minX: -2, minY: -2, maxX: Double(width) + 2, maxY: Double(height) + 2)
    }

    /// Draws a subtree depth first. An explicit stack instead of recursion: trees thousands of
    /// levels deep must not overflow the (small) stacks of the threads rendering may run on.
    func walk(from start: Visit, state: inout BuildState) throws {
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
    enum Step {
        indirect case visit(Visit)
        case sublayers(SublayerRun, next: Int)
    }

    /// A layer's sublayers in drawing order and what their parent hands down to each.
    final class SublayerRun {
        let layers: [CALayer]
        let parentPlaneToDevice: CATransform3D
        let opacity: Double
        let clip: [DevicePoint]
        let depth: Int
        let tint: PremultipliedColor
        let outline: EnclosingOutline?

        init(layers: [CALayer], parentPlaneToDevice: CATransform3D, opacity: Double, clip: [DevicePoint], depth: Int,
             tint: PremultipliedColor, outline: EnclosingOutline?) {
            self.layers = layers
            self.parentPlaneToDevice = parentPlaneToDevice
            self.opacity = opacity
            self.clip = clip
            self.depth = depth
            self.tint = tint
            self.outline = outline
        }

        func visit(_ index: Int) -> Visit {
            var visit = Visit(layer: layers[index], parentPlaneToDevice: parentPlaneToDevice, opacity: opacity, clip: clip,
                              depth: depth, tint: tint)
            visit.outline = outline
            return visit
        }
    }

    /// Flattening: an ordinary layer's plane keeps x, y and w of what is drawn into it and drops z.
    static let flatten: CATransform3D = {
        var f = CATransform3DIdentity
        f.m33 = 0
        return f
    }()

    /// A layer to draw, with what its ancestors hand down.
    struct Visit {
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
        private var storedOutline: Indirect<EnclosingOutline>?

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
        /// The rounded outline an enclosing group pass's composite applies, in this visit's device
        /// space: draws along its bounds reach past them (`EnclosingOutline`). Nil in a new
        /// device space (a shadow's shape, a mask, a rasterized layer), whose own clip starts over.
        var outline: EnclosingOutline? {
            get { storedOutline?.value }
            set { storedOutline = newValue.map(Indirect.value) }
        }
    }

    /// What an offscreen pass drawing a layer applies where it is composited, so the layer's visit
    /// must not apply it again.
    enum Isolation {
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
    func needsOffscreenPass(_ layer: CALayer, opacity: Double, roundedClip: Bool = true, blending: Bool = true) -> Bool {
        // A shape layer drawn from its path: its fill and stroke are one picture (the stroke over
        // the fill) whose opacity applies once, and its rounded clip shapes them as it would contents.
        if let shape = layer as? CAShapeLayer, shape.path != nil {
            if opacity < 1 && layer.allowsGroupOpacity && shape.strokeColor != nil && shape.fillColor != nil { return true }
            if roundedClip && layer.masksToBounds && layer.cornerRadius > 0 { return true }
        }
        // Blended with the backdrop: all it draws is one picture, blended once (not again inside
        // the pass of its mask, whose composite blends).
        if blending && compositingMode(of: layer) != nil { return true }
        // An emitter's particles overlap one another: its opacity applies to them as one picture.
        if layer is CAEmitterLayer, opacity < 1, layer.allowsGroupOpacity { return true }
        let hasSublayers = !(layer.sublayers ?? []).isEmpty
        guard hasSublayers else { return false }
        if opacity < 1 && layer.allowsGroupOpacity { return true }
        return roundedClip && layer.masksToBounds && layer.cornerRadius > 0
    }

    /// Draws what `visit` draws itself and pushes what follows it onto `pending`, the walk's stack,
    /// last to be drawn first: its border, then its sublayers.
    func visit(_ visit: Visit, state: inout BuildState, then pending: inout [Step]) throws {
        let layer = visit.layer, clip = visit.clip, passMap = visit.passMap
        // Asked once: comparing the optional matrix with nil copied it each time (2% of a Lottie
        // glyph's frame).
        let ownPlacement = passMap == nil
        if let border = visit.border {
            emitBorder(of: layer, border, tint: visit.tint, state: &state)
            return
        }
        guard visit.depth < limits.maxDepth else { throw CompositorError.treeTooDeep(limit: limits.maxDepth) }
        state.layersVisited += 1
        guard state.layersVisited <= limits.maxLayers else { throw CompositorError.tooManyLayers(limit: limits.maxLayers) }
        if let excess = state.overBudget { throw excess }
        if layer.isHidden { return }
        if rules == .renderInContext, ownPlacement,
           layer.transform.turnsOutOfPlane || (layer.superlayer.map { $0.mask !== layer && $0.sublayerTransform.turnsOutOfPlane } ?? false) {
            return
        }
        if let problem = GeometryCheck.problem(in: layer) {
            state.diagnostics.append("\(layer) and its sublayers are not drawn: \(problem)")
            return
        }
        // A compositingFilter that is no blend mode known here is said (and drawn source-over),
        // once: at the layer's own visit, not again inside the group or mask pass drawn for it.
        if ownPlacement, visit.isolation == .none, let unknown = RenderListBuilder.unknownCompositingFilter(of: layer) {
            state.diagnostics.append(unknown)
        }
        let layerOpacity = layer.opacity.isNaN ? 0 : min(max(Double(layer.opacity), 0), 1)
        if visit.opacity * layerOpacity == 0 { return }
        let composites = ownPlacement && visit.isolation == .none
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

        // Bounds with no area clip everything away: contents, sublayers and the shadow they cast
        // (background and border need area anyway). A transform layer ignores masksToBounds.
        if layer.masksToBounds, !(bounds.size.width > 0 && bounds.size.height > 0), !(layer is CATransformLayer) { return }

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
        if ownPlacement, visit.isolation != .group, layer.shadowOpacity > 0, let color = layer.shadowColor, color.alpha > 0 {
            try drawShadow(visit, map: map, opacity: visit.isolation == .masked ? 1 : opacity, state: &state)
        }

        var borderFirst = false
        if ownPlacement, visit.isolation != .group, layer.transitionFrame == nil,
           needsOffscreenPass(layer, opacity: visit.isolation == .masked ? 1 : layerOpacity,
                                                blending: visit.isolation == .none) {
            // A rounded clip alone (no group opacity) that cuts nothing needs no pass; its border
            // then comes straight after its background (the sublayers do not reach it).
            let forOpacity = needsOffscreenPass(layer, opacity: visit.isolation == .masked ? 1 : layerOpacity,
                                                                  roundedClip: false, blending: visit.isolation == .none)
            if forOpacity || !roundedClipCutsNothing(visit, map: map, state: &state) {
                try drawIsolated(visit, map: map, planeToDevice: planeToDevice, opacity: opacity, state: &state)
                return
            }
            borderFirst = true
        }

        if ownPlacement, let transition = layer.transitionFrame {
            try drawTransition(transition, of: layer, map: map, clip: clip, opacity: opacity, tint: visit.tint,
                               depth: visit.depth, state: &state)
            return
        }

        if ownPlacement, layer.shouldRasterize, layer.transitionFrame == nil {
            try drawRasterized(visit, map: map, opacity: opacity, state: &state)
            return
        }

        // Inside a group pass whose composite applies the layer's rounded outline, what the layer
        // draws reaches past its bounds, so that outline is anti-aliased once (outlineMargin).
        let margin = outlineMargin(of: visit, map: map)
        let reach: Rect? = margin.map { Rect(x: boundsRect.x - $0, y: boundsRect.y - $0, width: boundsRect.width + 2 * $0, height: boundsRect.height + 2 * $0) }
        var ownClip = clip
        if layer.masksToBounds {
            // A clip along an enclosing rounded outline's bounds leaves that edge to the outline.
            let bounded = (reach ?? visit.outline?.reaching(boundsRect, map: map)).map { orient(PolygonClipping.project($0, through: map)) }
                ?? orient(projectedBounds)
            ownClip = PolygonClipping.intersect(bounded, with: clip)
        }

        // `CGRect.width` is standardized (never negative), so the sign is read from the size.
        let hasArea = bounds.size.width > 0 && bounds.size.height > 0
        // Rounded corners shape the background always, the contents only with masksToBounds.
        var rounding = visit.maskRounding ?? (layer.cornerRadius > 0 && hasArea
            ? map.inverted().flatMap { inverse in roundedBounds(of: layer).map { RoundedShape(deviceToLocal: inverse, outer: $0) } }
            : nil)
        // Rounded as the enclosing outline is, the layer leaves its corners to that outline.
        if let shape = rounding, shape.inner == nil, visit.outline?.coincides(with: shape.outer, map: map) == true { rounding = nil }
        if hasArea, let color = layer.backgroundColor {
            let c = color.premultiplied
            if c.alpha > 0 {
                emit(rect: reach ?? boundsRect, map: map, clip: ownClip, part: "background", layer: layer,
                     fill: .solid(PremultipliedColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)),
                     opacity: opacity, tint: visit.tint, rounded: reach == nil ? rounding : nil, clipOnly: clip,
                     outline: visit.outline, state: &state)
            }
        }
        // A gradient layer's gradient, from its formula, over the background and shaped as it is
        // (rounded corners shape it without masksToBounds, as Core Animation's do).
        if hasArea, let gradient = layer as? CAGradientLayer, let fill = RenderListBuilder.gradientFill(of: gradient, map: map) {
            emit(rect: reach ?? boundsRect, map: map, clip: ownClip, part: "gradient", layer: layer, fill: .gradient(fill),
                 opacity: opacity, tint: visit.tint, rounded: reach == nil ? rounding : nil, clipOnly: clip,
                 outline: visit.outline, state: &state)
        }
                // Drawn content may cover its own rectangle (a shape layer's path), bounds or not.
        if hasArea || layer.drawnContentsFrame != nil, let image = layer.contents as? CGImage {
            try emitContents(image, of: layer, map: map, clip: ownClip, opacity: opacity, tint: visit.tint,
                         rounded: reach == nil && (layer.masksToBounds || visit.maskRounding != nil) ? rounding : nil,
                         parentClip: clip, outline: visit.outline, state: &state)
        }
        // A shape layer's fill and stroke, between its contents and its first sublayer.
        if let shape = layer as? CAShapeLayer {
            emitShapePaths(of: shape, map: map, clip: ownClip, opacity: opacity, tint: visit.tint, state: &state)
        }
        // A tiled layer's tiles, at the level of detail the frame shows it at.
        if hasArea, let tiled = layer as? CATiledLayer {
            emitTiles(of: tiled, map: map, clip: ownClip, opacity: opacity, tint: visit.tint, state: &state)
        }
        // An emitter's particles, between its contents and its first sublayer.
        if let emitter = layer as? CAEmitterLayer {
            emitParticles(of: emitter, map: map, clip: ownClip, opacity: opacity, tint: visit.tint, state: &state)
        }
        if bounds.size.width < 0 || bounds.size.height < 0 {
            state.diagnostics.append("\(layer) draws no background or contents: its bounds size \(bounds.size) is negative")
        }

        // The border comes after everything the sublayers draw: it is the last item of the list.
        if hasArea && layer.borderWidth > 0 {
            let border = BorderDraw(map: map, clip: clip, opacity: opacity, outerMargin: margin ?? 0)
            if borderFirst {
                emitBorder(of: layer, border, tint: visit.tint, state: &state)
            } else {
                pending.append(.visit(Visit(layer: layer, parentPlaneToDevice: visit.parentPlaneToDevice, opacity: opacity,
                                            clip: clip, depth: visit.depth, tint: visit.tint, border: border)))
            }
        }
        guard let sublayers = layer.sublayers, !sublayers.isEmpty, ownClip.count >= 3 else { return }
        let childParent = CATransform3DConcat(RenderListBuilder.flatten, planeToDevice)
        let ordered = layer.sublayersInDrawingOrder
        guard let replicator = layer as? CAReplicatorLayer else {
            pending.append(.sublayers(SublayerRun(layers: ordered, parentPlaneToDevice: childParent, opacity: opacity,
                                                  clip: ownClip, depth: visit.depth + 1, tint: visit.tint,
                                                  outline: visit.outline), next: 0))
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
    func replicatedVisits(_ sublayers: [CALayer], of replicator: CAReplicatorLayer, childParent: CATransform3D,
                          opacity: Double, clip: [DevicePoint], visit: Visit, state: inout BuildState) -> [Visit] {
        ReplicatorInstance.instances(of: replicator, sublayers: sublayers, diagnostics: &state.diagnostics).flatMap { instance in
            let parent = CATransform3DConcat(instance.transform, childParent)
            let tint = visit.tint.multiplied(by: instance.tint)
            return instance.sublayers.map {
                var instanceVisit = Visit(layer: $0, parentPlaneToDevice: parent, opacity: opacity, clip: clip,
                                          depth: visit.depth + 1, tint: tint)
                instanceVisit.outline = visit.outline
                return instanceVisit
            }
        }
    }

    /// Adds one quad. With a rounded shape, the shape's own outline gives the coverage at the
    /// layer's edges, and the polygon keeps only the edges of `clipOnly` (the clip the layer is
    /// drawn in), so no edge counts twice.
    func emit(rect: Rect, map: ProjectiveTransform2D, clip: [DevicePoint], part: String, layer: CALayer,
              fill: Fill, opacity: Double, blend: BlendMode = .sourceOver,
              tint: PremultipliedColor = .opaqueWhite, rounded: RoundedShape? = nil,
              clipOnly: [DevicePoint]? = nil, outline: EnclosingOutline? = nil, hardEdges: [EdgeEquation] = [],
              wholePixels: Bool = false, state: inout BuildState) {
        // Sides along an enclosing rounded outline's bounds reach past them (the texture map and
        // `localRect` stay the rectangle's); a rounded shape keeps its own outline.
        let drawn = rounded == nil ? outline?.reaching(rect, map: map) ?? rect : rect
        var projected = orient(PolygonClipping.project(drawn, through: map))
        if wholePixels { projected = RenderListBuilder.outToWholePixels(projected) }
        guard projected.count >= 3, clip.count >= 3 else { return }
        let visible = PolygonClipping.intersect(projected, with: clip)
        guard var polygon = CoveragePolygon(vertices: visible, targetWidth: state.width, targetHeight: state.height) else { return }
        if rounded != nil {
            polygon = polygon.withEdges(of: state.clipPolygon(clipOnly ?? clip))
        }
        if let hard = hardEdgeLines(of: layer, map: map) { polygon.harden(along: hard) }
        if !hardEdges.isEmpty { polygon.harden(along: hardEdges) }
        state.ops.append(.quad(QuadOp(source: DrawSource(layer: state.name(of: layer), part: part), localRect: rect, localToDevice: map,
                                      polygon: polygon, fill: fill, opacity: opacity, blend: blend, tint: tint,
                                      rounded: rounded)))
    }

    /// An axis-aligned device rectangle grown out to whole pixels (its winding kept), so that its
    /// edges lie on pixel boundaries (`CoveragePolygon.wholePixelRect`) and the GL shadow batch
    /// leaves them out. Any other polygon as it is. For quads whose pixels past the
    /// rectangle are drawn as nothing anyway (a closed-form shadow's, past its negligible reach).
    package static func outToWholePixels(_ points: [DevicePoint]) -> [DevicePoint] {
        guard points.count == 4 else { return points }
        let xs = points.map(\.x), ys = points.map(\.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(),
              minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite, minX < maxX, minY < maxY else { return points }
        // Each corner at one of the rectangle's two x and two y, to within rounding.
        let tolerance = 1e-9 * max(1, abs(minX), abs(maxX), abs(minY), abs(maxY))
        func side(_ v: Double, _ low: Double, _ high: Double) -> Bool? {
            abs(v - low) <= tolerance ? false : abs(v - high) <= tolerance ? true : nil
        }
        var snapped: [DevicePoint] = []
        for p in points {
            guard let right = side(p.x, minX, maxX), let bottom = side(p.y, minY, maxY) else { return points }
            snapped.append(DevicePoint(x: right ? maxX.rounded(.up) : minX.rounded(.down), y: bottom ? maxY.rounded(.up) : minY.rounded(.down)))
        }
        // Four distinct corners: two on each side.
        guard Set(snapped).count == 4 else { return points }
        return snapped
    }

    /// The device lines of the layer's bounds edges that are not anti-aliased
    /// (`allowsEdgeAntialiasing`, `edgeAntialiasingMask`); nil when all four are. Whatever is
    /// drawn along such an edge (background, border, contents, a sublayer's clip by it) is hard
    /// there; edges inside the bounds stay smooth.
    func hardEdgeLines(of layer: CALayer, map: ProjectiveTransform2D) -> [EdgeEquation]? {
        let mask = layer.allowsEdgeAntialiasing ? layer.edgeAntialiasingMask : []
        guard mask.rawValue & 15 != 15 else { return nil }
        let b = layer.bounds
        let corners = [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY),
                       CGPoint(x: b.maxX, y: b.maxY), CGPoint(x: b.minX, y: b.maxY)]
        // Sides in order: min y, max x, max y, min x, and the mask bit of each.
        let sides: [(Int, Int, CAEdgeAntialiasingMask)] = [(0, 1, .layerBottomEdge), (1, 2, .layerRightEdge),
                                                           (2, 3, .layerTopEdge), (3, 0, .layerLeftEdge)]
        let lines = sides.filter { !mask.contains($0.2) }.flatMap { from, to, _ in deviceLines(along: corners[from], corners[to], map: map) }
        return lines.isEmpty ? nil : lines
    }

    /// The device line through the projections of two local points, in both orientations (the
    /// polygon's edge points inward whichever way the plane faces); none where either point is
    /// behind the eye or they project onto one.
    func deviceLines(along from: CGPoint, _ to: CGPoint, map: ProjectiveTransform2D) -> [EdgeEquation] {
        let p = map.applyHomogeneous(x: from.x, y: from.y)
        let q = map.applyHomogeneous(x: to.x, y: to.y)
        guard p.w > 0, q.w > 0 else { return [] }
        let px = p.x / p.w, py = p.y / p.w, qx = q.x / q.w, qy = q.y / q.w
        let dx = qx - px, dy = qy - py
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 1e-9, length.isFinite else { return [] }
        let a = -dy / length, b = dx / length
        return [EdgeEquation(a: a, b: b, c: -(a * px + b * py)), EdgeEquation(a: -a, b: -b, c: a * px + b * py)]
    }

    /// The polygon with positive orientation (back faces come out reversed).
    func orient(_ points: [DevicePoint]) -> [DevicePoint] {
        PolygonClipping.signedArea(points) < 0 ? points.reversed() : points
    }
}
