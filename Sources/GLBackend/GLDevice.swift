import CEGL
import Compositor
import Foundation
import OpenCoreGraphics

// Over 600 lines on purpose: the device is the one door to its context, so every switch and
// statistic a test, a tool or the bench sets or reads on the executor (routes, batches, faults,
// counts) is a member here that takes the lock; none draws anything (GLExecutor's files do).

/// A headless OpenGL ES 3 context on an EGL display, and the one door to it.
///
/// Contexts are current on one thread at a time, and callers (tests, renderers) run on many, so
/// every use goes through `render(_:)`, which takes the device's lock, makes the context current
/// on the calling thread, and releases it before returning.
public final class GLDevice: @unchecked Sendable {
    /// What the context is and can do.
    public let caps: GLCaps

    private let opened: OpenedDisplay
    private var context: EGLContext
    private let config: EGLConfig?
    /// Asks the driver whether the context was lost (a GPU reset); nil where it cannot say.
    private let resetStatus: (@convention(c) () -> GLenum)?
    /// Contexts lost and made anew while drawing, since the device was opened.
    public private(set) var contextResets = 0
    private let lock = NSLock()
    private var executor: GLExecutor?
    /// Whether the driver's debug output is wanted (see `GLDebugOutput`), and its log while on.
    private let wantsDebugOutput: Bool
    private var debugOutput: GLDebugOutput?
    /// A reset to report after the next frame's draws, as the driver would after a GPU reset.
    private var simulatedLossPending = 0
    /// How many times the context was replaced: frames submitted before are drawn again.
    private var contextGeneration = 0
    /// A pass in which the next frame makes an invalid GL call (the test hook for error reporting).
    private var invalidCallPass: Int?
    private var pathRoute: GLPathFill.Route?
    private var pathUploadBudget: Int?
    private var generalQuadProgramOnly = false
    private var middlesApart = true
    private var affineFrames = true
    private var frameShortcuts = true
    private var unclippedShadows = true
    private var roundedOnFootprint = true
    private var texturesOneByOne = false
    private var turnedQuadsOneByOne = false
    private var turnedShadowsSingly = false
    private var passesSeparately = false
    /// Rounded clips through the stencil (`clipRoundedByStencil`, or `OPENQUARTZ_GL_ROUNDED_CLIPS=stencil`
    /// to time the route in a frame benchmark).
    private var roundedClipsByStencil = ProcessInfo.processInfo.environment["OPENQUARTZ_GL_ROUNDED_CLIPS"] == "stencil"

    /// Debug output by default: on where `OPENQUARTZ_GL_DEBUG` is 1, off where it is 0, else on in
    /// debug builds only (it makes the driver validate and report every call synchronously).
    public static var debugOutputByDefault: Bool {
        switch ProcessInfo.processInfo.environment["OPENQUARTZ_GL_DEBUG"] {
        case "1": return true
        case "0": return false
        default:
            #if DEBUG
            return true
            #else
            return false
            #endif
        }
    }

    /// Most bytes of image textures this device keeps (see `RenderLimits.maxTextureBytes`).
    /// Default: `RenderLimits.current` when the device was opened.
    public var maxTextureBytes: Int {
        get { lock.withLock { textureByteLimit } }
        set { lock.withLock { textureByteLimit = max(newValue, 1); executor?.maxTextureBytes = textureByteLimit } }
    }
    private var textureByteLimit = RenderLimits.current.maxTextureBytes

    /// The process's shared device, opened on first use as the environment says
    /// (`OPENQUARTZ_EGL_PLATFORM`, `OPENQUARTZ_EGL_DEVICE`); the outcome, success or failure, is
    /// kept, so a machine without GL answers quickly every time after the first.
    public static func shared() throws -> GLDevice { try sharedResult.get() }

    private static let sharedResult: Result<GLDevice, any Error> = Result {
        let environment = ProcessInfo.processInfo.environment
        var platform: EGLPlatform?
        if let name = environment["OPENQUARTZ_EGL_PLATFORM"], !name.isEmpty {
            guard let chosen = EGLPlatform(rawValue: name) else {
                throw GLError.noDisplay(attempts: ["OPENQUARTZ_EGL_PLATFORM=\(name) is not one of "
                    + EGLPlatform.allCases.map(\.rawValue).joined(separator: ", ")])
            }
            platform = chosen
        }
        return try GLDevice(platform: platform, device: environment["OPENQUARTZ_EGL_DEVICE"])
    }

