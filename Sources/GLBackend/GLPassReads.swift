import Compositor

// What the pass atlas (GLPassAtlas) and the stencil clip (GLStencilClip) both ask of a pass, and
// of a quad that reads one, before drawing the pass anywhere but a target of its own.

extension RenderPass {
    /// Whether any op fills a path: `GLPathFill` switches framebuffers to sum the path's edges,
    /// so such a pass cannot share a target or be drawn in the middle of another.
    var fillsPaths: Bool { ops.contains { if case .path = $0 { true } else { false } } }
}

extension TextureFill {
    /// Whether it reads its texture texel for texel: nearest sampling one way everywhere (no
    /// other minification filter), no nine-slice map.
    var readsTexelForTexel: Bool {
        slices == nil && filter == .nearest && (minification == nil || minification == .nearest)
    }
}
