import Foundation
import LayerModel
import OpenCoreGraphics

// A text layer ("ty": 5) drawn by Core Text, placed as lottie-ios's Core Animation engine places
// its text (the engine whose trees Apple drew): the text document's first keyframe (Core
// Animation does not animate text), in the font its "f" names at its size "s", its fill "fc" and
// stroke "sc"/"sw" (over the fill when "of"), tracking "tr" (thousandths of the size), line
// height "lh" and justification "j". Point text sits with its first baseline's start (left),
// end (right) or middle (centre) at the layer's origin or "ps", with a fifth of the size of
// room each side for glyphs that reach past their advance; box text ("sz", "ps") wraps in its
// box, its first baseline a cap height below the box's top. In a font the machine lacks, text
// whose every character has a glyph in the file's "chars" is drawn from those outlines, laid out
// the same way (LottieGlyphs.swift). Text animators and path text are read and not drawn, each
// said as a warning.

enum LottieText {
    /// Longest text drawn, in characters; a longer one is refused (its shaping is the cost).
    static let maxCharacters = 10_000

    static func build(_ layer: LottieNode, into node: CALayer, document: LottieDocument) throws {
        guard let t = layer["t"], let keyframes = try t["d"]?["k"]?.array(), let first = keyframes.first, let style = first["s"] else {
            throw layer.fail("a text layer needs its text: \"t\": {\"d\": {\"k\": [{\"s\": {\"t\": ...}, \"t\": 0}]}}")
        }
        if keyframes.count > 1 { document.warn("\(t.path).d.k: text keyframes after the first are not shown (Core Animation does not animate text)") }
        if let animators = try t["a"]?.array(), !animators.isEmpty { document.warn("\(t.path).a: text animators are not applied") }
        if t["p"]?["m"] != nil { document.warn("\(t.path).p: text on a path is drawn on a straight line") }
        let text = try style.optionalString("t") ?? ""
        guard text.count <= maxCharacters else {
            throw style.fail("\"t\": text of \(text.count) characters, more than the limit of \(maxCharacters)")
        }
        let size = try style.optionalNumber("s") ?? 10
        guard size.isFinite, size > 0, size <= 10_000 else { throw style.fail("\"s\": a font size must be between 0 and 10,000 points") }
        let textLayer = LottieTextLayer()
        textLayer.text = text.replacingOccurrences(of: "\u{3}", with: "\r")
        let fontName = try style.optionalString("f") ?? "Helvetica"
        let font = CTFontCreateWithName(fontName, size, nil)
        textLayer.font = font
        if font.isSubstitute, document.glyphTable.isAppleFamily(font: fontName) {
            if let glyphs = document.glyphTable.glyphs(for: text, font: fontName) {
                textLayer.glyphs = glyphs
                textLayer.glyphCapHeight = Self.capHeight(of: glyphs, size: size) ?? CTFontGetCapHeight(font)
            } else if document.root["chars"] != nil {
                document.warn("\(style.path).t: the font \(fontName) is not installed and $.chars lacks a glyph of this text; drawn in \(font.fontName)")
            }
        }
        textLayer.alignment = [1: .right, 2: .center][Int(try style.optionalNumber("j") ?? 0)] ?? .left
        textLayer.lineHeight = try style.optionalNumber("lh") ?? size * 1.2
        textLayer.tracking = size * (try style.optionalNumber("tr") ?? 0) / 1000
        textLayer.fillColor = try style["fc"].map { color(try $0.numbers()) }
        textLayer.strokeColor = try style["sc"].map { color(try $0.numbers()) }
        textLayer.strokeWidth = try style.optionalNumber("sw") ?? 0
        textLayer.strokeOnTop = style["of"]?.bool() ?? false
        if let box = try style["sz"]?.numbers(), box.count >= 2 {
            guard box[0].isFinite, box[1].isFinite, box[0] >= 0, box[1] >= 0, box[0] <= 100_000, box[1] <= 100_000 else {
                throw style.fail("\"sz\": a text box must be between 0 and 100,000 points a side")
            }
            textLayer.boxSize = CGSize(width: box[0], height: box[1])
        }
        textLayer.sizeToFit()
        if let p = try style["ps"]?.numbers(), p.count >= 2, p[0].isFinite, p[1].isFinite {
            textLayer.position = CGPoint(x: p[0], y: p[1])
        } else {
            textLayer.position = .zero
        }
        node.addSublayer(textLayer)
    }

