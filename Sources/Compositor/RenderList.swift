import OpenCoreGraphics

// The render list is the contract between the model and the backends (DESIGN.md): plain values
// that say exactly what to draw, in device pixels, with all geometry already done. A backend only
// rasterizes; it never sees a layer, so two backends can disagree about coverage and sampling but
// never about where things are.
//
// Vocabulary after Chromium's compositor: a RenderList holds RenderPasses, a pass holds DrawOps.

/// One frame: what to draw and the images it needs.
public struct RenderList: Equatable, Sendable {
    /// Output size in device pixels.
    public var width: Int
    public var height: Int
    /// Passes in execution order; the last one is the frame itself, the others offscreen targets
    /// that later passes sample (`TextureSource.pass`).
    public var passes: [RenderPass]
    /// Every image a `TextureFill` names, by id. Ids name image content process-wide
    /// (`CGImage.identifier`): executors cache textures by id across frames.
    public var textures: [UInt64: Bitmap]
    /// Things the compositor left out, and why (non-finite geometry, bad values), one sentence each.
    public var diagnostics: [String]

    public init(width: Int, height: Int, passes: [RenderPass], textures: [UInt64: Bitmap], diagnostics: [String]) {
        self.width = width
        self.height = height
        self.passes = passes
        self.textures = textures
        self.diagnostics = diagnostics
    }
}

/// A target and the draws into it, starting from transparent.
public struct RenderPass: Equatable, Sendable {
    public var id: Int
    public var width: Int
    public var height: Int
    public var ops: [DrawOp]
    /// Set for passes worth keeping across frames (rasterized layers): equal keys mean equal
    /// pixels, so an executor that kept this pass's result from an earlier frame may use it
    /// instead of running the pass and the passes only it reads. Keys hold within one process.
    public var cacheKey: Int?

    public init(id: Int, width: Int, height: Int, ops: [DrawOp], cacheKey: Int? = nil) {
        self.id = id
        self.width = width
        self.height = height
        self.ops = ops
        self.cacheKey = cacheKey
    }
}

/// One drawing operation. A closed set: backends switch over it exhaustively.
public enum DrawOp: Hashable, Sendable {
    /// A flat convex region of a layer's plane, filled, source-over.
    case quad(QuadOp)
    /// Replaces the target with an earlier pass convolved along one axis (shadows).
    case blur(BlurOp)
    /// Replaces the target with an earlier pass at half its size (large blurs).
    case halve(HalveOp)
    /// A filled path (a shape layer's fill or stroke), source-over.
    case path(PathOp)
}

/// target(x, y) = the mean of the source pass's texels (2(x - originX) + i, 2(y - originY) + j)
/// for i, j in 0...1, texels outside the source transparent: an exact 2x2 box, where bilinear
/// sampling at texel corners would leave the rounding to each GPU's filtering hardware.
public struct HalveOp: Hashable, Sendable {
    public var source: Int
    public var originX: Int
    public var originY: Int

    public init(source: Int, originX: Int = 0, originY: Int = 0) {
        self.source = source
        self.originX = originX
        self.originY = originY
    }
}

/// One axis of a separable Gaussian blur: target(x, y) = sum over k of weights[k] times the
/// source pass's texel at (x + k - r, y) (or along y), r = weights.count / 2; texels outside the
/// source are transparent. The weights come from OpenCoreGraphics' GaussianBlur, so both
/// backends blur with the same numbers.
public struct BlurOp: Hashable, Sendable {
    public var source: Int
    public var horizontal: Bool
    public var weights: [Float]

    /// Most taps one blur op may have (a uniform array on the GPU): radius 64, sigma about 21 px.
    public static let maxTaps = 129

    public init(source: Int, horizontal: Bool, weights: [Float]) {
        self.source = source
        self.horizontal = horizontal
        self.weights = weights
    }
}

