import CEGL
import Compositor
import Dispatch
import Foundation
import OpenCoreGraphics
import OpenQuartzShaders

// Quads: one draw per QuadOp over its pixel bounds, or batched with its neighbours (solid, rounded,
// textured, blurred batches) where nothing between them reads what they draw; the quad program's
// variant and uniforms for each fill; a card's fill and ring as one pair; the backdrop copied for a
// blend mode.
extension GLExecutor {
    /// Draws a gathered run, then puts the quad program and its vertex state back.
    func flush(_ batch: GLQuadBatch, width: Int, height: Int) {
        guard !batch.isEmpty else { return }
        batch.flush(width: width, height: height)
        glUseProgram(program.handle)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
    }

    func flushBatches(width: Int, height: Int) {
        for batch in batches { flush(batch, width: width, height: height) }
        flushTextureBatch(width: width, height: height)
    }

    /// Draws the textured run gathered, then puts the quad program and its vertex state back.
    func flushTextureBatch(width: Int, height: Int) {
        guard !textureBatch.isEmpty else { return }
        bindTexture(textureBatchTexture, filter: .linear)
        textureBatch.flush(width: width, height: height)
        glUseProgram(program.handle)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
    }

    /// The texture of an image that fits in one (no tiles, no mipmaps), nil otherwise.
    func wholeImageTexture(_ id: UInt64, images: [UInt64: Bitmap]) throws -> GLuint? {
        guard let bitmap = images[id] else { return nil }
        let tiles = try textures.tiles(for: id, bitmap: bitmap, maxSize: caps.maxTextureSize, mipmaps: false)
        guard tiles.count == 1, let tile = tiles.first, tile.isWholeImage, tile.levels == 0 else { return nil }
        return tile.texture
    }

    /// One quad. Its pixels are drawn by the program without the exact-area sum where every
    /// edge is a pixel's reach away (the interior of a `GLCoverageSplit`, or the whole quad for
    /// polygons whose coverage is the product of ramps: hard edges), by the exact program
    /// elsewhere; each program gets the quad's uniforms before its draw.
    func draw(_ quad: QuadOp, images: [UInt64: Bitmap], passes: [Int: GLuint], atlas: GLPassAtlas) throws {
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
        var solid = false, gradient = false
        if case .solid = quad.fill { solid = true }
        if case .gradient = quad.fill { gradient = true }
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
                : GLQuadVariant(exact: step.exact, solid: solid, gradient: gradient, sampling: sampling, shaped: quad.rounded != nil)
            variant.fewEdges = !generalQuadProgramOnly && quad.polygon.outline.count <= 4 && quad.polygon.edges.count <= 8
            variant.blendsWithBackdrop = quad.blend.readsBackdrop
            if variant.fewEdges { fewEdgeDraws += 1 }
            if variant.sampling != nil { plainTextureDraws += 1 }
            if variant.gradient { plainGradientDraws += 1 }
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
    func copyBackdrop(_ bounds: PixelRect) {
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

    /// GenericRGB.matrix's columns, as glUniformMatrix3fv takes them.
    static let genericToSRGBColumns: [GLfloat] = {
        let m = GenericRGB.matrix
        return [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]].map { GLfloat($0) }
    }()

    /// The modes in blend_modes.glsl's order, numbered from 1.
    private static let blendModeCodes: [BlendMode] = [.multiply, .screen, .overlay, .darken, .lighten, .colorDodge, .colorBurn,
                                                      .hardLight, .softLight, .difference, .exclusion, .hue, .saturation, .color,
                                                      .luminosity, .sourceAtop, .sourceIn, .sourceOut, .destinationOver,
                                                      .destinationOut, .destinationAtop, .xor, .clear, .copy, .plusDarker]

    /// A background and its border (`QuadOp.isBorder(over:)`) as one draw of the PAIRED program
    /// over the pair's pixel bounds: the ring over the fill by area, blended once.
    func drawPair(_ fill: QuadOp, _ ring: QuadOp) throws {
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

    /// The quad program variant, made (with its texture unit and viewport) on first use.
    func quadProgram(_ key: GLQuadVariant) throws -> GLProgram {
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

    /// The uniforms of a quad that do not depend on the texture tile, on the program in use
    /// (`exact`: the variant that sums the area inside the outline).
    func setQuadUniforms(_ quad: QuadOp, exact: Bool) {
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
        case .gradient(let g):
            // From its formula (layer_quad.frag's gradientColor): the map to the layer's plane,
            // the line, and the stops.
            glUniform1i(program.location("u_fillKind"), 4)
            setMatrix(g.deviceToLocal, "u_deviceToTexture")
            glUniform1i(program.location("u_gradientKind"), g.kind == .radial ? 1 : g.kind == .conic ? 2 : 0)
            glUniform4f(program.location("u_gradientLine"), GLfloat(g.start.x), GLfloat(g.start.y), GLfloat(g.end.x), GLfloat(g.end.y))
            glUniform1i(program.location("u_stopCount"), GLint(g.stops.count))
            let colors = g.stops.flatMap { [GLfloat($0.red), GLfloat($0.green), GLfloat($0.blue), GLfloat($0.alpha)] }
            glUniform4fv(program.location("u_stopColors"), GLsizei(g.stops.count), colors)
            glUniform1fv(program.location("u_stopLocations"), GLsizei(g.stops.count), g.stops.map { GLfloat($0.location) })
            glUniform1i(program.location("u_genericRGB"), g.colorSpace == .genericRGB ? 1 : 0)
            if g.colorSpace == .genericRGB {
                glUniformMatrix3fv(program.location("u_genericToSRGB"), 1, GLboolean(GL_FALSE), Self.genericToSRGBColumns)
            }
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

    /// The rounded-shape uniforms; kind 0 turns the shape off.
    func setRoundedShape(_ shape: RoundedShape?) {
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
}
