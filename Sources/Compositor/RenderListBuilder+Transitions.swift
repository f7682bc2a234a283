import Foundation
import LayerModel
import OpenCoreGraphics

// Transitions: the old subtree (as at the last commit) and the new one each drawn into a
// pass the size of the bounds, then composited in the layer's plane, clipped to its bounds,
// faded, moved in, pushed or revealed by the transition's progress.

extension RenderListBuilder {
    /// A running transition: the old and new subtrees each drawn offscreen, then composited in the
    /// layer's plane (clipped to its bounds), faded or moved by the transition's progress.
    func drawTransition(_ transition: TransitionFrame, of layer: CALayer, map: ProjectiveTransform2D,
                        clip: [DevicePoint], opacity: Double, tint: PremultipliedColor, depth: Int,
                        state: inout BuildState) throws {
        let b = layer.bounds
        guard b.size.width > 0, b.size.height > 0, let deviceToLocal = map.inverted() else { return }
        let newPass = try drawIntoPass(layer, depth: depth, state: &state)
        let oldPass = try drawIntoPass(transition.oldTree, depth: depth, state: &state)
        let boundsRect = Rect(x: b.minX, y: b.minY, width: b.width, height: b.height)
        let boundsClip = PolygonClipping.intersect(orient(PolygonClipping.project(boundsRect, through: map)), with: clip)
        let p = min(max(transition.progress, 0), 1)
        let d = transition.direction

        /// The pass drawn over the bounds shifted by (dx, dy) bounds sizes.
        func composite(_ pass: Int, shift: (Double, Double), opacity: Double, part: String) {
            let rect = Rect(x: b.minX + shift.0 * b.width, y: b.minY + shift.1 * b.height, width: b.width, height: b.height)
            let localToTexture = ProjectiveTransform2D.unitSquare(from: rect)
            let fill = TextureFill(source: .pass(pass), deviceToTexture: deviceToLocal.concatenating(localToTexture),
                                   filter: .linear)
            emit(rect: rect, map: map, clip: boundsClip, part: part, layer: layer, fill: .texture(fill),
                 opacity: opacity, tint: tint, state: &state)
        }

        switch transition.type {
        case .moveIn:
            composite(oldPass, shift: (0, 0), opacity: opacity, part: "transition old")
            composite(newPass, shift: (d.x * (1 - p), d.y * (1 - p)), opacity: opacity, part: "transition new")
        case .push:
            composite(oldPass, shift: (-d.x * p, -d.y * p), opacity: opacity, part: "transition old")
            composite(newPass, shift: (d.x * (1 - p), d.y * (1 - p)), opacity: opacity, part: "transition new")
        case .reveal:
            composite(newPass, shift: (0, 0), opacity: opacity, part: "transition new")
            composite(oldPass, shift: (-d.x * p, -d.y * p), opacity: opacity, part: "transition old")
        default:
            // A cross-dissolve: old x (1 - p) + new x p, added in a pass of their own so the sum
            // is then composited over what lies below like any layer.
            let newTarget = state.passes.first { $0.id == newPass }
            let width = newTarget?.width ?? 1, height = newTarget?.height ?? 1
            let mixed = try addPass(mixOps([(.pass(oldPass), 1 - p), (.pass(newPass), p)], width: width, height: height,
                                           source: DrawSource(layer, part: "transition fade")),
                                    width: width, height: height, state: &state)
            composite(mixed, shift: (0, 0), opacity: opacity, part: "transition")
        }
    }
}
