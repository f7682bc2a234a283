import CFontStack
import Foundation

/// One glyph of a shaped line: which glyph, where its origin is (points, y up, from the line's
/// origin) and which UTF-8 offset of the string it came from.
public struct ShapedGlyph: Equatable, Sendable {
    public let glyph: UInt32
    public let position: CGPoint
    public let advance: CGFloat
    public let cluster: Int
}

/// A run of text in one style, shaped by HarfBuzz (kerning, ligatures unless turned off,
/// right-to-left runs in visual order): Core Text's CTRun.
public final class CTRun: @unchecked Sendable {
    public let string: String
    public let style: CTTextStyle
    /// Glyphs in visual order, left to right, from the run's start.
    public let glyphs: [ShapedGlyph]
    /// The run's advance, its kerning included.
    public let width: CGFloat

    /// `spaceExtra` widens every space (justified lines).
    public init(string: String, style: CTTextStyle, spaceExtra: CGFloat = 0) {
        self.string = string
        self.style = style
        let font = style.font, face = font.face
        face.lock.lock()
        defer { face.lock.unlock() }
        face.setSize(font.pointSize)
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        let utf8 = Array(string.utf8)
        utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                hb_buffer_add_utf8(buffer, $0.baseAddress, Int32($0.count), 0, Int32($0.count))
            }
        }
        hb_buffer_guess_segment_properties(buffer)
        if style.ligatures {
            hb_shape(face.hbFont, buffer, nil, 0)
        } else {
            var features = ["-liga", "-clig", "-dlig"].map { name -> hb_feature_t in
                var feature = hb_feature_t()
                _ = hb_feature_from_string(name, -1, &feature)
                return feature
            }
            hb_shape(face.hbFont, buffer, &features, UInt32(features.count))
        }
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        let kern = style.kern
        var x: CGFloat = 0, shaped: [ShapedGlyph] = []
        for i in 0..<Int(count) {
            guard let info = infos?[i], let position = positions?[i] else { continue }
            let cluster = Int(info.cluster)
            let isSpace = cluster < utf8.count && utf8[cluster] == 32
            let advance = CGFloat(position.x_advance) / 64 + kern + (isSpace ? spaceExtra : 0)
            shaped.append(ShapedGlyph(glyph: info.codepoint,
                                      position: CGPoint(x: x + CGFloat(position.x_offset) / 64, y: CGFloat(position.y_offset) / 64),
                                      advance: advance, cluster: cluster))
            x += advance
        }
        glyphs = shaped
        width = x
    }

    /// The outlines of every glyph, y up, from the run's origin on the baseline.
    public var path: CGPath {
        let path = CGMutablePath()
        for glyph in glyphs {
            path.addPath(style.font.path(forGlyph: glyph.glyph),
                         transform: CGAffineTransform(translationX: glyph.position.x, y: glyph.position.y))
        }
        return path
    }
}

/// A line of text: runs side by side, each in its own style: Core Text's CTLine, drawn with
/// `CTLineDraw` at the context's `textPosition`.
public final class CTLine: @unchecked Sendable {
    public let string: String
    /// The first run's font and colour (the line's only ones when made from a string).
    public let font: CTFont
    public let color: CGColor
    public let runs: [CTRun]
    /// Glyphs in visual order, left to right, from the line's start.
    public let glyphs: [ShapedGlyph]
    /// The advance of the whole line.
    public let width: CGFloat
    /// The part of the laid-out string the line holds (UTF-16; its line separator included);
    /// the whole of `string` for a line made on its own.
    public internal(set) var stringRange: CFRange

    public convenience init(string: String, font: CTFont, color: CGColor = .black) {
        self.init(runs: [CTRun(string: string, style: CTTextStyle(font: font, color: color))])
    }

