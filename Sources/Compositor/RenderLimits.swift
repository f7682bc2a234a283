import Synchronization

/// What one frame may ask of the compositor and the GL backend. A tree built by mistake (a
/// runaway loop adding layers) or sent by someone hostile becomes an error naming the limit, not
/// an exhausted stack, memory or GPU. `ImageLimits` bounds each image and `SceneLimits` each
/// scene document.
public struct RenderLimits: Sendable, Equatable {
    /// Deepest nesting of sublayers (masks and replicator instances count as levels) drawn;
    /// deeper is `CompositorError.treeTooDeep`. Default: 4,096.
    public var maxDepth: Int
    /// Most layers one frame composites (every visit counts: a replicator's instances, masks);
    /// more is `CompositorError.tooManyLayers`. Default: 1,000,000.
    public var maxLayers: Int
    /// Most bytes of image textures the GL backend keeps uploaded. Past it, textures the frame does
    /// not use are deleted, least recently used first; a frame that needs more by itself is
    /// `GLError.textureMemory`. Default: 1 GiB.
    public var maxTextureBytes: Int
    /// Most offscreen passes (groups, masks, shadows, rasterized layers, transitions) one frame
    /// makes; more is `CompositorError.tooManyPasses`, raised while the render list is built,
    /// before any pass is drawn. Default: 10,000.
    public var maxPasses: Int
    /// Most pixels of all offscreen passes of one frame together (their drawing time and, at
    /// worst, their memory: 4 bytes each); more is `CompositorError.tooManyPassPixels`, likewise
    /// raised before any is drawn. Default: 2^30 (about 130 passes of 3840 x 2160).
    public var maxPassPixels: Int
    /// The rest of one frame's work budget (`FrameWork`), each counted while the render list is
    /// built and refused (`CompositorError.overBudget`, naming the estimate and the limit) before
    /// a pixel is drawn. The defaults bound a frame to seconds on the CPU backend, however the
    /// work is spread over layers, emitters, replicated instances and tiles (docs/robustness.md
    /// has the measured worst cases).
    ///
    /// Pixels drawn by the frame's draws in all its passes together (each draw's pixel bounds,
    /// within its target; a textured quad's or a path's counted `FrameWork.costlyPixelWeight`
    /// times). Default: 2^31 (about 2,300 solid layers covering all of 1280 x 720, or 290 images).
    public var maxDrawnPixels: Int
    /// Pixels of draws whose blend mode reads the backdrop (compositingFilter): a copy of the
    /// backdrop on the GPU, the blend formula per pixel on the CPU (52 ns a pixel there). Default:
    /// 2^26 (about 73 blended layers covering 1280 x 720).
    public var maxBlendPixels: Int
    /// Live particles of all emitters (and replicated instances of them) in one frame.
    /// Default: 200,000 (one emitter's own limit, `CAEmitterLayer.maxParticles`).
    public var maxParticles: Int
    /// Simulation steps of all emitters in one frame. Default: 2,000,000 (about two emitters at
    /// their own limit, `CAEmitterLayer.maxSimulationSteps`).
    public var maxParticleSteps: Int
    /// Items a frame's tiles draw (where a tiled layer can say before drawing, as a scene
    /// document's drawing can), every copy of a repeated group counted. Default: 1,000,000.
    public var maxDrawingItems: Int
    /// Pixels those items cover in the tiles drawn (each item's box within its tile).
    /// Default: 2^31.
    public var maxDrawingPixels: Int

    public init(maxDepth: Int = 4_096, maxLayers: Int = 1_000_000, maxTextureBytes: Int = 1 << 30,
                maxPasses: Int = 10_000, maxPassPixels: Int = 1 << 30, maxDrawnPixels: Int = 1 << 31,
                maxBlendPixels: Int = 1 << 26, maxParticles: Int = 200_000, maxParticleSteps: Int = 2_000_000,
                maxDrawingItems: Int = 1_000_000, maxDrawingPixels: Int = 1 << 31) {
        self.maxDepth = maxDepth
        self.maxLayers = maxLayers
        self.maxTextureBytes = maxTextureBytes
        self.maxPasses = maxPasses
        self.maxPassPixels = maxPassPixels
        self.maxDrawnPixels = maxDrawnPixels
        self.maxBlendPixels = maxBlendPixels
        self.maxParticles = maxParticles
        self.maxParticleSteps = maxParticleSteps
        self.maxDrawingItems = maxDrawingItems
        self.maxDrawingPixels = maxDrawingPixels
    }

    public static let standard = RenderLimits()

    /// The limits every render list builder and GL device starts with: settable for the whole
    /// process (a server lowers them once at start). A builder's own `limits` may differ.
    public static var current: RenderLimits {
        get { shared.withLock { $0 } }
        set { shared.withLock { $0 = newValue } }
    }

    private static let shared = Mutex(RenderLimits.standard)
}
