import Compositor
import OpenCoreGraphics

/// Offscreen passes drawn side by side into one target instead of one target each.
///
/// Why: llvmpipe ends its scene whenever the framebuffer changes, and a pass's texture cannot be
/// sampled before its scene has been rasterized, so every pass cost a hand-over to the
/// rasterizer threads and a wait for them: 200 group passes of 24 x 24 pixels took 24 ms a frame,
/// against 2 ms for the same layers without groups (and 14 ms with the threads turned off). In
/// one target the passes are one scene.
///
/// Which passes: those that read no other pass (no group inside, no blur; reading a target
/// while drawing into it is undefined), draw no filled path (that route switches framebuffers
/// itself), are not kept across frames, and are read only by quads that sample them texel for
/// texel (nearest), each read clamped to the pass's place (`GLQuadVariant.PlainSampling.atlas`) as
/// a target of its own clamps to its edges, so no read reaches a neighbour.
package struct GLPassAtlas {
    /// Where each pass lies: its top-left texel in the atlas, and its size.
    private(set) var origins: [Int: (x: Int, y: Int)] = [:]
    private var sizes: [Int: (width: Int, height: Int)] = [:]
    /// The atlas's size: whole multiples of `granule`, so that frames of an animation, whose
    /// passes change size a little, reuse one pooled target.
    private(set) var width = 0
    private(set) var height = 0

    /// Largest side of an atlas, within the driver's limit.
    static let maxSide = 4096
    /// Sides are rounded up to multiples of this.
    static let granule = 256
    /// Passes no taller than this share an atlas (a frame-sized group pass gains nothing).
    static let maxPassSide = 512
    /// Fewer passes than this are drawn as they are.
    static let minimumPasses = 4

    package var isEmpty: Bool { origins.isEmpty }

    package func contains(_ pass: Int) -> Bool { origins[pass] != nil }

    /// The atlas for `list`'s passes in `toRun`, within `maxSide` texels a side; empty where too
    /// few passes qualify.
    package static func plan(for list: RenderList, toRun: Set<Int>, maxSide: Int) -> GLPassAtlas {
        guard list.passes.count > minimumPasses else { return GLPassAtlas() }
        var candidates = Set<Int>()
        for pass in list.passes.dropLast() where toRun.contains(pass.id) && pass.cacheKey == nil
            && pass.width <= maxPassSide && pass.height <= maxPassSide && pass.inputs.isEmpty && !pass.fillsPaths {
            candidates.insert(pass.id)
        }
        // Keep only passes every reader samples texel for texel: where it reads is free, since
        // the atlas variant clamps to the pass's place as a target of its own clamps to its edges.
        for pass in list.passes {
            for op in pass.ops {
                switch op {
                case .quad(let quad):
                    guard case .texture(let fill) = quad.fill, case .pass(let id) = fill.source else { continue }
                    if !fill.readsTexelForTexel { candidates.remove(id) }
                case .blur(let blur): candidates.remove(blur.source)
                case .halve(let halve): candidates.remove(halve.source)
                case .path: continue
                }
            }
        }
        guard candidates.count >= minimumPasses else { return GLPassAtlas() }
        // Shelves, tallest first: each row as high as its first pass.
        let ordered = list.passes.filter { candidates.contains($0.id) }.sorted { ($0.height, $0.id) > ($1.height, $1.id) }
        let rowWidth = min(maxSide, max(2048, ordered.map(\.width).max() ?? 0))
        var atlas = GLPassAtlas()
        var x = 0, y = 0, rowHeight = 0
        for pass in ordered {
            if x + pass.width > rowWidth {
                y += rowHeight
                x = 0
                rowHeight = 0
            }
            guard y + pass.height <= maxSide else { break }
            atlas.origins[pass.id] = (x, y)
            atlas.sizes[pass.id] = (pass.width, pass.height)
            x += pass.width
            rowHeight = max(rowHeight, pass.height)
            atlas.width = max(atlas.width, x)
        }
        atlas.height = y + rowHeight
        guard atlas.origins.count >= minimumPasses else { return GLPassAtlas() }
        atlas.width = min(maxSide, (atlas.width + granule - 1) / granule * granule)
        atlas.height = min(maxSide, (atlas.height + granule - 1) / granule * granule)
        return atlas
    }

    /// The place of `pass` in the atlas, nil where it is not in it.
    func region(of pass: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let origin = origins[pass], let size = sizes[pass] else { return nil }
        return (origin.x, origin.y, size.width, size.height)
    }
}
