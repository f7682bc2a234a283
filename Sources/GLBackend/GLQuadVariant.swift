import Compositor

/// Which variant of the quad program (layer_quad.frag) draws a quad: programs rather than
/// branches, because llvmpipe runs the code behind a branch on a uniform for every pixel all the
/// same. The area sum for every pixel of a perspective-tilted page doubled its time, a solid quad
/// cost what a textured one does, and 200 small textured quads (group passes composited, small
/// images) spent most of their frame in the general sampling code they never took.
struct GLQuadVariant: Hashable {
    /// The area inside the outline, summed (EXACT_COVERAGE), for pixels that edges cross.
    var exact: Bool
    /// A solid fill, no other fill kind (SOLID_FILL).
    var solid: Bool
    /// A gradient fill, no other fill kind (GRADIENT_FILL): the general code's gradient branch
    /// alone. On llvmpipe the general program cost a gradient's pixels what a texture's cost;
    /// issue_1915's 38 gradient passes took 100 ms a frame.
    var gradient = false
    /// A background and its border drawn as one (PAIRED; solid, exact).
    var paired = false
    /// At most four outline vertices and eight edges (FEW_EDGES): the coverage by constant
    /// indices, without the loops over longer outlines. llvmpipe ran a loop over a uniform array
    /// at a third of a textured quad's cost even where it took no turn (40 images drawn one by
    /// one, 11 -> 7.4 ms a frame without it).
    var fewEdges = false
    /// A texture sampled one way everywhere (PLAIN_*); nil: the general code chooses per pixel.
    var sampling: PlainSampling?
    /// A rounded outline or ring to apply; false leaves its code out (NO_SHAPE).
    var shaped = true
    /// Marks the pixels whose centre the quad covers in the stencil, drawing no colour
    /// (STENCIL_MASK, for `GLStencilClip`).
    var marksStencil = false
    /// Combines its colour with the target's by a blend mode that reads it, from a copy of the
    /// pixels under the quad (BACKDROP_BLEND, blend_modes.glsl).
    var blendsWithBackdrop = false

    /// One way of sampling a texture for every pixel of a quad.
    enum PlainSampling: Hashable {
        /// The texel under the sample point, as the CPU reference picks it (`nearestTexel`).
        case nearest
        /// Four texels mixed in float (`bilinearInFloat`).
        case bilinear
        /// The driver's filtered fetch with the texture's own filter (a fill with one filter
        /// and nearest sampling, as the general code takes it).
        case hardware
        /// The texel under the sample point in a pass's place in the atlas (`GLPassAtlas`),
        /// clamped to that place as a target of its own clamps to its edges.
        case atlas
    }

    /// The fragment shader's defines for the variant.
    var defines: [String] {
        var defines: [String] = []
        if exact { defines.append("EXACT_COVERAGE") }
        if solid { defines.append("SOLID_FILL") }
        if gradient { defines.append("GRADIENT_FILL") }
        if paired { defines.append("PAIRED") }
        if fewEdges { defines.append("FEW_EDGES") }
        switch sampling {
        case .nearest?: defines.append("PLAIN_NEAREST")
        case .bilinear?: defines.append("PLAIN_BILINEAR")
        case .hardware?: defines.append("PLAIN_HARDWARE")
        case .atlas?: defines.append("PLAIN_ATLAS")
        case nil: break
        }
        if !shaped { defines.append("NO_SHAPE") }
        if marksStencil { defines.append("STENCIL_MASK") }
        if blendsWithBackdrop { defines.append("BACKDROP_BLEND") }
        return defines
    }

    /// How the general code samples `fill` when that is one way for every pixel, mirroring it
    /// branch for branch: nil for a nine-slice map, a tile of a larger image, or magnification
    /// and minification filters that differ (the level of detail picks per pixel). `levels`:
    /// mipmap levels uploaded below the image.
    static func plainSampling(of fill: TextureFill, wholeImage: Bool, levels: Int) -> PlainSampling? {
        guard fill.slices == nil, wholeImage else { return nil }
        guard let minification = fill.minification else {
            // u_minFilter -1: filtered in float unless nearest, which is the driver's fetch.
            return fill.filter == .nearest ? .hardware : .bilinear
        }
        // filteredSample: magnified by `filter`, minified by `minification` (trilinear with no
        // level uploaded is bilinear on level 0).
        switch (fill.filter, minification) {
        case (.nearest, .nearest): return .nearest
        case (.linear, .linear), (.trilinear, .linear): return .bilinear
        case (.linear, .trilinear), (.trilinear, .trilinear): return levels == 0 ? .bilinear : nil
        default: return nil
        }
    }
}