/// A filled convex polygon in device space, from a rectangle of one layer's plane.
///
/// Coverage of pixel (i, j) is `polygon.coverage(atX: i + 0.5, y: j + 0.5)`; its colour is the
/// fill at that pixel times `opacity` times coverage, composited source-over in premultiplied,
/// encoded 8-bit sRGB.
public struct QuadOp: Hashable, Sendable {
    /// Who asked for the draw: the layer and which part of it (`DrawSource`).
    public var source: DrawSource
    /// The rectangle in the layer's plane (bounds coordinates).
    public var localRect: Rect
    /// The flattened 4x4 transform of the layer's plane into device pixels (rows and columns 1, 2
    /// and 4: nothing is depth-tested, so z is dropped).
    public var localToDevice: ProjectiveTransform2D
    /// What is drawn, already clipped (near plane, masksToBounds, viewport).
    public var polygon: CoveragePolygon
    public var fill: Fill
    /// Accumulated opacity in 0...1.
    public var opacity: Double
    /// How the colour combines with the target. Default: source-over.
    public var blend: BlendMode
    /// A premultiplied colour the fill is multiplied by, component by component (replicator
    /// instance colours). Default: opaque white, which changes nothing.
    public var tint: PremultipliedColor
    /// Rounded corners or a border ring whose coverage multiplies the polygon's; the polygon's
    /// edges are then only the clips'. Default: nil.
    public var rounded: RoundedShape? {
        get { storedRounded?.value }
        set { storedRounded = newValue.map(Indirect.value) }
    }
    private var storedRounded: Indirect<RoundedShape>?
    /// Whole pixels the op right after this one paints in its own opaque colour, whatever lies
    /// beneath (`opaquePixels`), which a backend may leave undrawn: the frame's bytes are the
    /// same. Set on a turned closed-form shadow under its opaque card
    /// (`RenderPass.cuttingOccludedShadows`; a level one is cut into strips instead). Default: nil.
    public var occluded: PixelRect?

    public init(source: DrawSource, localRect: Rect, localToDevice: ProjectiveTransform2D,
                polygon: CoveragePolygon, fill: Fill, opacity: Double, blend: BlendMode = .sourceOver,
                tint: PremultipliedColor = .opaqueWhite, rounded: RoundedShape? = nil) {
        self.source = source
        self.localRect = localRect
        self.localToDevice = localToDevice
        self.polygon = polygon
        self.fill = fill
        self.opacity = opacity
        self.blend = blend
        self.tint = tint
        self.rounded = rounded
    }
}

/// How a draw's premultiplied colour S combines with the target's D.
public enum BlendMode: String, Hashable, Sendable {
    /// S + D (1 - S.alpha): Core Animation's compositing.
    case sourceOver
    /// S + D, clamped: a cross-dissolve of two images adds their weighted pixels.
    case plus
    /// D x S.alpha (S already times coverage and opacity): a mask's alpha applied to what a pass
    /// drew. Pixels outside the quad keep D, so masks are drawn as quads covering the whole target.
    case destinationIn

    // Blend modes of the W3C Compositing and Blending spec (Core Animation's compositingFilter
    // names, `multiplyBlendMode` ...): the colour is B(backdrop, source), composited source-over,
    // co = cs (1 - ab) + cb (1 - as) + as ab B(Cb, Cs) (`BlendMode+Formulas`). Separable:
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight, difference, exclusion
    // Non-separable (on the colour as a whole, through its luminosity and saturation):
    case hue, saturation, color, luminosity
    // Porter-Duff operators beyond source-over (`sourceAtopCompositing`, `xor`, ...; CGBlendMode's
    // formulas). Within the quad; the ones whose result drops the backdrop where the source is
    // transparent (in, out, copy, clear, destination-atop) clear it there. Destination-in within
    // the quad is `destinationIn` above (the same formula), plus-lighter is `plus`.
    case sourceAtop, sourceIn, sourceOut, destinationOver, destinationOut, destinationAtop, xor, clear, copy, plusDarker

    /// Whether the result depends on the target's colour in a way a fixed blend equation cannot
    /// express: the GPU reads the backdrop from a copy.
    public var readsBackdrop: Bool {
        switch self {
        case .sourceOver, .plus, .destinationIn: false
        default: true
        }
    }

    /// Whether a transparent source leaves the target as it was: a draw in such a mode changes
    /// nothing where its source is clear, so it need not reach past what its source covers. The
    /// others (in, out, copy, clear, destination-atop) clear the target there.
    public var keepsTargetUnderClearSource: Bool {
        switch self {
        case .destinationIn, .sourceIn, .sourceOut, .destinationAtop, .clear, .copy: false
        default: true
        }
    }
}

