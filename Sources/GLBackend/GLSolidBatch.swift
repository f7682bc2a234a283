import CEGL
import Compositor
import OpenQuartzShaders

/// Draw batching: consecutive solid-colour quads of a pass (the bulk of a UI: backgrounds,
/// bars, cards) are gathered and drawn with one instanced call of a small program instead of one
/// draw with a dozen uniform updates each. Anything else (textures, rounded shapes, blurred
/// shadows, more than eight edges, other blend modes) ends the run and draws on its own, so
/// drawing order is kept exactly.
final class GLSolidBatch {
    /// Floats per instance: bounds (4), colour (4), eight edges (3 each).
    private static let stride = 4 + 4 + 8 * 3
    /// Edges an instance carries; polygons with more draw singly.
    static let maxEdges = 8
    /// Most instances per draw (bounds the buffer; longer runs draw in several calls).
    static let maxInstances = 4096

    private let program: GLProgram
    private var vertexArray: GLuint = 0
    private var cornerBuffer: GLuint = 0
    private var instanceBuffer: GLuint = 0
    private var pending: [GLfloat] = []
    private(set) var instancesDrawn = 0
    private(set) var drawCalls = 0

    init() throws {
        program = try GLProgram(vertex: .solidBatchVertex, fragment: .solidBatchFragment, uniforms: ["u_viewport"],
                                attributes: ["a_corner", "i_bounds", "i_color"] + (0..<8).map { "i_edge\($0)" })
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(1, &cornerBuffer)
        glGenBuffers(1, &instanceBuffer)
        glBindVertexArray(vertexArray)
        let corners: [GLfloat] = [0, 0, 1, 0, 0, 1, 1, 1]
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), cornerBuffer)
        corners.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        let bytes = GLsizei(GLSolidBatch.stride * MemoryLayout<GLfloat>.size)
        var offset = 0
        for (location, size) in [(1, 4), (2, 4)] + (0..<8).map({ (3 + $0, 3) }) {
            glEnableVertexAttribArray(GLuint(location))
            glVertexAttribPointer(GLuint(location), GLint(size), GLenum(GL_FLOAT), GLboolean(GL_FALSE), bytes,
                                  UnsafeRawPointer(bitPattern: offset * MemoryLayout<GLfloat>.size))
            glVertexAttribDivisor(GLuint(location), 1)
            offset += size
        }
        glBindVertexArray(0)
    }

    deinit {
        glDeleteBuffers(1, &cornerBuffer)
        glDeleteBuffers(1, &instanceBuffer)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// Whether the quad can join a batch.
    static func accepts(_ quad: QuadOp) -> Bool {
        guard case .solid = quad.fill, quad.rounded == nil, quad.blend == .sourceOver else { return false }
        return quad.polygon.edges.count <= maxEdges
    }

    var isEmpty: Bool { pending.isEmpty }

    /// Adds a quad `accepts` said yes to.
    func add(_ quad: QuadOp) {
        guard case .solid(let c) = quad.fill else { return }
        let b = quad.polygon.pixelBounds
        let t = quad.tint, k = quad.opacity
        pending += [GLfloat(b.minX), GLfloat(b.minY), GLfloat(b.maxX), GLfloat(b.maxY),
                    GLfloat(c.red * t.red * k), GLfloat(c.green * t.green * k), GLfloat(c.blue * t.blue * k), GLfloat(c.alpha * t.alpha * k)]
        for edge in quad.polygon.edges { pending += [GLfloat(edge.a), GLfloat(edge.b), GLfloat(edge.c)] }
        for _ in quad.polygon.edges.count..<GLSolidBatch.maxEdges { pending += [0, 0, 1e6] }
    }

    /// Draws what was gathered into the bound target of `width` x `height`; the caller restores
    /// its own program and vertex state afterwards.
    func flush(width: Int, height: Int) {
        guard !pending.isEmpty else { return }
        glUseProgram(program.handle)
        glUniform2f(program.location("u_viewport"), GLfloat(width), GLfloat(height))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        let count = pending.count / GLSolidBatch.stride
        var start = 0
        while start < count {
            let chunk = min(GLSolidBatch.maxInstances, count - start)
            pending[start * GLSolidBatch.stride..<(start + chunk) * GLSolidBatch.stride].withUnsafeBytes {
                glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW))
            }
            glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(chunk))
            drawCalls += 1
            start += chunk
        }
        instancesDrawn += count
        pending.removeAll(keepingCapacity: true)
    }
}
