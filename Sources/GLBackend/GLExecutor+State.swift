import CEGL
import Compositor
import Dispatch
import Foundation
import OpenCoreGraphics
import OpenQuartzShaders

// GL state the executor sets and checks: the viewport, the fixed state every frame starts from, the
// framebuffer, the program and texture bindings with their sampling, the matrices, and the driver's
// errors after each op (named by the op that made them).
extension GLExecutor {
    /// The viewport a pass draws through, and every quad program's idea of its size.
    func setViewport(origin: (x: Int, y: Int), width: Int, height: Int) {
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

    /// The state every draw of a frame relies on, set at its start rather than assumed from GL's
    /// defaults or from the frame before: blending on with additive equations (each draw sets
    /// its factors), and every test and mask that could drop or alter a fragment off.
    func setFixedState() {
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
    func checkErrors(after index: Int, of list: RenderList) throws {
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

    /// Makes `next` the quad program in use (the current one's uniforms stay with it).
    func use(_ next: GLProgram) {
        guard next !== program else { return }
        program = next
        glUseProgram(next.handle)
    }

    /// Binds a texture with one filter, or, where `levels` mipmap levels are to be read, nearest
    /// mipmap filtering (levels above the base are read only from a mipmapped texture).
    func bindTexture(_ texture: GLuint, filter: SamplingFilter, levels: Int = 0) {
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        let mode = filter == .nearest ? GL_NEAREST : GL_LINEAR
        // With levels the shader filters (textureLod at texel centres must return texels as they are).
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), levels > 0 ? GL_NEAREST_MIPMAP_NEAREST : mode)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), levels > 0 ? GL_NEAREST : mode)
    }

    /// u_minFilter: -1 without a minification filter, else 0 linear, 1 nearest, 2 trilinear.
    static func minFilterCode(_ filter: SamplingFilter?) -> Int {
        switch filter {
        case nil: -1
        case .linear: 0
        case .nearest: 1
        case .trilinear: 2
        }
    }

    /// The level-of-detail bias, the magnification filter and the nine-slice map of a fill.
    func setSampling(_ fill: TextureFill) {
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

    /// A projective map as a mat3 uniform of the quad program: column-major for GLSL, where
    /// `vec3(p, 1.0) * M` is the row-vector product.
    func setMatrix(_ m: ProjectiveTransform2D, _ name: String) {
        let columns: [GLfloat] = [m.m11, m.m21, m.m31, m.m12, m.m22, m.m32, m.m13, m.m23, m.m33].map { GLfloat($0) }
        glUniformMatrix3fv(program.location(name), 1, GLboolean(GL_FALSE), columns)
    }

    func prepareFramebuffer(width: Int, height: Int) throws {
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
