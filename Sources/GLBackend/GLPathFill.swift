import CEGL
import Compositor
import OpenCoreGraphics
import OpenQuartzShaders

/// Filled paths (`PathOp`) on the GPU, by accumulation then cover, the structure of
/// stencil-then-cover with a fractional count: every edge of the contours adds, into a 32-bit
/// float target as large as the op's pixel bounds, its exact signed share of each pixel left of
/// it (`path_edges.*`, one instanced draw for all edges, blended ONE + ONE), so each pixel ends
/// holding the integral of the winding number over its square; then one quad over the bounds
/// folds that by the fill rule and draws the colour (`path_cover.frag`). No texture is made on
/// the CPU and nothing is uploaded, so an animated path or strokeEnd costs its edges only.
///
/// Why a float count and not the stencil buffer: a stencil holds one winding number per sample,
/// so its edges are aliased or as fine as the sample count; the float sum is the exact area the
/// CPU reference's CoverageRasterizer computes, edge for edge, and needs no multisampled target.
/// Where the driver cannot blend float targets the same sum is made on the CPU (the reference's
/// own rasterizer) and uploaded into the accumulation texture, which the cover then reads alike;
/// so it is on a driver that rasterizes on the CPU (`Route.preferred(for:)` says why).
final class GLPathFill {
    private let edgeProgram: GLProgram
    private let coverProgram: GLProgram
    private let stencilProgram: GLProgram
    private var stencilBuffer: GLuint = 0
    /// How a path's coverage is made before the cover reads it.
    enum Route: Sendable {
        /// Each edge's exact share summed on the GPU into the float target: a GPU's route.
        case floatSum
        /// The same sums made by CoverageRasterizer and uploaded: where float blending is
        /// missing, and on a driver that rasterizes on the CPU.
        case cpuSum
        /// Stencil-then-cover with an integer count: a triangle fan per contour adds the winding
        /// into a stencil buffer by INCR_WRAP / DECR_WRAP, and the cover writes 1 where the count
        /// passes the fill rule (non-zero: not 0; even-odd: its low bit), 0 elsewhere. Binary at
        /// each pixel centre, so its edges are aliased: kept as the measured alternative
        /// (docs/design.md gives its error against exact area), never chosen for a frame.
        case stencil

        /// The route a frame takes on a driver. On a GPU, the float sums where float targets
        /// blend: each edge costs a thin instance and nothing crosses the bus. On a driver that
        /// rasterizes on the CPU (llvmpipe, softpipe), the sums made by CoverageRasterizer and
        /// uploaded: there every edge's instance is a quad to the path's right end that the
        /// driver bins and shades pixel by pixel, while the reference's rasterizer walks each
        /// edge's own pixels once; on llvmpipe a frame's drawing took 2-6x less on path-heavy
        /// content (pr_1686's 229 stroke contours 16.8 -> 4.0 ms, keyframe-circle 6.8 -> 2.1,
        /// hypnosis-drag 21.5 -> 10.3) and no more on a 1260 x 700 ellipse (36.5 -> 32.1), and
        /// the pixels are the CPU reference's own (docs/performance.md).
        static func preferred(for caps: GLCaps) -> Route {
            caps.blendsFloatTargets && !caps.isSoftware ? .floatSum : .cpuSum
        }
    }
    var route: Route
    /// Set when the float target turned out incomplete on this driver: the sums are then made
    /// on the CPU whatever the route.
    private var targetIsIncomplete = false
    /// Per edge: the edge (two points) and the channel it adds into.
    private let edgeInstances: GLInstanceArray
    private var coverBuffer: GLuint = 0
    private var coverArray: GLuint = 0
    private var texture: GLuint = 0
    /// The CPU route's textures: a frame's n-th uploaded path takes the n-th (`upload` says why),
    /// each kept for the frames after and grown as needed.
    private var uploads: [(texture: GLuint, width: Int, height: Int, channels: Int)] = []
    /// The next of `uploads` a path of this frame takes.
    private var nextUpload = 0
    /// Bytes the CPU route's textures may hold together (R32F or RG32F, 4 or 8 a texel), 64 MiB by default:
    /// past that a frame's paths take them again from the first, which costs a wait for the
    /// draws queued but not memory.
    var uploadBudget = 64 << 20
    /// The CPU route's textures held now.
    var uploadTextures: Int { uploads.count }
    private var framebuffer: GLuint = 0
    private var size = (width: 0, height: 0)
    /// Paths drawn and edges summed on the GPU so far.
    private(set) var pathsDrawn = 0
    private(set) var edgesDrawn = 0

