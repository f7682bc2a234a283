// One work budget a frame. Each limit a document or a tree could already meet was local: 200,000
// particles an emitter, 10,000 replicator instances, 1,000,000 items a drawing, 100,000 layers
// a document. Multiplied together they were not: 16 emitters at their caps took 61 s and 2.6 GB,
// a replicator of 10,000 copies of an emitter was estimated at hours, one tile could hold 10^6
// stacked copies of a drawing, 100,000 full-frame translucent layers 35 minutes. The time to
// refuse was tiny and the time to accept unbounded.
//
// So the frame's work is counted as the render list is built, before a pixel is drawn, against
// `RenderLimits`: particles and their simulation steps as each emitter is simulated (the
// simulation stops where the budget does, so counting costs no more than the limit), tile
// drawings' items and pixels as each tile is about to be drawn, and once the list is whole, the
// pixels its draws cover and the pixels of draws that blend with the backdrop. Past any limit the
// build throws `CompositorError.overBudget` naming what, how much was counted and the limit.

/// What one frame asks of a backend beyond the layer and pass counts `RenderLimits` bounds
/// directly.
public struct FrameWork: Equatable, Sendable {
    /// Live particles drawn, of every emitter and replicated instance of one.
    public var particles = 0
    /// Simulation steps taken for them.
    public var particleSteps = 0
    /// Items drawn into tiles this frame (every copy of a repeated group), and the pixels of the
    /// tiles their boxes cover.
    public var drawingItems = 0
    public var drawingPixels = 0
    /// Pixels of every draw in every pass (each draw's pixel bounds within its target; a blur or
    /// a halving step its target's pixels: its taps, at most `BlurOp.maxTaps`, are a constant),
    /// a textured draw's and a path's counted `costlyPixelWeight` times.
    public var drawnPixels = 0
    /// Pixels of draws whose blend mode reads the backdrop.
    public var blendPixels = 0

    public init() {}

    /// How many plain pixels a pixel of a textured quad or a path counts for. Measured on the CPU
    /// backend (release build, two threads, full-frame translucent layers at 1280 x 720): a
    /// solid colour 0.26 ns a pixel, a closed-form shadow 0.36, a textured quad 28.5, a path 21;
    /// on GL through llvmpipe 3.4, 4.1, 11 and 11. Eight keeps the worst frame within the default
    /// to seconds on either backend while a frame of 20,000 96 x 96 images (`quartz bench`'s
    /// ramp at its cap) still fits.
    public static let costlyPixelWeight = 8

    /// The pixels `list`'s draws cover, and those of draws that read the backdrop.
    public static func pixels(of list: RenderList) -> (drawn: Int, blended: Int) {
        var drawn = 0, blended = 0
        for pass in list.passes {
            let target = PixelRect(minX: 0, minY: 0, maxX: pass.width, maxY: pass.height)
            for op in pass.ops {
                let (area, reads): (Int, Bool)
                let weight: Int
                switch op {
                case .quad(let quad):
                    (area, reads) = (Self.area(quad.polygon.pixelBounds, within: target), quad.blend.readsBackdrop)
                    if case .texture = quad.fill { weight = costlyPixelWeight } else { weight = 1 }
                case .path(let path):
                    (area, reads) = (Self.area(path.pixelBounds, within: target), path.blend.readsBackdrop)
                    weight = costlyPixelWeight
                case .blur, .halve: (area, reads, weight) = (pass.width * pass.height, false, 1)
                }
                drawn = drawn.addingReportingOverflow(area * weight).overflow ? .max : drawn + area * weight
                if reads { blended = blended.addingReportingOverflow(area).overflow ? .max : blended + area }
            }
        }
        return (drawn, blended)
    }

    static func area(_ r: PixelRect, within target: PixelRect) -> Int {
        let w = min(r.maxX, target.maxX) - max(r.minX, target.minX), h = min(r.maxY, target.maxY) - max(r.minY, target.minY)
        return w > 0 && h > 0 ? w * h : 0
    }

    /// The first limit this work passes, as the error the build throws; nil within all of them.
    func excess(_ limits: RenderLimits) -> CompositorError? {
        let checks: [(String, Int, Int, String)] = [
            ("particles", particles, limits.maxParticles, "maxParticles"),
            ("particle simulation steps", particleSteps, limits.maxParticleSteps, "maxParticleSteps"),
            ("drawing items in tiles", drawingItems, limits.maxDrawingItems, "maxDrawingItems"),
            ("pixels of drawing items in tiles", drawingPixels, limits.maxDrawingPixels, "maxDrawingPixels"),
            ("drawn pixels (a textured or path pixel counts \(Self.costlyPixelWeight))", drawnPixels, limits.maxDrawnPixels, "maxDrawnPixels"),
            ("pixels blended with the backdrop (compositingFilter)", blendPixels, limits.maxBlendPixels, "maxBlendPixels"),
        ]
        return checks.first { $0.1 > $0.2 }.map { CompositorError.overBudget(what: $0.0, counted: $0.1, limit: $0.2, setting: $0.3) }
    }
}
