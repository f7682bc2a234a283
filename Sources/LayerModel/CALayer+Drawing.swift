import Foundation
import OpenCoreGraphics

// Drawn content: a layer marked with setNeedsDisplay() gets a backing store, a bitmap of its
// bounds at contentsScale, drawn by draw(in:) and shown as its contents. Both renderers composite
// that image, so drawn content is rasterized once, on the CPU, by OpenCoreGraphics.

extension CALayer {
    /// Draws the layer into a new backing store and makes it the contents (without running the
    /// contents action: a redraw is not a change of contents in Core Animation's sense).
    public func drawBackingStore() {
        guard drawsIntoBackingStore else { return }
        // The delegate may still set up the store (contentsFormat, contentsScale), as Apple's
        // default display() lets it before drawing.
        delegate?.layerWillDraw(self)
        let scale = contentsScale.isFinite && contentsScale > 0 ? contentsScale : 1
        var rect = backingStoreRect
        // Whole pixels: the store's rectangle is rounded outwards on the pixel grid.
        rect = CGRect(x: (rect.minX * scale).rounded(.down) / scale, y: (rect.minY * scale).rounded(.down) / scale,
                      width: 0, height: 0).union(CGRect(x: (rect.maxX * scale).rounded(.up) / scale,
                                                        y: (rect.maxY * scale).rounded(.up) / scale, width: 0, height: 0))
        // Sizes are checked as numbers first: bounds 1e30 wide would not fit in an Int.
        let w = (rect.width * scale).rounded(), h = (rect.height * scale).rounded()
        let side = CGFloat(ImageLimits.maxDimension)
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, w <= side, h <= side,
              let context = CGContext(width: Int(w), height: Int(h)) else {
            state.contents = nil
            state.drawnContentsFrame = nil
            state.contentsAreDrawn = false
            return
        }
        // Core Graphics contexts are y up; layer content is drawn y down in bounds coordinates.
        context.translateBy(x: 0, y: h)
        context.scaleBy(x: scale, y: -scale)
        context.translateBy(x: -rect.minX, y: -rect.minY)
        // In a flipped geometry the drawing follows the layer's y-up space, as Core Animation
        // flips the context when contentsAreFlipped() (the image is then placed upright).
        if drawingFollowsFlippedGeometry, (modelLayer ?? self).contentsAreFlipped() {
            context.translateBy(x: 0, y: rect.minY + rect.maxY)
            context.scaleBy(x: 1, y: -1)
        }
        draw(in: context)
        state.contents = context.makeImage()
        state.drawnContentsFrame = rect == bounds ? nil : rect
        state.contentsAreDrawn = true
    }


    /// Lays out, then redraws, every layer of the subtree marked as needing it (before a frame).
    public func displayTreeIfNeeded() {
        // A commit lays out before it displays, as Core Animation's does: layout may resize
        // layers that then redraw.
        layoutTreeIfNeeded()
        // Only layers marked by setNeedsDisplay() redraw (displayIfNeeded does nothing for the
        // others), so with none marked anywhere there is nothing to walk for.
        guard PendingCount.display.anyPending else { return }
        walkTree { $0.displayIfNeeded() }
    }

    /// Redraws this presentation copy's content with its own (animated) values. The delegate
    /// draws for it, as for the model. A copy of a library class standing in for a subclass that
    /// cannot be copied (see LayerPresentationCopying) is drawn by the model instead, its values
    /// lent to the model for the draw: so the subclass's `draw(in:)` still draws, reading the
    /// animated values, and the model ends as it was.
    func drawPresentationBackingStore(model: CALayer) {
        if type(of: self) == type(of: model) {
            delegate = model.delegate
            drawBackingStore()
            delegate = nil
            return
        }
        let own = model.state
        model.state = state
        model.drawBackingStore()
        state = model.state
        model.state = own
    }

    /// For a presentation copy: whether an animation of its layer, at the top level or inside a
    /// group at any depth, changes a key that the class redraws for, so the copy must draw itself
    /// with the animated values.
    func needsPresentationRedraw(model: CALayer) -> Bool {
        let redraws = type(of: model).needsDisplay(forKey:)
        return model.attachedAnimations.contains { $0.animation.animatesKey(where: redraws) }
    }
}