    /// Opens a display (see `EGLPlatform` for the order tried) and makes an ES 3.0 context on it.
    /// With `debugOutput`, the driver's debug messages are collected (GL_KHR_debug, where offered)
    /// and an error or undefined behaviour it reports fails the frame, naming the pass.
    public init(platform: EGLPlatform? = nil, device: String? = nil, debugOutput: Bool = GLDevice.debugOutputByDefault) throws {
        let opened = try DisplayUsers.open { try EGLDisplaySelection.open(platform: platform, device: device) }
        var ready = false
        defer { if !ready { DisplayUsers.close(opened.display) } }
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGLBoolean(EGL_TRUE) else {
            throw GLError.noContext("eglBindAPI(EGL_OPENGL_ES_API) failed (\(eglErrorName()))")
        }
        let extensions = eglQueryString(opened.display, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? ""
        guard extensions.contains("EGL_KHR_surfaceless_context") else {
            throw GLError.noContext("\(opened.detail) lacks EGL_KHR_surfaceless_context")
        }
        // Any configuration that renders ES 3 will do: drawing goes to our own framebuffer object.
        let configAttributes: [EGLint] = [EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE]
        var config: EGLConfig?
        var count: EGLint = 0
        let chosen = eglChooseConfig(opened.display, configAttributes, &config, 1, &count) == EGLBoolean(EGL_TRUE) && count > 0
        if !chosen && !extensions.contains("EGL_KHR_no_config_context") {
            throw GLError.noContext("\(opened.detail) has no OpenGL ES 3 configuration")
        }
        let (context, robust) = try GLDevice.makeContext(opened, config: chosen ? config : nil, extensions: extensions,
                                                         debug: debugOutput)
        guard eglMakeCurrent(opened.display, nil, nil, context) == EGLBoolean(EGL_TRUE) else {
            eglDestroyContext(opened.display, context)
            throw GLError.noContext("eglMakeCurrent failed on \(opened.detail) (\(eglErrorName()))")
        }
        // llvmpipe's rasterizer threads start with the context: placed now, before any frame.
        RasterizerThreads.spread()
        var caps = GLCaps.read(display: opened)
        caps.isRobust = robust
        caps.offersDebugOutput = GLDebugOutput.offered()
        caps.blendsFloatTargets = GLPathFill.floatBlendingOffered()
        caps.offersTimerQueries = GLExtensions.current().names.contains("GL_EXT_disjoint_timer_query")
        self.caps = caps
        wantsDebugOutput = debugOutput
        self.debugOutput = debugOutput ? GLDebugOutput.enable() : nil
        eglMakeCurrent(opened.display, nil, nil, nil)
        self.opened = opened
        self.context = context
        self.config = chosen ? config : nil
        let names: [String] = ["glGetGraphicsResetStatus", "glGetGraphicsResetStatusKHR", "glGetGraphicsResetStatusEXT"]
        resetStatus = names.lazy.compactMap { name in name.withCString { eglGetProcAddress($0) } }.first
            .map { unsafeBitCast($0, to: (@convention(c) () -> GLenum).self) }
        ready = true
    }

    deinit {
        lock.lock()
        if eglMakeCurrent(opened.display, nil, nil, context) == EGLBoolean(EGL_TRUE) {
            executor = nil
            debugOutput?.disable()
            eglMakeCurrent(opened.display, nil, nil, nil)
        }
        eglDestroyContext(opened.display, context)
        // EGL hands every opener of a native display the same EGLDisplay, and one eglTerminate
        // ends it for all: only the last device on it terminates it.
        DisplayUsers.close(opened.display)
        if let gbm = opened.gbmDevice { gbm_device_destroy(gbm) }
        if opened.fileDescriptor >= 0 { close(opened.fileDescriptor) }
        lock.unlock()
    }

    /// An ES 3.0 context, with robust access and lose-context-on-reset where the display offers
    /// EGL_EXT_create_context_robustness (so a GPU reset is reported instead of hanging or
    /// drawing garbage), else a plain one; with `debug`, a debug context where EGL 1.5 can make
    /// one (debug output works without, but drivers report more in one). Returns the context and
    /// whether it is robust.
    private static func makeContext(_ opened: OpenedDisplay, config: EGLConfig?, extensions: String,
                                    debug: Bool) throws -> (EGLContext, Bool) {
        let version: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0]
        let robust: [EGLint] = [EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, EGL_TRUE,
                                EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, EGL_LOSE_CONTEXT_ON_RESET_EXT]
        let debugging: [EGLint] = [EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE]
        let offersRobust = extensions.contains("EGL_EXT_create_context_robustness")
        let eglVersion = eglQueryString(opened.display, EGLint(EGL_VERSION)).map { String(cString: $0) } ?? ""
        let offersDebug = debug && !eglVersion.hasPrefix("1.4") && !eglVersion.hasPrefix("1.3")
        // Most wanted first; each attempt that the display refuses falls back to the next.
        var attempts: [(attributes: [EGLint], robust: Bool)] = []
        if offersRobust && offersDebug { attempts.append((version + robust + debugging, true)) }
        if offersRobust { attempts.append((version + robust, true)) }
        if offersDebug { attempts.append((version + debugging, false)) }
        for attempt in attempts {
            if let context = eglCreateContext(opened.display, config, nil, attempt.attributes + [EGL_NONE]) {
                return (context, attempt.robust)
            }
        }
        guard let context = eglCreateContext(opened.display, config, nil, version + [EGL_NONE]) else {
            throw GLError.noContext("eglCreateContext failed on \(opened.detail) (\(eglErrorName()))")
        }
        return (context, false)
    }

