import Foundation
import LayerModel
import OpenCoreGraphics

// CATransformLayer (and CAReplicatorLayer with preservesDepth): sublayers stay in 3D. Every
// ordinary layer in the scene (a sublayer of the transform layer, or of a transform layer among
// them; for a replicator, each instance of each sublayer) is a plane: its own subtree is
// flattened into an offscreen pass in its plane as usual, the planes are sorted by depth with a
// BSP tree (split where they cross), and each piece is drawn, textured from its plane's pass,
// into the scene root's superlayer's plane.

extension RenderListBuilder {
    /// One plane of a 3D scene.
    struct ScenePlane {
        let layer: CALayer
        /// The plane's bounds space into the scene's space (the superlayer plane of the
        /// outermost transform layer), homogeneous, z kept.
        let toScene: CATransform3D
        let opacity: Double
        /// A replicator instance's colour, multiplied down.
        let tint: PremultipliedColor
    }

    /// True for layers whose sublayers join their superlayer's 3D scene instead of flattening.
    static func keepsDepth(_ layer: CALayer) -> Bool {
        layer is CATransformLayer || (layer as? CAReplicatorLayer)?.preservesDepth == true
    }

    /// The planes under `root` (a transform layer or depth-preserving replicator) in tree order;
    /// `rootToScene` places the root.
    func scenePlanes(of root: CALayer, rootToScene: CATransform3D, opacity: Double, diagnostics: inout [String]) -> [ScenePlane] {
        var planes: [ScenePlane] = []
        var pending: [(CALayer, CATransform3D, Double, PremultipliedColor)] = [(root, rootToScene, opacity, .opaqueWhite)]
        while let (container, toScene, opacity, tint) = pending.popLast() {
            var children: [(CALayer, CATransform3D, Double, PremultipliedColor)] = []
            for (layer, instanceToScene, instanceTint) in instances(of: container, toScene: toScene, tint: tint, diagnostics: &diagnostics) {
                if let problem = GeometryCheck.problem(in: layer) {
                    diagnostics.append("\(layer) and its sublayers are not drawn: \(problem)")
                    continue
                }
                let layerOpacity = layer.opacity.isNaN ? 0 : min(max(Double(layer.opacity), 0), 1)
                let placed = CATransform3DConcat(layer.transformToSuperlayer, instanceToScene)
                if RenderListBuilder.keepsDepth(layer) {
                    children.append((layer, placed, opacity * layerOpacity, instanceTint))
                } else if opacity * layerOpacity > 0 {
                    planes.append(ScenePlane(layer: layer, toScene: placed, opacity: opacity * layerOpacity, tint: instanceTint))
                }
            }
            pending.append(contentsOf: children.reversed())
        }
        return planes
    }

    /// A scene container's visible sublayers, each with the map of the container's space into
    /// the scene it is seen through and its tint: once, or for a replicator once per instance,
    /// one more instanceTransform (about the replicator's centre) each time.
    private func instances(of container: CALayer, toScene: CATransform3D, tint: PremultipliedColor,
                           diagnostics: inout [String]) -> [(CALayer, CATransform3D, PremultipliedColor)] {
        let sublayers = container.sublayersInDrawingOrder.filter { !$0.isHidden }
        guard let replicator = container as? CAReplicatorLayer else { return sublayers.map { ($0, toScene, tint) } }
        return ReplicatorInstance.instances(of: replicator, sublayers: sublayers, diagnostics: &diagnostics).flatMap { instance in
            instance.sublayers.filter { !$0.isHidden }.map {
                ($0, CATransform3DConcat(instance.transform, toScene), tint.multiplied(by: instance.tint))
            }
        }
    }

    /// A transform layer's 3D scene: each plane drawn offscreen, the planes split and sorted
    /// back to front, each piece drawn from its plane's pass.
    func drawScene3D(_ visit: Visit, layerOpacity: Double, state: inout BuildState) throws {
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
            let device = orient(PolygonClipping.project(piece.points.map { CGPoint(x: $0.x, y: $0.y) }[...], through: sceneToDevice))
            guard device.count >= 3 else { continue }
            let visible = PolygonClipping.intersect(device, with: visit.clip)
            guard let coverage = CoveragePolygon(vertices: visible, targetWidth: state.width, targetHeight: state.height) else { continue }
            let rect = Rect(x: extent.minX, y: extent.minY, width: extent.width, height: extent.height)
            let localToTexture = ProjectiveTransform2D.unitSquare(from: rect)
            let fill = TextureFill(source: .pass(pass), deviceToTexture: deviceToLocal.concatenating(localToTexture), filter: .linear)
            state.ops.append(.quad(QuadOp(source: DrawSource(planes[piece.item].layer, part: "in 3D"), localRect: rect, localToDevice: planeToDevice,
                                          polygon: coverage, fill: .texture(fill), opacity: opacity * planes[piece.item].opacity,
                                          tint: visit.tint.multiplied(by: planes[piece.item].tint))))
        }
    }
}
