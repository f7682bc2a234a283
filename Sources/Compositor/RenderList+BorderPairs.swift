import OpenCoreGraphics

extension QuadOp {
    /// Whether this quad is a border (a solid ring) drawn straight after `fill`, a solid rounded
    /// shape with the same outline, map and clip: a layer's background and its border with no
    /// sublayers between. Both executors then draw the pair as one: the ring over the fill,
    /// composited in float, rounded to 8 bits and blended once. The GPU can draw the pair with
    /// one fragment for both (its border costs no pixels of its own), and then the reference must
    /// round where the GPU does, once instead of twice. Drawn as one, the pair is drawn by area:
    /// the ring covers what lies between its outlines, over the fill there, and the fill shows
    /// through nowhere else (drawn one after the other, each anti-aliased, the fill bled through
    /// an opaque border's outer edge). Any polygon: the GPU's batch takes the axis-aligned pairs,
    /// its general program (PAIRED) the others, a turned card's.
    public func isBorder(over fill: QuadOp) -> Bool {
        guard blend == .sourceOver, fill.blend == .sourceOver,
              case .solid = self.fill, case .solid = fill.fill,
              let ring = rounded, ring.inner != nil, let shape = fill.rounded, shape.inner == nil,
              ring.outer == shape.outer, ring.deviceToLocal == shape.deviceToLocal,
              polygon == fill.polygon else { return false }
        return true
    }
}
