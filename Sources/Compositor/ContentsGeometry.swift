import Foundation
import LayerModel

/// Where a layer's contents image lands in its bounds, by `contentsGravity`.
enum ContentsGeometry {
    /// The rectangle, in bounds coordinates, that the `contentsRect` part of an image of
    /// `imageSize` pixels covers. `contentSize` is that part's size in points
    /// (pixels / contentsScale), which only the non-resizing gravities use.
    static func frame(bounds: CGRect, contentSize: CGSize, gravity: CALayerContentsGravity) -> CGRect {
        let w = contentSize.width, h = contentSize.height
        let W = bounds.width, H = bounds.height
        func placed(_ size: CGSize, xFraction: CGFloat, yFraction: CGFloat) -> CGRect {
            CGRect(x: bounds.minX + (W - size.width) * xFraction, y: bounds.minY + (H - size.height) * yFraction,
                   width: size.width, height: size.height)
        }
        let natural = CGSize(width: w, height: h)
        switch gravity {
        case .resizeAspect, .resizeAspectFill:
            guard w > 0, h > 0 else { return bounds }
            let s = gravity == .resizeAspect ? min(W / w, H / h) : max(W / w, H / h)
            return placed(CGSize(width: w * s, height: h * s), xFraction: 0.5, yFraction: 0.5)
        case .center: return placed(natural, xFraction: 0.5, yFraction: 0.5)
        case .top: return placed(natural, xFraction: 0.5, yFraction: 0)
        case .bottom: return placed(natural, xFraction: 0.5, yFraction: 1)
        case .left: return placed(natural, xFraction: 0, yFraction: 0.5)
        case .right: return placed(natural, xFraction: 1, yFraction: 0.5)
        case .topLeft: return placed(natural, xFraction: 0, yFraction: 0)
        case .topRight: return placed(natural, xFraction: 1, yFraction: 0)
        case .bottomLeft: return placed(natural, xFraction: 0, yFraction: 1)
        case .bottomRight: return placed(natural, xFraction: 1, yFraction: 1)
        default: return bounds // .resize, and unknown names as Core Animation treats them
        }
    }
}
