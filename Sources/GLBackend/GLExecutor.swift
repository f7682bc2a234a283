import CEGL
import Compositor
import OpenCoreGraphics
import OpenQuartzShaders

/// Shader names, re-exported for GLDevice's API.
public typealias ShaderSourceName = ShaderSource

/// Executes a `RenderList` with GLES 3 on the current context: one draw per `QuadOp`, covering
/// its pixel bounds, with the op's polygon edges and texture map as uniforms. Everything it draws
/// was decided by the compositor; it does no geometry of its own.
final class GLExecutor {
    private let caps: GLCaps
    private let program: GLProgram
    private var vertexArray: GLuint = 0
    private var vertexBuffer: GLuint = 0
    private var framebuffer: GLuint = 0
    private var colorBuffer: GLuint = 0
    private var framebufferSize = (width: 0, height: 0)
    private let textures = GLTextureCache()

    private static let uniforms = ["u_viewport", "u_edgeCount", "u_edges", "u_fillKind", "u_color", "u_opacity",
                                   "u_deviceToTexture", "u_texture"]

    init(caps: GLCaps) throws {
        self.caps = caps
        program = try GLProgram(vertex: .layerQuadVertex, fragment: .layerQuadFragment, uniforms: GLExecutor.uniforms)
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(1, &vertexBuffer)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glBindVertexArray(0)
    }

    deinit {
        glDeleteBuffers(1, &vertexBuffer)
        glDeleteVertexArrays(1, &vertexArray)
        glDeleteRenderbuffers(1, &colorBuffer)
        glDeleteFramebuffers(1, &framebuffer)
    }

    func execute(_ list: RenderList) throws -> Bitmap {
        let limit = caps.maxRenderTargetSize
        guard list.width <= limit, list.height <= limit else {
            throw GLError.tooLarge(what: "the output", width: list.width, height: list.height, limit: limit)
        }
        while glGetError() != GL_NO_ERROR {}
        try prepareFramebuffer(width: list.width, height: list.height)
        glViewport(0, 0, GLsizei(list.width), GLsizei(list.height))
        glDisable(GLenum(GL_DITHER))
        glDisable(GLenum(GL_DEPTH_TEST))
        glDisable(GLenum(GL_SCISSOR_TEST))
        glClearColor(0, 0, 0, 0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glUseProgram(program.handle)
        glUniform2f(program.location("u_viewport"), GLfloat(list.width), GLfloat(list.height))
        glUniform1i(program.location("u_texture"), 0)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)

        if let frame = list.passes.last {
            for op in frame.ops {
                switch op {
                case .quad(let quad): try draw(quad, textures: list.textures)
                }
            }
        }
        var pixels = [UInt8](repeating: 0, count: list.width * list.height * 4)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        pixels.withUnsafeMutableBytes { bytes in
            glReadPixels(0, 0, GLsizei(list.width), GLsizei(list.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
                         bytes.baseAddress)
        }
        glBindVertexArray(0)
        textures.endFrame()
        let error = glGetError()
        guard error == GL_NO_ERROR else { throw GLError.glError(code: error, during: "frame execution") }
        return Bitmap(width: list.width, height: list.height, pixels: pixels)
    }

    private func draw(_ quad: QuadOp, textures images: [UInt64: Bitmap]) throws {
        let bounds = quad.polygon.pixelBounds
        let (x0, y0) = (GLfloat(bounds.minX), GLfloat(bounds.minY))
        let (x1, y1) = (GLfloat(bounds.maxX), GLfloat(bounds.maxY))
        let vertices: [GLfloat] = [x0, y0, x1, y0, x0, y1, x1, y1]
        vertices.withUnsafeBytes { bytes in
            glBufferData(GLenum(GL_ARRAY_BUFFER), bytes.count, bytes.baseAddress, GLenum(GL_STREAM_DRAW))
        }
        let edges = quad.polygon.edges.flatMap { [GLfloat($0.a), GLfloat($0.b), GLfloat($0.c)] }
        glUniform1i(program.location("u_edgeCount"), GLint(quad.polygon.edges.count))
        if !edges.isEmpty { glUniform3fv(program.location("u_edges"), GLsizei(quad.polygon.edges.count), edges) }
        glUniform1f(program.location("u_opacity"), GLfloat(quad.opacity))
        switch quad.fill {
        case .solid(let c):
            glUniform1i(program.location("u_fillKind"), 0)
            glUniform4f(program.location("u_color"), GLfloat(c.red), GLfloat(c.green), GLfloat(c.blue), GLfloat(c.alpha))
        case .texture(let fill):
            guard let bitmap = images[fill.texture] else { return }
            let texture = try textures.texture(for: fill.texture, bitmap: bitmap, maxSize: caps.maxTextureSize)
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            let filter = fill.filter == .nearest ? GL_NEAREST : GL_LINEAR
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
            glUniform1i(program.location("u_fillKind"), 1)
            let m = fill.deviceToTexture
            // Column-major for GLSL, where `vec3(p, 1.0) * M` is the row-vector product.
            let columns: [GLfloat] = [m.m11, m.m21, m.m31, m.m12, m.m22, m.m32, m.m13, m.m23, m.m33].map { GLfloat($0) }
            glUniformMatrix3fv(program.location("u_deviceToTexture"), 1, GLboolean(GL_FALSE), columns)
        }
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
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
