import Foundation
import OpenCoreGraphics

// Over 500 lines on purpose: Apple declares these members `open` (overridable), and Swift lets a
// subclass override only what the class body declares, not an extension; what need not be open
// lives in the CALayer+*.swift extensions.

/// The layer: a rectangle in a tree of rectangles, with Core Animation's geometry and appearance
/// properties. It holds no pixels and knows nothing of how it is drawn; `Compositor` reads it.
///
/// Geometry (iOS flavour, y down): a point p of the bounds maps into the superlayer as
/// `(p - bounds.origin - anchorPoint * bounds.size, -anchorPointZ) · transform + (position, zPosition)`,
/// and then through the superlayer's `sublayerTransform` about the superlayer's anchor point.
open class CALayer: CAMediaTiming, CustomStringConvertible {
    public init() {}

    /// A copy of `layer`'s properties (not its sublayers, superlayer or animations), as Core
    /// Animation makes presentation layers. Subclasses with properties of their own override it,
    /// call super, and copy theirs. Not `required`, as on Apple's platforms, so a subclass with
    /// initializers of its own compiles without one; presentation copies of such a subclass are
    /// of its library class unless it adopts `LayerPresentationCopying` (see there).
    public init(layer: Any) {
        guard let other = layer as? CALayer else { return }
        state = other.state
    }

    /// Apple's NSCoding initializer, required as there, so the `required init?(coder:)` every
    /// ported subclass carries compiles unchanged. Layers are not archived here (Foundation's
    /// keyed archivers hold NSObject subclasses, which a layer without the Objective-C runtime is
    /// not), so there is never a layer to decode: it returns nil.
    public required init?(coder: NSCoder) { return nil }

    /// Every property value of the layer, as one value: presentation layers copy it whole, and
    /// animations write into it, so a copy is one assignment instead of thirty.
    /// Exclusivity is not checked at run time: every write is one plain assignment that calls
    /// nothing while it lasts (actions and delegates run before and after it, outside the
    /// access), so accesses cannot overlap, and the check on every read was a tenth of the time
    /// the compositor spends flattening a large tree.
    @exclusivity(unchecked) var state = LayerState() {
        didSet { stateWrites &+= 1 }
    }
    /// How many times `state` has been written: a presentation copy refreshed from its model
    /// knows by it that neither has changed since (`presentationTree(atMediaTime:reusing:)`).
    @exclusivity(unchecked) var stateWrites: UInt = 0
    /// For a presentation copy: its model's `stateWrites` and its own just after its state was
    /// last assigned from the model.
    @exclusivity(unchecked) var refreshedAt: (model: UInt, copy: UInt)?

    deinit {
        if layoutPending { PendingCount.layout.unmark() }
        if needsDisplayFlag { PendingCount.display.unmark() }
        // The sublayers and the mask that name this layer their superlayer lose that link.
        for layer in storedSublayers { unlinkIfChild(layer) }
        if let storedMask { unlinkIfChild(storedMask) }
        // Release deep trees iteratively: the default, recursive release of a chain thousands of
        // layers deep would overflow the stack. A layer whose sublayers are taken from it here
        // finds none in its own deinit, so they lose their link to it here.
        var pending = storedSublayers
        storedSublayers = []
        while var layer = pending.popLast() {
            if isKnownUniquelyReferenced(&layer) {
                for sublayer in layer.storedSublayers { layer.unlinkIfChild(sublayer) }
                pending.append(contentsOf: layer.storedSublayers)
                layer.storedSublayers = []
            }
        }
    }

    // MARK: Geometry

    /// The layer's own coordinate space: its origin is what the top-left corner is called, its size
    /// how large the layer is. Default: `.zero`.
    open var bounds: CGRect {
        get { state.bounds }
        set {
            let old = state.bounds
            change("bounds", \.bounds, to: newValue)
            if state.needsDisplayOnBoundsChange && old.size != newValue.size { setNeedsDisplay() }
            // Its sublayers may need rearranging (Apple's layer marks itself when its bounds change).
            if old != newValue { setNeedsLayout() }
        }
    }

    /// Where the anchor point sits in the superlayer's coordinate space. Default: `.zero`.
    open var position: CGPoint {
        get { state.position }
        set { change("position", \.position, to: newValue) }
    }

    /// The layer's position on the z axis, in the superlayer's space; also its drawing order
    /// among siblings (higher on top). Default: 0.
    open var zPosition: CGFloat {
        get { state.zPosition }
        set { change("zPosition", \.zPosition, to: newValue) }
    }

    /// The point of the bounds, in unit coordinates, that `position` names and that `transform`
    /// turns about. Default: (0.5, 0.5), the centre.
    open var anchorPoint: CGPoint {
        get { state.anchorPoint }
        set { change("anchorPoint", \.anchorPoint, to: newValue) }
    }

    /// The anchor point's z coordinate. Default: 0.
    open var anchorPointZ: CGFloat {
        get { state.anchorPointZ }
        set { change("anchorPointZ", \.anchorPointZ, to: newValue) }
    }

    /// The transform applied to the layer about its anchor point. Default: identity.
    open var transform: CATransform3D {
        get { state.transform }
        set { change("transform", \.transform, to: newValue) }
    }

