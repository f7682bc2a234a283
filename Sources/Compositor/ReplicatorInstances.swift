import Foundation
import LayerModel
import OpenCoreGraphics

/// A replicator's instances as the compositor draws them, flattened or in a 3D scene alike:
/// instance i is one more instanceTransform on (about the replicator's centre), tinted by
/// instance i's colour, showing the sublayers as they were i x instanceDelay earlier.
struct ReplicatorInstance {
    /// Maps the instance's copy of the replicator's space into the replicator's space.
    let transform: CATransform3D
    let tint: PremultipliedColor
    /// In drawing order.
    let sublayers: [CALayer]

    /// The instances to draw; absurd counts are capped, and `diagnostics` says so.
    static func instances(of replicator: CAReplicatorLayer, sublayers: [CALayer],
                          diagnostics: inout [String]) -> [ReplicatorInstance] {
        var count = replicator.instanceCount
        if count > CAReplicatorLayer.maxInstances {
            diagnostics.append("\(replicator): instanceCount \(count) is over \(CAReplicatorLayer.maxInstances); "
                + "\(CAReplicatorLayer.maxInstances) are drawn")
            count = CAReplicatorLayer.maxInstances
        }
        guard count > 0, replicator.instanceTransform.isFinite else { return [] }
        let center = CGPoint(x: replicator.bounds.midX, y: replicator.bounds.midY)
        let step = CATransform3DConcat(CATransform3DConcat(CATransform3DMakeTranslation(-center.x, -center.y, 0),
                                                           replicator.instanceTransform),
                                       CATransform3DMakeTranslation(center.x, center.y, 0))
        var result: [ReplicatorInstance] = []
        var accumulated = CATransform3DIdentity
        for i in 0..<count {
            let t = replicator.instanceTint(i)
            let shown = i > 0 && i <= replicator.delayedInstances.count
                ? RenderListBuilder.drawingOrder(replicator.delayedInstances[i - 1]) : sublayers
            result.append(ReplicatorInstance(transform: accumulated,
                                             tint: PremultipliedColor(red: t.red, green: t.green, blue: t.blue, alpha: t.alpha),
                                             sublayers: shown))
            accumulated = CATransform3DConcat(accumulated, step)
        }
        return result
    }
}

extension ProjectiveTransform2D {
    /// Maps `rect` onto the unit square: a plane's rectangle to normalized texture coordinates.
    static func unitSquare(from rect: Rect) -> ProjectiveTransform2D {
        ProjectiveTransform2D(m11: 1 / rect.width, m12: 0, m13: 0, m21: 0, m22: 1 / rect.height, m23: 0,
                              m31: -rect.x / rect.width, m32: -rect.y / rect.height, m33: 1)
    }
}
