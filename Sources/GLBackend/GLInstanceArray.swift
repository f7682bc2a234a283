import CEGL

/// The vertex state of an instanced draw of quads: the corners of one quad at location 0 and
/// per-instance attributes from location 1 on, interleaved floats in one buffer streamed at each
/// draw. The batches (`GLQuadBatch`, `GLTextureBatch`) and the path edges (`GLPathFill`) draw
/// through one each.
final class GLInstanceArray {
    /// A strip of four corners, (0, 0) to (1, 1).
    static let strip: [GLfloat] = [0, 0, 1, 0, 0, 1, 1, 1]

    private(set) var vertexArray: GLuint = 0
    private var cornerBuffer: GLuint = 0
    private var instanceBuffer: GLuint = 0
    /// Floats per instance.
    let stride: Int

    /// Leaves the vertex array bound, so an index buffer can join it; callers unbind it after.
    init(attributes: [(name: String, size: Int)], corners: [GLfloat] = strip, cornerSize: GLint = 2) {
        stride = attributes.map(\.size).reduce(0, +)
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(1, &cornerBuffer)
        glGenBuffers(1, &instanceBuffer)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), cornerBuffer)
        corners.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, cornerSize, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        let bytes = GLsizei(stride * MemoryLayout<GLfloat>.size)
        var offset = 0
        for (index, attribute) in attributes.enumerated() {
            let location = GLuint(index + 1)
            glEnableVertexAttribArray(location)
            glVertexAttribPointer(location, GLint(attribute.size), GLenum(GL_FLOAT), GLboolean(GL_FALSE), bytes,
                                  UnsafeRawPointer(bitPattern: offset * MemoryLayout<GLfloat>.size))
            glVertexAttribDivisor(location, 1)
            offset += attribute.size
        }
    }

    deinit {
        glDeleteBuffers(1, &cornerBuffer)
        glDeleteBuffers(1, &instanceBuffer)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// Binds the array and streams `instances` in runs of at most `maxInstances`, calling `draw`
    /// with each run's count; returns the runs drawn.
    @discardableResult
    func draw(_ instances: [GLfloat], maxInstances: Int = .max, _ draw: (GLsizei) -> Void) -> Int {
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        let count = instances.count / stride
        var start = 0, runs = 0
        while start < count {
            let chunk = min(maxInstances, count - start)
            instances[start * stride..<(start + chunk) * stride].withUnsafeBytes {
                glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW))
            }
            draw(GLsizei(chunk))
            runs += 1
            start += chunk
        }
        return runs
    }
}
