import Foundation

/// A layer that keeps its sublayers in 3D instead of flattening them into its plane: they form
/// one 3D scene with the sublayers of any transform layers among them, drawn in depth order
/// (intersecting layers split where they cross), and the nearest ordinary ancestor flattens the
/// result. The transform layer draws nothing of its own: its background, contents, border,
/// mask, masksToBounds and shadow are ignored, and its opacity applies to each sublayer
/// separately (no compositing group), as in Core Animation.
open class CATransformLayer: CALayer {
    public override init() {
        super.init()
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    override class func libraryCopy(of layer: CALayer) -> CALayer { CATransformLayer(layer: layer) }

    public override init(layer: Any) {
        super.init(layer: layer)
    }
}
