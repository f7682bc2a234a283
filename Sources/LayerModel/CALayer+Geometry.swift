import Foundation
import OpenCoreGraphics

extension CALayer {
    /// The layer's transform as it acts in the superlayer's bounds space, without the
    /// superlayer's sublayerTransform: translate(-anchor) · transform · translate(position).
    public var transformInSuperlayerBounds: CATransform3D {
        let anchor = anchorInBounds
        var t = CATransform3DMakeTranslation(-anchor.x, -anchor.y, -anchorPointZ)
        t = CATransform3DConcat(t, transform)
        return CATransform3DConcat(t, CATransform3DMakeTranslation(position.x, position.y, zPosition))
    }

    /// The whole map from this layer's bounds space to its superlayer's bounds space, including
    /// the superlayer's sublayerTransform about its anchor point. For a layer without superlayer,
    /// the map into the space its position is given in.
    public var transformToSuperlayer: CATransform3D {
        let own = transformInSuperlayerBounds
        // A mask sits in its layer's bounds space without the sublayer transform.
        guard let parent = superlayer, parent.storedMask !== self else { return own }
        return CATransform3DConcat(own, parent.sublayerTransformAboutAnchor)
    }

    /// What this layer does to its sublayers' geometry: with `isGeometryFlipped`, y measured
    /// from the bottom of the bounds (y -> minY + maxY - y), then `sublayerTransform` about the
    /// anchor point (x and y only).
    public var sublayerTransformAboutAnchor: CATransform3D {
        var flip = CATransform3DIdentity
        if isGeometryFlipped {
            flip.m22 = -1
            flip.m42 = bounds.minY + bounds.maxY
        }
        if CATransform3DIsIdentity(sublayerTransform) { return flip }
        let anchor = anchorInBounds
        let toAnchor = CATransform3DMakeTranslation(-anchor.x, -anchor.y, 0)
        let back = CATransform3DMakeTranslation(anchor.x, anchor.y, 0)
        let aboutAnchor = CATransform3DConcat(CATransform3DConcat(toAnchor, sublayerTransform), back)
        return isGeometryFlipped ? CATransform3DConcat(flip, aboutAnchor) : aboutAnchor
    }

    /// The anchor point in bounds coordinates.
    public var anchorInBounds: CGPoint {
        CGPoint(x: bounds.origin.x + anchorPoint.x * bounds.width,
                y: bounds.origin.y + anchorPoint.y * bounds.height)
    }

    /// The layer's rectangle in the superlayer's coordinate space: the bounding box of the bounds
    /// after `transform` (projected where it has perspective). Setting it sets `position` and
    /// `bounds.size`. With a non-identity transform, the size is solved so that the transformed
    /// bounds' bounding box is the new frame where the transform's 2D part allows it (scales,
    /// 90-degree turns); for transforms where it does not (45-degree turns), `bounds.size` becomes
    /// the frame's size. Non-finite frames are ignored.
    var frameRect: CGRect {
        get {
            boundingBox(of: CGRect(origin: bounds.origin, size: bounds.size), through: transformInSuperlayerBounds.planeTransform)
        }
        set {
            guard newValue.origin.x.isFinite, newValue.origin.y.isFinite,
                  newValue.width.isFinite, newValue.height.isFinite else { return }
            let rect = newValue.standardized
            var size = rect.size
            if !CATransform3DIsIdentity(transform) {
                let a = abs(transform.m11), b = abs(transform.m12), c = abs(transform.m21), d = abs(transform.m22)
                let det = a * d - c * b
                if abs(det) > 1e-9 {
                    let w = (rect.width * d - rect.height * c) / det
                    let h = (rect.height * a - rect.width * b) / det
                    if w >= 0, h >= 0 { size = CGSize(width: w, height: h) }
                }
            }
            bounds.size = size
            position = .zero
            let placed = frame
            position = CGPoint(x: rect.minX - placed.minX, y: rect.minY - placed.minY)
        }
    }

