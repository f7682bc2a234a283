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

    /// Trees deeper than this are refused rather than recursed into. Default: 4096.
    public static let maxDepth = 4096

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
        let size = try RenderListBuilder.pixelSize(viewport: viewport, scale: scale)
        var state = BuildState(width: size.width, height: size.height)
        let toDevice = CATransform3DConcat(CATransform3DMakeTranslation(-viewport.minX, -viewport.minY, 0),
                                           CATransform3DMakeScale(scale, scale, 1))
        let guardBand = PolygonClipping.rectangle(minX: -2, minY: -2,
                                                  maxX: Double(size.width) + 2, maxY: Double(size.height) + 2)
        // An explicit stack instead of recursion: trees thousands of levels deep must not overflow
        // the (small) stacks of the threads rendering may run on.
        var pending = [Visit(layer: root, parentPlaneToDevice: toDevice, opacity: 1, clip: guardBand, depth: 0)]
        while let next = pending.popLast() {
            let children = try visit(next, state: &state)
            pending.append(contentsOf: children.reversed())
        }
        let pass = RenderPass(id: 0, width: size.width, height: size.height, ops: state.ops)
        return RenderList(width: size.width, height: size.height, passes: [pass],
                          textures: state.textures, diagnostics: state.diagnostics)
    }

    private struct BuildState {
        let width: Int
        let height: Int
        var ops: [DrawOp] = []
        var textures: [UInt64: Bitmap] = [:]
        var diagnostics: [String] = []
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
        let opacity: Double
        /// The convex clip region in device pixels, positively oriented.
        let clip: [DevicePoint]
        let depth: Int
    }

    /// Emits the layer's own draws and returns its sublayers' visits, in drawing order.
    private func visit(_ visit: Visit, state: inout BuildState) throws -> [Visit] {
        let layer = visit.layer, clip = visit.clip
        guard visit.depth < RenderListBuilder.maxDepth else { throw CompositorError.treeTooDeep(limit: RenderListBuilder.maxDepth) }
        if layer.isHidden { return [] }
        if let problem = GeometryCheck.problem(in: layer) {
            state.diagnostics.append("\(layer) and its sublayers are not drawn: \(problem)")
            return []
        }
        let layerOpacity = layer.opacity.isNaN ? 0 : min(max(Double(layer.opacity), 0), 1)
        let opacity = visit.opacity * layerOpacity
        if opacity == 0 { return [] }

        let planeToDevice = CATransform3DConcat(layer.transformToSuperlayer, visit.parentPlaneToDevice)
        let map = planeToDevice.planeTransform
        let bounds = layer.bounds
        let boundsRect = Rect(x: bounds.minX, y: bounds.minY, width: bounds.width, height: bounds.height)

        // Facing: the bounds' corners keep their on-screen winding when the front faces the eye.
        let projectedBounds = PolygonClipping.project(boundsRect, through: map)
        let facesFront = PolygonClipping.signedArea(projectedBounds) >= 0
        // A layer's sublayers are flattened into its plane, so a culled layer takes them along.
        if !layer.isDoubleSided && !facesFront { return [] }

        var ownClip = clip
        if layer.masksToBounds {
            ownClip = PolygonClipping.intersect(orient(projectedBounds), with: clip)
        }

        // `CGRect.width` is standardized (never negative), so the sign is read from the size.
        if bounds.size.width > 0 && bounds.size.height > 0 {
            if let color = layer.backgroundColor {
                let c = color.premultiplied
                if c.alpha > 0 {
                    emit(rect: boundsRect, map: map, clip: ownClip, part: "background", layer: layer,
                         fill: .solid(PremultipliedColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)),
                         opacity: opacity, state: &state)
                }
            }
            if let image = layer.contents as? CGImage {
                emitContents(image, of: layer, map: map, clip: ownClip, opacity: opacity, state: &state)
            }
        } else if bounds.size.width < 0 || bounds.size.height < 0 {
            state.diagnostics.append("\(layer) draws no background or contents: its bounds size \(bounds.size) is negative")
        }

        guard let sublayers = layer.sublayers, !sublayers.isEmpty, ownClip.count >= 3 else { return [] }
        let childParent = CATransform3DConcat(RenderListBuilder.flatten, planeToDevice)
        return layer.sublayersInDrawingOrder.map {
            Visit(layer: $0, parentPlaneToDevice: childParent, opacity: opacity, clip: ownClip, depth: visit.depth + 1)
        }
    }

    private func emitContents(_ image: CGImage, of layer: CALayer, map: ProjectiveTransform2D,
                              clip: [DevicePoint], opacity: Double, state: inout BuildState) {
        let cr = layer.contentsRect
        guard cr.width > 0, cr.height > 0 else { return }
        var contentsScale = layer.contentsScale
        if !(contentsScale.isFinite && contentsScale > 0) {
            state.diagnostics.append("\(layer): contentsScale \(contentsScale) is not a positive number; 1 is used")
            contentsScale = 1
        }
        let contentSize = CGSize(width: CGFloat(image.width) * cr.width / contentsScale,
                                 height: CGFloat(image.height) * cr.height / contentsScale)
        let frame = ContentsGeometry.frame(bounds: layer.bounds, contentSize: contentSize, gravity: layer.contentsGravity)
        guard frame.width > 0, frame.height > 0, let deviceToLocal = map.inverted() else { return }
        // Local point -> normalized texture coordinate: the frame maps onto contentsRect.
        let localToTexture = ProjectiveTransform2D(
            m11: cr.width / frame.width, m12: 0, m13: 0,
            m21: 0, m22: cr.height / frame.height, m23: 0,
            m31: cr.minX - frame.minX * cr.width / frame.width,
            m32: cr.minY - frame.minY * cr.height / frame.height, m33: 1)
        state.textures[image.identifier] = image.bitmap
        let fill = TextureFill(texture: image.identifier, deviceToTexture: deviceToLocal.concatenating(localToTexture),
                               filter: .linear)
        emit(rect: Rect(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height), map: map, clip: clip,
             part: "contents", layer: layer, fill: .texture(fill), opacity: opacity, state: &state)
    }

    private func emit(rect: Rect, map: ProjectiveTransform2D, clip: [DevicePoint], part: String, layer: CALayer,
                      fill: Fill, opacity: Double, state: inout BuildState) {
        let projected = orient(PolygonClipping.project(rect, through: map))
        guard projected.count >= 3, clip.count >= 3 else { return }
        let visible = PolygonClipping.intersect(projected, with: clip)
        guard let polygon = CoveragePolygon(vertices: visible, targetWidth: state.width, targetHeight: state.height) else { return }
        state.ops.append(.quad(QuadOp(source: "\(layer) \(part)", localRect: rect, localToDevice: map,
                                      polygon: polygon, fill: fill, opacity: opacity)))
    }

    /// The polygon with positive orientation (back faces come out reversed).
    private func orient(_ points: [DevicePoint]) -> [DevicePoint] {
        PolygonClipping.signedArea(points) < 0 ? points.reversed() : points
    }
}