    /// The transform applied to the sublayers, about this layer's anchor point (x and y); the place
    /// for a perspective `m34`. Default: identity.
    open var sublayerTransform: CATransform3D {
        get { state.sublayerTransform }
        set { change("sublayerTransform", \.sublayerTransform, to: newValue) }
    }

    // MARK: Appearance

    /// A hidden layer and its sublayers are not drawn and not hit. Default: false.
    open var isHidden: Bool {
        get { state.isHidden }
        set {
            let was = state.isHidden
            change("hidden", \.isHidden, to: newValue)
            // Shown or hidden in a rendered tree: the order-in and order-out events, as Apple's
            // kCAOnOrderIn and kCAOnOrderOut document them.
            if was != newValue { runAction(forEvent: newValue ? kCAOnOrderOut : kCAOnOrderIn) }
        }
    }

    /// Opacity in 0...1, multiplied through the tree. Default: 1.
    open var opacity: Float {
        get { state.opacity }
        set { change("opacity", \.opacity, to: newValue) }
    }

    /// The fill behind the contents. Default: nil (nothing drawn).
    open var backgroundColor: CGColor? {
        get { state.backgroundColor }
        set { change("backgroundColor", \.backgroundColor, to: newValue) }
    }

    /// The layer's image: a `CGImage`; other values draw nothing, as in Core Animation. Default: nil.
    open var contents: Any? {
        get { state.contents }
        set {
            propertyWillChange("contents")
            state.contents = newValue
            state.drawnContentsFrame = nil
            state.contentsAreDrawn = false
            propertyDidChange("contents")
        }
    }

    /// For drawn content that covers more than the bounds (a shape layer's path may reach past
    /// them): the rectangle, in bounds coordinates, that `contents` shows over. nil otherwise.
    public var drawnContentsFrame: CGRect? { state.drawnContentsFrame }

    /// Whether `contents` holds the layer's own drawing (made by `display()` from `draw(in:)`,
    /// a delegate or a content layer class such as CAShapeLayer) rather than a value set on it.
    public var contentsAreDrawn: Bool { state.contentsAreDrawn }

    /// The part of the contents image drawn, in unit coordinates of the image. Values outside
    /// 0...1 extend the image's edge pixels. Default: (0, 0, 1, 1).
    open var contentsRect: CGRect {
        get { state.contentsRect }
        set { change("contentsRect", \.contentsRect, to: newValue) }
    }

    /// How the contents are placed in the bounds. Default: `.resize`.
    open var contentsGravity: CALayerContentsGravity {
        get { state.contentsGravity }
        set { state.contentsGravity = newValue }
    }

    /// Image pixels per point of the contents, used by every gravity but the resizing ones.
    /// Default: 1.
    open var contentsScale: CGFloat {
        get { state.contentsScale }
        set { state.contentsScale = newValue }
    }

    /// The stretchable middle of the contents, in unit coordinates of the part `contentsRect`
    /// selects: when the contents are scaled (the resizing gravities), the four corners outside it
    /// keep their size, the edges between them stretch along their length only, and the middle
    /// stretches both ways (a nine-slice image). Where the bounds are smaller than the fixed
    /// corners, the corners shrink in proportion. Animatable. Default: (0, 0, 1, 1).
    open var contentsCenter: CGRect {
        get { state.contentsCenter }
        set { change("contentsCenter", \.contentsCenter, to: newValue) }
    }

    /// The filter for contents drawn smaller than their pixels: `.linear`, `.nearest` or
    /// `.trilinear` (mipmaps). Default: `.linear`.
    open var minificationFilter: CALayerContentsFilter {
        get { state.minificationFilter }
        set { state.minificationFilter = newValue }
    }

    /// The filter for contents drawn larger than their pixels: `.linear` or `.nearest` (trilinear
    /// magnifies as linear). Default: `.linear`.
    open var magnificationFilter: CALayerContentsFilter {
        get { state.magnificationFilter }
        set { state.magnificationFilter = newValue }
    }

    /// Added to the level of detail the trilinear filter picks: positive values blur toward the
    /// smaller mipmaps, negative ones sharpen. Default: 0.
    open var minificationFilterBias: Float {
        get { state.minificationFilterBias }
        set { state.minificationFilterBias = newValue }
    }

    /// Flip the layer's bounds space vertically for its sublayers: their positions (and all that
    /// is geometry in this layer's space below it) are measured from the bottom, y up. Images
    /// stay upright; drawn content follows the flipped space (see `contentsAreFlipped()`).
    /// Default: false.
    open var isGeometryFlipped: Bool {
        get { state.isGeometryFlipped }
        set { state.isGeometryFlipped = newValue }
    }

    /// Whether the layer's content is drawn flipped: true when an odd number of this layer and
    /// its superlayers have `isGeometryFlipped`. `display()` then gives `draw(in:)` a context
    /// flipped vertically, so drawing follows the layer's own (y-up) geometry.
    open func contentsAreFlipped() -> Bool {
        var flipped = false
        var layer: CALayer? = self
        while let current = layer {
            if current.isGeometryFlipped { flipped.toggle() }
            layer = current.superlayer
        }
        return flipped
    }