    public init(runs: [CTRun], defaultFont: CTFont? = nil) {
        self.runs = runs
        string = runs.map(\.string).joined()
        font = runs.first?.style.font ?? defaultFont ?? CTTextStyle.defaultFont()
        color = runs.first?.style.color ?? .black
        var x: CGFloat = 0, all: [ShapedGlyph] = [], offset = 0
        for run in runs {
            for glyph in run.glyphs {
                all.append(ShapedGlyph(glyph: glyph.glyph, position: CGPoint(x: glyph.position.x + x, y: glyph.position.y),
                                       advance: glyph.advance, cluster: glyph.cluster + offset))
            }
            x += run.width
            offset += run.string.utf8.count
        }
        glyphs = all
        width = x
        stringRange = CFRange(location: 0, length: string.utf16.count)
    }

    /// The tallest run's ascent, descent and leading (the line's own font's when it has no runs).
    public var ascent: CGFloat { runs.map(\.style.font.ascent).max() ?? font.ascent }
    public var descent: CGFloat { runs.map(\.style.font.descent).max() ?? font.descent }
    public var leading: CGFloat { runs.map(\.style.font.leading).max() ?? font.leading }

    /// The advance of the spaces (and other whitespace) that end the line.
    public var trailingWhitespaceWidth: CGFloat {
        var width: CGFloat = 0
        for run in runs.reversed() {
            let bytes = Array(run.string.utf8)
            for glyph in run.glyphs.reversed() {
                guard glyph.cluster < bytes.count, [9, 10, 13, 32].contains(bytes[glyph.cluster]) else { return width }
                width += glyph.advance
            }
        }
        return width
    }

    /// The outlines of every glyph, y up, from the line's origin on the baseline.
    public var path: CGPath {
        let path = CGMutablePath()
        for glyph in glyphs {
            path.addPath(font(ofGlyphAt: glyph.cluster).path(forGlyph: glyph.glyph),
                         transform: CGAffineTransform(translationX: glyph.position.x, y: glyph.position.y))
        }
        return path
    }

    private func font(ofGlyphAt cluster: Int) -> CTFont {
        var offset = 0
        for run in runs {
            offset += run.string.utf8.count
            if cluster < offset { return run.style.font }
        }
        return font
    }
}

/// A line of an attributed string in its runs' styles, unbroken (Core Text's
/// CTLineCreateWithAttributedString).
public func CTLineCreateWithAttributedString(_ string: NSAttributedString) -> CTLine {
    CTLine(runs: CTStyledText(string).runs.map { CTRun(string: $0.text, style: $0.style) })
}

/// How many glyphs the line draws.
public func CTLineGetGlyphCount(_ line: CTLine) -> CFIndex { line.glyphs.count }

/// The part of the string the line holds (UTF-16 units).
public func CTLineGetStringRange(_ line: CTLine) -> CFRange { line.stringRange }

/// The advance of the whitespace that ends the line.
public func CTLineGetTrailingWhitespaceWidth(_ line: CTLine) -> Double { Double(line.trailingWhitespaceWidth) }

/// Width, and ascent/descent/leading through the pointers, as Core Text reports them.
public func CTLineGetTypographicBounds(_ line: CTLine, _ ascent: UnsafeMutablePointer<CGFloat>?,
                                       _ descent: UnsafeMutablePointer<CGFloat>?, _ leading: UnsafeMutablePointer<CGFloat>?) -> Double {
    ascent?.pointee = line.ascent
    descent?.pointee = line.descent
    leading?.pointee = line.leading
    return Double(line.width)
}

/// Draws the line through the context's text matrix: its origin at the text position (the
/// matrix's translation), its glyphs scaled, turned or sheared by the rest (user space, y up);
/// each run filled in its colour and, with a stroke width, outlined in its stroke colour.
public func CTLineDraw(_ line: CTLine, _ context: CGContext) {
    context.saveGState()
    var x: CGFloat = 0
    for run in line.runs {
        let placed = CGAffineTransform(translationX: x, y: 0).concatenating(context.textMatrix)
        let path = run.path.copy(applying: placed)
        x += run.width
        let style = run.style
        if style.fills {
            context.setFillColor(style.color)
            context.addPath(path)
            context.fillPath()
        }
        if style.strokeWidth != 0 {
            context.setStrokeColor(style.strokeColor ?? style.color)
            context.setLineWidth(style.strokePoints)
            context.addPath(path)
            context.strokePath()
        }
    }
    context.restoreGState()
}
