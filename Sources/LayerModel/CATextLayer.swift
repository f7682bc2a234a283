import Foundation
import OpenCoreGraphics

/// How a text layer aligns its lines.
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Left for left-to-right text (the default).
    public static let natural = CATextLayerAlignmentMode(rawValue: "natural")
    public static let left = CATextLayerAlignmentMode(rawValue: "left")
    public static let right = CATextLayerAlignmentMode(rawValue: "right")
    public static let center = CATextLayerAlignmentMode(rawValue: "center")
    /// Lines but the last stretch to both edges.
    public static let justified = CATextLayerAlignmentMode(rawValue: "justified")
}

/// Where a line too long for the layer is cut.
public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Not cut: the text runs past the bounds (the default).
    public static let none = CATextLayerTruncationMode(rawValue: "none")
    public static let start = CATextLayerTruncationMode(rawValue: "start")
    public static let middle = CATextLayerTruncationMode(rawValue: "middle")
    public static let end = CATextLayerTruncationMode(rawValue: "end")
}

/// A layer that draws a string: shaped by HarfBuzz, outlined by FreeType, filled by
/// OpenCoreGraphics into the backing store at contentsScale. Lines start at the top of the bounds
/// (first baseline one ascent down); explicit newlines break lines, and with `isWrapped` so do
/// words at the bounds' width.
open class CATextLayer: CALayer {
    /// The text: a String. Default: nil.
    @Animatable("string", needsDisplay: true) open var string: Any? = nil
    /// A CTFont, or a font name (String). Default: nil (Helvetica, that is its stand-in).
    @Animatable("font", needsDisplay: true) open var font: Any? = nil
    /// Default: 36.
    @Animatable("fontSize", needsDisplay: true) open var fontSize: CGFloat = 36
    /// Default: opaque white.
    @Animatable("foregroundColor", needsDisplay: true) open var foregroundColor: CGColor? = CGColor.white
    /// Break lines at word boundaries to fit the width. Default: false.
    @Animatable("wrapped", needsDisplay: true) open var isWrapped: Bool = false
    /// Default: `.natural`.
    @Animatable("alignmentMode", needsDisplay: true) open var alignmentMode: CATextLayerAlignmentMode = .natural
    /// Default: `.none`.
    @Animatable("truncationMode", needsDisplay: true) open var truncationMode: CATextLayerTruncationMode = .none

    static let textKeys: Set<String> = ["string", "font", "fontSize", "foregroundColor", "wrapped", "alignmentMode", "truncationMode"]

    public override init() {
        super.init()
        setNeedsDisplay()
    }

    public required init(layer: Any) { super.init(layer: layer) }

    open override class func needsDisplay(forKey key: String) -> Bool {
        textKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "fontSize": CGFloat(36)
        case "foregroundColor": CGColor.white
        default: super.defaultValue(forKey: key)
        }
    }

    open override class var implicitlyAnimatedKeys: Set<String> { ["fontSize", "foregroundColor"] }

    /// The font drawn with, at `fontSize`.
    public var resolvedFont: CTFont {
        switch font {
        case let f as CTFont: f.pointSize == fontSize ? f : f.withSize(fontSize)
        case let name as String: CTFont(name: name, size: fontSize)
        default: CTFont(name: "Helvetica", size: fontSize)
        }
    }

    /// The lines as laid out: text broken at newlines and (when wrapped) at spaces.
    public func layoutLines() -> [String] {
        guard let text = string as? String, !text.isEmpty else { return [] }
        let paragraphs = text.components(separatedBy: "\n")
        guard isWrapped, bounds.width > 0 else { return paragraphs }
        let font = resolvedFont
        var lines: [String] = []
        for paragraph in paragraphs {
            var current = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
                let candidate = current.isEmpty ? word : current + " " + word
                if !current.isEmpty, CTLine(string: candidate, font: font).width > bounds.width {
                    lines.append(current)
                    current = word
                } else {
                    current = candidate
                }
            }
            lines.append(current)
        }
        return lines
    }

    open override func draw(in ctx: CGContext) {
        let font = resolvedFont
        let color = foregroundColor ?? CGColor.clear
        let lines = layoutLines()
        for (i, text) in lines.enumerated() {
            var line = CTLine(string: text, font: font, color: color)
            if truncationMode != .none, line.width > bounds.width, bounds.width > 0 {
                line = truncated(text, font: font, color: color)
            }
            let baseline = bounds.minY + font.ascent + CGFloat(i) * font.lineHeight
            var x = bounds.minX
            var stretch: CGFloat = 1
            switch alignmentMode {
            case .right: x = bounds.maxX - line.width
            case .center: x = bounds.minX + (bounds.width - line.width) / 2
            case .justified where i < lines.count - 1 && line.width > 0 && isWrapped:
                stretch = bounds.width / line.width
            default: break
            }
            // Glyph outlines are y up; the layer's space is y down: flip each line about its baseline.
            var placement = CGAffineTransform(a: stretch, b: 0, c: 0, d: -1, tx: x, ty: baseline)
            if stretch != 1 {
                // Justify by spreading glyph origins, not by widening the glyphs.
                let path = CGMutablePath()
                let spacing = line.glyphs.count > 1 ? (bounds.width - line.width) / CGFloat(line.glyphs.count - 1) : 0
                for (n, glyph) in line.glyphs.enumerated() {
                    path.addPath(font.path(forGlyph: glyph.glyph),
                                 transform: CGAffineTransform(a: 1, b: 0, c: 0, d: -1,
                                                              tx: x + glyph.position.x + spacing * CGFloat(n), ty: baseline - glyph.position.y))
                }
                ctx.addPath(path)
            } else {
                placement = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: x, ty: baseline)
                ctx.addPath(line.path.copy(using: withUnsafePointer(to: placement) { $0 })!)
            }
            ctx.setFillColor(color)
            ctx.fillPath()
        }
    }

    /// The longest version of `text` with an ellipsis (at the start, middle or end) that fits.
    private func truncated(_ text: String, font: CTFont, color: CGColor) -> CTLine {
        let characters = Array(text)
        for keep in stride(from: characters.count - 1, through: 0, by: -1) {
            let candidate: String
            switch truncationMode {
            case .start: candidate = "\u{2026}" + String(characters.suffix(keep))
            case .middle:
                let head = (keep + 1) / 2
                candidate = String(characters.prefix(head)) + "\u{2026}" + String(characters.suffix(keep - head))
            default: candidate = String(characters.prefix(keep)) + "\u{2026}"
            }
            let line = CTLine(string: candidate, font: font, color: color)
            if line.width <= bounds.width { return line }
        }
        return CTLine(string: "\u{2026}", font: font, color: color)
    }
}