    /// The height of the glyphs' capitals (the first of H, I, E, T, L found), in points.
    private static func capHeight(of glyphs: [Character: LottieGlyph], size: CGFloat) -> CGFloat? {
        for c in "HIETL" {
            if let glyph = glyphs[c], !glyph.outline.isEmpty { return -glyph.outline.boundingBoxOfPath.minY * size / 100 }
        }
        return nil
    }

    /// A text colour: 0...1 components, or 0...255 where one passes 1; opaque unless it says.
    static func color(_ v: [Double]) -> CGColor {
        let scale = v.prefix(3).contains { $0 > 1 } ? 255.0 : 1.0
        return lottieColor(v.prefix(3).map { $0 / scale } + (v.count > 3 ? [v[3]] : []))
    }
}

/// A text drawn by Core Text into its backing store, its bounds and anchor fitted to the text
/// (`sizeToFit`) so that its position is where the text's baseline starts (see `LottieText`).
final class LottieTextLayer: CALayer, LayerPresentationCopying {
    var text = ""
    var font: CTFont?
    var alignment = NSTextAlignment.left
    var lineHeight: CGFloat = 0
    var tracking: CGFloat = 0
    var fillColor: CGColor?
    var strokeColor: CGColor?
    var strokeWidth: CGFloat = 0
    var strokeOnTop = false
    /// The box of box text; nil for point text.
    var boxSize: CGSize?
    /// The file's glyphs, where the text is drawn from them instead of a stand-in font.
    var glyphs: [Character: LottieGlyph]?
    var glyphCapHeight: CGFloat = 0
    /// The glyphs laid out (`sizeToFit`), y down, and where their origin sits in the bounds.
    private var glyphOutline: CGPath?
    private var glyphOrigin = CGPoint.zero

    override init() { super.init() }

    required override init(layer: Any) {
        super.init(layer: layer)
        guard let other = layer as? LottieTextLayer else { return }
        (text, font, alignment, lineHeight, tracking) = (other.text, other.font, other.alignment, other.lineHeight, other.tracking)
        (fillColor, strokeColor, strokeWidth, strokeOnTop, boxSize) = (other.fillColor, other.strokeColor, other.strokeWidth, other.strokeOnTop, other.boxSize)
        (glyphs, glyphCapHeight, glyphOutline, glyphOrigin) = (other.glyphs, other.glyphCapHeight, other.glyphOutline, other.glyphOrigin)
    }

    required init?(coder: NSCoder) { nil }

    /// Room each side of point text for glyphs drawn past their advance (a fifth of the size,
    /// as lottie-ios allows).
    private var padding: CGFloat { (font.map(CTFontGetSize) ?? 0) * 0.2 }

    private func attributed(stroke: Bool) -> NSAttributedString? {
        guard let font, !text.isEmpty else { return nil }
        let ascent = CTFontGetAscent(font), descent = CTFontGetDescent(font), leading = CTFontGetLeading(font)
        let natural = ascent + descent + leading
        let style = NSMutableParagraphStyle()
        // Lottie's line height is baseline to baseline; Core Text's spacing is what is added to
        // a line's natural height, never less than none taken away.
        style.lineSpacing = max(lineHeight - natural, -natural)
        style.lineHeightMultiple = 1
        style.maximumLineHeight = natural
        style.alignment = alignment
        style.lineBreakMode = .byWordWrapping
        var attributes: [NSAttributedString.Key: Any] = [.font: font, .kern: tracking, .paragraphStyle: style, .ligature: 0]
        if stroke {
            guard let strokeColor, strokeWidth > 0 else { return nil }
            attributes[.strokeColor] = strokeColor
            attributes[.strokeWidth] = strokeWidth
        } else {
            guard let fillColor else { return nil }
            attributes[.foregroundColor] = fillColor
        }
        return NSAttributedString(string: text, attributes: attributes)
    }

