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
package final class GLExecutor {
    private let caps: GLCaps
    /// The quad program in use: one of `quadPrograms`, by default `plainProgram`.
    private var program: GLProgram
    /// layer_quad.frag with the product of edge ramps and every fill kind: the default.
    private let plainProgram: GLProgram
    /// Variants of the quad program (`GLQuadVariant`), made on first use.
    private var quadPrograms: [GLQuadVariant: GLProgram] = [:]
    /// The size of the pass being drawn, which programs made during it are given.
    private var viewport = (width: 0, height: 0)
    /// Filled paths (accumulation then cover), made on the first path a frame draws.
    private var pathFill: GLPathFill?
    private let blurProgram: GLProgram
    private let halveProgram: GLProgram
    private var vertexArray: GLuint = 0
    private var vertexBuffer: GLuint = 0
    private var framebuffer: GLuint = 0
    private var colorBuffer: GLuint = 0
    private var framebufferSize = (width: 0, height: 0)
    private let textures = GLTextureCache()
    var maxTextureBytes: Int {
        get { textures.maxBytes }
        set { textures.maxBytes = newValue }
    }
    private let passPool = GLPassTargetPool()
    /// Frames on their way to memory.
    private let readback = GLReadback()
    /// Where the pass being drawn lies in its target (a pass of the atlas lies at its place).
    private var viewportOrigin = (x: 0, y: 0)
    /// The copy of what lies under a quad whose blend mode reads it (`copyBackdrop`).
    private var backdropTexture: GLuint = 0
    /// Results of passes with a cache key (rasterized layers), kept across frames.
    private var cachedPasses: [Int: (target: GLPassTargetPool.Target, lastUsed: Int)] = [:]
    private var frameNumber = 0
    /// Passes served from `cachedPasses` so far.
    private(set) var cachedPassHits = 0
    /// Runs of quads drawn instanced, one batch per kind (at most one holds quads at a time).
    let batches: [GLQuadBatch]
    /// Runs of textured quads of one image (particles, replicated images), drawn instanced.
    let textureBatch: GLTextureBatch
    /// Wide shadows' profiles as textures, kept across frames (`GLQuadBatch.Kind.blurredProfile`).
    let shadowProfiles = GLShadowProfiles()
    /// Wide shadows' quads the general program drew from a profile (turned, clipped), since the start.
    private(set) var profiledQuadDraws = 0
    /// The texture of the image `textureBatch` gathers.
    private var textureBatchTexture: GLuint = 0
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
    private(set) var shadowsDrawnWhole = 0
    /// Whether rounded quads the general program draws are drawn on their footprint
    /// (`GLRoundedFootprint`) rather than their pixel bounds: off only to hold the one to the other.
    var drawsRoundedOnFootprint = true
    /// Rounded quads the general program drew on their footprint, since the executor began.
    private(set) var roundedFootprintDraws = 0
    /// Seconds spent reading frames back (waiting for and mapping the copies, or copying them
    /// when read immediately), since the executor began.
    private(set) var readbackSeconds = 0.0

    /// Frames a cached pass may go unused before its target returns to the pool.
    static let maxIdleFrames = 60

    /// Offscreen targets made so far (not taken from the pool).
    var passAllocations: Int { passPool.allocations }

    var textureStatistics: TextureCacheStatistics { textures.statistics }

    private static let uniforms = ["u_ringColor", "u_ringOpacity", "u_viewport", "u_edgeCount", "u_edges", "u_fillKind", "u_color", "u_opacity",
                                   "u_deviceToTexture", "u_texture", "u_tint",
                                   "u_shapeKind", "u_continuous", "u_deviceToLocal", "u_outerRect", "u_outerRadii", "u_innerRect", "u_innerRadii",
                                   "u_alphaOnly", "u_filterHere", "u_tiled", "u_imageSize", "u_tileAccept", "u_tileRect",
                                   "u_blurToLocal", "u_blurBox", "u_blurParams", "u_minFilter", "u_magNearest", "u_lodBias",
                                   "u_maxLevel", "u_sliced", "u_sliceS", "u_sliceTX", "u_sliceTY",
                                   "u_outlineCount", "u_outlineEdges", "u_inverseSlopes", "u_atlasRegion",
                                   "u_backdrop", "u_backdropOrigin", "u_blendMode", "u_profile", "u_grid", "u_origin"]

    /// The driver's debug messages, where debug output is on: checked after every pass.
    private let debugOutput: GLDebugOutput?
    /// Whether frames are timed on the GPU (`GLDevice.renderTimingStages`), and the query that
    /// times them, made on first use.
    var timesGPU = false
    private var timerQuery: GLTimerQuery?
    private var timerQueryTried = false

    /// The GPU's time for the last timed frame's draws, once it is collected.
    func gpuSeconds() -> Double? { timesGPU ? timerQuery?.seconds() : nil }

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
    func submit(_ list: RenderList, readsImmediately: Bool = false) throws -> GLReadback.Pending {
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
                guard let origin = atlas.origins[pass.id] else { continue }
                glScissor(GLint(origin.x), GLint(origin.y), GLsizei(pass.width), GLsizei(pass.height))
                try drawPass(pass, index: index, of: list, at: origin, atlas: atlas, passes: passTextures)
                passTextures[pass.id] = target.texture
            }
            glDisable(GLenum(GL_SCISSOR_TEST))
            passesInAtlas += atlas.origins.count
        }
        for (index, pass) in list.passes.enumerated() {
            if atlas.contains(pass.id) || frameStencilClips[pass.id] != nil { continue }
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
        let pending = readback.start(width: list.width, height: list.height, immediately: readsImmediately)
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

    /// Waits for a frame `submit` queued and returns its pixels.
    func collect(_ pending: GLReadback.Pending) throws -> Bitmap {
        let start = DispatchTime.now().uptimeNanoseconds
        let pixels = try readback.finish(pending)
        readbackSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if let failures = debugOutput?.takeFailures(), !failures.isEmpty {
            throw GLExecutor.driverReported(failures, during: "the read-back of the frame")
        }
        return Bitmap(width: pending.width, height: pending.height, pixels: pixels)
    }

    /// A queued copy not collected (the frame was abandoned).
    func discard(_ pending: GLReadback.Pending) {
        readback.discard(pending)
    }

    /// The viewport a pass draws through, and every quad program's idea of its size.
    private func setViewport(origin: (x: Int, y: Int), width: Int, height: Int) {
        glViewport(GLint(origin.x), GLint(origin.y), GLsizei(width), GLsizei(height))
        viewportOrigin = origin
        viewport = (width, height)
        for quadProgram in quadPrograms.values {
            glUseProgram(quadProgram.handle)
            glUniform2f(quadProgram.location("u_viewport"), GLfloat(width), GLfloat(height))
        }
        program = plainProgram
        glUseProgram(program.handle)
    }

    /// A rounded clip's pass drawn through the stencil (`GLStencilClip`) where `parent` (the frame,
    /// or a clip drawn through the stencil, at `parentOrigin`) would composite it with `reader`:
    /// the outline's pixels inside the enclosing clips raised to the clip's level, the pass's ops
    /// drawn into the frame at its place where the level is reached, the level taken back down.
    private func drawThroughStencil(_ reader: QuadOp, _ clip: GLStencilClip, index: Int, of list: RenderList,
                                    parent: RenderPass, at parentOrigin: (x: Int, y: Int),
                                    passes: [Int: GLuint]) throws {
        let frame = list.passes[list.passes.count - 1]
        try attachStencil(width: frame.width, height: frame.height)
        let pass = clip.pass, level = GLint(clip.depth)
        glEnable(GLenum(GL_STENCIL_TEST))
        glStencilMask(0xFF)
        // Raise the outline's pixels that every enclosing clip holds (the frame's are at 0).
        try markOutline(reader, from: level - 1, op: GLenum(GL_INCR))
        glStencilFunc(GLenum(GL_EQUAL), level, 0xFF)
        glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_KEEP))
        glEnable(GLenum(GL_SCISSOR_TEST))
        glScissor(GLint(clip.origin.x), GLint(clip.origin.y), GLsizei(pass.width), GLsizei(pass.height))
        try drawPass(pass, index: index, of: list, at: clip.origin, atlas: GLPassAtlas(), passes: passes, clears: false)
        setViewport(origin: parentOrigin, width: parent.width, height: parent.height)
        if clip.depth == 1 {
            // The outermost clip: the whole stencil back to 0 under the clip's scissor.
            glClearStencil(0)
            glClear(GLbitfield(GL_STENCIL_BUFFER_BIT))
            glDisable(GLenum(GL_SCISSOR_TEST))
            glDisable(GLenum(GL_STENCIL_TEST))
        } else {
            // Inside another clip: the outline's pixels back down to the enclosing clip's level,
            // whose scissor and test hold again.
            glScissor(GLint(parentOrigin.x), GLint(parentOrigin.y), GLsizei(parent.width), GLsizei(parent.height))
            try markOutline(reader, from: level, op: GLenum(GL_DECR))
            glStencilFunc(GLenum(GL_EQUAL), level - 1, 0xFF)
            glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_KEEP))
        }
        stencilClips += 1
    }

    /// Applies `op` to the stencil of the pixels whose centre `reader`'s outline covers and whose
    /// level is `level`, drawing no colour.
    private func markOutline(_ reader: QuadOp, from level: GLint, op: GLenum) throws {
        glStencilFunc(GLenum(GL_EQUAL), level, 0xFF)
        glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), op)
        glColorMask(GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE))
        var outline = reader
        outline.fill = .solid(.opaqueWhite)
        marksStencil = true
        defer {
            marksStencil = false
            glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        }
        try draw(outline, images: [:], passes: [:], atlas: GLPassAtlas())
    }

    /// A stencil buffer on the frame's framebuffer, as large as the frame.
    private func attachStencil(width: Int, height: Int) throws {
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        if stencilBuffer == 0 { glGenRenderbuffers(1, &stencilBuffer) }
        if stencilSize != (width, height) {
            glBindRenderbuffer(GLenum(GL_RENDERBUFFER), stencilBuffer)
            glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_STENCIL_INDEX8), GLsizei(width), GLsizei(height))
            glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), stencilBuffer)
            stencilSize = (width, height)
            glClearStencil(0)
            glClear(GLbitfield(GL_STENCIL_BUFFER_BIT))
        }
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GL_FRAMEBUFFER_COMPLETE else {
            stencilSize = (0, 0)
            throw GLError.framebufferIncomplete(status: status)
        }
    }

    /// One pass's ops, into the bound target with its top-left texel at `origin` (a pass of the
    /// atlas) or at the target's corner.
    private func drawPass(_ pass: RenderPass, index: Int, of list: RenderList, at origin: (x: Int, y: Int),
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

    /// The state every draw of a frame relies on, set at its start rather than assumed from GL's
    /// defaults or from the frame before: blending on with additive equations (each draw sets
    /// its factors), and every test and mask that could drop or alter a fragment off.
    private func setFixedState() {
        glDisable(GLenum(GL_DITHER))
        glDisable(GLenum(GL_DEPTH_TEST))
        glDisable(GLenum(GL_STENCIL_TEST))
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDisable(GLenum(GL_CULL_FACE))
        glDisable(GLenum(GL_SAMPLE_ALPHA_TO_COVERAGE))
        glDisable(GLenum(GL_SAMPLE_COVERAGE))
        glDisable(GLenum(GL_RASTERIZER_DISCARD))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glEnable(GLenum(GL_BLEND))
        glBlendEquation(GLenum(GL_FUNC_ADD))
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), 0)
        glPixelStorei(GLenum(GL_PACK_SKIP_PIXELS), 0)
        glPixelStorei(GLenum(GL_PACK_SKIP_ROWS), 0)
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
        glBindBuffer(GLenum(GL_PIXEL_UNPACK_BUFFER), 0)
    }

    /// The driver's failure messages, and the names of the errors GL flagged with them: the
    /// messages' wording is each driver's own (Mesa names the call, "glTexParameter(param=
    /// GL_REPEAT)"; NVIDIA the complaint, "Invalid min filter mode."), the error's name is GL's.
    static func driverReported(_ failures: [GLDebugOutput.Message], during: String) -> GLError {
        var flagged: [String] = []
        while case let code = glGetError(), code != GL_NO_ERROR, flagged.count < 8 {
            flagged.append(GLError.name(of: UInt32(code)))
        }
        let errors = flagged.isEmpty ? [] : ["glGetError: " + flagged.joined(separator: ", ")]
        return GLError.driverReported(failures.map(\.description) + errors, during: during)
    }

    /// Fails the frame on what the driver reported while pass `index` ran: its debug messages
    /// where debug output is on (cheap: they were collected as the calls ran), and in debug
    /// builds glGetError too (which some drivers answer only after waiting for their worker thread,
    /// so release builds ask once per frame).
    private func checkErrors(after index: Int, of list: RenderList) throws {
        let pass = list.passes[index]
        func during() -> String {
            let which = index == list.passes.count - 1 ? "the frame's pass" : "offscreen pass \(pass.id)"
            return "\(which) (\(index + 1) of \(list.passes.count), \(pass.width)x\(pass.height), \(pass.ops.count) draws)"
        }
        if let failures = debugOutput?.takeFailures(), !failures.isEmpty {
            throw GLExecutor.driverReported(failures, during: during())
        }
        #if DEBUG
        let error = glGetError()
        guard error == GL_NO_ERROR else { throw GLError.glError(code: error, during: during()) }
        #endif
    }

    /// The colour `op` leaves on every pixel of a transparent `width` x `height` target, if it is
    /// a solid source-over quad whose coverage is 1 at every pixel centre (each edge is at least
    /// half a pixel outside the target's corner pixel centres; coverage is a product of clamped
    /// linear ramps, so the corners bound it), with no rounded shape.
    package static func solidColorFilling(_ op: DrawOp, width: Int, height: Int) -> PremultipliedColor? {
        guard case .quad(let quad) = op, quad.blend == .sourceOver, quad.rounded == nil,
              case .solid(let color) = quad.fill else { return nil }
        let b = quad.polygon.pixelBounds
        guard b.minX == 0, b.minY == 0, b.maxX == width, b.maxY == height else { return nil }
        let corners = [(0.5, 0.5), (Double(width) - 0.5, 0.5), (0.5, Double(height) - 0.5),
                       (Double(width) - 0.5, Double(height) - 0.5)]
        guard corners.allSatisfy({ quad.polygon.coverage(atX: $0.0, y: $0.1) == 1 }) else { return nil }
        let k = quad.opacity
        // As the quad's shader writes it: the colour times tint and opacity on the target's
        // steps (TargetSteps), not left to the driver's own conversion of a clear colour.
        let c = color.multiplied(by: quad.tint).multiplied(by: PremultipliedColor(red: k, green: k, blue: k, alpha: k))
        return PremultipliedColor(red: TargetSteps.snapped(c.red), green: TargetSteps.snapped(c.green),
                                  blue: TargetSteps.snapped(c.blue), alpha: TargetSteps.snapped(c.alpha))
    }

    /// Draws a gathered run, then puts the quad program and its vertex state back.
    private func flush(_ batch: GLQuadBatch, width: Int, height: Int) {
        guard !batch.isEmpty else { return }
        batch.flush(width: width, height: height)
        glUseProgram(program.handle)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
    }

    private func flushBatches(width: Int, height: Int) {
        for batch in batches { flush(batch, width: width, height: height) }
        flushTextureBatch(width: width, height: height)
    }

    /// Draws the textured run gathered, then puts the quad program and its vertex state back.
    private func flushTextureBatch(width: Int, height: Int) {
        guard !textureBatch.isEmpty else { return }
        bindTexture(textureBatchTexture, filter: .linear)
        textureBatch.flush(width: width, height: height)
        glUseProgram(program.handle)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
    }

    /// The texture of an image that fits in one (no tiles, no mipmaps), nil otherwise.
    private func wholeImageTexture(_ id: UInt64, images: [UInt64: Bitmap]) throws -> GLuint? {
        guard let bitmap = images[id] else { return nil }
        let tiles = try textures.tiles(for: id, bitmap: bitmap, maxSize: caps.maxTextureSize, mipmaps: false)
        guard tiles.count == 1, let tile = tiles.first, tile.isWholeImage, tile.levels == 0 else { return nil }
        return tile.texture
    }

    /// Returns cached passes unused for too long to the pool.
    private func endFrameOfCache() {
        for (key, entry) in cachedPasses where frameNumber - entry.lastUsed > GLExecutor.maxIdleFrames {
            passPool.giveBack([entry.target])
            cachedPasses[key] = nil
        }
        frameNumber += 1
    }

    /// One quad. Its pixels are drawn by the program without the exact-area sum where every
    /// edge is a pixel's reach away (the interior of a `GLCoverageSplit`, or the whole quad for
    /// polygons whose coverage is the product of ramps: hard edges), by the exact program
    /// elsewhere; each program gets the quad's uniforms before its draw.
    private func draw(_ quad: QuadOp, images: [UInt64: Bitmap], passes: [Int: GLuint], atlas: GLPassAtlas) throws {
        // The texture first, once: the cache counts each lookup.
        var tiles: [GLTextureTile] = [], imageSize = (width: 0, height: 0), passTexture: GLuint?
        var sampling: GLQuadVariant.PlainSampling?, region: (x: Int, y: Int, width: Int, height: Int)?
        if case .texture(let fill) = quad.fill {
            switch fill.source {
            case .image(let id):
                guard let bitmap = images[id] else { return }
                tiles = try textures.tiles(for: id, bitmap: bitmap, maxSize: caps.maxTextureSize,
                                           mipmaps: fill.minification == .trilinear)
                imageSize = (bitmap.width, bitmap.height)
                if tiles.count == 1, let tile = tiles.first {
                    sampling = GLQuadVariant.plainSampling(of: fill, wholeImage: tile.isWholeImage, levels: tile.levels)
                }
            case .pass(let id):
                guard let texture = passes[id] else { return }
                passTexture = texture
                // A pass in the atlas is read within its place there (the variant clamps to it).
                region = atlas.region(of: id)
                sampling = region != nil ? .atlas : GLQuadVariant.plainSampling(of: fill, wholeImage: true, levels: 0)
            }
        }
        let b = quad.polygon.pixelBounds
        let bounds: [GLfloat] = [GLfloat(b.minX), GLfloat(b.minY), GLfloat(b.maxX), GLfloat(b.minY),
                                 GLfloat(b.minX), GLfloat(b.maxY), GLfloat(b.maxX), GLfloat(b.maxY)]
        var solid = false
        if case .solid = quad.fill { solid = true }
        // A rounded shape is drawn on its footprint where the pixels off it change nothing: blends
        // for which a zero colour leaves the target as it is, and no stencil to mark.
        let footprint = quad.rounded.flatMap { shape in
            drawsRoundedOnFootprint && (quad.blend == .sourceOver || quad.blend == .plus) && !marksStencil
                ? GLRoundedFootprint.fan(for: shape, bounds: b) : nil
        }
        if footprint != nil { roundedFootprintDraws += 1 }
        let whole: (mode: Int32, vertices: [GLfloat]) = footprint.map { (GL_TRIANGLE_FAN, $0) } ?? (GL_TRIANGLE_STRIP, bounds)
        var plan: [(exact: Bool, mode: Int32, vertices: [GLfloat])]
        if !quad.polygon.isExact || GLCoverageSplit.isWhollyInside(quad.polygon) {
            plan = [(false, whole.mode, whole.vertices)]
        } else if quad.rounded == nil, let split = GLCoverageSplit.make(quad.polygon) {
            plan = [(false, GL_TRIANGLE_FAN, split.interiorFan), (true, GL_TRIANGLE_STRIP, split.bandStrip)]
        } else {
            plan = [(true, whole.mode, whole.vertices)]
        }
        switch quad.blend {
        case .sourceOver: glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        case .plus: glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE))
        case .destinationIn: glBlendFunc(GLenum(GL_ZERO), GLenum(GL_SRC_ALPHA))
        default:
            // The shader writes the mode's result itself, from a copy of what lies beneath.
            copyBackdrop(b)
            glBlendFunc(GLenum(GL_ONE), GLenum(GL_ZERO))
        }
        defer { use(plainProgram) }
        for step in plan {
            var variant = marksStencil ? GLQuadVariant(exact: step.exact, solid: true, shaped: quad.rounded != nil, marksStencil: true)
                : generalQuadProgramOnly && region == nil ? GLQuadVariant(exact: step.exact, solid: solid)
                : GLQuadVariant(exact: step.exact, solid: solid, sampling: sampling, shaped: quad.rounded != nil)
            variant.blendsWithBackdrop = quad.blend.readsBackdrop
            if variant.sampling != nil { plainTextureDraws += 1 }
            use(try quadProgram(variant))
            setQuadUniforms(quad, exact: step.exact)
            if variant.blendsWithBackdrop {
                glUniform1i(program.location("u_backdrop"), 1)
                glUniform2i(program.location("u_backdropOrigin"), GLint(b.minX), GLint(b.minY))
                glUniform1i(program.location("u_blendMode"), GLExecutor.blendModeCode(quad.blend))
            }
            let vertices = step.vertices
            func drawStep() {
                vertices.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
                glDrawArrays(GLenum(step.mode), 0, GLsizei(vertices.count / 2))
            }
            guard case .texture(let fill) = quad.fill else {
                drawStep()
                continue
            }
            if let passTexture {
                if let region {
                    glUniform4i(program.location("u_atlasRegion"), GLint(region.x), GLint(region.y),
                                GLint(region.width), GLint(region.height))
                }
                glUniform1i(program.location("u_tiled"), 0)
                glUniform1i(program.location("u_minFilter"), GLint(GLExecutor.minFilterCode(fill.minification)))
                glUniform1i(program.location("u_maxLevel"), 0)
                bindTexture(passTexture, filter: fill.filter)
                drawStep()
                continue
            }
            // An image over the size limit is drawn once per tile, each answering for its own
            // sample points (the rest discarded), so every pixel is drawn exactly once.
            for tile in tiles {
                // Tiles of an image over the size limit have no mipmaps and one filter
                // (a known difference from the CPU for trilinear images that large).
                let minFilter = tile.isWholeImage ? GLExecutor.minFilterCode(fill.minification) : -1
                glUniform1i(program.location("u_minFilter"), GLint(minFilter))
                glUniform1i(program.location("u_maxLevel"), GLint(tile.levels))
                glUniform1i(program.location("u_tiled"), tile.isWholeImage ? 0 : 1)
                glUniform2f(program.location("u_imageSize"), GLfloat(imageSize.width), GLfloat(imageSize.height))
                glUniform4f(program.location("u_tileAccept"), tile.accept.0, tile.accept.1, tile.accept.2, tile.accept.3)
                glUniform4f(program.location("u_tileRect"), GLfloat(tile.originX), GLfloat(tile.originY),
                            GLfloat(tile.width), GLfloat(tile.height))
                bindTexture(tile.texture, filter: fill.filter, levels: minFilter == 2 ? tile.levels : 0)
                drawStep()
            }
        }
    }

    /// Copies the target's pixels in `bounds` (the pass's pixels, at the viewport's origin in the
    /// target) into the backdrop texture on unit 1, for a quad whose blend mode reads them.
    private func copyBackdrop(_ bounds: PixelRect) {
        if backdropTexture == 0 { glGenTextures(1, &backdropTexture) }
        glActiveTexture(GLenum(GL_TEXTURE1))
        glBindTexture(GLenum(GL_TEXTURE_2D), backdropTexture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glCopyTexImage2D(GLenum(GL_TEXTURE_2D), 0, GLenum(GL_RGBA), GLint(viewportOrigin.x + bounds.minX),
                         GLint(viewportOrigin.y + bounds.minY), GLsizei(max(bounds.width, 1)), GLsizei(max(bounds.height, 1)), 0)
        glActiveTexture(GLenum(GL_TEXTURE0))
    }

    /// blend_modes.glsl's number for a mode that reads the backdrop.
    static func blendModeCode(_ mode: BlendMode) -> GLint {
        GLint((blendModeCodes.firstIndex(of: mode) ?? -1) + 1)
    }

    /// The modes in blend_modes.glsl's order, numbered from 1.
    private static let blendModeCodes: [BlendMode] = [.multiply, .screen, .overlay, .darken, .lighten, .colorDodge, .colorBurn,
                                                      .hardLight, .softLight, .difference, .exclusion, .hue, .saturation, .color,
                                                      .luminosity, .sourceAtop, .sourceIn, .sourceOut]

    /// A background and its border (`QuadOp.isBorder(over:)`) as one draw of the PAIRED program
    /// over the pair's pixel bounds: the ring over the fill by area, blended once.
    private func drawPair(_ fill: QuadOp, _ ring: QuadOp) throws {
        guard case .solid(let c) = fill.fill, case .solid(let r) = ring.fill else { return }
        defer { use(plainProgram) }
        // Hard edges keep the product of steep ramps (CoveragePolygon.isExact), as on the CPU.
        let exact = fill.polygon.isExact
        use(try quadProgram(GLQuadVariant(exact: exact, solid: true, paired: true)))
        setQuadUniforms(fill, exact: exact)
        setRoundedShape(ring.rounded)
        glUniform4f(program.location("u_color"), GLfloat(c.red), GLfloat(c.green), GLfloat(c.blue), GLfloat(c.alpha))
        let rc = r.multiplied(by: ring.tint)
        glUniform4f(program.location("u_ringColor"), GLfloat(rc.red), GLfloat(rc.green), GLfloat(rc.blue), GLfloat(rc.alpha))
        glUniform1f(program.location("u_ringOpacity"), GLfloat(ring.opacity))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        let b = fill.polygon.pixelBounds
        // On the pair's footprint (the ring's outer outline is the fill's) where it has one.
        if drawsRoundedOnFootprint, let fan = ring.rounded.flatMap({ GLRoundedFootprint.fan(for: $0, bounds: b) }) {
            roundedFootprintDraws += 1
            fan.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
            glDrawArrays(GLenum(GL_TRIANGLE_FAN), 0, GLsizei(fan.count / 2))
            return
        }
        let bounds: [GLfloat] = [GLfloat(b.minX), GLfloat(b.minY), GLfloat(b.maxX), GLfloat(b.minY),
                                 GLfloat(b.minX), GLfloat(b.maxY), GLfloat(b.maxX), GLfloat(b.maxY)]
        bounds.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
    }

    /// A filled path (`GLPathFill`), then the quad program and its vertex state back.
    private func drawPath(_ path: PathOp, width: Int, height: Int) throws {
        let route = pathRoute ?? (caps.blendsFloatTargets ? .floatSum : .cpuSum)
        if pathFill == nil { pathFill = try GLPathFill(route: route) }
        pathFill?.route = route
        pathFill?.draw(path, viewport: (width, height))
        glUseProgram(program.handle)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
    }

    /// Rounded clips drawn through the stencil instead of their pass (`GLStencilClip`): only on
    /// request (`GLDevice.clipRoundedByStencil`, `OPENQUARTZ_GL_ROUNDED_CLIPS=stencil`).
    var roundedClipsByStencil = false
    /// Rounded clips drawn through the stencil so far.
    private(set) var stencilClips = 0
    private var frameStencilClips: [Int: GLStencilClip] = [:]
    private var stencilBuffer: GLuint = 0
    private var stencilSize = (width: 0, height: 0)
    /// Set while the outline of a stencil clip is marked (the STENCIL_MASK variant draws).
    private var marksStencil = false

    /// Every pass drawn into a target of its own (`GLDevice.drawPassesSeparately`).
    var drawsPassesSeparately = false
    /// Passes drawn into an atlas (`GLPassAtlas`) so far.
    private(set) var passesInAtlas = 0

    /// Every quad drawn by the general program (`GLDevice.drawWithGeneralQuadProgram`).
    var generalQuadProgramOnly = false
    /// Quads drawn with a lean texture variant (`GLQuadVariant.sampling`) so far.
    private(set) var plainTextureDraws = 0

    /// A route filled paths take instead of the driver's (`GLDevice.fillPaths(by:)`).
    var pathRoute: GLPathFill.Route?

    /// Paths filled on the GPU so far, and their edges summed there.
    var pathStatistics: (paths: Int, edges: Int) { (pathFill?.pathsDrawn ?? 0, pathFill?.edgesDrawn ?? 0) }

    /// The quad program variant, made (with its texture unit and viewport) on first use.
    private func quadProgram(_ key: GLQuadVariant) throws -> GLProgram {
        if let made = quadPrograms[key] { return made }
        let made = try GLProgram(vertex: .layerQuadVertex, fragment: .layerQuadFragment, fragmentDefines: key.defines,
                                 uniforms: GLExecutor.uniforms)
        glUseProgram(made.handle)
        glUniform1i(made.location("u_texture"), 0)
        glUniform2f(made.location("u_viewport"), GLfloat(viewport.width), GLfloat(viewport.height))
        glUseProgram(program.handle)
        quadPrograms[key] = made
        return made
    }

    /// Makes `next` the quad program in use (the current one's uniforms stay with it).
    private func use(_ next: GLProgram) {
        guard next !== program else { return }
        program = next
        glUseProgram(next.handle)
    }

    /// The uniforms of a quad that do not depend on the texture tile, on the program in use
    /// (`exact`: the variant that sums the area inside the outline).
    private func setQuadUniforms(_ quad: QuadOp, exact: Bool) {
        let edges = quad.polygon.edges.flatMap { [GLfloat($0.a), GLfloat($0.b), GLfloat($0.c)] }
        glUniform1i(program.location("u_edgeCount"), GLint(quad.polygon.edges.count))
        if !edges.isEmpty { glUniform3fv(program.location("u_edges"), GLsizei(quad.polygon.edges.count), edges) }
        if exact {
            let (edgeData, inverseSlopes) = quad.polygon.shaderOutline
            glUniform1i(program.location("u_outlineCount"), GLint(inverseSlopes.count))
            if !inverseSlopes.isEmpty {
                glUniform4fv(program.location("u_outlineEdges"), GLsizei(inverseSlopes.count), edgeData)
                glUniform1fv(program.location("u_inverseSlopes"), GLsizei(inverseSlopes.count), inverseSlopes)
            }
        }
        glUniform1f(program.location("u_opacity"), GLfloat(quad.opacity))
        let t = quad.tint
        glUniform4f(program.location("u_tint"), GLfloat(t.red), GLfloat(t.green), GLfloat(t.blue), GLfloat(t.alpha))
        setRoundedShape(quad.rounded)
        switch quad.fill {
        case .solid(let c):
            glUniform1i(program.location("u_fillKind"), 0)
            glUniform4f(program.location("u_color"), GLfloat(c.red), GLfloat(c.green), GLfloat(c.blue), GLfloat(c.alpha))
        case .blurredRoundedRect(let shape):
            // A wide shadow from its profile, as the batches draw it (the same bytes whichever
            // program draws a strip of it).
            if let entry = shadowProfiles.entry(for: BlurredRoundedRectProfile.Key(shape)) {
                profiledQuadDraws += 1
                glUniform1i(program.location("u_fillKind"), 3)
                glActiveTexture(GLenum(GL_TEXTURE0 + GLShadowProfiles.unit))
                glBindTexture(GLenum(GL_TEXTURE_2D), entry.texture)
                glActiveTexture(GLenum(GL_TEXTURE0))
                glUniform1i(program.location("u_profile"), GLShadowProfiles.unit)
                glUniform3f(program.location("u_grid"), entry.spacing, GLfloat(entry.columns - 1), GLfloat(entry.rows - 1))
                glUniform2f(program.location("u_origin"), entry.origin.x, entry.origin.y)
            } else {
                glUniform1i(program.location("u_fillKind"), 2)
            }
            let c = shape.color
            glUniform4f(program.location("u_color"), GLfloat(c.red), GLfloat(c.green), GLfloat(c.blue), GLfloat(c.alpha))
            setMatrix(shape.deviceToLocal, "u_blurToLocal")
            let r = shape.rect
            glUniform4f(program.location("u_blurBox"), GLfloat(r.x + r.width / 2), GLfloat(r.y + r.height / 2),
                        GLfloat(r.width / 2), GLfloat(r.height / 2))
            glUniform2f(program.location("u_blurParams"), GLfloat(shape.cornerRadius), GLfloat(shape.sigma))
        case .texture(let fill):
            glUniform1i(program.location("u_fillKind"), 1)
            glUniform1i(program.location("u_alphaOnly"), fill.alphaOnly ? 1 : 0)
            // Bilinear filtering is done in the shader, in float, as the CPU reference does it:
            // drivers filter 8-bit textures in 8-bit steps, and stacked shadows (upsampled from
            // halved passes), groups and images drifted several steps from the reference.
            glUniform1i(program.location("u_filterHere"), fill.filter == .nearest ? 0 : 1)
            setMatrix(fill.deviceToTexture, "u_deviceToTexture")
            setSampling(fill)
        }
    }

    /// Binds a texture with one filter, or, where `levels` mipmap levels are to be read, nearest
    /// mipmap filtering (levels above the base are read only from a mipmapped texture).
    private func bindTexture(_ texture: GLuint, filter: SamplingFilter, levels: Int = 0) {
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        let mode = filter == .nearest ? GL_NEAREST : GL_LINEAR
        // With levels the shader filters (textureLod at texel centres must return texels as they are).
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), levels > 0 ? GL_NEAREST_MIPMAP_NEAREST : mode)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), levels > 0 ? GL_NEAREST : mode)
    }

    /// u_minFilter: -1 without a minification filter, else 0 linear, 1 nearest, 2 trilinear.
    private static func minFilterCode(_ filter: SamplingFilter?) -> Int {
        switch filter {
        case nil: -1
        case .linear: 0
        case .nearest: 1
        case .trilinear: 2
        }
    }

    /// The level-of-detail bias, the magnification filter and the nine-slice map of a fill.
    private func setSampling(_ fill: TextureFill) {
        glUniform1i(program.location("u_magNearest"), fill.filter == .nearest ? 1 : 0)
        glUniform1f(program.location("u_lodBias"), GLfloat(fill.lodBias))
        glUniform1i(program.location("u_sliced"), fill.slices == nil ? 0 : 1)
        if let slices = fill.slices {
            let x = slices.x, y = slices.y
            glUniform4f(program.location("u_sliceS"), GLfloat(x.s1), GLfloat(x.s2), GLfloat(y.s1), GLfloat(y.s2))
            glUniform4f(program.location("u_sliceTX"), GLfloat(x.t0), GLfloat(x.t1), GLfloat(x.t2), GLfloat(x.t3))
            glUniform4f(program.location("u_sliceTY"), GLfloat(y.t0), GLfloat(y.t1), GLfloat(y.t2), GLfloat(y.t3))
        }
    }

    /// One axis of a blur over the whole target, replacing it (no blending), then back to the
    /// quad program.
    private func drawBlur(_ blur: BlurOp, width: Int, height: Int, passes: [Int: GLuint]) {
        guard let source = passes[blur.source], blur.weights.count <= BlurOp.maxTaps else { return }
        useReplacingProgram(blurProgram, source: source, width: width, height: height)
        glUniform1i(blurProgram.location("u_taps"), GLint(blur.weights.count))
        glUniform1fv(blurProgram.location("u_weights"), GLsizei(blur.weights.count), blur.weights)
        glUniform1i(blurProgram.location("u_horizontal"), blur.horizontal ? 1 : 0)
        drawWholeTarget(width: width, height: height)
    }

    /// The source at half size over the whole target, replacing it, then back to the quad program.
    private func drawHalve(_ op: HalveOp, width: Int, height: Int, passes: [Int: GLuint]) {
        guard let source = passes[op.source] else { return }
        useReplacingProgram(halveProgram, source: source, width: width, height: height)
        glUniform2i(halveProgram.location("u_origin"), GLint(op.originX), GLint(op.originY))
        drawWholeTarget(width: width, height: height)
    }

    /// Binds a program that replaces the target from one source pass (no blending) with its
    /// viewport and source set.
    private func useReplacingProgram(_ replacing: GLProgram, source: GLuint, width: Int, height: Int) {
        glUseProgram(replacing.handle)
        glDisable(GLenum(GL_BLEND))
        glUniform2f(replacing.location("u_viewport"), GLfloat(width), GLfloat(height))
        glUniform1i(replacing.location("u_source"), 0)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), source)
        // texelFetch needs a complete texture: no mipmaps are made, so no mipmap filter.
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
    }

    /// Draws the bound replacing program over the whole target, then restores the quad program.
    private func drawWholeTarget(width: Int, height: Int) {
        let vertices: [GLfloat] = [0, 0, GLfloat(width), 0, 0, GLfloat(height), GLfloat(width), GLfloat(height)]
        vertices.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glEnable(GLenum(GL_BLEND))
        glUseProgram(program.handle)
    }

    /// A projective map as a mat3 uniform of the quad program: column-major for GLSL, where
    /// `vec3(p, 1.0) * M` is the row-vector product.
    private func setMatrix(_ m: ProjectiveTransform2D, _ name: String) {
        let columns: [GLfloat] = [m.m11, m.m21, m.m31, m.m12, m.m22, m.m32, m.m13, m.m23, m.m33].map { GLfloat($0) }
        glUniformMatrix3fv(program.location(name), 1, GLboolean(GL_FALSE), columns)
    }

    /// The rounded-shape uniforms; kind 0 turns the shape off.
    private func setRoundedShape(_ shape: RoundedShape?) {
        guard let shape else {
            glUniform1i(program.location("u_shapeKind"), 0)
            return
        }
        glUniform1i(program.location("u_shapeKind"), shape.inner == nil ? 1 : 2)
        glUniform1i(program.location("u_continuous"), shape.outer.continuous ? 1 : 0)
        setMatrix(shape.deviceToLocal, "u_deviceToLocal")
        func set(_ rect: RoundedRectangle, _ rectName: String, _ radiiName: String) {
            glUniform4f(program.location(rectName), GLfloat(rect.rect.x), GLfloat(rect.rect.y),
                        GLfloat(rect.rect.width), GLfloat(rect.rect.height))
            glUniform4f(program.location(radiiName), GLfloat(rect.topLeft), GLfloat(rect.topRight),
                        GLfloat(rect.bottomRight), GLfloat(rect.bottomLeft))
        }
        set(shape.outer, "u_outerRect", "u_outerRadii")
        if let inner = shape.inner { set(inner, "u_innerRect", "u_innerRadii") }
    }

    private func prepareFramebuffer(width: Int, height: Int) throws {
        if framebuffer == 0 {
            glGenFramebuffers(1, &framebuffer)
            glGenRenderbuffers(1, &colorBuffer)
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        if framebufferSize != (width, height) {
            glBindRenderbuffer(GLenum(GL_RENDERBUFFER), colorBuffer)
            glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
            glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), colorBuffer)
            framebufferSize = (width, height)
        }
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GL_FRAMEBUFFER_COMPLETE else {
            framebufferSize = (0, 0)
            throw GLError.framebufferIncomplete(status: status)
        }
    }
}
