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
    var contents: Any?
    var contentsRect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    var contentsGravity: CALayerContentsGravity = .resize
    var contentsScale: CGFloat = 1
    var contentsCenter: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    var minificationFilter: CALayerContentsFilter = .linear
    var magnificationFilter: CALayerContentsFilter = .linear
    var minificationFilterBias: Float = 0
    var isGeometryFlipped = false
    var edgeAntialiasingMask: CAEdgeAntialiasingMask = .all
    /// nil: `CALayer.defaultAllowsEdgeAntialiasing`.
    var allowsEdgeAntialiasing: Bool?
    var masksToBounds: Bool = false
    var isDoubleSided: Bool = true
    var name: String?
    var beginTime: CFTimeInterval = 0
    var duration: CFTimeInterval = 0
    var speed: Float = 1
    var timeOffset: CFTimeInterval = 0
    var repeatCount: Float = 0
    var repeatDuration: CFTimeInterval = 0
    var autoreverses: Bool = false
    var fillMode: CAMediaTimingFillMode = .removed
    var customValues: [String: Any] = [:]
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
    var shadowPath: CGPath?
    var maskedCorners: CACornerMask = .all
    var cornerCurve: CALayerCornerCurve = .circular
    var borderWidth: CGFloat = 0
    var borderColor: CGColor? = CGColor.black
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