    /// The part of the bounds a scroll layer above does not clip away, in this layer's space:
    /// the bounds, cut by the nearest CAScrollLayer ancestor's bounds.
    var rectVisibleInScrollLayer: CGRect {
        var ancestor = superlayer
        while let current = ancestor, !(current is CAScrollLayer) { ancestor = current.superlayer }
        guard let scroller = ancestor else { return bounds }
        return bounds.intersection(convert(scroller.bounds, from: scroller))
    }

    /// The nearest layer that is this one or one of its superlayers and also `layer` or one of
    /// its superlayers; nil when they are in different trees.
    func nearestCommonAncestor(with layer: CALayer) -> CALayer? {
        var candidate: CALayer? = self
        while let current = candidate {
            if layer.isDescendant(of: current) { return current }
            candidate = current.superlayer
        }
        return nil
    }

    /// The sublayers in the order they are drawn: by zPosition, ties in sublayer order.
    public var sublayersInDrawingOrder: [CALayer] {
        let layers = sublayers ?? []
        // Almost always already in order (equal zPositions): no sort, no copy.
        if layers.count < 2 || zip(layers, layers.dropFirst()).allSatisfy({ $0.zPosition <= $1.zPosition }) { return layers }
        return layers.enumerated().sorted { lhs, rhs in
            lhs.element.zPosition != rhs.element.zPosition
                ? lhs.element.zPosition < rhs.element.zPosition : lhs.offset < rhs.offset
        }.map(\.element)
    }

    // MARK: Converting between layers

    /// Converts `p` from the coordinate space of `layer` into this layer's. `nil` names the space
    /// the root layer's position is given in. Both layers flatten through their ancestors' planes,
    /// as they are drawn. A point with no image (through a layer seen edge-on) comes back as NaN.
    func convertedPoint(_ p: CGPoint, from layer: CALayer?) -> CGPoint {
        planeMap(from: layer).map { $0.apply(p) } ?? CGPoint(x: CGFloat.nan, y: .nan)
    }

    /// Converts `p` from this layer's coordinate space into that of `layer`.
    func convertedPoint(_ p: CGPoint, to layer: CALayer?) -> CGPoint {
        planeMap(to: layer).map { $0.apply(p) } ?? CGPoint(x: CGFloat.nan, y: .nan)
    }

    /// Converts `r` from the coordinate space of `layer`: the bounding box of its converted corners
    /// (`.null` when a corner has no image).
    func convertedRect(_ r: CGRect, from layer: CALayer?) -> CGRect {
        planeMap(from: layer).map { boundingBox(of: r, through: $0) } ?? .null
    }

    /// Converts `r` from this layer's coordinate space into that of `layer`.
    func convertedRect(_ r: CGRect, to layer: CALayer?) -> CGRect {
        planeMap(to: layer).map { boundingBox(of: r, through: $0) } ?? .null
    }

    /// The map from this layer's plane to the root space, flattening at every ancestor.
    public var planeTransformToRootSpace: ProjectiveTransform2D {
        var map = ProjectiveTransform2D.identity
        var layer: CALayer? = self
        while let current = layer {
            map = map.concatenating(current.transformToSuperlayer.planeTransform)
            layer = current.superlayer
        }
        return map
    }

    private func planeMap(from other: CALayer?) -> ProjectiveTransform2D? {
        let source = other?.planeTransformToRootSpace ?? .identity
        return planeTransformToRootSpace.inverted().map { source.concatenating($0) }
    }

    private func planeMap(to other: CALayer?) -> ProjectiveTransform2D? {
        guard let other else { return planeTransformToRootSpace }
        return other.planeMap(from: self)
    }

    private func boundingBox(of r: CGRect, through map: ProjectiveTransform2D) -> CGRect {
        let corners = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                       CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)].map { map.apply($0) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        guard xs.allSatisfy(\.isFinite), ys.allSatisfy(\.isFinite) else { return .null }
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}
