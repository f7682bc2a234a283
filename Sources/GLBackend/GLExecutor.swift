import CEGL
import Compositor
import Dispatch
import Foundation
import OpenCoreGraphics
import OpenQuartzShaders

/// Shader names, re-exported for GLDevice's API.
public typealias ShaderSourceName = ShaderSource

/// Executes a `RenderList` with GLES 3 on the current context: one draw per `QuadOp`, covering
/// its pixel bounds, with the op's polygon edges and texture map as uniforms. Everything it draws
/// was decided by the compositor; it does no geometry of its own.
///
/// This file holds the frame: its passes in order, each drawn into its target (or the pass atlas)
/// and read back. The work of each op kind is in a file of its own, as the render-list builder's
/// concerns are: `GLExecutor+Quads` (quads, their batches and programs), `+Stencil` (quads drawn
/// through a stencil clip), `+Paths` (filled paths), `+Passes` (blurs and halvings), `+State`
/// (viewport, framebuffer, bindings, sampling and the driver's errors); readback is `GLReadback`.
package final class GLExecutor {
    let caps: GLCaps
    /// The quad program in use: one of `quadPrograms`, by default `plainProgram`.
    var program: GLProgram
    /// layer_quad.frag with the product of edge ramps and every fill kind: the default.
    let plainProgram: GLProgram
    /// Variants of the quad program (`GLQuadVariant`), made on first use.
    var quadPrograms: [GLQuadVariant: GLProgram] = [:]
    /// The size of the pass being drawn, which programs made during it are given.
    var viewport = (width: 0, height: 0)
    /// Filled paths (accumulation then cover), made on the first path a frame draws.
    var pathFill: GLPathFill?
    let blurProgram: GLProgram
    let halveProgram: GLProgram
    var vertexArray: GLuint = 0
    var vertexBuffer: GLuint = 0
    var framebuffer: GLuint = 0
    var colorBuffer: GLuint = 0
    var framebufferSize = (width: 0, height: 0)
    let textures = GLTextureCache()
    var maxTextureBytes: Int {
        get { textures.maxBytes }
        set { textures.maxBytes = newValue }
    }
    let passPool = GLPassTargetPool()
    /// Frames on their way to memory.
    let readback = GLReadback()
    /// Where the pass being drawn lies in its target (a pass of the atlas lies at its place).
    var viewportOrigin = (x: 0, y: 0)
    /// The copy of what lies under a quad whose blend mode reads it (`copyBackdrop`).
    var backdropTexture: GLuint = 0
    /// Results of passes with a cache key (rasterized layers), kept across frames.
    var cachedPasses: [Int: (target: GLPassTargetPool.Target, lastUsed: Int)] = [:]
    var frameNumber = 0
    /// Passes served from `cachedPasses` so far.
    var cachedPassHits = 0
    /// Runs of quads drawn instanced, one batch per kind (at most one holds quads at a time).
    let batches: [GLQuadBatch]
    /// Runs of textured quads of one image (particles, replicated images), drawn instanced.
    let textureBatch: GLTextureBatch
    /// Wide shadows' profiles as textures, kept across frames (`GLQuadBatch.Kind.blurredProfile`).
    let shadowProfiles = GLShadowProfiles()
    /// Wide shadows' quads the general program drew from a profile (turned, clipped), since the start.
    var profiledQuadDraws = 0
    /// The texture of the image `textureBatch` gathers.
    var textureBatchTexture: GLuint = 0
    /// Whether runs of textured quads draw instanced (`OPENQUARTZ_GL_TEXTURE_BATCHES=0` turns it
    /// off, to measure against).
    var batchesTextures = ProcessInfo.processInfo.environment["OPENQUARTZ_GL_TEXTURE_BATCHES"] != "0"
    /// Whether turned solid quads draw in instanced runs (`GLQuadBatch.Kind.turned`); off only to
    /// hold the runs to the general program's single draws in a test.
    var batchesTurnedQuads = true
    /// Whether a closed-form shadow's quad that is no rectangle (a turned shadow's) joins the
    /// shadow batches over its pixel bounds where that changes no byte (`QuadOp.isCutOnlyPastItsReach`);
    /// false draws it singly with the general program (the test hook's way).
    var drawsShadowsWhole = true
    /// Such quads drawn by the batches, since the start.
    var shadowsDrawnWhole = 0
    /// Whether rounded quads the general program draws are drawn on their footprint
    /// (`GLRoundedFootprint`) rather than their pixel bounds: off only to hold the one to the other.
    var drawsRoundedOnFootprint = true
    /// Rounded quads the general program drew on their footprint, since the executor began.
    var roundedFootprintDraws = 0
    /// Seconds spent reading frames back (waiting for and mapping the copies, or copying them
    /// when read immediately), since the executor began.
    var readbackSeconds = 0.0

    /// Frames a cached pass may go unused before its target returns to the pool.
    static let maxIdleFrames = 60

    /// Offscreen targets made so far (not taken from the pool).
    var passAllocations: Int { passPool.allocations }

    var textureStatistics: TextureCacheStatistics { textures.statistics }

    static let uniforms = ["u_ringColor", "u_ringOpacity", "u_viewport", "u_edgeCount", "u_edges", "u_fillKind", "u_color", "u_opacity",
                                   "u_deviceToTexture", "u_texture", "u_tint",
                                   "u_shapeKind", "u_continuous", "u_deviceToLocal", "u_outerRect", "u_outerRadii", "u_innerRect", "u_innerRadii",
                                   "u_alphaOnly", "u_filterHere", "u_tiled", "u_imageSize", "u_tileAccept", "u_tileRect",
                                   "u_blurToLocal", "u_blurBox", "u_blurParams", "u_minFilter", "u_magNearest", "u_lodBias",
                                   "u_maxLevel", "u_sliced", "u_sliceS", "u_sliceTX", "u_sliceTY",
                                   "u_outlineCount", "u_outlineEdges", "u_inverseSlopes", "u_atlasRegion",
                                   "u_backdrop", "u_backdropOrigin", "u_blendMode", "u_profile", "u_grid", "u_origin",
                                   "u_gradientKind", "u_gradientLine", "u_stopCount", "u_stopColors", "u_stopLocations",
                                   "u_genericRGB", "u_genericToSRGB"]

    /// The driver's debug messages, where debug output is on: checked after every pass.
    let debugOutput: GLDebugOutput?
    /// Whether frames are timed on the GPU (`GLDevice.renderTimingStages`), and the query that
    /// times them, made on first use.
    var timesGPU = false
    var timerQuery: GLTimerQuery?
    var timerQueryTried = false

    /// The GPU's time for the last timed frame's draws, once it is collected.
    func gpuSeconds() -> Double? { timesGPU ? timerQuery?.seconds() : nil }

    /// Rounded clips drawn through the stencil instead of their pass (`GLStencilClip`): only on
    /// request (`GLDevice.clipRoundedByStencil`, `OPENQUARTZ_GL_ROUNDED_CLIPS=stencil`).
    var roundedClipsByStencil = false
    /// Rounded clips drawn through the stencil so far.
    var stencilClips = 0
    var frameStencilClips: [Int: GLStencilClip] = [:]
    var stencilBuffer: GLuint = 0
    var stencilSize = (width: 0, height: 0)
    /// Set while the outline of a stencil clip is marked (the STENCIL_MASK variant draws).
    var marksStencil = false

    /// Every pass drawn into a target of its own (`GLDevice.drawPassesSeparately`).
    var drawsPassesSeparately = false
    /// Passes drawn into an atlas (`GLPassAtlas`) so far.
    var passesInAtlas = 0

    /// Every quad drawn by the general program (`GLDevice.drawWithGeneralQuadProgram`).
    var generalQuadProgramOnly = false
    /// Quads drawn with a lean texture variant (`GLQuadVariant.sampling`) so far.
    var plainTextureDraws = 0
    /// Gradient quads drawn with the gradient-only variant (GRADIENT_FILL).
    var plainGradientDraws = 0
    /// Quads drawn with the variant for at most four outline vertices (FEW_EDGES).
    var fewEdgeDraws = 0

    /// A route filled paths take instead of the driver's (`GLDevice.fillPaths(by:)`).
    var pathRoute: GLPathFill.Route?

    /// The bytes the CPU route's path textures may hold (`GLDevice.limitPathUploads(toBytes:)`).
    var pathUploadBudget: Int?

    /// Paths filled on the GPU so far, and their edges summed there.
    var pathStatistics: (paths: Int, edges: Int) { (pathFill?.pathsDrawn ?? 0, pathFill?.edgesDrawn ?? 0) }
    /// The CPU route's path textures held now.
    var pathUploadTextures: Int { pathFill?.uploadTextures ?? 0 }

    /// A pass after whose draws this frame makes an invalid call (`GLDevice.makeInvalidCallInNextFrame`).
    var invalidCallPass: Int?

    init(caps: GLCaps, maxTextureBytes: Int, debugOutput: GLDebugOutput? = nil) throws {
        textures.maxBytes = maxTextureBytes
        self.caps = caps
        self.debugOutput = debugOutput
        plainProgram = try GLProgram(vertex: .layerQuadVertex, fragment: .layerQuadFragment, uniforms: GLExecutor.uniforms)
        program = plainProgram
        quadPrograms[GLQuadVariant(exact: false, solid: false)] = plainProgram
        blurProgram = try GLProgram(vertex: .layerQuadVertex, fragment: .gaussianBlurFragment,
                                    uniforms: ["u_viewport", "u_source", "u_taps", "u_weights", "u_horizontal"])
        halveProgram = try GLProgram(vertex: .layerQuadVertex, fragment: .halveFragment,
                                     uniforms: ["u_viewport", "u_source", "u_origin"])
        batches = try GLQuadBatch.Kind.allCases.map(GLQuadBatch.init)
        textureBatch = try GLTextureBatch()
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(1, &vertexBuffer)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glBindVertexArray(0)
    }

    deinit {
        passPool.giveBack(cachedPasses.values.map(\.target))
        glDeleteBuffers(1, &vertexBuffer)
        glDeleteVertexArrays(1, &vertexArray)
        glDeleteRenderbuffers(1, &colorBuffer)
        if stencilBuffer != 0 { glDeleteRenderbuffers(1, &stencilBuffer) }
        if backdropTexture != 0 { glDeleteTextures(1, &backdropTexture) }
        shadowProfiles.removeAll()
        glDeleteFramebuffers(1, &framebuffer)
    }

    /// Draws the list and reads the frame back.
    func execute(_ list: RenderList) throws -> Bitmap {
        // Waited for here, so read straight into memory (in submit, which waits for the draws).
        try collect(submit(list, readsImmediately: true))
    }

    /// Draws the list and queues the frame's copy to memory (`GLReadback`), returning before the
    /// GPU is done; `collect` waits for it. `readsImmediately`: copies it now instead, for a
    /// caller about to wait for it anyway.
    ///
    /// `damage`: only these pixels of the frame are read, and only what they need is drawn: the
    /// frame's draws that meet them and the offscreen passes those read, each whole, exactly as
    /// in a whole frame (no scissor: softpipe shades some pixels of a scissored draw a unit
    /// apart from the same draw unscissored); `collect` lays them over the frame before. Ignored
    /// where the frame pass reads its whole target.
    func submit(_ list: RenderList, damage: PixelRect? = nil, readsImmediately: Bool = false) throws -> GLReadback.Pending {
        let limit = caps.maxRenderTargetSize
        guard list.width <= limit, list.height <= limit else {
            throw GLError.tooLarge(what: "the output", width: list.width, height: list.height, limit: limit)
        }
        for pass in list.passes where pass.width > limit || pass.height > limit {
            throw GLError.tooLarge(what: "offscreen pass \(pass.id)", width: pass.width, height: pass.height, limit: limit)
        }
        // Errors from before this frame are not its own.
        while glGetError() != GL_NO_ERROR {}
        _ = debugOutput?.takeFailures()
        if timesGPU, !timerQueryTried {
            timerQueryTried = true
            timerQuery = GLTimerQuery(GLExtensions.current())
        }
        if timesGPU { timerQuery?.start() }
        var region = list.passes.last.flatMap { GLExecutor.drawnRegion(of: $0, damage: damage) }
        // Under a damage, only the frame's draws that meet it and the passes they read are drawn
        // (`RenderList.restricted(to:)`); every plan below (the pass atlas, stencil clips) is
        // still made from the whole list, so a pass lies where a whole frame puts it and is
        // sampled at the same coordinates.
        var restricted = region.flatMap { list.restricted(to: $0) }
        // Where every draw and pass is still needed, the frame is drawn and read whole: reading a
        // part and laying it over the frame before saves nothing then (a 1280 x 720 frame's copy
        // is a millisecond; the star-wars crawl's text plane meets any damage).
        if let kept = restricted, kept.passes.count == list.passes.count, kept.passes.last?.ops.count == list.passes.last?.ops.count {
            region = nil
            restricted = nil
        }
        let needed = restricted.map { Set($0.passes.map(\.id)) }
        pathFill?.beginFrame()
        setFixedState()
        for quadProgram in quadPrograms.values {
            glUseProgram(quadProgram.handle)
            glUniform1i(quadProgram.location("u_texture"), 0)
        }
        program = plainProgram
        glUseProgram(program.handle)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)

        // Offscreen passes draw into textures that later passes sample; the last pass is the
        // frame, drawn into the renderbuffer that is read back.
        // A pass's target goes back to the pool once the last pass that samples it has run.
        var passTargets: [Int: GLPassTargetPool.Target] = [:]
        var passTextures: [Int: GLuint] = [:]
        defer { passPool.giveBack(Array(passTargets.values)) }
        let lastUse = list.passesLastRead()
        let toRun = list.passesToRun { cachedPasses[$0] != nil }
        defer { endFrameOfCache() }
        // Rounded clips drawn through the stencil are drawn with the frame, not as passes.
        frameStencilClips = roundedClipsByStencil ? GLStencilClip.plan(for: list, toRun: toRun) : [:]
        // Small passes that read no other pass share one target (GLPassAtlas), drawn first.
        let atlas = drawsPassesSeparately ? GLPassAtlas()
            : GLPassAtlas.plan(for: list, toRun: toRun.subtracting(frameStencilClips.keys),
                               maxSide: min(caps.maxRenderTargetSize, GLPassAtlas.maxSide))
        var atlasTarget: GLPassTargetPool.Target?
        defer { if let atlasTarget { passPool.giveBack([atlasTarget]) } }
        if !atlas.isEmpty {
            let target = try passPool.take(width: atlas.width, height: atlas.height)
            atlasTarget = target
            glEnable(GLenum(GL_SCISSOR_TEST))
            for (index, pass) in list.passes.enumerated() {
                guard let origin = atlas.origins[pass.id], needed?.contains(pass.id) != false else { continue }
                glScissor(GLint(origin.x), GLint(origin.y), GLsizei(pass.width), GLsizei(pass.height))
                try drawPass(pass, index: index, of: list, at: origin, atlas: atlas, passes: passTextures)
                passTextures[pass.id] = target.texture
            }
            glDisable(GLenum(GL_SCISSOR_TEST))
            passesInAtlas += atlas.origins.count
        }
        for (index, whole) in list.passes.enumerated() {
            if atlas.contains(whole.id) || frameStencilClips[whole.id] != nil || needed?.contains(whole.id) == false { continue }
            let pass = index == list.passes.count - 1 ? restricted?.passes.last ?? whole : whole
            if !toRun.contains(pass.id) {
                if let key = pass.cacheKey, let kept = cachedPasses[key] {
                    cachedPasses[key]?.lastUsed = frameNumber
                    passTextures[pass.id] = kept.target.texture
                    cachedPassHits += 1
                }
                continue
            }
            if index == list.passes.count - 1 {
                try prepareFramebuffer(width: list.width, height: list.height)
            } else {
                let target = try passPool.take(width: pass.width, height: pass.height)
                passTargets[pass.id] = target
                passTextures[pass.id] = target.texture
            }
            try drawPass(pass, index: index, of: list, at: (0, 0), atlas: atlas, passes: passTextures)
            if index < list.passes.count - 1, let key = pass.cacheKey, let target = passTargets.removeValue(forKey: pass.id) {
                cachedPasses[key] = (target, frameNumber)
            }
            for id in lastUse[index] ?? [] {
                guard let target = passTargets.removeValue(forKey: id) else { continue }
                passTextures[id] = nil
                passPool.giveBack([target])
            }
        }
        if list.passes.isEmpty {
            try prepareFramebuffer(width: list.width, height: list.height)
            glClearColor(0, 0, 0, 0)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        if timesGPU { timerQuery?.stop() }
        // Read now: the draws finish first, so the time counted as reading back is the copy alone.
        if readsImmediately { glFinish() }
        let readStart = DispatchTime.now().uptimeNanoseconds
        let read = list.passes.isEmpty ? nil : region
        let pending = readback.start(x: read?.minX ?? 0, y: read?.minY ?? 0, width: read?.width ?? list.width,
                                     height: read?.height ?? list.height, immediately: readsImmediately)
        if readsImmediately { readbackSeconds += Double(DispatchTime.now().uptimeNanoseconds - readStart) / 1e9 }
        glBindVertexArray(0)
        textures.endFrame()
        let error = glGetError()
        guard error == GL_NO_ERROR else {
            readback.discard(pending)
            throw GLError.glError(code: error, during: "frame execution")
        }
        if let failures = debugOutput?.takeFailures(), !failures.isEmpty {
            readback.discard(pending)
            throw GLExecutor.driverReported(failures, during: "the read-back of the frame")
        }
        return pending
    }

    /// Waits for a frame `submit` queued and returns its pixels: where it drew only its damage,
    /// those pixels laid over `previous` (the frame the damage was worked out against).
    func collect(_ pending: GLReadback.Pending, over previous: Bitmap? = nil) throws -> Bitmap {
        let start = DispatchTime.now().uptimeNanoseconds
        let pixels = try readback.finish(pending)
        readbackSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if let failures = debugOutput?.takeFailures(), !failures.isEmpty {
            throw GLExecutor.driverReported(failures, during: "the read-back of the frame")
        }
        let read = Bitmap(width: pending.width, height: pending.height, pixels: pixels)
        guard pending.x != 0 || pending.y != 0 || pending.width != previous?.width || pending.height != previous?.height,
              var frame = previous else { return read }
        frame.replace(PixelRect(minX: pending.x, minY: pending.y, maxX: pending.x + pending.width, maxY: pending.y + pending.height),
                      with: read)
        return frame
    }

    /// The pixels of the frame pass `frame` to draw and read for `damage`: nil for all of them
    /// (no damage given, or a draw that reads the whole target).
    static func drawnRegion(of frame: RenderPass, damage: PixelRect?) -> PixelRect? {
        guard let damage, !frame.ops.contains(where: \.readsWholeTarget) else { return nil }
        return damage.intersection(PixelRect(minX: 0, minY: 0, maxX: frame.width, maxY: frame.height))
    }

    /// A queued copy not collected (the frame was abandoned).
    func discard(_ pending: GLReadback.Pending) {
        readback.discard(pending)
    }

    /// One pass's ops, into the bound target with its top-left texel at `origin` (a pass of the
    /// atlas) or at the target's corner.
    func drawPass(_ pass: RenderPass, index: Int, of list: RenderList, at origin: (x: Int, y: Int),
                          atlas: GLPassAtlas, passes passTextures: [Int: GLuint], clears: Bool = true) throws {
        setViewport(origin: origin, width: pass.width, height: pass.height)
        // A first quad that paints every pixel of the pass wholly in one colour (a root
        // layer's background) is the clear colour instead: on llvmpipe that draw shaded
        // every pixel of the frame, most of a small scene's time.
        let fillsPass = clears ? pass.ops.first.flatMap { GLExecutor.solidColorFilling($0, width: pass.width, height: pass.height) }
            : nil
        if clears {
            let clear = fillsPass ?? PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0)
            glClearColor(GLfloat(clear.red), GLfloat(clear.green), GLfloat(clear.blue), GLfloat(clear.alpha))
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        let ops = pass.ops.dropFirst(fillsPass == nil ? 0 : 1)
        var next = ops.startIndex
        while next < ops.endIndex {
            let op = ops[next]
            next += 1
            if case .quad(let quad) = op, let route = GLQuadBatch.route(of: quad, shadowsWhole: drawsShadowsWhole),
               route.kind != .turned || batchesTurnedQuads {
                let kind = route.kind
                if kind == .blurredRoundedRect || kind == .blurredProfile, GLQuadBatch.rectangleEdges(of: quad.polygon) == nil {
                    shadowsDrawnWhole += 1
                }
                // A run of the other kind ends here, so order holds.
                flushTextureBatch(width: pass.width, height: pass.height)
                for other in batches where other.kind != kind { flush(other, width: pass.width, height: pass.height) }
                let batch = batches.first { $0.kind == kind }!
                // Shadows read from a profile share one in a draw: another profile ends the run.
                if kind == .blurredProfile, case .blurredRoundedRect(let shape) = quad.fill {
                    let key = BlurredRoundedRectProfile.Key(shape)
                    if batch.profile?.key != key, let entry = shadowProfiles.entry(for: key) {
                        flush(batch, width: pass.width, height: pass.height)
                        batch.profile = (key, entry)
                    }
                }
                batch.add(quad, split: route.split, targetWidth: pass.width, targetHeight: pass.height)
                continue
            }
            // Textured quads of one image in a row (two at least: one alone draws as before).
            if case .quad(let quad) = op, batchesTextures, !generalQuadProgramOnly, !marksStencil, let image = GLTextureBatch.image(of: quad) {
                let runs = !textureBatch.isEmpty && textureBatch.continues(image, blend: quad.blend)
                let starts = !runs && next < ops.endIndex && { () -> Bool in
                    guard case .quad(let following) = ops[next], let other = GLTextureBatch.image(of: following) else { return false }
                    return other == image && following.blend == quad.blend
                }()
                if runs || starts, let texture = try wholeImageTexture(image, images: list.textures) {
                    if starts {
                        flushBatches(width: pass.width, height: pass.height)
                        textureBatchTexture = texture
                    }
                    textureBatch.add(quad, image: image)
                    continue
                }
            }
            flushBatches(width: pass.width, height: pass.height)
            // A background and its border straight after it that no batch takes (a turned
            // card): one draw for both, by area, as the CPU reference draws the pair.
            if case .quad(let fill) = op, next < ops.endIndex, case .quad(let ring) = ops[next], ring.isBorder(over: fill) {
                try drawPair(fill, ring)
                next += 1
                continue
            }
            switch op {
            case .quad(let quad):
                if case .texture(let fill) = quad.fill, case .pass(let id) = fill.source, let clip = frameStencilClips[id] {
                    try drawThroughStencil(quad, clip, index: list.passes.firstIndex { $0.id == id } ?? index, of: list,
                                           parent: pass, at: origin, passes: passTextures)
                } else {
                    try draw(quad, images: list.textures, passes: passTextures, atlas: atlas)
                }
            case .blur(let blur): drawBlur(blur, width: pass.width, height: pass.height, passes: passTextures)
            case .halve(let halve): drawHalve(halve, width: pass.width, height: pass.height, passes: passTextures)
            case .path(let path): try drawPath(path, width: pass.width, height: pass.height)
            }
        }
        flushBatches(width: pass.width, height: pass.height)
        if invalidCallPass == index {
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_REPEAT)
        }
        try checkErrors(after: index, of: list)
    }

    /// Returns cached passes unused for too long to the pool.
    func endFrameOfCache() {
        for (key, entry) in cachedPasses where frameNumber - entry.lastUsed > GLExecutor.maxIdleFrames {
            passPool.giveBack([entry.target])
            cachedPasses[key] = nil
        }
        frameNumber += 1
    }

}