    /// Sizes the layer to its text and sets its anchor where the text is placed from.
    func sizeToFit() {
        if glyphs != nil { return sizeGlyphsToFit() }
        guard let font, let string = attributed(stroke: false) ?? attributed(stroke: true) else {
            bounds = .zero
            return
        }
        let placed = textRect(font: font, capHeight: CTFontGetCapHeight(font)) {
            let setter = CTFramesetterCreateWithAttributedString(string)
            return CTFramesetterSuggestFrameSizeWithConstraints(setter, CFRange(location: 0, length: string.length), nil,
                                                                CGSize(width: CGFloat.greatestFiniteMagnitude, height: .greatestFiniteMagnitude), nil)
        }
        // The anchor is placed as a fraction of the text's rectangle before the rectangle is
        // widened by the stroke (lottie-ios's order), so stroked and filled text sits that
        // fraction of the stroke width up and left of its origin (`strokeWidening`).
        var rect = placed.rect
        let fraction = CGPoint(x: rect.width > 0 ? placed.anchor.x / rect.width : 0, y: rect.height > 0 ? placed.anchor.y / rect.height : 0)
        if widensForStroke {
            rect.size.width += strokeWidth
            rect.size.height += strokeWidth
        }
        bounds = rect
        anchorPoint = fraction
        setNeedsDisplay()
    }

    /// lottie-ios's rectangle for the text and where its origin is in it: box text's box, grown
    /// by the font's ascent above `capHeight` and its descent, the origin at its top left;
    /// point text's size (`pointTextSize`, Core Text's) with the padding each side, the origin
    /// at its first baseline's start (left), end (right) or middle (centre).
    private func textRect(font: CTFont, capHeight: CGFloat, pointTextSize: () -> CGSize) -> (rect: CGRect, anchor: CGPoint) {
        let ascent = CTFontGetAscent(font)
        if let boxSize {
            return (CGRect(x: 0, y: 0, width: boxSize.width, height: boxSize.height + ascent - capHeight + CTFontGetDescent(font)),
                    CGPoint(x: 0, y: ascent - capHeight))
        }
        let size = pointTextSize()
        let width = size.width + 2 * padding
        let x: CGFloat = switch alignment {
        case .right: width - padding
        case .center: width / 2
        default: padding
        }
        return (CGRect(x: 0, y: 0, width: width.rounded(.up), height: size.height.rounded(.up)), CGPoint(x: x, y: ascent))
    }

    /// lottie-ios widens the text's rectangle by the stroke width (in points, whatever the
    /// stroke's own width) where it draws both fill and stroke.
    private var widensForStroke: Bool { fillColor != nil && strokeColor != nil && strokeWidth > 0 }

    /// How far up and left of where its anchor says the text sits, for an anchor at `anchor` of
    /// a `rect` that lottie-ios then widens by the stroke width: the anchor keeps its fraction of
    /// the rectangle while the text keeps its place from the top left. Apple's frames show it
    /// (`Text_AnimatedProperties`' filled and stroked text sits 1.3 pixels higher than its
    /// origin says).
    private func strokeWidening(anchor: CGPoint, rect: CGSize) -> CGPoint {
        guard widensForStroke, rect.width > 0, rect.height > 0 else { return .zero }
        return CGPoint(x: anchor.x * strokeWidth / rect.width, y: anchor.y * strokeWidth / rect.height)
    }

    /// Core Text's stroke width: a percentage of the size.
    private var strokePoints: CGFloat { strokeColor != nil && strokeWidth > 0 ? strokeWidth / 100 * (font.map(CTFontGetSize) ?? 0) : 0 }