    /// Executes a render list and reads the frame back. If the context is lost while drawing (a
    /// GPU reset), a new one is made and the frame drawn again, once.
    public func render(_ list: RenderList) throws -> Bitmap {
        lock.lock()
        defer { lock.unlock() }
        return try renderLocked(list)
    }

    /// The frame drawn over `previous` (the frame of the list `damage` was worked out against,
    /// `RenderList.damage(since:)`): only the draws that meet the damage and the passes they
    /// read are drawn, the damage is read back and laid over `previous`; the bytes are those
    /// `render(list)` gives. A frame pass that reads its whole target, a damage every draw meets,
    /// or a `previous` of another size draws the whole frame.
    public func render(_ list: RenderList, over previous: Bitmap, damage: PixelRect) throws -> Bitmap {
        try collect(submit(list, damage: damage), over: previous)
    }

    /// `render`, with the quads this frame drew in instanced batches and the draw calls that drew
    /// them (counted under the lock, so frames rendered on other threads do not mix in).
    public func renderCountingBatches(_ list: RenderList) throws -> (image: Bitmap, batchedQuads: Int, batchDrawCalls: Int) {
        lock.lock()
        defer { lock.unlock() }
        func counts() -> (Int, Int) {
            let batches = executor?.batches ?? []
            return (batches.map(\.quadsDrawn).reduce(0, +), batches.map(\.drawCalls).reduce(0, +))
        }
        let before = counts()
        let image = try renderLocked(list)
        let after = counts()
        return (image, after.0 - before.0, after.1 - before.1)
    }

    private func renderLocked(_ list: RenderList) throws -> Bitmap {
        for _ in 0..<2 {
            try makeCurrent()
            defer { eglMakeCurrent(opened.display, nil, nil, nil) }
            let outcome = Result { try self.preparedExecutor().execute(list) }
            if try lostContextReplaced() { continue }
            return try outcome.get()
        }
        throw GLError.noContext("the GL context was lost again while the frame was drawn anew")
    }

    /// The executor, made on first use, with this device's routes and hooks set. Call with the
    /// lock held and the context current.
    private func preparedExecutor() throws -> GLExecutor {
        let executor = try self.executor ?? GLExecutor(caps: caps, maxTextureBytes: textureByteLimit, debugOutput: debugOutput)
        self.executor = executor
        executor.invalidCallPass = invalidCallPass
        executor.pathRoute = pathRoute
        executor.pathUploadBudget = pathUploadBudget
        executor.generalQuadProgramOnly = generalQuadProgramOnly
        for batch in executor.batches {
            batch.drawsMiddlesApart = middlesApart
            batch.drawsAffineFrames = affineFrames
            batch.drawsFrameShortcuts = frameShortcuts
            batch.drawsUnclippedShadows = unclippedShadows
        }
        executor.drawsRoundedOnFootprint = roundedOnFootprint
        if texturesOneByOne { executor.batchesTextures = false }
        if turnedQuadsOneByOne { executor.batchesTurnedQuads = false }
        if turnedShadowsSingly { executor.drawsShadowsWhole = false }
        executor.drawsPassesSeparately = passesSeparately
        executor.roundedClipsByStencil = roundedClipsByStencil
        invalidCallPass = nil
        return executor
    }

