/// Why a frame cannot be composited at all. (Single layers with bad values are left out and
/// reported in `RenderList.diagnostics` instead: one bad layer does not lose the frame.)
public enum CompositorError: Error, Equatable, CustomStringConvertible {
    /// The output rectangle or scale cannot make an image.
    case invalidViewport(String)
    /// The layer tree is deeper than `RenderLimits.maxDepth`.
    case treeTooDeep(limit: Int)
    /// The frame composites more layers than `RenderLimits.maxLayers`.
    case tooManyLayers(limit: Int)
    /// The frame needs more offscreen passes than `RenderLimits.maxPasses`.
    case tooManyPasses(limit: Int)
    /// The frame's offscreen passes hold more pixels than `RenderLimits.maxPassPixels`.
    case tooManyPassPixels(limit: Int)
    /// The frame's work passes one of `RenderLimits`' budgets (`FrameWork`): what (`"drawn
    /// pixels"`), how much was counted when it was refused (at least that much: counting stops
    /// there), the limit, and the `RenderLimits` setting that holds it.
    case overBudget(what: String, counted: Int, limit: Int, setting: String)

    public var description: String {
        switch self {
        case .invalidViewport(let reason): "invalid render target: \(reason)"
        case .treeTooDeep(let limit): "layer tree is deeper than \(limit) levels"
        case .tooManyLayers(let limit): "the frame has more than \(limit) layers (RenderLimits.maxLayers)"
        case .tooManyPasses(let limit):
            "the frame needs more than \(limit) offscreen passes (RenderLimits.maxPasses): groups, masks, shadows and rasterized layers nest too deep"
        case let .overBudget(what, counted, limit, setting):
            "the frame needs at least \(counted) \(what), more than the limit of \(limit) a frame (RenderLimits.\(setting)); "
                + "refused before drawing. Draw less at once (fewer or smaller layers, emitters, copies), or raise the limit"
        case .tooManyPassPixels(let limit):
            "the frame's offscreen passes hold more than \(limit) pixels (RenderLimits.maxPassPixels): groups, masks, shadows and "
                + "rasterized layers too large or too many at this scale"
        }
    }
}