/// How a quad's pixels are coloured.
public enum Fill: Hashable, Sendable {
    case solid(PremultipliedColor)
    // The large cases are indirect: a solid fill, the usual one, keeps every op small.
    indirect case texture(TextureFill)
    /// A Gaussian-blurred rounded rectangle in closed form (shadows of plain layers).
    indirect case blurredRoundedRect(BlurredRoundedRect)
    /// A gradient from its formula (a CAGradientLayer's), evaluated per pixel.
    indirect case gradient(GradientFill)
}

/// A colour with premultiplied components in 0...1.
public struct PremultipliedColor: Hashable, Sendable {
    public var red: Double, green: Double, blue: Double, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    public static let opaqueWhite = PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// Component-wise product.
    public func multiplied(by other: PremultipliedColor) -> PremultipliedColor {
        PremultipliedColor(red: red * other.red, green: green * other.green, blue: blue * other.blue, alpha: alpha * other.alpha)
    }
}

/// Where a texture's texels come from.
public enum TextureSource: Hashable, Sendable, CustomStringConvertible {
    /// An image: a key into `RenderList.textures`.
    case image(UInt64)
    /// What an earlier pass of the list drew, by `RenderPass.id`.
    case pass(Int)

    public var description: String {
        switch self {
        case .image(let id): "image \(id)"
        case .pass(let id): "pass \(id)"
        }
    }
}

/// An image sampled through a projective map from device pixels.
public struct TextureFill: Hashable, Sendable {
    public var source: TextureSource
    /// Device pixel centre (x, y, 1) to homogeneous normalized texture coordinates (u, v, q):
    /// sample at (u/q, v/q), where (0, 0) is the image's top-left corner and (1, 1) its bottom
    /// right. Perspective-correct by construction.
    public var deviceToTexture: ProjectiveTransform2D
    /// The filter everywhere, or where the image is magnified when `minification` is set
    /// (`.trilinear` here samples as `.linear`).
    public var filter: SamplingFilter
    /// Use only the texels' alpha, times the quad's tint: a shadow is its shape's alpha in the
    /// shadow colour. Default: false.
    public var alphaOnly: Bool
    /// The filter where the image is minified: where the level of detail (`TextureLevelOfDetail`)
    /// is above 0. nil: `filter` everywhere, and no level of detail is computed. Default: nil.
    public var minification: SamplingFilter?
    /// Added to the level of detail. Default: 0.
    public var lodBias: Double
    /// A nine-slice map: `deviceToTexture` then gives the position in the stretched image (0...1
    /// across the drawn frame on each axis), which these piecewise-linear maps turn into texture
    /// coordinates. nil: `deviceToTexture` gives texture coordinates. Default: nil.
    public var slices: NineSlice?

    public init(source: TextureSource, deviceToTexture: ProjectiveTransform2D, filter: SamplingFilter, alphaOnly: Bool = false,
                minification: SamplingFilter? = nil, lodBias: Double = 0, slices: NineSlice? = nil) {
        self.source = source
        self.deviceToTexture = deviceToTexture
        self.filter = filter
        self.alphaOnly = alphaOnly
        self.minification = minification
        self.lodBias = lodBias
        self.slices = slices
    }

    /// An image fill.
    public init(texture: UInt64, deviceToTexture: ProjectiveTransform2D, filter: SamplingFilter) {
        self.init(source: .image(texture), deviceToTexture: deviceToTexture, filter: filter)
    }
}

/// How texels are sampled; all are clamp-to-edge on premultiplied texels.
public enum SamplingFilter: String, Hashable, Sendable {
    /// Bilinear between the four nearest texel centres.
    case linear
    /// The texel under the sample point.
    case nearest
    /// Bilinear in the mipmap levels floor(lod) and floor(lod) + 1 (`Bitmap.mipmapLevels()`,
    /// the level of detail clamped to the chain), mixed by the fraction of lod. Only as a
    /// minification filter; as `filter` it samples as `.linear`.
    case trilinear
}

/// A plain rectangle of doubles, so the list holds no Foundation geometry types.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var description: String { "(\(x), \(y), \(width), \(height))" }
}