    /// Whether the layer's edges may be anti-aliased (those `edgeAntialiasingMask` names). iOS
    /// reads its default from the app's `UIViewEdgeAntialiasing` setting and falls back to false;
    /// here it is `CALayer.defaultAllowsEdgeAntialiasing` (true: edges at their exact coverage,
    /// as headless comparisons with browsers and exact geometry expect; set it to false to see
    /// the stair-stepped edges of an iOS device). Only straight edges: rounded corners are
    /// always smooth, as on iOS.
    open var allowsEdgeAntialiasing: Bool {
        get { state.allowsEdgeAntialiasing ?? CALayer.defaultAllowsEdgeAntialiasing }
        set { state.allowsEdgeAntialiasing = newValue }
    }

    /// The value of `allowsEdgeAntialiasing` for layers that do not set it (iOS's
    /// `UIViewEdgeAntialiasing`). Default: true.
    nonisolated(unsafe) public static var defaultAllowsEdgeAntialiasing = true

    /// Which of the layer's edges are anti-aliased when `allowsEdgeAntialiasing` is true; the
    /// others are drawn hard (a pixel is in or out by its centre), so edges that abut another
    /// layer's leave no seam. Default: all four.
    open var edgeAntialiasingMask: CAEdgeAntialiasingMask {
        get { state.edgeAntialiasingMask }
        set { state.edgeAntialiasingMask = newValue }
    }

    /// The radius of the rounded corners of the background and border (and, with masksToBounds,
    /// of the contents). Clamped to half the shorter side when drawn. Default: 0.
    open var cornerRadius: CGFloat {
        get { state.cornerRadius }
        set { change("cornerRadius", \.cornerRadius, to: newValue) }
    }

    /// With opacity below 1, draw the layer and its sublayers together first and fade the result,
    /// so overlapping parts do not show through each other. Default: true.
    open var allowsGroupOpacity: Bool {
        get { state.allowsGroupOpacity }
        set { state.allowsGroupOpacity = newValue }
    }

    /// How strong the shadow is, 0...1. Default: 0 (no shadow).
    open var shadowOpacity: Float {
        get { state.shadowOpacity }
        set { change("shadowOpacity", \.shadowOpacity, to: newValue) }
    }

    /// The shadow's blur: the Gaussian's standard deviation in points. Default: 3.
    open var shadowRadius: CGFloat {
        get { state.shadowRadius }
        set { change("shadowRadius", \.shadowRadius, to: newValue) }
    }

    /// Where the shadow falls, in the superlayer's space (points). Default: (0, -3).
    open var shadowOffset: CGSize {
        get { state.shadowOffset }
        set { change("shadowOffset", \.shadowOffset, to: newValue) }
    }

    /// The shadow's colour (its alpha too). Default: opaque black.
    open var shadowColor: CGColor? {
        get { state.shadowColor }
        set { change("shadowColor", \.shadowColor, to: newValue) }
    }

    /// The shadow's shape; nil: the layer's composited alpha. Default: nil.
    open var shadowPath: CGPath? {
        get { state.shadowPath }
        set { change("shadowPath", \.shadowPath, to: newValue) }
    }

    /// Which corners cornerRadius rounds. Default: all four.
    open var maskedCorners: CACornerMask {
        get { state.maskedCorners }
        set { state.maskedCorners = newValue }
    }

    /// The shape of the rounded corners: quarter circles, or continuous curvature. Not animatable,
    /// as in Core Animation. Default: `.circular`.
    open var cornerCurve: CALayerCornerCurve {
        get { state.cornerCurve }
        set { state.cornerCurve = newValue }
    }

    /// The width of the border, drawn inside the bounds, above the sublayers. Default: 0.
    open var borderWidth: CGFloat {
        get { state.borderWidth }
        set { change("borderWidth", \.borderWidth, to: newValue) }
    }

    /// The border's colour. Default: opaque black.
    open var borderColor: CGColor? {
        get { state.borderColor }
        set { change("borderColor", \.borderColor, to: newValue) }
    }

    /// Clip the sublayers (and the contents) to the bounds. Default: false.
    open var masksToBounds: Bool {
        get { state.masksToBounds }
        set { state.masksToBounds = newValue }
    }

    /// Draw the layer and its sublayers into a bitmap once, at `rasterizationScale` pixels per
    /// point of the layer's own space, and composite that bitmap (transformed, so a scaled-up
    /// rasterized layer looks soft, as in Core Animation) until something in the subtree changes.
    /// Default: false.
    open var shouldRasterize: Bool {
        get { state.shouldRasterize }
        set { state.shouldRasterize = newValue }
    }

    /// Pixels per point of the rasterized bitmap; the screen's scale must be asked for
    /// explicitly, as in Core Animation. Default: 1.
    open var rasterizationScale: CGFloat {
        get { state.rasterizationScale }
        set { state.rasterizationScale = newValue }
    }

    /// When false, the layer is not drawn while its back faces the viewer. Default: true.
    open var isDoubleSided: Bool {
        get { state.isDoubleSided }
        set { state.isDoubleSided = newValue }
    }

    /// A name for finding and describing the layer. Default: nil.
    open var name: String? {
        get { state.name }
        set { state.name = newValue }
    }

    // MARK: Timing (CAMediaTiming): the layer's own time space, nested in its superlayer's

