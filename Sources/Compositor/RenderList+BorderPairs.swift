import OpenCoreGraphics

extension QuadOp {
    /// Most clip edges of a background and border pair drawn as one: what the GL backend's
    /// instanced rounded-shape draw carries (GLES 3 promises 16 vertex attributes).
    public static let maxPairedEdges = 4

    /// Whether this quad is a border (a solid ring) drawn straight after `fill`, a solid rounded
    /// shape with the same outline, map and clip: a layer's background and its border with no
    /// sublayers between. Both executors then draw the pair as one: the ring over the fill,
    /// composited in float, rounded to 8 bits and blended once. The GPU can draw the pair with
    /// one fragment for both (its border costs no pixels of its own), and then the reference must
    /// round where the GPU does, once instead of twice.
    public func isBorder(over fill: QuadOp) -> Bool {
        guard blend == .sourceOver, fill.blend == .sourceOver,
              case .solid = self.fill, case .solid = fill.fill,
              let ring = rounded, ring.inner != nil, let shape = fill.rounded, shape.inner == nil,
              ring.outer == shape.outer, ring.deviceToLocal == shape.deviceToLocal,
              polygon == fill.polygon, polygon.edges.count <= QuadOp.maxPairedEdges else { return false }
        return true
    }
}
