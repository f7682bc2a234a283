import Foundation
import OpenCoreGraphics

/// The values of a layer's properties, with their defaults (documented on `CALayer`).
struct LayerState {
    var bounds: CGRect = .zero
    var position: CGPoint = .zero
    var zPosition: CGFloat = 0
    var anchorPoint: CGPoint = CGPoint(x: 0.5, y: 0.5)
    var anchorPointZ: CGFloat = 0
    var transform: CATransform3D = CATransform3DIdentity
    var sublayerTransform: CATransform3D = CATransform3DIdentity
    var isHidden: Bool = false
    var opacity: Float = 1
    var backgroundColor: CGColor?
    var contentsRect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    var contentsScale: CGFloat = 1
    var isGeometryFlipped = false
    var masksToBounds: Bool = false
    var isDoubleSided: Bool = true
    var beginTime: CFTimeInterval = 0
    var duration: CFTimeInterval = 0
    var speed: Float = 1
    var timeOffset: CFTimeInterval = 0
    var repeatCount: Float = 0
    var repeatDuration: CFTimeInterval = 0
    var autoreverses: Bool = false
    var fillMode: CAMediaTimingFillMode = .removed
    /// A shape layer's own properties (their defaults on every other layer, which has none).
    var shape = ShapeLayerState()
    var cornerRadius: CGFloat = 0
    var allowsGroupOpacity = true
    var shouldRasterize = false
    var rasterizationScale: CGFloat = 1
    var shadowOpacity: Float = 0
    var shadowRadius: CGFloat = 3
    var shadowOffset = CGSize(width: 0, height: -3)
    var shadowColor: CGColor? = CGColor.black
    var maskedCorners: CACornerMask = .all
    var borderWidth: CGFloat = 0
    var borderColor: CGColor? = CGColor.black

    /// The properties few layers set and animations seldom write (`RareLayerState`), shared
    /// with the layer this state was copied from until one of them writes one.
    private var rare = RareLayerStateBox.defaults

    /// The shared properties, copied first where another state holds them too.
    private mutating func rareForWriting() -> RareLayerStateBox {
        if !isKnownUniquelyReferenced(&rare) { rare = RareLayerStateBox(rare.value) }
        return rare
    }

    var contents: Any? {
        get { rare.value.contents }
        set { rareForWriting().value.contents = newValue }
        _modify { yield &rareForWriting().value.contents }
    }
    var contentsGravity: CALayerContentsGravity {
        get { rare.value.contentsGravity }
        set { rareForWriting().value.contentsGravity = newValue }
        _modify { yield &rareForWriting().value.contentsGravity }
    }
    var contentsCenter: CGRect {
        get { rare.value.contentsCenter }
        set { rareForWriting().value.contentsCenter = newValue }
        _modify { yield &rareForWriting().value.contentsCenter }
    }
    var minificationFilter: CALayerContentsFilter {
        get { rare.value.minificationFilter }
        set { rareForWriting().value.minificationFilter = newValue }
        _modify { yield &rareForWriting().value.minificationFilter }
    }
    var magnificationFilter: CALayerContentsFilter {
        get { rare.value.magnificationFilter }
        set { rareForWriting().value.magnificationFilter = newValue }
        _modify { yield &rareForWriting().value.magnificationFilter }
    }
    var minificationFilterBias: Float {
        get { rare.value.minificationFilterBias }
        set { rareForWriting().value.minificationFilterBias = newValue }
        _modify { yield &rareForWriting().value.minificationFilterBias }
    }
    var edgeAntialiasingMask: CAEdgeAntialiasingMask {
        get { rare.value.edgeAntialiasingMask }
        set { rareForWriting().value.edgeAntialiasingMask = newValue }
        _modify { yield &rareForWriting().value.edgeAntialiasingMask }
    }
    var allowsEdgeAntialiasing: Bool? {
        get { rare.value.allowsEdgeAntialiasing }
        set { rareForWriting().value.allowsEdgeAntialiasing = newValue }
        _modify { yield &rareForWriting().value.allowsEdgeAntialiasing }
    }
    var name: String? {
        get { rare.value.name }
        set { rareForWriting().value.name = newValue }
        _modify { yield &rareForWriting().value.name }
    }
    var customValues: [String: Any] {
        get { rare.value.customValues }
        set { rareForWriting().value.customValues = newValue }
        _modify { yield &rareForWriting().value.customValues }
    }
    var shadowPath: CGPath? {
        get { rare.value.shadowPath }
        set { rareForWriting().value.shadowPath = newValue }
        _modify { yield &rareForWriting().value.shadowPath }
    }
    var cornerCurve: CALayerCornerCurve {
        get { rare.value.cornerCurve }
        set { rareForWriting().value.cornerCurve = newValue }
        _modify { yield &rareForWriting().value.cornerCurve }
    }
    var needsDisplayOnBoundsChange: Bool {
        get { rare.value.needsDisplayOnBoundsChange }
        set { rareForWriting().value.needsDisplayOnBoundsChange = newValue }
        _modify { yield &rareForWriting().value.needsDisplayOnBoundsChange }
    }
    var isOpaque: Bool {
        get { rare.value.isOpaque }
        set { rareForWriting().value.isOpaque = newValue }
        _modify { yield &rareForWriting().value.isOpaque }
    }
    var drawsAsynchronously: Bool {
        get { rare.value.drawsAsynchronously }
        set { rareForWriting().value.drawsAsynchronously = newValue }
        _modify { yield &rareForWriting().value.drawsAsynchronously }
    }
    var contentsFormat: CALayerContentsFormat {
        get { rare.value.contentsFormat }
        set { rareForWriting().value.contentsFormat = newValue }
        _modify { yield &rareForWriting().value.contentsFormat }
    }
    var compositingFilter: Any? {
        get { rare.value.compositingFilter }
        set { rareForWriting().value.compositingFilter = newValue }
        _modify { yield &rareForWriting().value.compositingFilter }
    }
    var filters: [Any]? {
        get { rare.value.filters }
        set { rareForWriting().value.filters = newValue }
        _modify { yield &rareForWriting().value.filters }
    }
    var backgroundFilters: [Any]? {
        get { rare.value.backgroundFilters }
        set { rareForWriting().value.backgroundFilters = newValue }
        _modify { yield &rareForWriting().value.backgroundFilters }
    }
    var wantsExtendedDynamicRangeContent: Bool {
        get { rare.value.wantsExtendedDynamicRangeContent }
        set { rareForWriting().value.wantsExtendedDynamicRangeContent = newValue }
        _modify { yield &rareForWriting().value.wantsExtendedDynamicRangeContent }
    }
    var toneMapMode: CALayer.ToneMapMode {
        get { rare.value.toneMapMode }
        set { rareForWriting().value.toneMapMode = newValue }
        _modify { yield &rareForWriting().value.toneMapMode }
    }
    var contentsHeadroom: CGFloat {
        get { rare.value.contentsHeadroom }
        set { rareForWriting().value.contentsHeadroom = newValue }
        _modify { yield &rareForWriting().value.contentsHeadroom }
    }
    var preferredDynamicRange: CALayer.DynamicRange {
        get { rare.value.preferredDynamicRange }
        set { rareForWriting().value.preferredDynamicRange = newValue }
        _modify { yield &rareForWriting().value.preferredDynamicRange }
    }
    var drawnContentsFrame: CGRect? {
        get { rare.value.drawnContentsFrame }
        set { rareForWriting().value.drawnContentsFrame = newValue }
        _modify { yield &rareForWriting().value.drawnContentsFrame }
    }
    var contentsAreDrawn: Bool {
        get { rare.value.contentsAreDrawn }
        set { rareForWriting().value.contentsAreDrawn = newValue }
        _modify { yield &rareForWriting().value.contentsAreDrawn }
    }
}

