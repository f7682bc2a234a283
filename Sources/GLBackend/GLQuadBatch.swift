import CEGL
import Compositor
import OpenCoreGraphics
import OpenQuartzShaders

/// Draw batching: consecutive quads of a pass that a small program can draw (solid colours, the
/// bulk of a UI's backgrounds; solid colours with rounded shapes, its cards, buttons and borders;
/// closed-form shadows, whose wide quads cost every pixel something on a software rasterizer) are
/// gathered and drawn with one instanced call instead of one draw of the general program with a
/// dozen uniform updates each. Anything else (textures, more than eight edges, other blend modes,
/// the other kind) ends the run and draws on its own, so drawing order is kept exactly.
package final class GLQuadBatch {
    package enum Kind: CaseIterable {
        /// `blurredProfile`: a wide shadow read from its profile's grid (GLShadowProfiles) instead of
        /// evaluated in closed form; instances of one draw share the profile. `turned`: a solid
        /// quadrilateral not aligned with the axes (a turned layer's square-cornered background),
        /// by exact area in a band around its interior (`turnedSplit(of:)`).
        case solid, rounded, roundedContinuous, blurredRoundedRect, blurredProfile, turned

        package var isRounded: Bool { self == .rounded || self == .roundedContinuous }
        /// Drawn as a frame around a middle the colour-only program draws (rounded_batch.vert's
        /// eight points and triangles), middles a group at a time (`MiddleGroups`).
        package var isFramed: Bool { isRounded || self == .turned }
        /// Edges an instance carries (`maxEdges`, `maxRectangleEdges`).
        var edgeCount: Int { isRounded || self == .blurredRoundedRect || self == .blurredProfile ? GLQuadBatch.maxRectangleEdges : GLQuadBatch.maxEdges }
    }

    /// Edges an instance carries; polygons with more draw singly. Rounded instances and shadows
    /// carry a rectangle's four (`rectangleEdges`): their shapes need the attributes (GLES 3
    /// promises 16), and a shadow's fragments work out four distances, not eight.
    static let maxEdges = 8
    static let maxRectangleEdges = 4
    /// Most instances per draw (bounds the buffer; longer runs draw in several calls).
    static let maxInstances = 4096

    let kind: Kind
    private let program: GLProgram
    /// Rounded kinds: the program that draws a large filled shape's middle, colour only
    /// (rounded_batch.frag's MIDDLE variant), from the same vertex stage.
    private let middleProgram: GLProgram?
    /// Rounded kinds: the program for frames whose every instance maps the plane affinely with w
    /// exactly 1 (AFFINE_MAP: the map's derivatives read, not worked out per pixel; the same bits).
    private let affineProgram: GLProgram?
    /// Rounded kinds: `affineProgram` for frames whose every instance's polygon covers wholly
    /// every pixel its fragments can reach (`CoveragePolygon.coversWholly`, the test the CPU
    /// reference skips the polygon by: cards clipped only by the frame grown by two pixels), so
    /// that each edge's ramp clamps to exactly 1 (UNCLIPPED: the edges not read; the same bits).
    /// The edges were a tenth of a 1,000-card frame's time on llvmpipe. Shadow kinds: the program
    /// for draws whose every instance's polygon is a rectangle of whole pixels
    /// (`CoveragePolygon.wholePixelRect`: a closed-form shadow's quad, grown out to them by the
    /// render list), drawn over exactly those pixels, the edges not read either
    /// (a radius-20 shadow's ring about 7% of its frame on llvmpipe).
    private let unclippedProgram: GLProgram?
    /// Rounded kinds: the frame programs that leave out work no instance of their draw needs
    /// (`Shortcuts`: straight edges' lines under similarities, a second outline where the inner
    /// one is the outer eroded), made when a draw first can take them.
    private var shortcutPrograms: [Shortcuts: GLProgram] = [:]
    /// Whether every rounded instance gathered so far is such a map (`isAffine`).
    private var allAffine = true
    /// Whether every rounded instance gathered so far is seen through a similarity
    /// (`ProjectiveTransform2D.isSimilarity`) and has an inner outline its outer one eroded
    /// (`RoundedRectangle.isEroded(from:)`).
    private var allSimilar = true
    private var allEroded = true
    /// Whether every rounded instance gathered so far is unclipped so (`unclippedProgram`).
    private var allUnclipped = true
    /// The target the instances gathered are drawn on (`add`).
    private var target = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    /// How far past its pixel bounds a rounded instance's frame can reach, with room: the shape
    /// grown by 0.75 of a device pixel along the plane's axes (rounded_batch.vert), at most 1.07
    /// diagonally at a corner.
    static let frameReach = 4
    /// Whether such runs draw with `affineProgram`; off only to hold it to the general program in
    /// a test. Draws made with it so far.
    var drawsAffineFrames = true
    private(set) var affineFlushes = 0
    /// Whether runs leave out the straight edges' lines and the second outline where `Shortcuts`
    /// allows; off only to hold those programs to the ones that work everything out, in a test.
    /// Draws made without the lines, and with the inner outline eroded from the outer.
    var drawsFrameShortcuts = true
    private(set) var similarFlushes = 0
    private(set) var erodedFlushes = 0
    /// Whether shadow kinds draw unclipped runs with `unclippedProgram`; off only to hold it to
    /// the general program in a test.
    var drawsUnclippedShadows = true
    /// Of those, draws made with `unclippedProgram`.
    private(set) var unclippedFlushes = 0
    /// Whether large filled shapes have their middle drawn apart (`middleApart(of:)`); off only to
    /// hold it to the whole shape's drawing in a test.
    var drawsMiddlesApart = true
    /// Instances (their index in `pending`) whose middle is drawn apart, whether that middle is
    /// opaque (its colour's alpha 1: written without blending), and the device rectangle it lies
    /// in (`MiddleGroups`).
    private var middles: [MiddleGroups.Middle] = []
    /// Each rounded instance's pixel bounds, which hold every pixel its frame writes (the edges'
    /// coverage is 0 outside), in the order of `pending`.
    private var frameBounds: [PixelRect] = []
    /// Smallest filled shape, in device pixels, whose middle is drawn apart. Middles are drawn a
    /// group at a time (`MiddleGroups`), so the switches of program are paid once per group; what
    /// is left per shape is the frame's four more triangles and the middle's two, about 4.4 us on
    /// llvmpipe, against some 0.004 us a pixel of middle saves: 1,000 cards of 64 x 48 (middles
    /// of about 1,900 pixels), 37.2 -> 33.9 ms apart; of 40 x 28 (about 500), 21.5 -> 23.8 ms,
    /// in 11 groups all the same. The two break even at about 2,000 pixels of shape.
    static let minimumMiddleArea = 2_048.0
    private let instances: GLInstanceArray
    /// The attributes every program of the batch binds, in order.
    private let programAttributes: [String]
    private var indexBuffer: GLuint = 0
    /// Indices per instance for rounded shapes (the frame of rounded_batch.vert); 0: a strip of 4.
    private var indexCount: GLsizei = 0
    private var pending: [GLfloat] = []
    /// A filled rounded shape waiting to see whether its border comes next, to share its instance.
    private var heldFill: QuadOp?
    /// The profile the gathered shadows share (`blurredProfile` batches): set by the executor
    /// before the first of them, which flushes the batch before another profile.
    var profile: (key: BlurredRoundedRectProfile.Key, entry: GLShadowProfiles.Entry)?
    /// Quads drawn (a card and its border in one instance count two) and draw calls made.
    private(set) var quadsDrawn = 0
    private(set) var drawCalls = 0
    /// Filled shapes whose middle was drawn apart, and the groups they were drawn in.
    private(set) var middlesDrawn = 0
    private(set) var middleGroupsDrawn = 0

    init(_ kind: Kind) throws {
        self.kind = kind
        // Per instance: bounds, colour, eight edges; for shadows the shape's map (three columns),
        // box and parameters.
        let edges = kind.edgeCount
        var attributes: [(name: String, size: Int)] = [("i_bounds", 4), ("i_color", 4)] + (0..<edges).map { ("i_edge\($0)", 3) }
        let vertex: ShaderSource, fragment: ShaderSource
        switch kind {
        case .solid:
            (vertex, fragment) = (.solidBatchVertex, .solidBatchFragment)
        case .rounded, .roundedContinuous:
            (vertex, fragment) = (.roundedBatchVertex, .roundedBatchFragment)
            attributes += [("i_toLocal0", 3), ("i_toLocal1", 3), ("i_toLocal2", 3), ("i_outerRect", 4), ("i_outerRadii", 4),
                           ("i_innerRect", 4), ("i_innerRadii", 4), ("i_shape", 2), ("i_ringColor", 4)]
        case .blurredRoundedRect, .blurredProfile:
            (vertex, fragment) = (.blurredBatchVertex, .blurredBatchFragment)
            attributes += [("i_toLocal0", 3), ("i_toLocal1", 3), ("i_toLocal2", 3), ("i_box", 4), ("i_params", 2),
                           ("i_quad01", 4), ("i_quad23", 4)]
        case .turned:
            (vertex, fragment) = (.turnedBatchVertex, .turnedBatchFragment)
            attributes = [("i_outer01", 4), ("i_outer23", 4), ("i_inner01", 4), ("i_inner23", 4), ("i_color", 4), ("i_tint", 4),
                          ("i_opacity", 1), ("i_edge0", 4), ("i_edge1", 4), ("i_edge2", 4), ("i_edge3", 4), ("i_inverseSlopes", 4)]
        }
        programAttributes = ["a_corner"] + attributes.map(\.name)
        let defines = kind == .roundedContinuous ? ["CONTINUOUS_CORNERS"] : kind == .blurredProfile ? ["PROFILE"] : []
        program = try GLProgram(vertex: vertex, fragment: fragment, fragmentDefines: defines,
                                uniforms: ["u_viewport"] + (kind == .blurredProfile ? ["u_profile", "u_grid", "u_origin"] : []),
                                attributes: ["a_corner"] + attributes.map(\.name))
        middleProgram = kind.isFramed
            ? try GLProgram(vertex: vertex, fragment: fragment, fragmentDefines: defines + ["MIDDLE"], uniforms: ["u_viewport"],
                            attributes: ["a_corner"] + attributes.map(\.name))
            : nil
        affineProgram = kind.isRounded
            ? try GLProgram(vertex: vertex, fragment: fragment, fragmentDefines: defines + ["AFFINE_MAP"], uniforms: ["u_viewport"],
                            attributes: ["a_corner"] + attributes.map(\.name))
            : nil
        switch kind {
        case .rounded, .roundedContinuous:
            unclippedProgram = try GLProgram(vertex: vertex, fragment: fragment, fragmentDefines: defines + ["AFFINE_MAP", "UNCLIPPED"],
                                             uniforms: ["u_viewport"], attributes: ["a_corner"] + attributes.map(\.name))
        case .blurredRoundedRect, .blurredProfile:
            unclippedProgram = try GLProgram(vertex: vertex, fragment: fragment, fragmentDefines: defines + ["UNCLIPPED"],
                                             uniforms: ["u_viewport"] + (kind == .blurredProfile ? ["u_profile", "u_grid", "u_origin"] : []),
                                             attributes: ["a_corner"] + attributes.map(\.name))
        case .solid, .turned:
            unclippedProgram = nil
        }
        // Rounded shapes and turned quads are drawn as a frame: an outer and an inner rectangle
        // (x, y, inner), eight triangles between them (rounded_batch.vert); the others as their
        // bounds' strip.
        instances = kind.isFramed
            ? GLInstanceArray(attributes: attributes, corners: [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1],
                              cornerSize: 3)
            : GLInstanceArray(attributes: attributes)
        if kind.isFramed {
            var frame: [GLushort] = []
            for side in 0..<4 {
                let (o0, o1) = (GLushort(side), GLushort((side + 1) % 4))
                frame += [o0, o1, o1 + 4, o0, o1 + 4, o0 + 4]
            }
            // Then the middle: the inner rectangle's two triangles (`middleIndices`).
            frame += [4, 5, 6, 4, 6, 7]
            glGenBuffers(1, &indexBuffer)
            glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
            frame.withUnsafeBytes { glBufferData(GLenum(GL_ELEMENT_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
            indexCount = GLsizei(frame.count) - GLQuadBatch.middleIndices
        }
        glBindVertexArray(0)
    }

    deinit {
        if indexBuffer != 0 { glDeleteBuffers(1, &indexBuffer) }
    }

    /// Which batch can draw the quad, if any: quads whose polygon is an axis-aligned rectangle
    /// (`rectangleEdges`), the backgrounds, images' frames and clips of layers that are not
    /// turned, whose exact coverage the programs make at a cost close to nothing; and turned
    /// solid quadrilaterals (`turnedSplit(of:)`), whose exact area, a sum over the vertices, only
    /// the band around their interior pays for, as in layer_quad.frag's split draws.
    package static func kind(of quad: QuadOp) -> Kind? { route(of: quad)?.kind }

    /// `kind(of:)`, with a turned quad's split, which deciding made (`add` takes it: made once).
    static func route(of quad: QuadOp, shadowsWhole: Bool = true) -> (kind: Kind, split: GLCoverageSplit?)? {
        guard quad.blend == .sourceOver else { return nil }
        // A turned shadow's quad cut only past its reach draws its bounds whole, as a rectangle's
        // (drawn singly by the general program, a radius-100 one cost 28 ms on llvmpipe, the batch 2).
        guard rectangleEdges(of: quad.polygon) != nil || (shadowsWhole && quad.isCutOnlyPastItsReach) else {
            guard quad.rounded == nil, case .solid = quad.fill, let split = turnedSplit(of: quad) else { return nil }
            return (.turned, split)
        }
        if quad.rounded != nil {
            if case .solid = quad.fill {
                return (quad.rounded?.outer.continuous == true ? .roundedContinuous : .rounded, nil)
            }
            return nil
        }
        switch quad.fill {
        case .solid: return (.solid, nil)
        case .blurredRoundedRect(let shape):
            // The profiled program maps pixels affinely (blurred_batch.vert); closed-form shadows
            // are seen through similarities, so every one is, but a map that is not (in the floats
            // the shader reads) draws singly with the general program.
            guard BlurredRoundedRectProfile.size(for: BlurredRoundedRectProfile.Key(shape)) != nil else { return (.blurredRoundedRect, nil) }
            return GLQuadBatch.isAffine(shape.deviceToLocal) ? (.blurredProfile, nil) : nil
        case .texture, .gradient: return nil
        }
    }

    /// How a turned solid quad is drawn (`Kind.turned`): the split the general program would draw
    /// it in (GLCoverageSplit), for a quadrilateral outline large enough to have one; nil for
    /// anything else (a triangle, a clipped polygon of more sides, a sliver), which draws singly.
    /// Drawn one by one, each was two draws of the general program with its uniforms, and a
    /// turned plain layer cost four times a rounded card with its border on llvmpipe.
    static func turnedSplit(of quad: QuadOp) -> GLCoverageSplit? {
        guard quad.polygon.outline.count == 4, let split = GLCoverageSplit.make(quad.polygon),
              split.outer.count == 4, split.interior.count == 4 else { return nil }
        return split
    }

    /// The edges of a polygon whose coverage is the area inside an axis-aligned rectangle, in the
    /// pairs the batch programs take them (left, right, top, bottom: the overlap with each pair is
    /// the sum of its ramps less one); four that are always inside for a polygon bounded by its
    /// pixel bounds alone; nil for any other polygon, or one with hard edges.
    package static func rectangleEdges(of polygon: CoveragePolygon) -> [EdgeEquation]? {
        guard polygon.isRectangle else { return nil }
        let far = EdgeEquation(a: 0, b: 0, c: 1e6)
        guard let r = polygon.axisAlignedBounds else { return [far, far, far, far] }
        return edges(minX: r.minX, minY: r.minY, maxX: r.maxX, maxY: r.maxY)
    }

    /// An axis-aligned rectangle's edges in the batches' pairs: left, right, top, bottom.
    static func edges(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [EdgeEquation] {
        [EdgeEquation(a: 1, b: 0, c: -minX), EdgeEquation(a: -1, b: 0, c: maxX),
         EdgeEquation(a: 0, b: 1, c: -minY), EdgeEquation(a: 0, b: -1, c: maxY)]
    }

    /// Indices of the middle's triangles, after the frame's.
    private static let middleIndices: GLsizei = 6

    var isEmpty: Bool { pending.isEmpty && heldFill == nil }

    /// Where a filled rounded shape's middle, drawn apart, lies on the device (the bounds of the
    /// outer rectangle's corners, which hold it); nil where the middle stays with the frame. It
    /// is drawn apart where the shape is large enough and the middle has the coverage of exactly 1
    /// the colour-only program assumes: an affine map (under perspective the vertex stage may
    /// draw the pixel bounds instead), and the quad's polygon (a clip) a pixel clear of the shape
    /// all round.
    static func middleApart(of quad: QuadOp) -> MiddleGroups.Rect? {
        guard let shape = quad.rounded else { return nil }
        let m = shape.deviceToLocal
        guard m.m13 == 0, m.m23 == 0, let toDevice = m.inverted() else { return nil }
        let r = shape.outer.rect
        let corners = [(r.x, r.y), (r.x + r.width, r.y), (r.x + r.width, r.y + r.height), (r.x, r.y + r.height)].map { x, y in
            let h = toDevice.applyHomogeneous(x: x, y: y)
            return DevicePoint(x: h.x / h.w, y: h.y / h.w)
        }
        guard abs(CoveragePolygon.signedArea(corners)) >= minimumMiddleArea else { return nil }
        if let clip = quad.polygon.axisAlignedBounds {
            guard corners.allSatisfy({ $0.x >= clip.minX + 1 && $0.x <= clip.maxX - 1 && $0.y >= clip.minY + 1 && $0.y <= clip.maxY - 1 })
            else { return nil }
        }  // else bounded by its pixel bounds alone
        return MiddleGroups.Rect(minX: corners.map(\.x).min()!, minY: corners.map(\.y).min()!,
                                 maxX: corners.map(\.x).max()!, maxY: corners.map(\.y).max()!)
    }

    /// Adds a quad of this batch's kind. A rounded card followed straight away by its border
    /// (`QuadOp.isBorder(over:)`) becomes one instance drawing both, the border over the card,
    /// as the CPU reference draws the pair.
    func add(_ quad: QuadOp, split: GLCoverageSplit? = nil, targetWidth: Int, targetHeight: Int) {
        target = PixelRect(minX: 0, minY: 0, maxX: targetWidth, maxY: targetHeight)
        quadsDrawn += 1
        if kind == .turned { return appendTurned(quad, split: split) }
        guard kind.isRounded, let shape = quad.rounded else { return append(quad) }
        if let fill = heldFill {
            heldFill = nil
            if quad.isBorder(over: fill) { return append(fill, ring: quad) }
            append(fill)
        }
        if shape.inner == nil { heldFill = quad } else { append(quad) }
    }

    /// The colour a quad draws with (a solid fill's, a closed-form shadow's), times its tint and
    /// opacity; nil for a texture.
    private static func color(of quad: QuadOp) -> [GLfloat]? {
        let c: PremultipliedColor
        switch quad.fill {
        case .solid(let color): c = color
        case .blurredRoundedRect(let shape): c = shape.color
        case .texture, .gradient: return nil
        }
        let t = quad.tint, k = quad.opacity
        return [GLfloat(c.red * t.red * k), GLfloat(c.green * t.green * k), GLfloat(c.blue * t.blue * k),
                GLfloat(c.alpha * t.alpha * k)]
    }

    /// Appends one instance: `quad`, or for rounded shapes a filled shape and the ring over it
    /// (`ring`; a ring alone is passed as `quad`).
    private func append(_ quad: QuadOp, ring: QuadOp? = nil) {
        guard let own = GLQuadBatch.color(of: quad) else { return }
        // A shadow's quad of whole pixels (the render list grows axis-aligned ones out to them)
        // is drawn over exactly those, where its coverage is 1: the UNCLIPPED variant.
        let whole = kind == .blurredRoundedRect || kind == .blurredProfile ? quad.polygon.wholePixelRect : nil
        let b = whole ?? quad.polygon.pixelBounds
        // Rounded instances carry a filled colour and a ring colour; a ring alone fills nothing.
        let ringAlone = quad.rounded?.inner != nil
        pending += [GLfloat(b.minX), GLfloat(b.minY), GLfloat(b.maxX), GLfloat(b.maxY)] + (ringAlone ? [0, 0, 0, 0] : own)
        // A turned shadow drawn whole draws its reach quad (`turnedReach`), not its bounds, so its
        // bounds' edges cut the quad's fragments to them.
        let turnedReach = kind == .blurredRoundedRect || kind == .blurredProfile ? GLQuadBatch.turnedReach(of: quad) : nil
        let edges = GLQuadBatch.rectangleEdges(of: quad.polygon) ?? (turnedReach != nil
            ? GLQuadBatch.edges(minX: Double(b.minX), minY: Double(b.minY), maxX: Double(b.maxX), maxY: Double(b.maxY)) : [])
        for edge in edges { pending += [GLfloat(edge.a), GLfloat(edge.b), GLfloat(edge.c)] }
        for _ in edges.count..<kind.edgeCount {
            pending += [0, 0, 1e6]
        }
        if let shape = quad.rounded {
            let m = shape.deviceToLocal
            allAffine = allAffine && GLQuadBatch.isAffine(m)
            allSimilar = allSimilar && m.isSimilarity
            // Where its fragments can lie: its pixel bounds and the frame's reach, on the target.
            let reach = GLQuadBatch.frameReach
            let fragments = PixelRect(minX: max(b.minX - reach, target.minX), minY: max(b.minY - reach, target.minY),
                                      maxX: min(b.maxX + reach, target.maxX), maxY: min(b.maxY + reach, target.maxY))
            allUnclipped = allUnclipped && quad.polygon.coversWholly(fragments)
            pending += [m.m11, m.m21, m.m31, m.m12, m.m22, m.m32, m.m13, m.m23, m.m33].map { GLfloat($0) }
            let inner = ring?.rounded?.inner ?? shape.inner
            allEroded = allEroded && (inner ?? shape.outer).isEroded(from: shape.outer)
            for rectangle in [shape.outer, inner ?? shape.outer] {
                let r = rectangle.rect
                pending += [GLfloat(r.x), GLfloat(r.y), GLfloat(r.width), GLfloat(r.height),
                            GLfloat(rectangle.topLeft), GLfloat(rectangle.topRight), GLfloat(rectangle.bottomRight),
                            GLfloat(rectangle.bottomLeft)]
            }
            let apart = drawsMiddlesApart && !ringAlone && own != [0, 0, 0, 0] ? GLQuadBatch.middleApart(of: quad) : nil
            let shapeKind: GLfloat = (ring != nil ? 3 : shape.inner == nil ? 1 : 2) + (apart != nil ? 4 : 0)
            pending += [shapeKind, shape.outer.continuous ? 1 : 0]
            pending += ringAlone ? own : ring.flatMap(GLQuadBatch.color(of:)) ?? [0, 0, 0, 0]
            if let apart { middles.append(.init(index: frameBounds.count, opaque: own[3] == 1, bounds: apart)) }
            frameBounds.append(b)
        }
        if case .blurredRoundedRect(let shape) = quad.fill {
            allUnclipped = allUnclipped && whole != nil
            let m = shape.deviceToLocal, r = shape.rect
            pending += [m.m11, m.m21, m.m31, m.m12, m.m22, m.m32, m.m13, m.m23, m.m33].map { GLfloat($0) }
            pending += [GLfloat(r.x + r.width / 2), GLfloat(r.y + r.height / 2), GLfloat(r.width / 2), GLfloat(r.height / 2),
                        GLfloat(shape.cornerRadius), GLfloat(shape.sigma)]
            let points = turnedReach ?? [DevicePoint(x: Double(b.minX), y: Double(b.minY)), DevicePoint(x: Double(b.maxX), y: Double(b.minY)),
                                         DevicePoint(x: Double(b.maxX), y: Double(b.maxY)), DevicePoint(x: Double(b.minX), y: Double(b.maxY))]
            for point in points { pending += [GLfloat(point.x), GLfloat(point.y)] }
        }
    }

    /// The quad a turned shadow drawn whole (`QuadOp.isCutOnlyPastItsReach`, its polygon no
    /// rectangle) is drawn over: its reach rectangle on the device, past which its bytes are 0,
    /// grown by half a pixel for the floats; nil for any other quad, which draws its bounds. Its
    /// axis-aligned bounds' corners lie past the reach (at 0.3 radians, a radius-100 shadow's
    /// quad on a 1280 x 720 frame shaded the whole frame where the reach holds 80% of it). The
    /// bounds' edges (`append`) keep its fragments to the pixels its bounds hold, as before: the
    /// polygon's other edges are the frame's guard band, clear of them.
    static func turnedReach(of quad: QuadOp) -> [DevicePoint]? {
        guard !quad.polygon.isRectangle, quad.isCutOnlyPastItsReach else { return nil }
        return quad.reachQuad?.movedInward(by: -0.5)
    }

    /// Appends a turned solid quad: its band's outer and inner points, its colour, tint and opacity
    /// apart (multiplied in the fragment stage in the general program's order: the same floats),
    /// and its outline; its interior is a middle. `split`: the quad's, where `route(of:)` made it.
    private func appendTurned(_ quad: QuadOp, split: GLCoverageSplit?) {
        guard case .solid(let c) = quad.fill, let split = split ?? GLQuadBatch.turnedSplit(of: quad) else { return }
        for point in split.outer + split.interior { pending += [GLfloat(point.x), GLfloat(point.y)] }
        let t = quad.tint
        let color = [GLfloat(c.red), GLfloat(c.green), GLfloat(c.blue), GLfloat(c.alpha)]
        let tint = [GLfloat(t.red), GLfloat(t.green), GLfloat(t.blue), GLfloat(t.alpha)]
        pending += color + tint + [GLfloat(quad.opacity)]
        let outline = quad.polygon.shaderOutline
        pending += outline.edges + outline.inverseSlopes
        let xs = split.interior.map(\.x), ys = split.interior.map(\.y)
        middles.append(.init(index: frameBounds.count, opaque: color[3] * tint[3] * GLfloat(quad.opacity) == 1,
                             bounds: MiddleGroups.Rect(minX: xs.min()!, minY: ys.min()!, maxX: xs.max()!, maxY: ys.max()!)))
        frameBounds.append(quad.polygon.pixelBounds)
    }

    /// Whether a shape's map from device pixels is affine with w exactly 1 in the floats the
    /// shader reads, where the AFFINE_MAP variant's coverage is the general one's to the bit.
    static func isAffine(_ m: ProjectiveTransform2D) -> Bool {
        GLfloat(m.m13) == 0 && GLfloat(m.m23) == 0 && GLfloat(m.m33) == 1
    }

    /// What a frame program leaves out, each where every instance of its draw allows it: the
    /// map's derivatives worked out (`affine`: read instead), the edges (`unclipped`, affine
    /// only), the straight edges' lines (`similar`, affine only), the second outline (`eroded`,
    /// under any map: distances in the plane erode alike).
    struct Shortcuts: Hashable {
        var affine: Bool
        var unclipped: Bool
        var similar: Bool
        var eroded: Bool

        var defines: [String] {
            (affine ? ["AFFINE_MAP"] : []) + (unclipped ? ["UNCLIPPED"] : []) + (similar ? ["SIMILAR_MAP"] : [])
                + (eroded ? ["ERODED_RING"] : [])
        }
    }

    /// The frame program with `shortcuts`, those with the lines or the second outline left out
    /// made on first use; the one without those where making it fails (it cannot where the
    /// others compiled: the tests draw each).
    private func frameProgram(_ shortcuts: Shortcuts) -> GLProgram {
        let plain = shortcuts.affine ? (shortcuts.unclipped ? unclippedProgram : affineProgram) ?? program : program
        guard shortcuts.similar || shortcuts.eroded else { return plain }
        if let made = shortcutPrograms[shortcuts] { return made }
        let made = try? GLProgram(vertex: .roundedBatchVertex, fragment: .roundedBatchFragment, fragmentDefines: shortcuts.defines,
                                  uniforms: ["u_viewport"], attributes: programAttributes)
        shortcutPrograms[shortcuts] = made
        return made ?? plain
    }

    /// Draws what was gathered into the bound target of `width` x `height`; the caller restores
    /// its own program and vertex state afterwards.
    func flush(width: Int, height: Int) {
        if let fill = heldFill {
            heldFill = nil
            append(fill)
        }
        guard !pending.isEmpty else { return }
        let program: GLProgram
        if kind.isRounded {
            // Continuous corners' distance is an estimate: neither the lines' nor the second
            // outline's shortcut holds for it.
            let affine = allAffine && drawsAffineFrames, shortcut = kind == .rounded && drawsFrameShortcuts
            let shortcuts = Shortcuts(affine: affine, unclipped: affine && allUnclipped, similar: affine && shortcut && allSimilar,
                                      eroded: shortcut && allEroded)
            program = frameProgram(shortcuts)
            if affine {
                affineFlushes += 1
                if shortcuts.unclipped { unclippedFlushes += 1 }
            }
            if program === shortcutPrograms[shortcuts] {
                if shortcuts.similar { similarFlushes += 1 }
                if shortcuts.eroded { erodedFlushes += 1 }
            }
        } else {
            program = allUnclipped && drawsUnclippedShadows ? unclippedProgram ?? self.program : self.program
            if program === unclippedProgram { unclippedFlushes += 1 }
        }
        allAffine = true
        allUnclipped = true
        allSimilar = true
        allEroded = true
        glUseProgram(program.handle)
        glUniform2f(program.location("u_viewport"), GLfloat(width), GLfloat(height))
        if let entry = profile?.entry {
            glActiveTexture(GLenum(GL_TEXTURE0 + GLShadowProfiles.unit))
            glBindTexture(GLenum(GL_TEXTURE_2D), entry.texture)
            glActiveTexture(GLenum(GL_TEXTURE0))
            glUniform1i(program.location("u_profile"), GLShadowProfiles.unit)
            glUniform3f(program.location("u_grid"), entry.spacing, GLfloat(entry.columns - 1), GLfloat(entry.rows - 1))
            glUniform2f(program.location("u_origin"), entry.origin.x, entry.origin.y)
        }
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        guard !middles.isEmpty, let middleProgram else {
            drawFrames(pending)
            pending.removeAll(keepingCapacity: true)
            frameBounds.removeAll(keepingCapacity: true)
            return
        }
        // A group at a time (`MiddleGroups`): its frames, then its middles, none of which lies
        // under a later frame of the group, so the order of every pixel's draws is kept.
        let stride = instances.stride
        for group in MiddleGroups.groups(frames: frameBounds, middles: middles) {
            drawFrames(Array(pending[(group.frames.lowerBound * stride)..<(group.frames.upperBound * stride)]))
            guard !group.middles.isEmpty else { continue }
            var data: [GLfloat] = []
            data.reserveCapacity(group.middles.count * stride)
            for middle in group.middles { data += pending[(middle.index * stride)..<((middle.index + 1) * stride)] }
            glUseProgram(middleProgram.handle)
            glUniform2f(middleProgram.location("u_viewport"), GLfloat(width), GLfloat(height))
            // Opaque middles replace what is beneath: source-over with alpha 1 is the source
            // itself, so they are written without blending (what a software driver skips reading).
            let opaque = group.middles.allSatisfy(\.opaque)
            if opaque { glDisable(GLenum(GL_BLEND)) }
            drawCalls += instances.draw(data, maxInstances: GLQuadBatch.maxInstances) { count in
                glDrawElementsInstanced(GLenum(GL_TRIANGLES), GLQuadBatch.middleIndices, GLenum(GL_UNSIGNED_SHORT),
                                        UnsafeRawPointer(bitPattern: Int(indexCount) * MemoryLayout<GLushort>.size), count)
            }
            if opaque { glEnable(GLenum(GL_BLEND)) }
            middlesDrawn += group.middles.count
            middleGroupsDrawn += 1
            glUseProgram(program.handle)
        }
        middles.removeAll(keepingCapacity: true)
        frameBounds.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
    }

    /// Instances' frames (or whole quads) with this batch's program, in runs the buffer holds.
    private func drawFrames(_ data: [GLfloat]) {
        let indexCount = indexCount
        drawCalls += instances.draw(data, maxInstances: GLQuadBatch.maxInstances) { count in
            if indexCount > 0 {
                glDrawElementsInstanced(GLenum(GL_TRIANGLES), indexCount, GLenum(GL_UNSIGNED_SHORT), nil, count)
            } else {
                glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, count)
            }
        }
    }
}
