import CEGL
import Compositor
import OpenQuartzShaders

/// Runs of textured quads that share one image, drawn with one instanced call (texture_batch.*):
/// an emitter's particles (10,000 quads of one sprite a frame), a replicator's images. Each
/// instance carries its pixel bounds, colour factor, outline (three or four vertices, coverage
/// by exact area as layer_quad.frag's EXACT_COVERAGE variant) and texture map; the image is
/// sampled bilinearly in float, as the general program's PLAIN_BILINEAR variant and the CPU
/// reference sample it. Quads it cannot draw the same way (other filters, nine-slice maps,
/// shadows' alpha, rounded outlines, hard edges, more vertices, images over the texture size
/// limit) draw on their own, and end the run, so drawing order is kept exactly.
final class GLTextureBatch {
    /// Most instances per draw (bounds the buffer; longer runs draw in several calls).
    static let maxInstances = 4096
    /// Floats per instance: bounds 4, colour 4, edges 16, inverse slopes 4, map 9.
    static let stride = 37

    private let program: GLProgram
    private let instances: GLInstanceArray
    private var pending: [GLfloat] = []
    /// The image and blend of the run gathered so far.
    private(set) var image: UInt64?
    private(set) var blend: BlendMode = .sourceOver
    /// Quads drawn through batches and draw calls made.
    private(set) var quadsDrawn = 0
    private(set) var drawCalls = 0

    init() throws {
        let attributes: [(name: String, size: Int)] = [("i_bounds", 4), ("i_color", 4), ("i_edge0", 4), ("i_edge1", 4), ("i_edge2", 4),
                                                       ("i_edge3", 4), ("i_inverseSlopes", 4), ("i_map0", 3), ("i_map1", 3), ("i_map2", 3)]
        precondition(attributes.map(\.size).reduce(0, +) == GLTextureBatch.stride)
        program = try GLProgram(vertex: .textureBatchVertex, fragment: .textureBatchFragment, uniforms: ["u_viewport", "u_texture"],
                                attributes: ["a_corner"] + attributes.map(\.name))
        glUseProgram(program.handle)
        glUniform1i(program.location("u_texture"), 0)
        instances = GLInstanceArray(attributes: attributes)
        glBindVertexArray(0)
    }

    /// The image a quad samples, when this batch can draw it as the general program would: an
    /// image (not a pass) filtered linearly everywhere, no nine-slice map, all of each texel,
    /// source-over or plus, no rounded outline, an outline of three or four vertices with soft
    /// edges (exact coverage).
    static func image(of quad: QuadOp) -> UInt64? {
        guard quad.rounded == nil, quad.blend == .sourceOver || quad.blend == .plus, case .texture(let fill) = quad.fill,
              case .image(let id) = fill.source, fill.filter == .linear, fill.minification == nil, fill.slices == nil, !fill.alphaOnly,
              quad.polygon.isExact, (3...4).contains(quad.polygon.outline.count) else { return nil }
        return id
    }

    var isEmpty: Bool { pending.isEmpty }

    /// Whether `quad` of `image` continues the run gathered so far (an empty batch takes any).
    func continues(_ image: UInt64, blend: BlendMode) -> Bool { isEmpty || (self.image == image && self.blend == blend) }

    func add(_ quad: QuadOp, image: UInt64) {
        guard case .texture(let fill) = quad.fill else { return }
        self.image = image
        blend = quad.blend
        quadsDrawn += 1
        let b = quad.polygon.pixelBounds
        let t = quad.tint, k = quad.opacity
        pending += [GLfloat(b.minX), GLfloat(b.minY), GLfloat(b.maxX), GLfloat(b.maxY),
                    GLfloat(t.red * k), GLfloat(t.green * k), GLfloat(t.blue * k), GLfloat(t.alpha * k)]
        // As the EXACT_COVERAGE variant takes them (three or four vertices: four edges).
        let outline = quad.polygon.shaderOutline
        pending += outline.edges + outline.inverseSlopes
        let m = fill.deviceToTexture
        pending += [m.m11, m.m21, m.m31, m.m12, m.m22, m.m32, m.m13, m.m23, m.m33].map { GLfloat($0) }
    }

    /// Draws what was gathered into the bound target of `width` x `height`, the image's texture
    /// bound to unit 0 by the caller; the caller restores its own program and vertex state.
    func flush(width: Int, height: Int) {
        guard !pending.isEmpty else { return }
        glUseProgram(program.handle)
        glUniform2f(program.location("u_viewport"), GLfloat(width), GLfloat(height))
        switch blend {
        case .plus: glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE))
        default: glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        }
        drawCalls += instances.draw(pending, maxInstances: GLTextureBatch.maxInstances) {
            glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, $0)
        }
        pending.removeAll(keepingCapacity: true)
        image = nil
    }
}