    /// Whether the context was lost (a GPU reset, or the test hook's), in which case it has been
    /// replaced: a lost context's output is garbage whatever else happened. Call with the lock held.
    private func lostContextReplaced() throws -> Bool {
        let simulated = simulatedLossPending > 0
        if simulated { simulatedLossPending -= 1 }
        guard simulated || (resetStatus.map { $0() != GLenum(GL_NO_ERROR) } ?? false) else { return false }
        contextResets += 1
        try replaceContext()
        return true
    }

    /// Where one frame's time went on the GPU path (`renderTimingStages`), in seconds.
    public struct FrameStages: Sendable, Equatable {
        /// Issuing the frame's GL commands (and uploads) on the CPU.
        public var submission = 0.0
        /// Waiting, after submission, for the GPU to finish them (glFinish).
        public var wait = 0.0
        /// Copying the finished frame to memory.
        public var readback = 0.0
        /// The GPU's own time for the draws, from a timer query where the driver offers one.
        public var gpu: Double?

        public init() {}
    }

    /// `render`, one stage at a time with the time of each: submission, the wait for the GPU,
    /// the read-back, and the GPU's own time for the draws where timer queries are offered
    /// (`caps.offersTimerQueries`). Draws and waits as `render` does, no more.
    public func renderTimingStages(_ list: RenderList) throws -> (image: Bitmap, stages: FrameStages) {
        lock.lock()
        defer { lock.unlock() }
        try makeCurrent()
        var stages = FrameStages()
        func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
        let outcome = Result { () throws -> Bitmap in
            let executor = try preparedExecutor()
            executor.timesGPU = caps.offersTimerQueries
            defer { executor.timesGPU = false }
            let t0 = now()
            let pending = try executor.submit(list)
            let t1 = now()
            glFinish()
            let t2 = now()
            let image = try executor.collect(pending)
            stages.gpu = executor.gpuSeconds()
            stages.submission = t1 - t0
            stages.wait = t2 - t1
            stages.readback = now() - t2
            return image
        }
        if try lostContextReplaced() {
            eglMakeCurrent(opened.display, nil, nil, nil)
            return (try renderLocked(list), FrameStages())
        }
        eglMakeCurrent(opened.display, nil, nil, nil)
        return (try outcome.get(), stages)
    }

    /// A frame drawn and on its way to memory (`submit`), to be had with `collect`.
    public struct PendingFrame: @unchecked Sendable {
        fileprivate let list: RenderList
        fileprivate let readback: GLReadback.Pending
        /// The context it was drawn in (`contextGeneration`): a frame from a context since
        /// replaced is drawn again.
        fileprivate let generation: Int
        /// The pixels drawn where only a damage was (`submit(_:damage:)`).
        fileprivate let damage: PixelRect?
    }

    /// Draws a render list and queues the frame's copy to memory through a pixel buffer object,
    /// returning before the GPU is done: the caller builds its next frame meanwhile and then
    /// `collect`s this one, so CPU and GPU work overlap and the copy does not stall. `render` is
    /// `collect(submit(list))` with a wait between.
    ///
    /// `damage`: only those pixels are drawn and read (`render(_:over:damage:)`); `collect` is
    /// then given the frame to lay them over.
    public func submit(_ list: RenderList, damage: PixelRect? = nil) throws -> PendingFrame {
        lock.lock()
        defer { lock.unlock() }
        try makeCurrent()
        defer { eglMakeCurrent(opened.display, nil, nil, nil) }
        return PendingFrame(list: list, readback: try preparedExecutor().submit(list, damage: damage), generation: contextGeneration,
                            damage: damage)
    }

    /// Makes the context current on this thread (with the lock held); the caller lets go of it.
    private func makeCurrent() throws {
        guard eglMakeCurrent(opened.display, nil, nil, context) == EGLBoolean(EGL_TRUE) else {
            throw GLError.noContext("eglMakeCurrent failed (\(eglErrorName())); the context may be lost")
        }
    }

