import Foundation
import LayerModel
import OpenCoreGraphics

// CATransformLayer: its sublayers stay in 3D. Every ordinary layer in the scene (a sublayer of
// the transform layer, or of a transform layer among them) is a plane: its own subtree is
// flattened into an offscreen pass in its plane as usual, the planes are sorted by depth with a
// BSP tree (split where they cross), and each piece is drawn, textured from its plane's pass,
// into the transform layer's superlayer's plane.

extension RenderListBuilder {
    /// One plane of a 3D scene.
    struct ScenePlane {
        let layer: CALayer
        /// The plane's bounds space into the scene's space (the superlayer plane of the
        /// outermost transform layer), homogeneous, z kept.
        let toScene: CATransform3D
        let opacity: Double
    }

    /// The planes under `root` (a transform layer) in tree order; `rootToScene` places the root.
    func scenePlanes(of root: CALayer, rootToScene: CATransform3D, opacity: Double, diagnostics: inout [String]) -> [ScenePlane] {
        var planes: [ScenePlane] = []
        var pending: [(CALayer, CATransform3D, Double)] = [(root, rootToScene, opacity)]
        while let (container, toScene, opacity) = pending.popLast() {
            var children: [(CALayer, CATransform3D, Double)] = []
            for layer in container.sublayersInDrawingOrder where !layer.isHidden {
                if let problem = GeometryCheck.problem(in: layer) {
                    diagnostics.append("\(layer) and its sublayers are not drawn: \(problem)")
                    continue
                }
                let layerOpacity = layer.opacity.isNaN ? 0 : min(max(Double(layer.opacity), 0), 1)
                let placed = CATransform3DConcat(layer.transformToSuperlayer, toScene)
                if layer is CATransformLayer {
                    children.append((layer, placed, opacity * layerOpacity))
                } else if opacity * layerOpacity > 0 {
                    planes.append(ScenePlane(layer: layer, toScene: placed, opacity: opacity * layerOpacity))
                }
            }
            pending.append(contentsOf: children.reversed())
        }
        return planes
    }
}
