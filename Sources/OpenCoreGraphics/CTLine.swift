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

/// A line of text shaped by HarfBuzz (kerning, ligatures, right-to-left runs in visual order) in
/// one font and colour: Core Text's CTLine, drawn with `CTLineDraw` at the context's
/// `textPosition`.
public final class CTLine: @unchecked Sendable {
    public let string: String
    public let font: CTFont
    public let color: CGColor
    /// Glyphs in visual order, left to right.
    public let glyphs: [ShapedGlyph]
    /// The advance of the whole line.
    public let width: CGFloat

    public init(string: String, font: CTFont, color: CGColor = .black) {
        self.string = string
        self.font = font
        self.color = color
        let face = font.face
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
        hb_shape(face.hbFont, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        var x: CGFloat = 0, shaped: [ShapedGlyph] = []
        for i in 0..<Int(count) {
            guard let info = infos?[i], let position = positions?[i] else { continue }
            let advance = CGFloat(position.x_advance) / 64
            shaped.append(ShapedGlyph(glyph: info.codepoint,
                                      position: CGPoint(x: x + CGFloat(position.x_offset) / 64, y: CGFloat(position.y_offset) / 64),
                                      advance: advance, cluster: Int(info.cluster)))
            x += advance
        }
        glyphs = shaped
        width = x
    }

    /// The outlines of every glyph, y up, from the line's origin on the baseline.
    public var path: CGPath {
        let path = CGMutablePath()
        for glyph in glyphs {
            path.addPath(font.path(forGlyph: glyph.glyph),
                         transform: CGAffineTransform(translationX: glyph.position.x, y: glyph.position.y))
        }
        return path
    }
}

/// Width, and ascent/descent/leading through the pointers, as Core Text reports them.
public func CTLineGetTypographicBounds(_ line: CTLine, _ ascent: UnsafeMutablePointer<CGFloat>?,
                                       _ descent: UnsafeMutablePointer<CGFloat>?, _ leading: UnsafeMutablePointer<CGFloat>?) -> Double {
    ascent?.pointee = line.font.ascent
    descent?.pointee = line.font.descent
    leading?.pointee = line.font.leading
    return Double(line.width)
}

/// Draws the line through the context's text matrix: its origin at the text position (the
/// matrix's translation), its glyphs scaled, turned or sheared by the rest (user space, y up).
public func CTLineDraw(_ line: CTLine, _ context: CGContext) {
    context.saveGState()
    context.setFillColor(line.color)
    context.addPath(line.path.copy(applying: context.textMatrix))
    context.fillPath()
    context.restoreGState()
}

extension NSAttributedString.Key {
    /// A run's font: a CTFont, or a font name (UIKit's and AppKit's key, "NSFont").
    public static let font = NSAttributedString.Key("NSFont")
    /// A run's colour: a CGColor (UIKit's and AppKit's key, "NSColor").
    public static let foregroundColor = NSAttributedString.Key("NSColor")
}

/// Core Text's attribute names, which the keys above also answer to.
public let kCTFontAttributeName = "NSFont"
public let kCTForegroundColorAttributeName = "CTForegroundColor"