    /// Builds the context's programs now, which the first frame would otherwise do: a caller
    /// that knows it will draw can have it done ahead, on another thread while it reads its
    /// document (`quartz animate` and `render` do).
    public func prepare() throws {
        try withCurrentContext { _ = try preparedExecutor() }
    }

    /// Lets go of a frame `submit` drew without reading it (its buffer returns for reuse).
    public func discard(_ frame: PendingFrame) {
        lock.lock()
        defer { lock.unlock() }
        guard frame.generation == contextGeneration, let executor,
              eglMakeCurrent(opened.display, nil, nil, context) == EGLBoolean(EGL_TRUE) else { return }
        executor.discard(frame.readback)
        eglMakeCurrent(opened.display, nil, nil, nil)
    }

    /// The pixels of a frame `submit` drew: waits for its copy. If the context was lost on the way
    /// (a GPU reset), the frame is drawn again in a new one, as `render` does.
    ///
    /// `previous`: the frame a frame submitted with a damage is laid over (required then).
    public func collect(_ frame: PendingFrame, over previous: Bitmap? = nil) throws -> Bitmap {
        lock.lock()
        defer { lock.unlock() }
        guard frame.generation == contextGeneration, let executor else { return try renderLocked(frame.list) }
        try makeCurrent()
        // A damage with no frame of the same size beneath it has nothing to be laid over: the
        // whole frame is drawn.
        if frame.damage != nil, previous?.width != frame.list.width || previous?.height != frame.list.height {
            executor.discard(frame.readback)
            eglMakeCurrent(opened.display, nil, nil, nil)
            return try renderLocked(frame.list)
        }
        let outcome = Result { try executor.collect(frame.readback, over: previous) }
        if try lostContextReplaced() {
            eglMakeCurrent(opened.display, nil, nil, nil)
            return try renderLocked(frame.list)
        }
        eglMakeCurrent(opened.display, nil, nil, nil)
        return try outcome.get()
    }