    /// `sizeToFit` for text drawn from the file's glyphs: the bounds hold the outlines (and the
    /// stroke and the padding around them; box text its box too), on whole points from the
    /// text's origin, which the anchor is.
    private func sizeGlyphsToFit() {
        guard let glyphs, let font, !text.isEmpty, fillColor != nil || strokePoints > 0 else {
            (bounds, glyphOutline) = (.zero, nil)
            return
        }
        let layout = LottieGlyphLayout(text: text, glyphs: glyphs, size: CTFontGetSize(font), tracking: tracking, lineHeight: lineHeight,
                                       alignment: alignment, box: boxSize, capHeight: glyphCapHeight)
        let outline = layout.outline
        var ink = outline.isEmpty ? CGRect.null : outline.boundingBoxOfPath.insetBy(dx: -(padding + strokePoints), dy: -(padding + strokePoints))
        if let boxSize { ink = ink.union(CGRect(origin: .zero, size: boxSize)) }
        guard !ink.isNull, ink.width > 0, ink.height > 0 else {
            (bounds, glyphOutline) = (.zero, nil)
            return
        }
        let minX = ink.minX.rounded(.down), minY = ink.minY.rounded(.down)
        let size = CGSize(width: ink.maxX.rounded(.up) - minX, height: ink.maxY.rounded(.up) - minY)
        glyphOutline = outline
        glyphOrigin = CGPoint(x: -minX, y: -minY)
        bounds = CGRect(origin: .zero, size: size)
        // The rectangle Core Text would have made (the stand-in font's metrics for the font's),
        // for where lottie-ios's stroke widening puts the text.
        let (rect, anchor) = textRect(font: font, capHeight: glyphCapHeight) {
            let natural = CTFontGetAscent(font) + CTFontGetDescent(font) + CTFontGetLeading(font)
            return CGSize(width: layout.lineWidths.max() ?? 0,
                          height: natural + CGFloat(max(layout.lineWidths.count - 1, 0)) * max(lineHeight, 0))
        }
        let widening = strokeWidening(anchor: anchor, rect: rect.size)
        anchorPoint = CGPoint(x: (glyphOrigin.x + widening.x) / size.width, y: (glyphOrigin.y + widening.y) / size.height)
        setNeedsDisplay()
    }

    override func draw(in ctx: CGContext) {
        if glyphs != nil {
            guard let glyphOutline else { return }
            // Glyph outlines are y down, as the context is: no turn over.
            ctx.translateBy(x: glyphOrigin.x, y: glyphOrigin.y)
            let stroke = { [self] in
                guard let strokeColor, strokePoints > 0 else { return }
                ctx.setStrokeColor(strokeColor)
                ctx.setLineWidth(strokePoints)
                ctx.addPath(glyphOutline)
                ctx.strokePath()
            }
            if !strokeOnTop { stroke() }
            if let fillColor {
                ctx.setFillColor(fillColor)
                ctx.addPath(glyphOutline)
                ctx.fillPath()
            }
            if strokeOnTop { stroke() }
            return
        }
        guard let font else { return }
        // Core Text draws y up: the context (y down, the layer's bounds) is turned over.
        ctx.translateBy(x: 0, y: bounds.height)
        ctx.scaleBy(x: 1, y: -1)
        ctx.textMatrix = .identity
        if boxSize == nil {
            ctx.translateBy(x: alignment == .right ? -padding : alignment == .center ? 0 : padding, y: 0)
        }
        let path = CGPath(rect: CGRect(origin: .zero, size: bounds.size), transform: nil)
        let frames = [attributed(stroke: false), attributed(stroke: true)].map { string in
            string.map { CTFramesetterCreateFrame(CTFramesetterCreateWithAttributedString($0), CFRange(location: 0, length: $0.length), path, nil) }
        }
        // Where the last line's baseline sits above the font's descent, the text is moved up to it
        // (some fonts' lines are placed lower than their descent says).
        if let frame = frames[0] ?? frames[1] {
            let lines = CTFrameGetLines(frame)
            if !lines.isEmpty {
                var origin = CGPoint.zero
                CTFrameGetLineOrigins(frame, CFRange(location: lines.count - 1, length: 1), &origin)
                let lift = CTFontGetDescent(font) - origin.y
                if lift > 0 { ctx.translateBy(x: 0, y: lift) }
            }
        }
        let (fill, stroke) = (frames[0], frames[1])
        if !strokeOnTop, let stroke { CTFrameDraw(stroke, ctx) }
        if let fill { CTFrameDraw(fill, ctx) }
        if strokeOnTop, let stroke { CTFrameDraw(stroke, ctx) }
    }
}
