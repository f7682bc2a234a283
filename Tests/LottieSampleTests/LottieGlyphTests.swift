// Text in a font this machine lacks, drawn from the glyph outlines the file carries ("chars")
// where the font is one Apple's platforms carry (Core Text on Apple draws it in its own design),
// and in Helvetica's stand-in where it is not (Core Text on Apple answers it with Helvetica).
// Read back from the CPU reference's pixels.
import Foundation
import LayerModel
import LottieImport
import OpenCoreGraphics
import OpenQuartzCore
import Testing

@Suite("Lottie text drawn from the file's glyphs")
struct LottieGlyphTests {
    /// A block glyph "I": 50 wide and 70 high at a size of 100, advance "w" 100; a space of 50.
    static func document(family: String, text: String, style: String, advance: String = "100") -> String {
        """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 120, "h": 80,
         "fonts": {"list": [{"fName": "Glyphs-Medium", "fFamily": "\(family)", "fStyle": "Medium", "ascent": 75}]},
         "chars": [
           {"ch": "I", "size": 100, "style": "Medium", "w": \(advance), "fFamily": "\(family)", "data": {"shapes": [{"ty": "gr", "it": [
             {"ty": "sh", "ks": {"a": 0, "k": {"i": [[0,0],[0,0],[0,0],[0,0]], "o": [[0,0],[0,0],[0,0],[0,0]],
                                               "v": [[0,-70],[50,-70],[50,0],[0,0]], "c": true}}}]}]}},
           {"ch": " ", "size": 100, "style": "Medium", "w": 50, "fFamily": "\(family)", "data": {}}],
         "layers": [{"ty": 5, "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {"p": {"a": 0, "k": [10, 30]}},
                     "t": {"d": {"k": [{"s": {"t": "\(text)", "f": "Glyphs-Medium", "s": 20, "fc": [0, 0, 0], \(style)}, "t": 0}]}}}]}
        """
    }

    static func draw(_ json: String) throws -> (Bitmap, [String]) {
        let document = try LottieDocument(data: Data(json.utf8))
        let player = try LottiePlayer(document: document)
        player.seek(toProgress: 0)
        let image = try player.presentation().renderedImage(bounds: player.root.bounds, scale: 1, backend: .cpu)
        return (image.bitmap, document.warnings)
    }

    /// The opaque pixels of row `y` (the blocks' middle is 23: baseline 30, 14 high).
    static func opaque(_ bitmap: Bitmap, row y: Int) -> [Int] { (0..<bitmap.width).filter { bitmap[$0, y].3 == 255 } }

    @Test("a family Apple carries (Futura) is drawn from its glyphs: their outlines, advances and tracking")
    func appleFamilyFromGlyphs() throws {
        let (plain, _) = try Self.draw(Self.document(family: "Futura", text: "II", style: #""j": 0, "tr": 0"#))
        // Blocks 10 wide, advances 20, from x = 10: pixels 10-19 and 30-39.
        #expect(Self.opaque(plain, row: 23) == Array(10..<20) + Array(30..<40))
        // Top at the baseline less 14 (rows 16-29).
        #expect(plain[15, 16].3 == 255 && plain[15, 15].3 == 0 && plain[15, 29].3 == 255 && plain[15, 30].3 == 0)
        // Tracking 250 (thousandths of the size): 5 points after each glyph.
        let (tracked, _) = try Self.draw(Self.document(family: "Futura", text: "II", style: #""j": 0, "tr": 250"#))
        #expect(Self.opaque(tracked, row: 23) == Array(10..<20) + Array(35..<45))
        // Right-aligned point text ends its last advance at the origin.
        let (right, _) = try Self.draw(Self.document(family: "Futura", text: "II", style: #""j": 1, "tr": 0"#)
            .replacingOccurrences(of: "[10, 30]", with: "[90, 30]"))
        #expect(Self.opaque(right, row: 23) == Array(50..<60) + Array(70..<80))
    }

    @Test("box text from glyphs wraps at a space, its first baseline a capital's height below the box's top")
    func boxText() throws {
        // "II II" is 90 wide; the box 60: two lines, 24 apart. The layer sits at 0, the box at (10, 10).
        let json = Self.document(family: "Avenir Next", text: "II II", style: #""j": 0, "tr": 0, "lh": 24, "sz": [60, 60], "ps": [10, 10]"#)
            .replacingOccurrences(of: "[10, 30]", with: "[0, 0]")
        let (bitmap, _) = try Self.draw(json)
        // First baseline at 10 + 14 = 24: blocks from row 10; the second line's from row 34.
        for y in [17, 41] { #expect(Self.opaque(bitmap, row: y) == Array(10..<20) + Array(30..<40), "row \(y)") }
        #expect(Self.opaque(bitmap, row: 28).isEmpty && bitmap[15, 10].3 == 255 && bitmap[15, 9].3 == 0)
    }

    @Test("a family Apple's platforms lack is drawn in Helvetica's stand-in, as Core Text on Apple draws it")
    func otherFamilyInStandIn() throws {
        let (bitmap, _) = try Self.draw(Self.document(family: "Airbnb Cereal", text: "II", style: #""j": 0, "tr": 0"#))
        let row = Self.opaque(bitmap, row: 23)
        // Two thin stems of a sans serif "I", not two blocks of 10.
        #expect(!row.isEmpty && row.count <= 8, "\(row)")
    }

    @Test("a glyph that cannot be read is a warning naming it, and the text is drawn in the stand-in font")
    func brokenGlyph() throws {
        let (bitmap, warnings) = try Self.draw(Self.document(family: "Futura", text: "II", style: #""j": 0, "tr": 0"#, advance: #""wide""#))
        #expect(warnings.contains { $0.contains("$.chars[0].w") }, "\(warnings)")
        #expect(Self.opaque(bitmap, row: 23).count <= 8)
    }
}