    /// Drops the context and everything made in it (executor, caches, pools) and makes a new one:
    /// what a lost context needs. Call with the lock held.
    private func replaceContext() throws {
        executor = nil
        contextGeneration += 1
        debugOutput?.disable()
        debugOutput = nil
        eglMakeCurrent(opened.display, nil, nil, nil)
        eglDestroyContext(opened.display, context)
        let extensions = eglQueryString(opened.display, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? ""
        (context, _) = try GLDevice.makeContext(opened, config: config, extensions: extensions, debug: wantsDebugOutput)
        guard eglMakeCurrent(opened.display, nil, nil, context) == EGLBoolean(EGL_TRUE) else {
            throw GLError.noContext("eglMakeCurrent failed on the new context (\(eglErrorName()))")
        }
        RasterizerThreads.spread()
        if wantsDebugOutput { debugOutput = GLDebugOutput.enable() }
    }

    /// Makes a new context as a reset would: the test hook for the recovery path.
    package func replaceContextForTesting() throws {
        lock.lock()
        defer { lock.unlock() }
        guard eglMakeCurrent(opened.display, nil, nil, context) == EGLBoolean(EGL_TRUE) else { return }
        try replaceContext()
        eglMakeCurrent(opened.display, nil, nil, nil)
    }

    /// Reports the context lost after the draws of each of the next `frames` frames, as
    /// `glGetGraphicsResetStatus` reports a GPU reset: the test hook for loss in the middle of a
    /// frame (software drivers cannot be made to reset).
    package func simulateContextLoss(frames: Int = 1) {
        lock.withLock { simulatedLossPending = frames }
    }

    /// Makes filled paths take the route of a driver that cannot blend float targets or
    /// rasterizes on the CPU (their sums made on the CPU and uploaded), whatever this one is.
    package func sumPathsOnCPU() {
        lock.withLock { pathRoute = .cpuSum }
    }

    /// Caps the bytes of the textures that paths summed on the CPU are uploaded into (64 MiB by
    /// default), past which a frame's paths take them again from the first: the test hook that
    /// holds that reuse to the CPU reference's pixels.
    package func limitPathUploads(toBytes bytes: Int) {
        lock.withLock { pathUploadBudget = bytes }
    }

    /// Makes filled paths take a GPU's route (each edge summed into the float target) on a driver
    /// that rasterizes on the CPU too, which takes the CPU's sums (`GLPathFill.Route.preferred`):
    /// the test hook that keeps the GPU's sums checked on Mesa's drivers. Needs float blending.
    package func sumPathsOnGPU() {
        lock.withLock { pathRoute = .floatSum }
    }

    /// Makes large rounded shapes draw whole, their middle included, with the batch's program:
    /// the test hook that holds the colour-only middle (`GLQuadBatch.middleApart(of:)`) to it.
    package func drawRoundedMiddlesWhole() {
        lock.withLock { middlesApart = false }
    }

    /// Makes the rounded batches draw every frame with the general program, affine maps
    /// included: the test hook that holds the AFFINE_MAP variant (`GLQuadBatch.isAffine`) to it.
    package func drawRoundedFramesGeneral() {
        lock.withLock { affineFrames = false }
    }

    /// Makes the rounded batches' runs work out everything (both outlines, the straight edges'
    /// lines): the test hook that holds the SIMILAR_MAP and ERODED_RING variants to it.
    package func drawRoundedFramesWithoutShortcuts() {
        lock.withLock { frameShortcuts = false }
    }

    /// Makes the shadow batches draw every run with the program that works out its quads'
    /// edges: the test hook that holds the UNCLIPPED variant of blurred_batch.frag to it.
    package func drawShadowEdgesAlways() {
        lock.withLock { unclippedShadows = false }
    }

    /// Makes closed-form shadows whose quads are no rectangle (turned ones) draw singly with the
    /// general program over their polygon: the test hook that holds drawing them whole in the
    /// shadow batches (`QuadOp.isCutOnlyPastItsReach`) to it.
    package func drawTurnedShadowsSingly() {
        lock.withLock { turnedShadowsSingly = true }
    }

    /// Makes the general program draw rounded quads over their pixel bounds: the test hook that
    /// holds drawing them on their footprint (`GLRoundedFootprint`) to it.
    package func drawRoundedOnBounds() {
        lock.withLock { roundedOnFootprint = false }
    }

    /// Makes every quad draw with the general quad program (every fill kind, the rounded outline,
    /// sampling chosen per pixel): the test hook that holds the lean variants to it, pixel for pixel.
    package func drawWithGeneralQuadProgram() {
        lock.withLock { generalQuadProgramOnly = true }
    }

    /// Makes every textured quad draw on its own, none in an instanced run (`GLTextureBatch`): the
    /// test hook that holds the runs to the single draws.
    package func drawTexturesOneByOne() {
        lock.withLock { texturesOneByOne = true }
    }

    /// Makes every turned solid quad draw on its own with the general program, none in an
    /// instanced run (`GLQuadBatch.Kind.turned`): the test hook that holds the runs to it.
    package func drawTurnedQuadsOneByOne() {
        lock.withLock { turnedQuadsOneByOne = true }
    }

    /// Makes rounded clips of sublayers draw through the stencil instead of their group pass
    /// (`GLStencilClip`): the measured alternative, binary at the outline (docs/design.md).
    package func clipRoundedByStencil() {
        lock.withLock { roundedClipsByStencil = true }
    }

    /// Makes every offscreen pass draw into a target of its own, none into an atlas
    /// (`GLPassAtlas`): the test hook that holds the atlas to the separate targets, pixel for pixel.
    package func drawPassesSeparately() {
        lock.withLock { passesSeparately = true }
    }

    /// Makes filled paths take the integer stencil route (stencil-then-cover, binary per pixel):
    /// the alternative the float sum is measured against (PathRouteTests), never a frame's route.
    package func fillPathsByStencil() {
        lock.withLock { pathRoute = .stencil }
    }

    /// Makes the next frame issue an invalid GL call (an invalid texture parameter) once its pass
    /// `pass` (an index into the render list's passes) has drawn: the test hook for error reporting.
    package func makeInvalidCallInNextFrame(pass: Int) {
        lock.withLock { invalidCallPass = pass }
    }

    /// Whether the driver's debug output is on for this device (asked for, and offered).
    public var debugOutputIsOn: Bool { lock.withLock { debugOutput != nil } }

    /// The driver's debug messages so far in this context (all kinds; at most
    /// `GLDebugOutput.maxKept`), as text.
    public var debugMessages: [String] { lock.withLock { debugOutput?.messages.map(\.description) ?? [] } }

    /// The texture cache's hits and uploads so far on this device.
    public var textureCacheStatistics: TextureCacheStatistics {
        fromExecutor(\.textureStatistics) ?? TextureCacheStatistics(hits: 0, uploads: 0)
    }

    /// Passes with a cache key (rasterized layers) served from earlier frames instead of run.
    public var cachedPassHits: Int { fromExecutor(\.cachedPassHits) ?? 0 }
    /// Filled paths drawn (`PathOp`) and their edges summed on the GPU, since the device began.
    public var pathStatistics: (paths: Int, edges: Int) { fromExecutor(\.pathStatistics) ?? (0, 0) }
    /// The textures that paths summed on the CPU are uploaded into, held now: one for each path
    /// of the frame with the most, within `limitPathUploads(toBytes:)`.
    package var pathUploadTextures: Int { fromExecutor(\.pathUploadTextures) ?? 0 }

    /// Textured quads drawn by a lean variant of the quad program (one way of sampling for every
    /// pixel, `GLQuadVariant`), since the device was opened.
    public var plainTextureDraws: Int { fromExecutor(\.plainTextureDraws) ?? 0 }
    /// Gradient quads drawn with the gradient-only variant of the quad program.
    public var plainGradientDraws: Int { fromExecutor(\.plainGradientDraws) ?? 0 }
    /// Quads drawn with the quad program's variant for at most four outline vertices.
    public var fewEdgeDraws: Int { fromExecutor(\.fewEdgeDraws) ?? 0 }

    /// Rounded clips drawn through the stencil (`clipRoundedByStencil`), since the device was opened.
    public var stencilClips: Int { fromExecutor(\.stencilClips) ?? 0 }

    /// Offscreen passes drawn side by side into one target (`GLPassAtlas`), since the device was opened.
    public var passesInAtlas: Int { fromExecutor(\.passesInAtlas) ?? 0 }

    /// Wide shadows drawn from their profile's grid (`BlurredRoundedRectProfile`) rather than in
    /// closed form, and the profiles made for them, since the device was opened.
    public var profiledShadows: (quads: Int, profilesMade: Int) {
        fromExecutor { executor in
            (executor.batches.filter { $0.kind == .blurredProfile }.map(\.quadsDrawn).reduce(0, +) + executor.profiledQuadDraws,
             executor.shadowProfiles.made)
        } ?? (0, 0)
    }

    /// Filled rounded shapes whose middle was drawn apart by the colour-only program
    /// (`GLQuadBatch.middleApart(of:)`), and the groups they were drawn in (`MiddleGroups`), since
    /// the device was opened.
    public var roundedMiddlesApart: Int {
        fromExecutor { $0.batches.filter(\.kind.isRounded).map(\.middlesDrawn).reduce(0, +) } ?? 0
    }
    public var roundedMiddleGroups: Int {
        fromExecutor { $0.batches.filter(\.kind.isRounded).map(\.middleGroupsDrawn).reduce(0, +) } ?? 0
    }

    /// Turned solid quads drawn in instanced runs (`GLQuadBatch.Kind.turned`), and the draw calls
    /// that drew them (frames and interiors), since the device was opened.
    public var turnedBatches: (quads: Int, drawCalls: Int) {
        fromExecutor { executor in
            let batches = executor.batches.filter { $0.kind == .turned }
            return (batches.map(\.quadsDrawn).reduce(0, +), batches.map(\.drawCalls).reduce(0, +))
        } ?? (0, 0)
    }

    /// Runs of rounded shapes, every one mapped affinely, drawn with the program that reads the
    /// map's derivatives instead of working them out per pixel (`GLQuadBatch.isAffine`), since the
    /// device was opened.
    public var roundedAffineRuns: Int { fromExecutor { $0.batches.map(\.affineFlushes).reduce(0, +) } ?? 0 }

    /// Of those, runs whose every fragment lies a pixel or more inside every edge of its quad
    /// (unclipped, as cards clipped only by the frame are), drawn without reading the edges.
    public var roundedUnclippedRuns: Int {
        fromExecutor { $0.batches.filter(\.kind.isRounded).map(\.unclippedFlushes).reduce(0, +) } ?? 0
    }

    /// Runs of rounded shapes drawn without the straight edges' lines (every map an affine
    /// similarity, `ProjectiveTransform2D.isSimilarity`), and those whose inner outlines were the outer
    /// ones eroded (`RoundedRectangle.isEroded(from:)`, under any map), worked out from the outer's distances.
    public var roundedSimilarRuns: Int { fromExecutor { $0.batches.map(\.similarFlushes).reduce(0, +) } ?? 0 }
    public var roundedErodedRuns: Int { fromExecutor { $0.batches.map(\.erodedFlushes).reduce(0, +) } ?? 0 }

    /// Runs of closed-form shadows whose every quad is a rectangle of whole pixels (grown out to
    /// them by the render list), drawn without working out their edges.
    public var shadowUnclippedRuns: Int {
        fromExecutor { $0.batches.filter { !$0.kind.isRounded }.map(\.unclippedFlushes).reduce(0, +) } ?? 0
    }

    /// Closed-form shadows whose quads are no rectangle on screen (turned) drawn whole by the
    /// shadow batches (`QuadOp.isCutOnlyPastItsReach`), since the device was opened.
    public var shadowsDrawnWhole: Int { fromExecutor(\.shadowsDrawnWhole) ?? 0 }

    /// Rounded quads the general program drew on their footprint rather than their pixel bounds
    /// (`GLRoundedFootprint`), since the device was opened.
    public var roundedFootprintDraws: Int { fromExecutor(\.roundedFootprintDraws) ?? 0 }

    /// Quads drawn in instanced batches (solid colours, closed-form shadows), and the draw calls
    /// that drew them, since the device was opened.
    public var batchedQuads: Int { fromExecutor { $0.batches.map(\.quadsDrawn).reduce(0, +) } ?? 0 }
    public var batchDrawCalls: Int { fromExecutor { $0.batches.map(\.drawCalls).reduce(0, +) } ?? 0 }
    /// Textured quads drawn in instanced runs of one image (`GLTextureBatch`), and their draw calls.
    public var textureBatchedQuads: Int { fromExecutor { $0.textureBatch.quadsDrawn } ?? 0 }
    public var textureBatchDrawCalls: Int { fromExecutor { $0.textureBatch.drawCalls } ?? 0 }

    /// Seconds spent copying finished frames back from the GPU, since the device was opened.
    public var readbackSeconds: Double { fromExecutor(\.readbackSeconds) ?? 0 }

    /// Offscreen targets this device has had to create (the rest came from its pool).
    public var offscreenTargetsCreated: Int { fromExecutor(\.passAllocations) ?? 0 }

    /// A figure the executor keeps, read under the lock; nil before the first frame.
    private func fromExecutor<T>(_ figure: KeyPath<GLExecutor, T>) -> T? {
        fromExecutor { $0[keyPath: figure] }
    }

    private func fromExecutor<T>(_ figure: (GLExecutor) -> T) -> T? {
        lock.lock()
        defer { lock.unlock() }
        return executor.map(figure)
    }

    /// Compiles a shader on this context, for tests that check every shader against the driver.
    public func compileShader(_ source: ShaderSourceName) throws {
        try withCurrentContext {
            let shader = try GLProgram.compile(source)
            glDeleteShader(shader)
        }
    }

    /// Compiles arbitrary GLSL on this context: the test hook for the compile-error path.
    package func compileShader(text: String, name: String, isVertex: Bool) throws {
        try withCurrentContext {
            glDeleteShader(try GLProgram.compile(text: text, name: name, isVertex: isVertex))
        }
    }

    private func withCurrentContext<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        try makeCurrent()
        defer { eglMakeCurrent(opened.display, nil, nil, nil) }
        return try body()
    }
}

/// How many devices use each EGLDisplay, so that closing one leaves the others' contexts alive.
/// Opening (eglInitialize) and the last close (eglTerminate) happen under one lock, so a device
/// being opened never sees its display terminated by another being closed.
private enum DisplayUsers {
    nonisolated(unsafe) private static var counts: [UInt: Int] = [:]
    private static let lock = NSLock()

    static func open(_ opening: () throws -> OpenedDisplay) throws -> OpenedDisplay {
        lock.lock()
        defer { lock.unlock() }
        let opened = try opening()
        counts[UInt(bitPattern: opened.display), default: 0] += 1
        return opened
    }

    /// One user fewer; the last one terminates the display.
    static func close(_ display: EGLDisplay) {
        lock.lock()
        defer { lock.unlock() }
        let key = UInt(bitPattern: display)
        let left = (counts[key] ?? 1) - 1
        counts[key] = left > 0 ? left : nil
        if left <= 0 { eglTerminate(display) }
    }
}
