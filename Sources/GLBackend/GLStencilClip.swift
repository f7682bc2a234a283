import Compositor
import OpenCoreGraphics

/// A rounded clip of sublayers drawn through the stencil buffer instead of its group pass: the
/// outline's pixels are marked in the stencil (those whose centre it covers), the pass's ops are
/// drawn straight into the frame where the mark is, and the mark is cleared. Issue 24's stencil
/// clipping, built so that it can be measured against the pass (`StencilClipRouteTests`, and
/// `OPENQUARTZ_GL_ROUNDED_CLIPS=stencil` for frame times): no pass, but a binary edge, where the
/// pass composites the group once through the outline's exact coverage. The pass keeps every
/// frame's rounded clips (docs/design.md gives the figures); this route is taken only on request.
///
/// Which clips: a pass read once, by a quad that composites it texel for texel (nearest,
/// unscaled, whole pixels), through a rounded outline, at full opacity, source-over; the pass
/// draws no filled path (that route switches framebuffers), and every pass it reads is a clip
/// drawn through the stencil inside it. Nested clips take reference levels: a clip at depth d
/// marks the pixels at level d - 1 that its outline covers up to d, draws its ops where the
/// level is d, and takes the mark back down to d - 1, so a clip inside a clip at any depth
/// (up to the stencil's 255 levels) draws through the intersection of all its outlines.
struct GLStencilClip {
    /// The pass drawn through the stencil.
    let pass: RenderPass
    /// Its top-left pixel in the frame.
    let origin: (x: Int, y: Int)
    /// How many clips drawn through the stencil enclose it, itself included (1: the frame's own).
    let depth: Int

    /// The clips of `list`'s passes in `toRun` that can be drawn through the stencil, by pass id.
    static func plan(for list: RenderList, toRun: Set<Int>) -> [Int: GLStencilClip] {
        guard let frame = list.passes.last else { return [:] }
        var readers: [Int: Int] = [:]
        for pass in list.passes {
            for id in pass.inputs { readers[id, default: 0] += 1 }
        }
        let passes = Dictionary(list.passes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // The clips among `parent`'s ops, with the clips nested in each; a clip whose inputs are
        // not all clips it encloses stays a pass (with everything it reads).
        func clips(in parent: RenderPass, at parentOrigin: (x: Int, y: Int), depth: Int) -> [Int: GLStencilClip] {
            guard depth < 255 else { return [:] }
            var found: [Int: GLStencilClip] = [:]
            for op in parent.ops {
                guard case .quad(let quad) = op, case .texture(let fill) = quad.fill, case .pass(let id) = fill.source,
                      readers[id] == 1, toRun.contains(id), quad.rounded != nil, quad.opacity == 1,
                      quad.tint == .opaqueWhite, quad.blend == .sourceOver, fill.readsTexelForTexel,
                      let pass = passes[id], pass.id != frame.id, pass.cacheKey == nil, !pass.fillsPaths,
                      let local = wholePixelOrigin(fill.deviceToTexture, width: pass.width, height: pass.height)
                else { continue }
                let origin = (x: parentOrigin.x + local.x, y: parentOrigin.y + local.y)
                let nested = clips(in: pass, at: origin, depth: depth + 1)
                guard pass.inputs.allSatisfy({ nested[$0] != nil }) else { continue }
                found[id] = GLStencilClip(pass: pass, origin: origin, depth: depth)
                found.merge(nested) { first, _ in first }
            }
            return found
        }
        return clips(in: frame, at: (0, 0), depth: 1)
    }

    /// Where a map from the frame to a pass's texture coordinates puts the pass's top-left texel,
    /// when it only moves the pass by whole pixels (u = (x - ox) / width, v = (y - oy) / height).
    static func wholePixelOrigin(_ m: ProjectiveTransform2D, width: Int, height: Int) -> (x: Int, y: Int)? {
        guard m.m12 == 0, m.m21 == 0, m.m13 == 0, m.m23 == 0, m.m33 == 1,
              abs(m.m11 * Double(width) - 1) < 1e-9, abs(m.m22 * Double(height) - 1) < 1e-9 else { return nil }
        let ox = -m.m31 * Double(width), oy = -m.m32 * Double(height)
        guard abs(ox - ox.rounded()) < 1e-6, abs(oy - oy.rounded()) < 1e-6 else { return nil }
        return (Int(ox.rounded()), Int(oy.rounded()))
    }
}
