import Foundation
import OpenCoreGraphics

/// The values of a layer's properties, with their defaults (documented on `CALayer`).
@dynamicMemberLookup
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

    /// A rare property (`RareLayerState`), read and written as if it were one of the state's own
    /// (`state.contents`, `\.shadowPath`).
    subscript<Value>(dynamicMember field: WritableKeyPath<RareLayerState, Value>) -> Value {
        get { rare.value[keyPath: field] }
        _modify { yield &rareForWriting().value[keyPath: field] }
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