    /// Default: 0.
    open var beginTime: CFTimeInterval {
        get { state.beginTime }
        set { state.beginTime = newValue }
    }
    /// Default: 0.
    open var duration: CFTimeInterval {
        get { state.duration }
        set { state.duration = newValue }
    }
    /// Default: 1. Speed 0 freezes the layer's time at `timeOffset` (the seed's pause recipe).
    open var speed: Float {
        get { state.speed }
        set { state.speed = newValue }
    }
    /// Default: 0.
    open var timeOffset: CFTimeInterval {
        get { state.timeOffset }
        set { state.timeOffset = newValue }
    }
    /// Default: 0.
    open var repeatCount: Float {
        get { state.repeatCount }
        set { state.repeatCount = newValue }
    }
    /// Default: 0.
    open var repeatDuration: CFTimeInterval {
        get { state.repeatDuration }
        set { state.repeatDuration = newValue }
    }
    /// Default: false.
    open var autoreverses: Bool {
        get { state.autoreverses }
        set { state.autoreverses = newValue }
    }
    /// Default: `.removed`.
    open var fillMode: CAMediaTimingFillMode {
        get { state.fillMode }
        set { state.fillMode = newValue }
    }

    // MARK: Apple's overridable entry points
    //
    // Declared here so subclasses can override them (Swift overrides only what the class body
    // declares); each forwards to its implementation in the CALayer+*.swift file of its concern.

    /// The layer's rectangle in the superlayer's space: the bounding box of the bounds after
    /// `transform`. Setting it sets `position` and `bounds.size` (see `frameRect`).
    open var frame: CGRect {
        get { frameRect }
        set { frameRect = newValue }
    }

    /// The 2D affine part of `transform`.
    open func affineTransform() -> CGAffineTransform { CATransform3DGetAffineTransform(transform) }