    init(route: Route) throws {
        self.route = route
        stencilProgram = try GLProgram(vertex: .layerQuadVertex, fragment: .pathStencilFragment, uniforms: ["u_viewport", "u_edgeCount"])
        edgeProgram = try GLProgram(vertex: .pathEdgesVertex, fragment: .pathEdgesFragment, uniforms: ["u_viewport"],
                                    attributes: ["a_corner", "i_edge", "i_channel"])
        coverProgram = try GLProgram(vertex: .layerQuadVertex, fragment: .pathCoverFragment,
                                     uniforms: ["u_viewport", "u_accumulation", "u_origin", "u_size", "u_color", "u_strokeColor",
                                                                     "u_opacity", "u_evenOdd", "u_edgeCount"])
        edgeInstances = GLInstanceArray(attributes: [("i_edge", 4), ("i_channel", 1)])
        glGenVertexArrays(1, &coverArray)
        glGenBuffers(1, &coverBuffer)
        glBindVertexArray(coverArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), coverBuffer)
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glBindVertexArray(0)
        glUseProgram(coverProgram.handle)
        glUniform1i(coverProgram.location("u_accumulation"), 1)
        glUniform1i(coverProgram.location("u_edgeCount"), 0)
    }

    deinit {
        glDeleteBuffers(1, &coverBuffer)
        glDeleteVertexArrays(1, &coverArray)
        if framebuffer != 0 { glDeleteFramebuffers(1, &framebuffer) }
        if stencilBuffer != 0 { glDeleteRenderbuffers(1, &stencilBuffer) }
        if texture != 0 { glDeleteTextures(1, &texture) }
        for upload in uploads { var texture = upload.texture; glDeleteTextures(1, &texture) }
    }

    /// A frame begins: its paths take the CPU route's textures from the first again.
    func beginFrame() {
        nextUpload = 0
    }

    /// Whether the current context can blend into 32-bit float targets.
    static func floatBlendingOffered() -> Bool {
        let gl = GLExtensions.current()
        let renders = gl.names.contains("GL_EXT_color_buffer_float") || gl.isAtLeast(3, 2)
        return renders && gl.names.contains("GL_EXT_float_blend")
    }

    /// Draws `path` into the target bound now (a `viewport` pass), whose blend function the
    /// caller sets for the op; the binding and viewport are put back after the accumulation.
    func draw(_ path: PathOp, viewport: (width: Int, height: Int)) {
        let b = path.pixelBounds
        guard b.width > 0, b.height > 0 else { return }
        pathsDrawn += 1
        // The CPU's sums, uploaded and covered where they colour anything.
        func coverUploaded() {
            let (sums, covered) = upload(path)
            cover(path, reading: sums, over: covered, viewport: viewport)
        }
        if route == .cpuSum || targetIsIncomplete { return coverUploaded() }
        // A route that needs a framebuffer or stencil the target was made without remakes it.
        if framebuffer == 0 || (route == .stencil && stencilBuffer == 0) { size = (0, 0) }
        ensureTarget(width: b.width, height: b.height)
        if targetIsIncomplete { return coverUploaded() }
        var bound: GLint = 0
        glGetIntegerv(GLenum(GL_FRAMEBUFFER_BINDING), &bound)
        if route == .stencil { stencilCount(path) } else { accumulate(path) }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(bound))
        glViewport(0, 0, GLsizei(viewport.width), GLsizei(viewport.height))
        cover(path, reading: texture, viewport: viewport)
    }

    /// The accumulation texture and framebuffer, grown to hold `width` x `height`.
    private func ensureTarget(width: Int, height: Int) {
        guard width > size.width || height > size.height else { return }
        let w = max(width, size.width), h = max(height, size.height)
        if texture == 0 { glGenTextures(1, &texture) }
        glActiveTexture(GLenum(GL_TEXTURE1))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        // Complete from creation: one level, nearest (read by texelFetch only), clamped.
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RG32F, GLsizei(w), GLsizei(h), 0, GLenum(GL_RG), GLenum(GL_FLOAT), nil)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAX_LEVEL), 0)
        glActiveTexture(GLenum(GL_TEXTURE0))
        if route != .cpuSum {
            var bound: GLint = 0
            glGetIntegerv(GLenum(GL_FRAMEBUFFER_BINDING), &bound)
            if framebuffer == 0 { glGenFramebuffers(1, &framebuffer) }
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
            glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
            if route == .stencil {
                if stencilBuffer == 0 { glGenRenderbuffers(1, &stencilBuffer) }
                glBindRenderbuffer(GLenum(GL_RENDERBUFFER), stencilBuffer)
                glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_STENCIL_INDEX8), GLsizei(w), GLsizei(h))
                glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), stencilBuffer)
            }
            // A driver that offers float blending but cannot draw into this target after all
            // gets the route that needs none.
            targetIsIncomplete = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)) != GLenum(GL_FRAMEBUFFER_COMPLETE)
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(bound))
        }
        size = (w, h)
    }

    /// Every edge's share summed into the accumulation target, cleared over the op's bounds first.
    private func accumulate(_ path: PathOp) {
        let b = path.pixelBounds
        let ox = Double(b.minX), oy = Double(b.minY)
        var edges: [GLfloat] = []
        for (channel, contours) in [(GLfloat(0), path.contours), (GLfloat(1), path.stroke?.contours ?? [])] {
            for contour in contours {
                for i in contour.indices {
                    let p = contour[i], q = contour[i + 1 == contour.count ? 0 : i + 1]
                    let ax = GLfloat(p.x - ox), ay = GLfloat(p.y - oy), bx = GLfloat(q.x - ox), by = GLfloat(q.y - oy)
                    // A level edge spans no height (level in float: its slope would divide by 0);
                    // one wholly left of the bounds is left of every pixel (its share is 0 there);
                    // one wholly above or below spans none of its rows.
                    guard ay != by, max(ax, bx) > 0, max(ay, by) > 0, min(ay, by) < GLfloat(b.height) else { continue }
                    edges += [ax, ay, bx, by, channel]
                }
            }
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glViewport(0, 0, GLsizei(b.width), GLsizei(b.height))
        glEnable(GLenum(GL_SCISSOR_TEST))
        glScissor(0, 0, GLsizei(b.width), GLsizei(b.height))
        glClearColor(0, 0, 0, 0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glDisable(GLenum(GL_SCISSOR_TEST))
        guard !edges.isEmpty else { return }
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE))
        glUseProgram(edgeProgram.handle)
        glUniform2f(edgeProgram.location("u_viewport"), GLfloat(b.width), GLfloat(b.height))
        edgeInstances.draw(edges) { glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, $0) }
        edgesDrawn += edges.count / edgeInstances.stride
    }

    /// The stencil route: fans count the winding, then 1 is written where it passes the rule.
    private func stencilCount(_ path: PathOp) {
        let b = path.pixelBounds
        let ox = Double(b.minX), oy = Double(b.minY)
        var fans: [GLfloat] = []
        for contour in path.contours where contour.count >= 3 {
            let pivot = contour[0]
            for i in 1..<(contour.count - 1) {
                for p in [pivot, contour[i], contour[i + 1]] { fans += [GLfloat(p.x - ox), GLfloat(p.y - oy)] }
            }
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glViewport(0, 0, GLsizei(b.width), GLsizei(b.height))
        glEnable(GLenum(GL_SCISSOR_TEST))
        glScissor(0, 0, GLsizei(b.width), GLsizei(b.height))
        glClearColor(0, 0, 0, 0)
        glStencilMask(0xFF)
        glClearStencil(0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT) | GLbitfield(GL_STENCIL_BUFFER_BIT))
        glDisable(GLenum(GL_SCISSOR_TEST))
        guard !fans.isEmpty else { return }
        glUseProgram(stencilProgram.handle)
        glUniform2f(stencilProgram.location("u_viewport"), GLfloat(b.width), GLfloat(b.height))
        glUniform1i(stencilProgram.location("u_edgeCount"), 0)
        // The cover's vertex array reads coverBuffer: the fans go there, then the quad.
        glBindVertexArray(coverArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), coverBuffer)
        glEnable(GLenum(GL_STENCIL_TEST))
        glColorMask(GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE))
        glStencilFunc(GLenum(GL_ALWAYS), 0, 0xFF)
        glStencilOpSeparate(GLenum(GL_FRONT), GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_INCR_WRAP))
        glStencilOpSeparate(GLenum(GL_BACK), GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_DECR_WRAP))
        fans.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        glDrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(fans.count / 2))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glStencilFunc(GLenum(GL_NOTEQUAL), 0, path.evenOdd ? 0x01 : 0xFF)
        glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_KEEP))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ZERO))
        let quad: [GLfloat] = [0, 0, GLfloat(b.width), 0, 0, GLfloat(b.height), GLfloat(b.width), GLfloat(b.height)]
        quad.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glDisable(GLenum(GL_STENCIL_TEST))
        glBindVertexArray(0)
    }

    /// Without float blending: the same sums made by the CPU reference's rasterizer, folded, and
    /// uploaded (the cover's fold leaves a coverage in 0...1 as it is); with them, the rectangles
    /// where they cover anything (`GLCoverSpans`).
    private func upload(_ path: PathOp) -> (texture: GLuint, covered: [PixelRect]) {
        let b = path.pixelBounds
        let fill = PathOp.coverage(of: path.contours, evenOdd: path.evenOdd, within: b)
        let stroke = path.stroke.map { PathOp.coverage(of: $0.contours, evenOdd: false, within: b) }
        // A fill alone goes up as it is, one channel (the cover reads a stroke of 0 from the
        // missing second): no interleaved copy twice its size made and uploaded for each path.
        let channels = stroke == nil ? 1 : 2
        var interleaved: [Float] = []
        if let stroke {
            interleaved = [Float](repeating: 0, count: 2 * b.width * b.height)
            for i in fill.indices {
                interleaved[2 * i] = fill[i]
                interleaved[2 * i + 1] = stroke[i]
            }
        }
        // Each path of a frame its own texture: writing into the one the path before's cover
        // still reads made a driver that rasterizes on the CPU finish every draw queued so far
        // first, at each path (llvmpipe waits for its threads to draw the whole scene); a new
        // texture each path instead cost fresh pages each frame (9squares_AlBoardman's 18
        // rings: 13.5 -> 17 ms). Kept from frame to frame, where the draws before are done.
        let bytes = 4 * channels * b.width * b.height
        if nextUpload == uploads.count, nextUpload > 0,
           uploads.reduce(bytes, { $0 + 4 * $1.channels * $1.width * $1.height }) > uploadBudget {
            nextUpload = 0
        }
        if nextUpload == uploads.count { uploads.append((0, 0, 0, channels)) }
        var slot = uploads[nextUpload]
        nextUpload += 1
        glActiveTexture(GLenum(GL_TEXTURE1))
        if slot.width < b.width || slot.height < b.height || slot.channels != channels {
            if slot.texture != 0 { glDeleteTextures(1, &slot.texture) }
            slot = slot.channels == channels ? (0, max(slot.width, b.width), max(slot.height, b.height), channels)
                : (0, b.width, b.height, channels)
            glGenTextures(1, &slot.texture)
            glBindTexture(GLenum(GL_TEXTURE_2D), slot.texture)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
            glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, GLenum(channels == 1 ? GL_R32F : GL_RG32F), GLsizei(slot.width), GLsizei(slot.height))
            uploads[nextUpload - 1] = slot
        }
        glBindTexture(GLenum(GL_TEXTURE_2D), slot.texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
        glPixelStorei(GLenum(GL_UNPACK_SKIP_PIXELS), 0)
        glPixelStorei(GLenum(GL_UNPACK_SKIP_ROWS), 0)
        (stroke == nil ? fill : interleaved).withUnsafeBytes {
            glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(b.width), GLsizei(b.height), GLenum(channels == 1 ? GL_RED : GL_RG),
                            GLenum(GL_FLOAT), $0.baseAddress)
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        // How far the cover's colour can rise with each sum: its colours' largest channels (the
        // alpha, premultiplied; any channel, whatever the tint), times opacity.
        func largest(_ c: PremultipliedColor) -> Float { Float(max(c.red, c.green, c.blue, c.alpha) * path.opacity) }
        let fillAlpha = largest(path.color.multiplied(by: path.tint))
        let strokeAlpha = path.stroke.map { largest($0.color.multiplied(by: path.tint)) } ?? 0
        return (slot.texture, GLCoverSpans.rectangles(fill: fill, fillAlpha: fillAlpha, stroke: stroke, strokeAlpha: strokeAlpha, within: b))
    }

    /// One quad over the op's bounds, or the rectangles `covered` where given: the folded sums,
    /// the stroke's colour over the fill's, times opacity, blended as the op says.
    private func cover(_ path: PathOp, reading sums: GLuint, over covered: [PixelRect]? = nil, viewport: (width: Int, height: Int)) {
        let b = path.pixelBounds
        switch path.blend {
        case .plus: glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE))
        case .destinationIn: glBlendFunc(GLenum(GL_ZERO), GLenum(GL_SRC_ALPHA))
        // Source-over; also for modes that read the backdrop, which the compositor never gives a
        // path (a blended layer is drawn into a pass whose quad blends): drawn source-over on
        // both backends (RasterRenderer.drawPath).
        default: glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        }
        glUseProgram(coverProgram.handle)
        glUniform2f(coverProgram.location("u_viewport"), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform2i(coverProgram.location("u_origin"), GLint(b.minX), GLint(b.minY))
        glUniform2i(coverProgram.location("u_size"), GLint(b.width), GLint(b.height))
        let c = path.color.multiplied(by: path.tint)
        let s = path.stroke.map { $0.color.multiplied(by: path.tint) } ?? PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0)
        glUniform4f(coverProgram.location("u_color"), GLfloat(c.red), GLfloat(c.green), GLfloat(c.blue), GLfloat(c.alpha))
        glUniform4f(coverProgram.location("u_strokeColor"), GLfloat(s.red), GLfloat(s.green), GLfloat(s.blue), GLfloat(s.alpha))
        glUniform1f(coverProgram.location("u_opacity"), GLfloat(path.opacity))
        glUniform1i(coverProgram.location("u_evenOdd"), path.evenOdd ? 1 : 0)
        glActiveTexture(GLenum(GL_TEXTURE1))
        glBindTexture(GLenum(GL_TEXTURE_2D), sums)
        glActiveTexture(GLenum(GL_TEXTURE0))
        // Destination-in acts on the whole target: outside the bounds the coverage is 0.
        let whole = path.blend == .destinationIn
        let rectangles = whole ? [PixelRect(minX: 0, minY: 0, maxX: viewport.width, maxY: viewport.height)] : covered ?? [b]
        guard !rectangles.isEmpty else { return }
        var triangles: [GLfloat] = []
        triangles.reserveCapacity(rectangles.count * 12)
        for r in rectangles {
            let x0 = GLfloat(r.minX), y0 = GLfloat(r.minY), x1 = GLfloat(r.maxX), y1 = GLfloat(r.maxY)
            triangles += [x0, y0, x1, y0, x0, y1, x1, y0, x1, y1, x0, y1]
        }
        glBindVertexArray(coverArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), coverBuffer)
        triangles.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        glDrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(triangles.count / 2))
        glBindVertexArray(0)
    }
}