/// The properties of a layer's state that few layers set and animations seldom write (contents
/// and how they are drawn, filters, names, custom keys, ...): one shared value behind a
/// reference, so a presentation copy, which assigns its layer's state every frame, retains one
/// object for them instead of copying each (two existentials and a dozen references; the
/// assignment was a tenth of a Lottie letter's frame).
struct RareLayerState {
    var contents: Any?
    var contentsGravity: CALayerContentsGravity = .resize
    var contentsCenter: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    var minificationFilter: CALayerContentsFilter = .linear
    var magnificationFilter: CALayerContentsFilter = .linear
    var minificationFilterBias: Float = 0
    var edgeAntialiasingMask: CAEdgeAntialiasingMask = .all
    /// nil: `CALayer.defaultAllowsEdgeAntialiasing`.
    var allowsEdgeAntialiasing: Bool?
    var name: String?
    var customValues: [String: Any] = [:]
    var shadowPath: CGPath?
    var cornerCurve: CALayerCornerCurve = .circular
    var needsDisplayOnBoundsChange = false
    var isOpaque = false
    var drawsAsynchronously = false
    var contentsFormat: CALayerContentsFormat = .RGBA8Uint
    var compositingFilter: Any?
    var filters: [Any]?
    var backgroundFilters: [Any]?
    var wantsExtendedDynamicRangeContent = false
    var toneMapMode: CALayer.ToneMapMode = .automatic
    var contentsHeadroom: CGFloat = 0
    var preferredDynamicRange: CALayer.DynamicRange = .automatic
    /// Where a backing store drawn over more than the bounds lies (shape layers); nil: the bounds.
    var drawnContentsFrame: CGRect?
    /// Whether `contents` is the layer's own drawing (its backing store) rather than a value set.
    var contentsAreDrawn = false
}

/// `RareLayerState` behind a reference, copied on write by `LayerState`.
final class RareLayerStateBox {
    /// Written only through a box no other state holds (`LayerState.rareForWriting`), one
    /// assignment at a time, as `CALayer.state` is.
    @exclusivity(unchecked) var value: RareLayerState

    init(_ value: RareLayerState) { self.value = value }

    /// Every new layer's, until it sets one of them.
    nonisolated(unsafe) static let defaults = RareLayerStateBox(RareLayerState())
}
