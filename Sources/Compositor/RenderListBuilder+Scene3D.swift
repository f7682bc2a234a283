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
}
