import Foundation


/// How drawn images are sampled.
public enum CGInterpolationQuality: Int32, Sendable {
    case `default` = 0, none, low, medium, high
}

/// What `drawPath(using:)` does with the current path.
public enum CGPathDrawingMode: Int32, Sendable {
    case fill = 0, eoFill, stroke, fillStroke, eoFillStroke
}

/// A bitmap to draw into, as Core Graphics' bitmap contexts: premultiplied 8-bit RGBA, y up
/// (the origin is the bottom-left corner, as on every Apple platform before UIKit flips it).
/// Fills are anti-aliased by exact area coverage; strokes are filled outlines of the path.
public final class CGContext {
    public let width: Int
    public let height: Int
    /// The pixels, rows top to bottom (the last row is y = 0 in user space).
    public internal(set) var bitmap: Bitmap

    /// The graphics state (`saveGState` keeps a copy); the drawing options' extension sets it too.
    struct GState {
        var ctm = CGAffineTransform.identity
        var fillColor = CGColor.black
        var strokeColor = CGColor.black
        var lineWidth: CGFloat = 1
        var lineCap = CGLineCap.butt
        var lineJoin = CGLineJoin.miter
        var miterLimit: CGFloat = 10
        /// Phase and lengths (user space) of the dash pattern; empty lengths: solid lines.
        var lineDash: (phase: CGFloat, lengths: [CGFloat]) = (0, [])
        var alpha: CGFloat = 1
        /// Coverage 0...1 per pixel, nil for no clip.
        var clip: [Float]?
        var interpolation = CGInterpolationQuality.default
        /// Offset (base space: pixels, y up), blur and colour of the shadow; nil: no shadow.
        var shadow: (offset: CGSize, blur: CGFloat, color: CGColor)?
        /// How drawings combine with the pixels (CGContext+DrawingOptions).
        var blendMode = CGBlendMode.normal
        /// Whether fills and strokes are anti-aliased (with the context's `allowsAntialiasing`).
        var shouldAntialias = true
        var shouldSmoothFonts = true
        var shouldSubpixelPositionFonts = true
        var shouldSubpixelQuantizeFonts = true
    }

    var state = GState()

    /// Not part of the graphics state, as in Core Graphics (CGContext+DrawingOptions).
    var allowsAntialiasing = true
    var allowsFontSmoothing = true
    var allowsFontSubpixelPositioning = true
    var allowsFontSubpixelQuantization = true

    /// The text matrix: text space to user space for `CTLineDraw` and `CTFrameDraw`. Not part of
    /// the graphics state, as in Core Graphics. Default: identity.
    public var textMatrix = CGAffineTransform.identity

    /// Where `CTLineDraw` puts the next line's origin (user space): the text matrix's
    /// translation, as in Core Graphics. Default: (0, 0).
    public var textPosition: CGPoint {
        get { CGPoint(x: textMatrix.tx, y: textMatrix.ty) }
        set { textMatrix.tx = newValue.x; textMatrix.ty = newValue.y }
    }
    private var saved: [GState] = []
    var currentPath = CGMutablePath()

