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
    /// Let glyph positions snap to whole pixels horizontally (Apple's speed-for-quality trade).
    /// Accepted; glyphs here are always placed at their exact sub-pixel positions, so every
    /// frame is the same either way. Default: false.
    @Animatable("allowsFontSubpixelQuantization") open var allowsFontSubpixelQuantization: Bool = false

    static let textKeys: Set<String> = ["string", "font", "fontSize", "foregroundColor", "wrapped", "alignmentMode", "truncationMode"]

    public override init() {
        super.init()
        setNeedsDisplay()
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    override class func libraryCopy(of layer: CALayer) -> CALayer { CATextLayer(layer: layer) }

    public override init(layer: Any) { super.init(layer: layer) }

    open override class func needsDisplay(forKey key: String) -> Bool {
        textKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "fontSize": CGFloat(36)
        case "foregroundColor": CGColor.white
        case "wrapped", "allowsFontSubpixelQuantization": false
        case "alignmentMode": CATextLayerAlignmentMode.natural.rawValue
        case "truncationMode": CATextLayerTruncationMode.none.rawValue
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

    /// A stretch of text in one font and colour.
    struct TextRun {
        var text: String
        var font: CTFont
        var color: CGColor
    }

    /// The string as runs, cut to `TextLimits` (with a note on standard error when cut).
    func runs() -> [TextRun] {
        var runs = allRuns()
        let limits = TextLimits.current
        if runs.count > limits.maxRuns {
            TextLimits.note("\(runs.count) attribute runs; drawing the first \(limits.maxRuns) (TextLimits.maxRuns)")
            runs.removeSubrange(limits.maxRuns...)
        }
        var characters = 0, lines = 1
        for index in runs.indices {
            let text = runs[index].text
            var kept = text.startIndex
            for character in text.unicodeScalars.indices {
                if characters == limits.maxCharacters || lines > limits.maxLines { break }
                characters += 1
                if text.unicodeScalars[character] == "\n" { lines += 1 }
                kept = text.unicodeScalars.index(after: character)
            }
            if kept < text.endIndex {
                TextLimits.note("a string longer than \(limits.maxCharacters) characters or \(limits.maxLines) lines; drawing that much "
                    + "(TextLimits.maxCharacters, maxLines)")
                runs[index].text = String(text.unicodeScalars[..<kept])
                if lines > limits.maxLines, runs[index].text.hasSuffix("\n") { runs[index].text.removeLast() }
                runs.removeSubrange((index + 1)...)
                break
            }
        }
        return runs
    }

    /// The string as runs: one for a String; one per attribute range of an NSAttributedString
    /// (`.font`: a CTFont or a name; `.foregroundColor` or CTForegroundColor: a CGColor).
    private func allRuns() -> [TextRun] {
        let font = resolvedFont, color = foregroundColor ?? CGColor.clear
        switch string {
        case let text as String:
            return [TextRun(text: text, font: font, color: color)]
        case let attributed as NSAttributedString:
            var result: [TextRun] = []
            let whole = attributed.string as NSString
            attributed.enumerateAttributes(in: NSRange(location: 0, length: attributed.length), options: []) { attributes, range, _ in
                var runFont = font
                switch attributes[.font] {
                case let f as CTFont: runFont = f
                case let name as String: runFont = CTFont(name: name, size: fontSize)
                default: break
                }
                let runColor = (attributes[.foregroundColor] ?? attributes[NSAttributedString.Key(kCTForegroundColorAttributeName)])
                    .flatMap { $0 as? CGColor } ?? color
                result.append(TextRun(text: whole.substring(with: range), font: runFont, color: runColor))
            }
            return result
        default:
            return []
        }
    }

    /// The lines as laid out: text broken at newlines and (when wrapped) at spaces.
    public func layoutLines() -> [String] {
        layout().map { $0.map(\.text).joined() }
    }

    /// Lines of runs: broken at newlines, and when wrapped, before a word that would pass the width.
    func layout() -> [[TextRun]] {
        var lines: [[TextRun]] = [[]]
        var width: CGFloat = 0
        for run in runs() {
            let paragraphs = run.text.components(separatedBy: "\n")
            for (p, paragraph) in paragraphs.enumerated() {
                if p > 0 {
                    lines.append([])
                    width = 0
                }
                // Words keep their following space, so a line break drops nothing visible.
                var words: [String] = []
                var current = ""
                for character in paragraph {
                    current.append(character)
                    if character == " " { words.append(current); current = "" }
                }
                if !current.isEmpty { words.append(current) }
                for word in words {
                    let w = CTLine(string: word, font: run.font).width
                    let trimmed = CTLine(string: word.trimmingCharacters(in: .whitespaces), font: run.font).width
                    if isWrapped, bounds.width > 0, width > 0, width + trimmed > bounds.width {
                        if var last = lines.last?.last {
                            last.text = String(last.text.reversed().drop { $0 == " " }.reversed())
                            lines[lines.count - 1][lines[lines.count - 1].count - 1] = last
                        }
                        lines.append([])
                        width = 0
                    }
                    // Appended in place: a copy of the line's text per word was quadratic in its length.
                    let l = lines.count - 1
                    if let last = lines[l].last, last.font === run.font, last.color == run.color {
                        lines[l][lines[l].count - 1].text += word
                    } else {
                        lines[l].append(TextRun(text: word, font: run.font, color: run.color))
                    }
                    width += w
                }
            }
        }
        return lines.count == 1 && lines[0].isEmpty ? [] : lines
    }

    override var drawingFollowsFlippedGeometry: Bool { false }

    open override func draw(in ctx: CGContext) {
        let lines = layout()
        var baseline = bounds.minY
        let visible = backingStoreRect
        for (i, runs) in lines.enumerated() {
            let fonts = runs.map(\.font)
            let ascent = fonts.map(\.ascent).max() ?? resolvedFont.ascent
            let lineHeight = fonts.map(\.lineHeight).max() ?? resolvedFont.lineHeight
            baseline += i == 0 ? ascent : lineHeight
            // Lines wholly below the backing store (two line heights of margin for descenders)
            // are not drawn: text far longer than the layer costs what shows.
            if baseline - 2 * lineHeight > visible.maxY { break }
            var shaped = runs.map { CTLine(string: $0.text, font: $0.font, color: $0.color) }
            var total = shaped.reduce(0) { $0 + $1.width }
            if truncationMode != .none, total > bounds.width, bounds.width > 0, runs.count == 1 {
                shaped = [truncated(runs[0].text, font: runs[0].font, color: runs[0].color)]
                total = shaped[0].width
            }
            var x = bounds.minX
            // Justified lines widen their spaces (between letters only when there are none).
            var perSpace: CGFloat = 0, perGlyph: CGFloat = 0
            let isSpace = shaped.map { line in
                let bytes = Array(line.string.utf8)
                return line.glyphs.map { $0.cluster < bytes.count && bytes[$0.cluster] == 32 }
            }
            switch alignmentMode {
            case .right: x = bounds.maxX - total
            case .center: x = bounds.minX + (bounds.width - total) / 2
            case .justified where i < lines.count - 1 && isWrapped:
                let trailing = zip(shaped.last?.glyphs ?? [], isSpace.last ?? []).reversed().prefix { $0.1 }
                let inner = isSpace.joined().filter { $0 }.count - trailing.count
                let slack = max(0, bounds.width - (total - trailing.reduce(0) { $0 + $1.0.advance }))
                let glyphs = shaped.reduce(0) { $0 + $1.glyphs.count }
                if inner > 0 { perSpace = slack / CGFloat(inner) } else if glyphs > 1 { perGlyph = slack / CGFloat(glyphs - 1) }
            default: break
            }
            var n = 0, spacesBefore = 0
            for (r, line) in shaped.enumerated() {
                let path = CGMutablePath()
                for (g, glyph) in line.glyphs.enumerated() {
                    let shift = perGlyph * CGFloat(n) + perSpace * CGFloat(spacesBefore)
                    let glyphX = x + glyph.position.x + shift
                    // Glyphs wholly left or right of the store (an em either side) are not outlined.
                    if glyphX > visible.maxX + line.font.pointSize || glyphX < visible.minX - 2 * line.font.pointSize - glyph.advance {
                        n += 1
                        if isSpace[r][g] { spacesBefore += 1 }
                        continue
                    }
                    // Glyph outlines are y up; the layer's space is y down: flip about the baseline.
                    path.addPath(line.font.path(forGlyph: glyph.glyph),
                                 transform: CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: glyphX,
                                                              ty: baseline - glyph.position.y))
                    n += 1
                    if isSpace[r][g] { spacesBefore += 1 }
                }
                ctx.addPath(path)
                ctx.setFillColor(line.color)
                ctx.fillPath()
                x += line.width
            }
        }
    }

    /// The longest version of `text` with an ellipsis (at the start, middle or end) that fits:
    /// found by bisection on the characters kept (a line's width grows with them), so a long
    /// string is shaped a few dozen times, not once per character.
    private func truncated(_ text: String, font: CTFont, color: CGColor) -> CTLine {
        let characters = Array(text)
        func candidate(keeping keep: Int) -> CTLine {
            let string: String
            switch truncationMode {
            case .start: string = "\u{2026}" + String(characters.suffix(keep))
            case .middle:
                let head = (keep + 1) / 2
                string = String(characters.prefix(head)) + "\u{2026}" + String(characters.suffix(keep - head))
            default: string = String(characters.prefix(keep)) + "\u{2026}"
            }
            return CTLine(string: string, font: font, color: color)
        }
        // The most characters that fit lies in [low, high): low always fits (0 keeps only the ellipsis).
        var low = 0, high = characters.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if candidate(keeping: middle).width <= bounds.width { low = middle } else { high = middle }
        }
        return candidate(keeping: low)
    }
}
