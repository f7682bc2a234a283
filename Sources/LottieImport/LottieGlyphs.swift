import Foundation
import OpenCoreGraphics

// The glyph outlines a Lottie file carries ("chars"): Bodymovin exports, for each character of
// each font its text uses, the font's own outline of it at a size of 100 (y down, the origin on
// the baseline) and its advance "w". Where the font itself is not installed, text drawn from
// these is the font's text, where a stand-in font would be another design with other advances
// (Apple's frames of lottie-ios's "TEXT" in Avenir Next are 120 points wide; Liberation Sans in
// its place makes 126). A font that is installed is drawn by Core Text, as lottie-ios draws it.
// Glyphs stand in only for the families Apple's platforms carry (`appleFamilies`): Core Text on
// Apple answers any other name with Helvetica, whatever the file carries, and Apple's frames
// show that (issue_2545's "SFProDisplay-Medium", a name iOS does not install, is Helvetica's
// digits there, not the file's SF Pro glyphs), so here those stay with Helvetica's stand-in.

/// One character's outline and advance, at a size of 100.
struct LottieGlyph {
    let outline: CGPath
    let advance: CGFloat
}

/// The glyphs of `$.chars` by font family and style.
struct LottieGlyphTable {
    /// Most glyphs read; a file with more keeps its text in fonts (each glyph is a shape list).
    static let maxGlyphs = 10_000

    private struct Key: Hashable {
        let family: String, style: String
        init(_ family: String, _ style: String) {
            (self.family, self.style) = (family.lowercased(), style.lowercased())
        }
    }
    private var fonts: [Key: [Character: LottieGlyph]] = [:]
    /// The family and style each font name ("fName") of `$.fonts.list` stands for.
    private var names: [String: Key] = [:]

    /// Reads `$.fonts.list` and `$.chars`. A glyph that cannot be read is a warning naming it, and
    /// its font is left to Core Text: a stand-in font for every character beats a text with holes.
    init(document: LottieDocument) {
        let root = document.root
        for font in (try? root["fonts"]?["list"]?.array()) ?? [] {
            guard let name = try? font.optionalString("fName"), let family = try? font.optionalString("fFamily") else { continue }
            names[name] = Key(family, (try? font.optionalString("fStyle")) ?? "")
        }
        guard let chars = try? root["chars"]?.array(), !chars.isEmpty else { return }
        guard chars.count <= Self.maxGlyphs else {
            document.warn("$.chars: \(chars.count) glyphs, more than the \(Self.maxGlyphs) read; text is drawn in its fonts")
            return
        }
        var broken: Set<Key> = []
        for char in chars {
            do {
                guard let text = try char.optionalString("ch"), text.count == 1, let character = text.first else {
                    throw char.fail("a glyph needs its character, \"ch\": one character")
                }
                let key = Key(try char.optionalString("fFamily") ?? "", try char.optionalString("style") ?? "")
                guard let advance = try char.optionalNumber("w"), advance.isFinite, abs(advance) <= 100_000 else {
                    throw char.fail("a glyph needs its advance, \"w\": a finite number")
                }
                let outline = CGMutablePath()
                for item in (try char["data"]?["shapes"]?.array() ?? []) {
                    guard let shape = try LottieShapeItem.parse(item), shape.isGeometry else { continue }
                    shape.addPath(at: 0, to: outline, transform: .identity)
                }
                fonts[key, default: [:]][character] = LottieGlyph(outline: outline, advance: advance)
            } catch {
                document.warn("\(error); text in its font is drawn in the font or its stand-in, not from glyphs")
                if let key = try? Key(char.optionalString("fFamily") ?? "", char.optionalString("style") ?? "") { broken.insert(key) }
            }
        }
        for key in broken { fonts[key] = nil }
    }

    /// Whether `$.fonts.list` says the font `name` is of a family Apple's platforms carry.
    func isAppleFamily(font name: String) -> Bool { names[name].map { Self.appleFamilies.contains($0.family) } ?? false }

    /// The glyphs of the font `name` for every character of `text` (line breaks aside), or nil
    /// where the file has no glyph for one of them.
    func glyphs(for text: String, font name: String) -> [Character: LottieGlyph]? {
        guard let key = names[name], let table = fonts[key] else { return nil }
        for character in text where !LottieGlyphLayout.isLineBreak(character) && table[character] == nil { return nil }
        return table
    }
}