    /// A context for `width` x `height` pixels. Only 8-bit premultiplied RGBA is offered; other
    /// formats, sizes beyond `ImageLimits` or caller-owned memory give nil, as Apple's
    /// initializer does for combinations it does not support.
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int,
                 space: CGColorSpace, bitmapInfo: UInt32) {
        guard data == nil, bitsPerComponent == 8, ImageLimits.violation(width: width, height: height) == nil,
              bytesPerRow == 0 || bytesPerRow == width * 4 else { return nil }
        self.width = width
        self.height = height
        bitmap = Bitmap(width: width, height: height)
    }

    /// A context of the given size (the common case, without the C-style arguments).
    public convenience init?(width: Int, height: Int) {
        self.init(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                  space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
    }

    /// The drawing so far.
    public func makeImage() -> CGImage? { CGImage(bitmap: bitmap) }

    // MARK: Graphics state

    public func saveGState() { saved.append(state) }
    public func restoreGState() { if let last = saved.popLast() { state = last } }

    /// The current transform from user space to the context's (y-up) pixel space.
    public var ctm: CGAffineTransform { state.ctm }
    public func concatenate(_ transform: CGAffineTransform) { state.ctm = transform.concatenating(state.ctm) }
    public func translateBy(x: CGFloat, y: CGFloat) { concatenate(CGAffineTransform(translationX: x, y: y)) }
    public func scaleBy(x: CGFloat, y: CGFloat) { concatenate(CGAffineTransform(scaleX: x, y: y)) }
    public func rotate(by angle: CGFloat) { concatenate(CGAffineTransform(rotationAngle: angle)) }

    public func setFillColor(_ color: CGColor) { state.fillColor = color }
    public func setStrokeColor(_ color: CGColor) { state.strokeColor = color }
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.fillColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.strokeColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    public func setLineWidth(_ width: CGFloat) { state.lineWidth = width }
    public func setLineCap(_ cap: CGLineCap) { state.lineCap = cap }
    public func setLineJoin(_ join: CGLineJoin) { state.lineJoin = join }
    public func setMiterLimit(_ limit: CGFloat) { state.miterLimit = limit }
    /// Dashes later strokes: `lengths` alternate painted and skipped (user space), starting
    /// `phase` into the pattern. Empty lengths stroke solid lines again.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) { state.lineDash = (phase, lengths) }
    /// A global opacity multiplied into everything drawn. Default: 1.
    public func setAlpha(_ alpha: CGFloat) { state.alpha = min(max(alpha.isNaN ? 0 : alpha, 0), 1) }

    // MARK: Building the current path (in user space, transformed when added)

    public func beginPath() { currentPath = CGMutablePath() }
    public func move(to point: CGPoint) { currentPath.move(to: point, transform: state.ctm) }
    public func addLine(to point: CGPoint) { currentPath.addLine(to: point, transform: state.ctm) }
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        currentPath.addCurve(to: end, control1: control1, control2: control2, transform: state.ctm)
    }
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        currentPath.addQuadCurve(to: end, control: control, transform: state.ctm)
    }
    public func addRect(_ rect: CGRect) { currentPath.addRect(rect, transform: state.ctm) }
    public func addEllipse(in rect: CGRect) { currentPath.addEllipse(in: rect, transform: state.ctm) }
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        currentPath.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                           clockwise: clockwise, transform: state.ctm)
    }
    public func addPath(_ path: CGPath) { currentPath.addPath(path, transform: state.ctm) }
    public func closePath() { currentPath.closeSubpath() }

    /// The current path in user space (nil when empty).
    public var path: CGPath? {
        currentPath.isEmpty ? nil : currentPath.copy(applying: state.ctm.inverted())
    }

    // MARK: Drawing

    /// Fills the current path and clears it.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        paint(currentPath, rule: rule, color: state.fillColor)
        beginPath()
    }

    /// Strokes the current path with the line settings (in user space) and clears it.
    public func strokePath() {
        paint(strokeOutline(of: currentPath), rule: .winding, color: state.strokeColor)
        beginPath()
    }

    public func drawPath(using mode: CGPathDrawingMode) {
        let path = currentPath
        switch mode {
        case .fill, .fillStroke: paint(path, rule: .winding, color: state.fillColor)
        case .eoFill, .eoFillStroke: paint(path, rule: .evenOdd, color: state.fillColor)
        case .stroke: break
        }
        if mode == .stroke || mode == .fillStroke || mode == .eoFillStroke {
            paint(strokeOutline(of: path), rule: .winding, color: state.strokeColor)
        }
        beginPath()
    }

    public func fill(_ rect: CGRect) {
        let path = CGMutablePath()
        path.addRect(rect, transform: state.ctm)
        paint(path, rule: .winding, color: state.fillColor)
    }

    public func stroke(_ rect: CGRect) {
        let path = CGMutablePath()
        path.addRect(rect, transform: state.ctm)
        paint(strokeOutline(of: path), rule: .winding, color: state.strokeColor)
    }

    public func fillEllipse(in rect: CGRect) {
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: state.ctm)
        paint(path, rule: .winding, color: state.fillColor)
    }

    public func strokeEllipse(in rect: CGRect) {
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: state.ctm)
        paint(strokeOutline(of: path), rule: .winding, color: state.strokeColor)
    }

    /// Makes the pixels of `rect` transparent (ignoring the clip, as Core Graphics does).
    public func clear(_ rect: CGRect) {
        let path = CGMutablePath()
        path.addRect(rect, transform: state.ctm)
        let coverage = rasterize(path, rule: .winding)
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for i in coverage.indices where coverage[i] > 0 {
                let keep = 1 - coverage[i]
                for c in 0..<4 { pixels[i * 4 + c] = UInt8((Float(pixels[i * 4 + c]) * keep).rounded()) }
            }
        }
    }

    /// Intersects the clip with the current path, and clears the path.
    public func clip(using rule: CGPathFillRule = .winding) {
        intersectClip(rasterize(currentPath, rule: rule))
        beginPath()
    }

    /// The smallest rectangle, in user space, holding every pixel the clip lets through (the
    /// whole context without a clip): where a drawing need draw at all, as a CATiledLayer's tile
    /// drawing reads its tile from it.
    public var boundingBoxOfClipPath: CGRect {
        var minX = 0, minY = 0, maxX = width, maxY = height
        if let clip = state.clip {
            (minX, minY, maxX, maxY) = (width, height, 0, 0)
            for y in 0..<height {
                for x in 0..<width where clip[y * width + x] > 0 {
                    minX = min(minX, x); maxX = max(maxX, x + 1)
                    minY = min(minY, y); maxY = max(maxY, y + 1)
                }
            }
            guard maxX > minX, maxY > minY else { return .null }
        }
        let toUser = bufferTransform.inverted()
        let corners = [CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY), CGPoint(x: minX, y: maxY), CGPoint(x: maxX, y: maxY)]
        return corners.map { $0.applying(toUser) }.reduce(CGRect.null) { $0.union(CGRect(origin: $1, size: .zero)) }
    }

    public func clip(to rect: CGRect) {
        let path = CGMutablePath()
        path.addRect(rect, transform: state.ctm)
        intersectClip(rasterize(path, rule: .winding))
    }

    /// Intersects the clip with `mask` stretched over `rect` (user space, image upright): the
    /// mask's alpha (for an opaque mask, its luminance) says how much of each pixel stays drawable,
    /// as Core Graphics' image masks do (seed 000's mirror fades its reflection this way).
    public func clip(to rect: CGRect, mask: CGImage) {
        let toUser = bufferTransform.inverted()
        let source = mask.bitmap
        let opaque = source.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }
        var coverage = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let user = CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5).applying(toUser)
                let u = (user.x - rect.minX) / rect.width, v = (rect.maxY - user.y) / rect.height
                guard u >= 0, u <= 1, v >= 0, v <= 1 else { continue }
                let t = Self.sample(source, u: Double(u), v: Double(v), nearest: false)
                coverage[y * width + x] = opaque ? 0.2126 * t.0 + 0.7152 * t.1 + 0.0722 * t.2 : t.3
            }
        }
        intersectClip(coverage)
    }

    /// Gives everything drawn from now on a shadow: its alpha blurred (a Gaussian of standard
    /// deviation blur / 2, in pixels), moved by `offset` (pixels, y up, not affected by the CTM,
    /// as in Core Graphics) and tinted with `color`. A nil or clear colour turns shadows off.
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
        guard let color, color.alpha > 0, offset.width.isFinite, offset.height.isFinite else {
            state.shadow = nil
            return
        }
        state.shadow = (offset, blur.isFinite ? max(blur, 0) : 0, color)
    }

    /// A shadow with Core Graphics' default colour: black at a third opacity.
    public func setShadow(offset: CGSize, blur: CGFloat) {
        setShadow(offset: offset, blur: blur, color: CGColor(gray: 0, alpha: 1.0 / 3))
    }

    /// How images are sampled when drawn. Default: `.default` (bilinear).
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolation }
        set { state.interpolation = newValue }
    }

    /// Draws `image` stretched over `rect` (user space), bilinear (nearest with
    /// `interpolationQuality = .none`).
    public func draw(_ image: CGImage, in rect: CGRect) {
        let path = CGMutablePath()
        path.addRect(rect, transform: state.ctm)
        let coverage = rasterize(path, rule: .winding)
        // Pixel centre (buffer space) -> user space -> unit square of rect -> texel.
        let toUser = bufferTransform.inverted()
        let source = image.bitmap
        let nearest = state.interpolation == .none
        composite(coverage: coverage) { x, y in
            let user = CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5).applying(toUser)
            // Images are drawn upright in a y-up space: the image's top row at rect's maxY.
            let u = (user.x - rect.minX) / rect.width, v = (rect.maxY - user.y) / rect.height
            return Self.sample(source, u: Double(u), v: Double(v), nearest: nearest)
        }
    }

    /// Paints every pixel of the clip area with `shader(point)` (user space at the pixel centre;
    /// nil paints nothing there): gradients and other computed fills.
    package func fill(shader: (CGPoint) -> (Float, Float, Float, Float)?) {
        let toUser = bufferTransform.inverted()
        let ones = [Float](repeating: 1, count: width * height)
        composite(coverage: ones) { x, y in
            shader(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5).applying(toUser)) ?? (0, 0, 0, 0)
        }
    }

    // MARK: Pixels

    /// User space (after the CTM, y up) to buffer rows (y down).
    private var bufferTransform: CGAffineTransform {
        state.ctm.concatenating(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height)))
    }

    func strokeOutline(of devicePath: CGPath) -> CGPath {
        // Stroke in user space so the pen follows the CTM (a scaled context draws wider lines).
        let inverse = state.ctm.inverted()
        var user = devicePath.copy(applying: inverse)
        if !state.lineDash.lengths.isEmpty {
            user = user.copy(dashingWithPhase: state.lineDash.phase, lengths: state.lineDash.lengths)
        }
        return user.copy(strokingWithWidth: state.lineWidth, lineCap: state.lineCap, lineJoin: state.lineJoin,
                         miterLimit: state.miterLimit, transform: state.ctm)
    }

    /// Coverage of a path already in the context's y-up pixel space.
    private func rasterize(_ devicePath: CGPath, rule: CGPathFillRule) -> [Float] {
        rasterizeWithBounds(devicePath, rule: rule).coverage
    }

    /// Coverage and the pixels it can be non-zero in (rows minY..<maxY; nil: none).
    private func rasterizeWithBounds(_ devicePath: CGPath, rule: CGPathFillRule)
        -> (coverage: [Float], bounds: (minX: Int, minY: Int, maxX: Int, maxY: Int)?) {
        var rasterizer = CoverageRasterizer(width: width, height: height)
        rasterizer.add(devicePath, transform: CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height)))
        let result = (rasterizer.coverage(rule: rule), rasterizer.touchedBounds)
        rasterizer.recycle()
        return result
    }

    private func intersectClip(_ coverage: [Float]) {
        guard let existing = state.clip else {
            state.clip = coverage
            return
        }
        state.clip = zip(existing, coverage).map { $0 * $1 }
    }

    private func paint(_ devicePath: CGPath, rule: CGPathFillRule, color: CGColor) {
        guard !devicePath.isEmpty else { return }
        let c = color.premultiplied
        let premultiplied = (Float(c.red), Float(c.green), Float(c.blue), Float(c.alpha))
        var (coverage, bounds) = rasterizeWithBounds(devicePath, rule: rule)
        guard let bounds else { return }
        if !(allowsAntialiasing && state.shouldAntialias) { Self.alias(&coverage) }
        // Right of the touched columns coverage can still be non-zero (a winding that does not
        // close there): only the rows are narrowed.
        let rows = bounds.minY..<bounds.maxY
        composite(coverage: coverage, rows: rows, solid: premultiplied) { _, _ in premultiplied }
        coverage.withUnsafeMutableBufferPointer { buffer in
            for i in (rows.lowerBound * width)..<(rows.upperBound * width) { buffer[i] = 0 }
        }
        ScratchBuffers.giveBack(coverage)
    }

    /// Source-over (or the blend mode's combination) of `color(x, y)` times coverage, clip and
    /// alpha into the bitmap; with a shadow set, the drawing's blurred, offset and tinted alpha
    /// goes down first.
    private func composite(coverage: [Float], rows: Range<Int>? = nil, solid: (Float, Float, Float, Float)? = nil,
                           color: (Int, Int) -> (Float, Float, Float, Float)) {
        let alpha = Float(state.alpha), clip = state.clip, w = width
        if let shadow = state.shadow {
            var shape = [Float](repeating: 0, count: coverage.count)
            for i in coverage.indices where coverage[i] > 0 {
                shape[i] = coverage[i] * alpha * color(i % w, i / w).3 * (clip?[i] ?? 1)
            }
            let blurred = GaussianBlur.blur(shape, width: w, height: height, sigma: Double(shadow.blur) / 2)
            // An offset past the context's size moves the whole shadow out of it (and would not fit an Int).
            let reach = CGFloat(w + height)
            let dx = Int(min(max(shadow.offset.width, -reach), reach).rounded())
            let dy = -Int(min(max(shadow.offset.height, -reach), reach).rounded())
            let c = shadow.color.premultiplied
            let tint = (Float(c.red), Float(c.green), Float(c.blue), Float(c.alpha))
            bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
                for y in 0..<height {
                    let sy = y - dy
                    guard sy >= 0, sy < height else { continue }
                    for x in 0..<w {
                        let sx = x - dx
                        guard sx >= 0, sx < w else { continue }
                        let k = blurred[sy * w + sx]
                        if k <= 0 { continue }
                        let p = (y * w + x) * 4, keep = 1 - tint.3 * k
                        pixels[p] = Self.quantize(tint.0 * k + Float(pixels[p]) / 255 * keep)
                        pixels[p + 1] = Self.quantize(tint.1 * k + Float(pixels[p + 1]) / 255 * keep)
                        pixels[p + 2] = Self.quantize(tint.2 * k + Float(pixels[p + 2]) / 255 * keep)
                        pixels[p + 3] = Self.quantize(tint.3 * k + Float(pixels[p + 3]) / 255 * keep)
                    }
                }
            }
        }
        if state.blendMode != .normal {
            compositeBlended(coverage: coverage, rows: rows ?? 0..<height, mode: state.blendMode, alpha: alpha, clip: clip, color: color)
            return
        }
        if let solid {
            compositeSolid(coverage: coverage, rows: rows ?? 0..<height, color: solid, alpha: alpha, clip: clip)
            return
        }
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for i in coverage.indices {
                var k = coverage[i] * alpha
                if let clip { k *= clip[i] }
                if k <= 0 { continue }
                let (r, g, b, a) = color(i % w, i / w)
                let sr = r * k, sg = g * k, sb = b * k, sa = a * k
                let keep = 1 - sa
                let p = i * 4
                pixels[p] = Self.quantize(sr + Float(pixels[p]) / 255 * keep)
                pixels[p + 1] = Self.quantize(sg + Float(pixels[p + 1]) / 255 * keep)
                pixels[p + 2] = Self.quantize(sb + Float(pixels[p + 2]) / 255 * keep)
                pixels[p + 3] = Self.quantize(sa + Float(pixels[p + 3]) / 255 * keep)
            }
        }
    }

    /// The common case of `composite` (a path filled with one colour), without a call per pixel;
    /// fully covered pixels of an opaque colour are simply stored.
    private func compositeSolid(coverage: [Float], rows: Range<Int>, color: (Float, Float, Float, Float), alpha: Float,
                                clip: [Float]?) {
        let stored = (Self.quantize(color.0), Self.quantize(color.1), Self.quantize(color.2), Self.quantize(color.3))
        let opaque = color.3 >= 1
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            coverage.withUnsafeBufferPointer { coverage in
                for i in (rows.lowerBound * width)..<(rows.upperBound * width) {
                    var k = coverage[i] * alpha
                    if let clip { k *= clip[i] }
                    if k <= 0 { continue }
                    let p = i * 4
                    if opaque && k >= 1 {
                        pixels[p] = stored.0; pixels[p + 1] = stored.1; pixels[p + 2] = stored.2; pixels[p + 3] = stored.3
                        continue
                    }
                    let sa = color.3 * k, keep = 1 - sa
                    pixels[p] = Self.quantize(color.0 * k + Float(pixels[p]) / 255 * keep)
                    pixels[p + 1] = Self.quantize(color.1 * k + Float(pixels[p + 1]) / 255 * keep)
                    pixels[p + 2] = Self.quantize(color.2 * k + Float(pixels[p + 2]) / 255 * keep)
                    pixels[p + 3] = Self.quantize(sa + Float(pixels[p + 3]) / 255 * keep)
                }
            }
        }
    }

    static func quantize(_ v: Float) -> UInt8 { UInt8(min(max(v * 255 + 0.5, 0), 255)) }

    /// Clamp-to-edge bilinear (or nearest) sample of premultiplied texels at unit coordinates.
    static func sample(_ image: Bitmap, u: Double, v: Double, nearest: Bool) -> (Float, Float, Float, Float) {
        guard u.isFinite, v.isFinite else { return (0, 0, 0, 0) }
        if nearest {
            let texelX: Double = u * Double(image.width), texelY: Double = v * Double(image.height)
            let x = Int(clampingPixels: texelX, .down, to: 0...(image.width - 1))
            let y = Int(clampingPixels: texelY, .down, to: 0...(image.height - 1))
            let p = image[x, y]
            return (Float(p.0) / 255, Float(p.1) / 255, Float(p.2) / 255, Float(p.3) / 255)
        }
        let tx = min(max(u * Double(image.width) - 0.5, -1), Double(image.width))
        let ty = min(max(v * Double(image.height) - 0.5, -1), Double(image.height))
        let x0 = tx.rounded(.down), y0 = ty.rounded(.down)
        let fx = Float(tx - x0), fy = Float(ty - y0)
        func texel(_ x: Int, _ y: Int) -> (Float, Float, Float, Float) {
            let p = image[min(max(x, 0), image.width - 1), min(max(y, 0), image.height - 1)]
            return (Float(p.0) / 255, Float(p.1) / 255, Float(p.2) / 255, Float(p.3) / 255)
        }
        let a = texel(Int(x0), Int(y0)), b = texel(Int(x0) + 1, Int(y0))
        let c = texel(Int(x0), Int(y0) + 1), d = texel(Int(x0) + 1, Int(y0) + 1)
        func mix(_ p: Float, _ q: Float, _ r: Float, _ s: Float) -> Float {
            (p * (1 - fx) + q * fx) * (1 - fy) + (r * (1 - fx) + s * fx) * fy
        }
        return (mix(a.0, b.0, c.0, d.0), mix(a.1, b.1, c.1, d.1), mix(a.2, b.2, c.2, d.2), mix(a.3, b.3, c.3, d.3))
    }
}