    /// Sets `transform` to the 3D form of an affine transform.
    open func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3DMakeAffineTransform(m) }

    /// The part of the bounds the nearest CAScrollLayer above does not clip away.
    open var visibleRect: CGRect { rectVisibleInScrollLayer }

    /// The nearest layer that is this one or a superlayer of it and also `layer` or a superlayer
    /// of it; nil when they are in different trees.
    open func ancestorShared(with layer: CALayer) -> CALayer? { nearestCommonAncestor(with: layer) }

    /// How much farther along each edge a corner of `curve` reaches than a circular corner of the
    /// same radius: 1 for circular corners, 1.528 for continuous ones (drawn as superellipses).
    open class func cornerCurveExpansionFactor(_ curve: CALayerCornerCurve) -> CGFloat {
        curve == .continuous ? CALayerCornerCurve.continuousExtent : 1
    }

    /// Converts `p` from the space of `layer` (nil: the root's superlayer space) into this layer's.
    open func convert(_ p: CGPoint, from layer: CALayer?) -> CGPoint { convertedPoint(p, from: layer) }
    /// Converts `p` from this layer's space into that of `layer`.
    open func convert(_ p: CGPoint, to layer: CALayer?) -> CGPoint { convertedPoint(p, to: layer) }
    /// Converts `r` from the space of `layer`: the bounding box of its converted corners.
    open func convert(_ r: CGRect, from layer: CALayer?) -> CGRect { convertedRect(r, from: layer) }
    /// Converts `r` from this layer's space into that of `layer`.
    open func convert(_ r: CGRect, to layer: CALayer?) -> CGRect { convertedRect(r, to: layer) }
    /// Converts `t` from the time space of `layer` (nil: media time) into this layer's.
    open func convertTime(_ t: CFTimeInterval, from layer: CALayer?) -> CFTimeInterval { convertedTime(t, from: layer) }
    /// Converts `t` from this layer's time space into that of `layer` (nil: media time).
    open func convertTime(_ t: CFTimeInterval, to layer: CALayer?) -> CFTimeInterval { convertedTime(t, to: layer) }

    /// Attaches a copy of `anim` under `key` (nil: a key of its own), replacing and stopping one
    /// already there.
    open func add(_ anim: CAAnimation, forKey key: String?) { attachAnimation(anim, forKey: key) }
    /// A copy of the animation attached under `key`.
    open func animation(forKey key: String) -> CAAnimation? { attachedAnimation(forKey: key) }
    /// The keys of the attached animations, in the order added; nil when there are none.
    open func animationKeys() -> [String]? { attachedAnimations.isEmpty ? nil : attachedAnimations.map(\.key) }
    /// Detaches the animation under `key`; its delegate hears it stopped unfinished.
    open func removeAnimation(forKey key: String) { detachAnimation(forKey: key) }
    /// Detaches every animation.
    open func removeAllAnimations() { detachAllAnimations() }

    /// The layer as it appears now (`CACurrentMediaTime()`), with its animations applied; its
    /// sublayers are presentation layers too. Nil for a layer never committed to a rendered tree
    /// (no renderer has drawn it yet), as Apple's header says: code writes
    /// `layer.presentation() ?? layer` for that case. Nil too for a subclass presented as its
    /// library class (see `LayerPresentationCopying`).
    open func presentation() -> Self? {
        guard isLive || modelLayer != nil else { return nil }
        return presentationNow() as? Self
    }
    /// For a presentation layer, the model layer it shows; for a model layer, itself.
    open func model() -> Self { (modelLayer as? Self) ?? self }

    /// The value at `key`: a property or a custom key (then `defaultValue(forKey:)` until set).
    open func value(forKey key: String) -> Any? { keyValue(atPath: key) }
    /// Sets the value at `key`; a value of the wrong type for a declared property is ignored.
    open func setValue(_ value: Any?, forKey key: String) { setKeyValue(value, atPath: key) }
    /// The value at a key path such as "bounds.size.width" or "transform.scale.x".
    open func value(forKeyPath keyPath: String) -> Any? { keyValue(atPath: keyPath) }
    /// Sets the value at a key path; a value of the wrong type for a declared property is ignored.
    open func setValue(_ value: Any?, forKeyPath keyPath: String) { setKeyValue(value, atPath: keyPath) }

    /// Scrolls the nearest CAScrollLayer at or above this one so that `p` (this layer's space) is
    /// at its top left.
    open func scroll(_ p: CGPoint) { scrollNearestScrollLayer(toPoint: p) }
    /// Scrolls the nearest CAScrollLayer at or above this one so that `r` is visible.
    open func scrollRectToVisible(_ r: CGRect) { scrollNearestScrollLayer(toShow: r) }

    /// An instance of the library class nearest to this one (CALayer, CAShapeLayer, ...) copied
    /// from `layer` by `init(layer:)`: the presentation copy of a layer whose class cannot be
    /// constructed from its class value (see `LayerPresentationCopying`). Each library subclass
    /// answers with its own class.
    class func libraryCopy(of layer: CALayer) -> CALayer { CALayer(layer: layer) }

    // MARK: Key-value coding

    /// Values of keys the layer has no property for (custom animatable properties, as Core
    /// Animation's KVC extension allows arbitrary keys).
    var customValues: [String: Any] {
        get { state.customValues }
        set { state.customValues = newValue }
    }

    /// The value of `key` before it is set: a declared property's default (`"opacity"`: 1,
    /// `"anchorPoint"`: (0.5, 0.5), ...), nil for other keys; subclasses answer for their own.
    open class func defaultValue(forKey key: String) -> Any? {
        LayerKeyPaths.accessors[key].map { $0.get(LayerKeyPaths.defaults) } ?? nil
    }

    /// Keys beyond CALayer's own whose changes animate implicitly (subclasses add theirs).
    /// Default: none.
    open class var implicitlyAnimatedKeys: Set<String> { [] }

    /// Whether a change of `key` means the layer's content must be redrawn. Default: false.
    open class func needsDisplay(forKey key: String) -> Bool { false }

    // MARK: Display

    /// Set by `setNeedsDisplay()`, cleared when the content is redrawn; counted while set
    /// (`PendingCount.display`), so a frame with nothing to redraw walks no tree for it.
    public private(set) var needsDisplayFlag = false {
        didSet {
            guard needsDisplayFlag != oldValue else { return }
            if needsDisplayFlag { PendingCount.display.mark() } else { PendingCount.display.unmark() }
        }
    }

    /// Marks the layer's content as needing to be redrawn before the next frame.
    open func setNeedsDisplay() { needsDisplayFlag = true }

    /// Marks part of the content for redrawing. The whole backing store is redrawn (partial
    /// redraws are not kept separately), so this is `setNeedsDisplay()` for any non-empty rect.
    open func setNeedsDisplay(_ r: CGRect) {
        if !r.isNull, !r.isEmpty { setNeedsDisplay() }
    }

    /// Whether the content must be redrawn.
    open func needsDisplay() -> Bool { needsDisplayFlag }

    /// Gives the layer its content: the delegate's `display(_:)` if there is a delegate, else a
    /// backing store drawn by `draw(in:)`. Called for layers marked with `setNeedsDisplay()`
    /// before a frame; not called for layers never marked (as in Core Animation).
    open func display() {
        needsDisplayFlag = false
        if let delegate { delegate.display(self) } else { drawBackingStore() }
    }

    /// Draws the content into `ctx`, whose coordinates are the layer's bounds (y down). The
    /// default asks the delegate's `draw(_:in:)`; subclasses override it (seed 000's pie layer).
    open func draw(in ctx: CGContext) {
        delegate?.draw(self, in: ctx)
    }

    /// Whether drawn content follows a flipped geometry (drawing, paths, gradients do); text
    /// layers answer false, since text reads upright whatever the geometry, as Core Animation's
    /// text layers do.
    var drawingFollowsFlippedGeometry: Bool { true }

    /// The rectangle (bounds coordinates) a backing store covers: the bounds, or more for layers
    /// whose drawing reaches past them.
    var backingStoreRect: CGRect { bounds }

    /// Whether display() draws a backing store at all: false for a layer whose content the
    /// renderers draw from its properties alone (a CAShapeLayer's path), which would only make
    /// an empty image to upload.
    var drawsIntoBackingStore: Bool { true }

    /// Whether the content is redrawn when the bounds change. Default: false.
    open var needsDisplayOnBoundsChange: Bool {
        get { state.needsDisplayOnBoundsChange }
        set { state.needsDisplayOnBoundsChange = newValue }
    }

    /// Redraws the content if it is marked as needing it.
    open func displayIfNeeded() { if needsDisplayFlag { display() } }

    /// A promise that the drawn content covers the bounds opaquely. A hint: backing stores keep
    /// their alpha, and what is drawn shows as drawn. Default: false.
    open var isOpaque: Bool {
        get { state.isOpaque }
        set { state.isOpaque = newValue }
    }

    /// Apple's permission to draw content on a background thread. Accepted; drawing here stays
    /// synchronous, so every frame is deterministic. Default: false.
    open var drawsAsynchronously: Bool {
        get { state.drawsAsynchronously }
        set { state.drawsAsynchronously = newValue }
    }

    /// The storage asked for drawn content. A hint, as on Apple's platforms: backing stores are
    /// 8-bit RGBA whatever it says. Default: `.RGBA8Uint`.
    open var contentsFormat: CALayerContentsFormat {
        get { state.contentsFormat }
        set { state.contentsFormat = newValue }
    }

    /// Whether the value of `key` is archived with the layer. Default: true.
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    /// A Core Image filter or blend mode name combining the layer with what is behind it.
    /// Kept and coded; blend modes by name are issue 26's, until then the layer composites
    /// source-over. Default: nil.
    open var compositingFilter: Any? {
        get { state.compositingFilter }
        set { state.compositingFilter = newValue }
    }

    /// Core Image filters for the layer's content: macOS's, and not supported on iOS, as Apple
    /// documents. Kept and coded, not applied (Core Image does not exist here). Default: nil.
    open var filters: [Any]? {
        get { state.filters }
        set { state.filters = newValue }
    }

    /// Core Image filters for what is behind the layer: as `filters`. Default: nil.
    open var backgroundFilters: [Any]? {
        get { state.backgroundFilters }
        set { state.backgroundFilters = newValue }
    }

    /// Whether the contents may hold extended-range colour. Kept; output is standard range.
    /// Default: false.
    open var wantsExtendedDynamicRangeContent: Bool {
        get { state.wantsExtendedDynamicRangeContent }
        set { state.wantsExtendedDynamicRangeContent = newValue }
    }

    /// When the contents are tone mapped. Kept; output is standard range. Default: `.automatic`.
    open var toneMapMode: ToneMapMode {
        get { state.toneMapMode }
        set { state.toneMapMode = newValue }
    }

    /// The headroom of extended-range contents. Kept; output is standard range. Default: 0.
    open var contentsHeadroom: CGFloat {
        get { state.contentsHeadroom }
        set { state.contentsHeadroom = newValue }
    }

    /// The dynamic range the contents would like. Kept; output is standard range.
    /// Default: `.automatic`.
    open var preferredDynamicRange: DynamicRange {
        get { state.preferredDynamicRange }
        set { state.preferredDynamicRange = newValue }
    }

    // MARK: Animations

    /// Attached animations by key, in the order they were added (later ones apply on top).
    /// This and the tree links below are read for every layer of every frame, and, like `state`,
    /// are not checked for exclusivity at run time: each write is one assignment or one array
    /// change whose closures (a comparison of identities) read nothing of the layer's, so no
    /// access can overlap another. The checks' bookkeeping was 8% of a Lottie letter's frame.
    @exclusivity(unchecked) var attachedAnimations: [(key: String, animation: CAAnimation)] = []

    /// For a presentation copy, the model layer it was made from.
    @exclusivity(unchecked) var modelLayer: CALayer?

    /// For a presentation copy, the transition running on it at the presentation's time.
    @exclusivity(unchecked) public internal(set) var transitionFrame: TransitionFrame?

    /// For a presentation copy whose `contents` animates between two images: the image it comes
    /// from and how far the cross-fade to `contents` has gone.
    @exclusivity(unchecked) public internal(set) var contentsCrossFade: ContentsCrossFade?

    /// Values as they were at the last commit, recorded at the first change after it: what a
    /// transition added in this transaction shows as the old state. Sublayers under "sublayers".
    var committedValues: [String: Any?] = [:]

    // MARK: Actions

    /// Actions by key, searched after the delegate's. `NSNull()` stops the search. Default: nil.
    open var actions: [String: CAAction]?

    /// A dictionary of default property values and actions ("actions" holds a [String: CAAction]),
    /// searched after `actions`; a "style" entry inside is searched next, and so on. Default: nil.
    open var style: [String: Any]?

    /// The layer's delegate: asked first for actions. Held weakly. Default: nil.
    open weak var delegate: CALayerDelegate?

    /// True once a renderer has drawn the layer: only such layers animate implicitly, as only
    /// committed layers have a presentation in Core Animation.
    var isLive = false

    /// Actions looked up before a property changed, run once it has (see CALayer+Actions).
    var pendingActions: [String: (action: CAAction, presentedValue: Any?)] = [:]

    /// The action for `event`, searched as Core Animation does: the delegate, `actions`, `style`
    /// (recursively), `defaultAction(forKey:)`, then the implicit animation of animatable
    /// properties. `NSNull()` at any step means "no action" and ends the search.
    open func action(forKey event: String) -> CAAction? {
        ActionLookup.action(for: self, forKey: event)
    }

    /// The action for `event` when nothing more specific gives one. Default: nil.
    open class func defaultAction(forKey event: String) -> CAAction? { nil }

    // MARK: Tree

    /// The layer this one is a sublayer of. Default: nil.
    public internal(set) var superlayer: CALayer? {
        get { parentLink }
        set {
            parentLink = newValue
            parentIdentity = newValue.map(ObjectIdentifier.init)
        }
    }

    /// The superlayer, not retained, as Core Animation's is not: a parent clears its children's
    /// links as it goes (deinit), so the link never outlives it. Unowned rather than weak: a
    /// weak reference gives its target a side table, and Swift then counts every retain and
    /// release of that object through it (every layer with sublayers: a TypeFace glyph's frame
    /// took 0.73-0.82 ms with those counts, 0.52-0.69 without). Unowned (not unsafe): a link
    /// that did outlive its layer would stop the process when read, not read freed memory.
    private unowned var parentLink: CALayer?
    /// Who `parentLink` names, comparable while that layer is being deinitialized (when the link
    /// itself can no longer be read).
    private var parentIdentity: ObjectIdentifier?

    /// Clears `layer`'s superlayer link where it names this layer.
    func unlinkIfChild(_ layer: CALayer) {
        if layer.parentIdentity == ObjectIdentifier(self) { layer.superlayer = nil }
    }

    /// The sublayers; internal so that presentation trees can be assembled without the checks.
    @exclusivity(unchecked) var storedSublayers: [CALayer] = []

    /// The sublayers, back to front (before zPosition ordering). Setting it removes the old ones
    /// from this layer and adds the new ones. Default: nil.
    open var sublayers: [CALayer]? {
        get { storedSublayers.isEmpty ? nil : storedSublayers }
        set {
            withModelLock {
                recordCommittedValue(forKey: "sublayers")
                for layer in storedSublayers { layer.superlayer = nil }
                storedSublayers = []
                for layer in newValue ?? [] { insertSublayer(layer, at: UInt32(storedSublayers.count)) }
            }
        }
    }

    /// The mask layer held strongly; not in `state`, since a presentation copy gets a presented mask.
    @exclusivity(unchecked) var storedMask: CALayer?

    /// A layer whose alpha multiplies this layer's composited pixels (its shadow, background,
    /// contents, border and sublayers). The mask is placed in this layer's bounds space like a
    /// sublayer (without `sublayerTransform`), and its `superlayer` is this layer, as on Apple's
    /// platforms: clients lay a mask out from its superlayer's bounds (lottie-ios sizes every
    /// mask so), and layout, time and coordinate conversion reach it through that link. A mask
    /// that already has a superlayer keeps it (Apple leaves that case undefined). A mask that is
    /// this layer, one of its ancestors, or a mask already in use higher up is not applied, and
    /// the renderer says so in its diagnostics. Default: nil.
    open var mask: CALayer? {
        get { storedMask }
        set {
            withModelLock {
                if let old = storedMask, old !== newValue, old.superlayer === self { old.superlayer = nil }
                storedMask = newValue
                if let newValue, newValue.superlayer == nil, !isDescendant(of: newValue) {
                    newValue.superlayer = self
                    newValue.setNeedsLayout()
                }
            }
        }
    }

    /// Appends `layer` on top of the other sublayers, removing it from its old superlayer first.
    /// Adding a layer to itself or to one of its own descendants is refused: it would make a cycle.
    open func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(storedSublayers.count))
    }

    /// Inserts `layer` at `index` among the sublayers; an index past the end appends.
    open func insertSublayer(_ layer: CALayer, at index: UInt32) {
        withModelLock {
            refuseCycle(adding: layer)
            layer.removeFromSuperlayer()
            recordCommittedValue(forKey: "sublayers")
            storedSublayers.insert(layer, at: min(Int(index), storedSublayers.count))
            layer.superlayer = self
            setNeedsLayout()
            // Entering a rendered tree: the new layer's kCAOnOrderIn action runs (it becomes live
            // at the next frame, so its own property changes animate from then on).
            layer.runAction(forEvent: kCAOnOrderIn, live: isLive)
            runAction(forEvent: "sublayers")
        }
    }

    /// Inserts `layer` just below `sibling`; at the bottom when `sibling` is nil or not a sublayer.
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        refuseCycle(adding: layer)
        layer.removeFromSuperlayer()
        let index = sibling.flatMap { s in storedSublayers.firstIndex { $0 === s } } ?? 0
        insertSublayer(layer, at: UInt32(index))
    }

    /// Inserts `layer` just above `sibling`; on top when `sibling` is nil or not a sublayer.
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        refuseCycle(adding: layer)
        layer.removeFromSuperlayer()
        let index = sibling.flatMap { s in storedSublayers.firstIndex { $0 === s }.map { $0 + 1 } }
            ?? storedSublayers.count
        insertSublayer(layer, at: UInt32(index))
    }

    /// Puts `newLayer` where `oldLayer` is. Nothing happens when `oldLayer` is not a sublayer.
    open func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard oldLayer !== newLayer, let index = storedSublayers.firstIndex(where: { $0 === oldLayer }) else { return }
        refuseCycle(adding: newLayer)
        oldLayer.removeFromSuperlayer()
        insertSublayer(newLayer, at: UInt32(index))
    }

    /// Detaches the layer from its superlayer.
    open func removeFromSuperlayer() {
        withModelLock {
            guard let parent = superlayer else { return }
            // A mask leaves its layer's mask, not its sublayers.
            if parent.storedMask === self {
                parent.storedMask = nil
                superlayer = nil
                return
            }
            runAction(forEvent: kCAOnOrderOut)
            parent.recordCommittedValue(forKey: "sublayers")
            parent.storedSublayers.removeAll { $0 === self }
            superlayer = nil
            parent.setNeedsLayout()
            parent.runAction(forEvent: "sublayers")
        }
    }

    // MARK: Layout

    /// Set by `setNeedsLayout()`, cleared as the layer is laid out. Not part of `state`: a
    /// presentation copy is never laid out.
    private var layoutPending = false

    /// Marks the layer as needing its sublayers laid out: the next frame (or `layoutIfNeeded()`)
    /// calls `layoutSublayers()` before anything is displayed. Changing `bounds` and adding or
    /// removing sublayers call it.
    open func setNeedsLayout() {
        guard modelLayer == nil else { return }
        let marked = withModelLock { () -> Bool in
            guard !layoutPending else { return false }
            layoutPending = true
            return true
        }
        if marked { PendingCount.layout.mark() }
    }

    /// Whether the layer is marked as needing layout.
    open func needsLayout() -> Bool { layoutPending }

    /// Lays out now what is marked: from the nearest superlayer that needs no layout (or the
    /// root), every marked layer under it, top down, each before its sublayers.
    open func layoutIfNeeded() {
        var top = self
        while let parent = top.superlayer, parent.needsLayout() { top = parent }
        top.layoutTreeIfNeeded()
    }

    /// Lays out the sublayers. The default asks the delegate (`layoutSublayers(of:)`); subclasses
    /// override it to set their sublayers' frames.
    open func layoutSublayers() {
        delegate?.layoutSublayers(of: self)
    }

    /// The layer's size in its superlayer's space: its bounds mapped through its transform.
    open func preferredFrameSize() -> CGSize { frame.size }

    /// Lays out every marked layer of the subtree (masks included), top down. The walk reads each
    /// layer's sublayers after laying it out, so layers its layout adds are laid out too.
    func layoutTreeIfNeeded() {
        guard PendingCount.layout.anyPending else { return }
        walkTree { layer in
            guard layer.layoutPending else { return }
            layer.withModelLock { layer.layoutPending = false }
            PendingCount.layout.unmark()
            layer.layoutSublayers()
        }
    }

    // MARK: Hit testing

    /// True when `p`, in this layer's coordinate space, is inside the bounds. Override it to hit
    /// test by shape (a shape layer's path).
    open func contains(_ p: CGPoint) -> Bool { bounds.contains(p) }

    /// The farthest descendant (or this layer) that contains `p`, given in the superlayer's
    /// coordinate space. Hidden layers are skipped; with `masksToBounds`, points outside the bounds
    /// miss the sublayers too. Sublayers are tried front to back (zPosition, then order). A layer
    /// seen edge-on cannot be hit.
    open func hitTest(_ p: CGPoint) -> CALayer? {
        guard !isHidden, let fromParent = transformToSuperlayer.planeTransform.inverted() else { return nil }
        let h = fromParent.applyHomogeneous(x: p.x, y: p.y)
        guard h.w > 0 else { return nil }
        let local = CGPoint(x: h.x / h.w, y: h.y / h.w)
        let inside = contains(local)
        if masksToBounds && !inside { return nil }
        for sublayer in sublayersInDrawingOrder.reversed() {
            if let hit = sublayer.hitTest(local) { return hit }
        }
        return inside ? self : nil
    }

    /// True when `ancestor` is this layer or one of its superlayers.
    public func isDescendant(of ancestor: CALayer) -> Bool {
        var layer: CALayer? = self
        while let current = layer {
            if current === ancestor { return true }
            layer = current.superlayer
        }
        return false
    }

    /// Traps when adding `layer` would make a cycle. fatalError rather than precondition: an
    /// optimized build drops a precondition's message, and this one names the two layers.
    private func refuseCycle(adding layer: CALayer) {
        if isDescendant(of: layer) { fatalError(cycleMessage(adding: layer)) }
    }

    private func cycleMessage(adding layer: CALayer) -> String {
        "CALayer: cannot add \(layer) as a sublayer of \(self): it is that layer or one of its superlayers, "
            + "and the layer tree would contain a cycle"
    }

    // MARK: Identity (NSObject's, which CALayer inherits on Apple's platforms)

    /// Whether `object` is this layer: NSObject's identity equality. `==` and `Hashable` go
    /// through it (see `CALayer: Hashable`), so layers key dictionaries and fill sets as on
    /// Apple's platforms; a subclass that overrides it overrides `hash` to match.
    open func isEqual(_ object: Any?) -> Bool { (object as AnyObject?) === self }

    /// NSObject's hash: the layer's identity.
    open var hash: Int { ObjectIdentifier(self).hashValue }

    // MARK: Description

    open var description: String {
        // The whole address: unique among the layers alive, so a draw's source names its layer
        // (the rounded-clip trial tells a layer's own draws from its sublayers' by it; 16 bits of
        // the address let two layers of one tree share a name now and then).
        let label = name.map { "'\($0)'" } ?? "<\(UInt(bitPattern: ObjectIdentifier(self).hashValue))>"
        return CALayer.typeName(of: self) + " " + label
    }

    /// Class names, looked up once per class: every drawn quad names its layer, and asking the
    /// runtime for a type's name each time was a large share of flattening a tree.
    /// Guarded by `typeNamesLock`, an NSLock (a pthread mutex, which the thread sanitizer sees).
    nonisolated(unsafe) private static var typeNames: [ObjectIdentifier: String] = [:]
    private static let typeNamesLock = NSLock()

    package static func typeName(of layer: CALayer) -> String {
        let type = Swift.type(of: layer)
        if type == CALayer.self { return "CALayer" } // most layers: no lock, no lookup
        let key = ObjectIdentifier(type)
        if let known = typeNamesLock.withLock({ typeNames[key] }) { return known }
        let name = String(describing: type)
        typeNamesLock.withLock { typeNames[key] = name }
        return name
    }
}