extension LottieGlyphTable {
    /// The font families every iPhone carries (UIFont.familyNames on iOS 14), lowercased: the
    /// names Core Text on Apple draws in their own design.
    static let appleFamilies: Set<String> = Set([
        "Academy Engraved LET", "Al Nile", "American Typewriter", "Apple Color Emoji", "Apple SD Gothic Neo", "Apple Symbols",
        "Arial", "Arial Hebrew", "Arial Rounded MT Bold", "Avenir", "Avenir Next", "Avenir Next Condensed", "Baskerville",
        "Bodoni 72", "Bodoni 72 Oldstyle", "Bodoni 72 Smallcaps", "Bodoni Ornaments", "Bradley Hand", "Chalkboard SE",
        "Chalkduster", "Charter", "Cochin", "Copperplate", "Courier", "Courier New", "Damascus", "Devanagari Sangam MN", "Didot",
        "DIN Alternate", "DIN Condensed", "Euphemia UCAS", "Farah", "Futura", "Galvji", "Geeza Pro", "Georgia", "Gill Sans",
        "Grantha Sangam MN", "Helvetica", "Helvetica Neue", "Hiragino Maru Gothic ProN", "Hiragino Mincho ProN", "Hiragino Sans",
        "Hoefler Text", "Kailasa", "Kefa", "Khmer Sangam MN", "Kohinoor Bangla", "Kohinoor Devanagari", "Kohinoor Gujarati",
        "Kohinoor Telugu", "Lao Sangam MN", "Malayalam Sangam MN", "Marker Felt", "Menlo", "Mishafi", "Mukta Mahee",
        "Myanmar Sangam MN", "Noteworthy", "Noto Nastaliq Urdu", "Noto Sans Kannada", "Noto Sans Myanmar", "Noto Sans Oriya",
        "Optima", "Palatino", "Papyrus", "Party LET", "PingFang HK", "PingFang SC", "PingFang TC", "Rockwell", "Savoye LET",
        "Sinhala Sangam MN", "Snell Roundhand", "Symbol", "Tamil Sangam MN", "Thonburi", "Times New Roman", "Trebuchet MS",
        "Verdana", "Zapf Dingbats", "Zapfino",
    ].map { $0.lowercased() })
}

/// Lines of glyphs laid out as Core Text lays out lottie-ios's text: point text's lines start
/// (left), end (right) or are centred at x = 0, its first baseline at y = 0; box text wraps at
/// the box's width at spaces (inside a word only where the word alone is wider), its lines
/// placed in the box, its first baseline `capHeight` below the box's top and the lines whose
/// baseline falls below the box's bottom left out. Baselines are `lineHeight` apart; `tracking`
/// follows every glyph, as Core Text's kern attribute does. Coordinates y down, in points.
struct LottieGlyphLayout {
    struct Placed {
        let glyph: LottieGlyph
        /// Where its origin sits on its baseline.
        let origin: CGPoint
    }
    let glyphs: [Placed]
    /// Each line's width: its advances and tracking.
    let lineWidths: [CGFloat]
    /// Points per hundred: a glyph's outline is drawn scaled by this.
    let scale: CGFloat

    static func isLineBreak(_ c: Character) -> Bool { c == "\r" || c == "\n" || c == "\u{3}" || c == "\r\n" }

    init(text: String, glyphs table: [Character: LottieGlyph], size: CGFloat, tracking: CGFloat, lineHeight: CGFloat,
         alignment: NSTextAlignment, box: CGSize?, capHeight: CGFloat) {
        scale = size / 100
        let scale = scale
        func advance(_ c: Character) -> CGFloat { (table[c]?.advance ?? 0) * scale + tracking }
        func width(_ line: Substring) -> CGFloat { line.reduce(0) { $0 + advance($1) } }
        var lines: [Substring] = []
        for paragraph in text.split(omittingEmptySubsequences: false, whereSeparator: Self.isLineBreak) {
            guard let box else { lines.append(paragraph); continue }
            lines += Self.wrap(paragraph, within: box.width, advance: advance)
        }
        var placed: [Placed] = []
        var widths: [CGFloat] = []
        for (index, line) in lines.enumerated() {
            let baseline = (box == nil ? 0 : capHeight) + CGFloat(index) * lineHeight
            if let box, baseline > box.height { break }
            let lineWidth = width(line)
            widths.append(lineWidth)
            let room = box?.width ?? 0
            var x: CGFloat = switch alignment {
            case .right: room - lineWidth
            case .center: (room - lineWidth) / 2
            default: 0
            }
            for character in line {
                guard let glyph = table[character] else { continue }
                placed.append(Placed(glyph: glyph, origin: CGPoint(x: x, y: baseline)))
                x += glyph.advance * scale + tracking
            }
        }
        glyphs = placed
        lineWidths = widths
    }

    /// `paragraph` in lines at most `limit` wide: broken at the last space before the glyph that
    /// does not fit, or at that glyph where the line has no space (a word wider than the line);
    /// the spaces a break falls on are dropped. One pass over the characters.
    private static func wrap(_ paragraph: Substring, within limit: CGFloat, advance: (Character) -> CGFloat) -> [Substring] {
        var lines: [Substring] = []
        var start = paragraph.startIndex
        while start < paragraph.endIndex {
            var x: CGFloat = 0, i = start
            var lastSpace: String.Index?
            while i < paragraph.endIndex {
                let w = advance(paragraph[i])
                if x + w > limit, i > start { break }
                if paragraph[i] == " " { lastSpace = i }
                x += w
                i = paragraph.index(after: i)
            }
            guard i < paragraph.endIndex else { lines.append(paragraph[start...]); break }
            var end = i
            if paragraph[i] != " ", let space = lastSpace, space > start { end = space }
            lines.append(paragraph[start..<end])
            start = paragraph[end...].firstIndex { $0 != " " } ?? paragraph.endIndex
        }
        return lines.isEmpty ? [paragraph] : lines
    }

    /// The glyphs' outlines in one path (text space).
    var outline: CGPath {
        let path = CGMutablePath()
        for g in glyphs {
            path.addPath(g.glyph.outline, transform: CGAffineTransform(a: scale, b: 0, c: 0, d: scale, tx: g.origin.x, ty: g.origin.y))
        }
        return path
    }
}
