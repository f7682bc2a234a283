import Foundation
import OpenQuartzCore

/// The `CATiledLayer` a scene document makes: its tiles are drawn by the document's `"drawing"`
/// (a `SceneDrawing`), where an app's tiled layer draws them in code. It is a CATiledLayer in
/// every other respect (tile size, levels of detail, kept tiles), and writes back as one.
public final class DocumentTiledLayer: CATiledLayer, @unchecked Sendable {
    /// What each tile draws; setting it drops the tiles drawn so far.
    public var drawing: SceneDrawing? {
        get { stored }
        set {
            stored = newValue
            // The frame's work budget asks what a tile will cost before it is drawn.
            if let drawing = newValue {
                drawingWork = { @Sendable rect, scale, limit in drawing.work(in: rect, pixelsPerPoint: scale, limit: limit) }
            } else {
                drawingWork = nil
            }
            setNeedsDisplay()
        }
    }

    /// Set without dropping tiles where a presentation copy is made: copies share the model's
    /// tiles, and a copy is made every frame.
    private var stored: SceneDrawing?

    public override init() { super.init() }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    public override init(layer: Any) {
        super.init(layer: layer)
        stored = (layer as? DocumentTiledLayer)?.stored
    }

    /// The drawing, then the delegate's (as CALayer's `draw(in:)` asks it).
    public override func draw(in ctx: CGContext) {
        drawing?.draw(in: ctx)
        super.draw(in: ctx)
    }
}
