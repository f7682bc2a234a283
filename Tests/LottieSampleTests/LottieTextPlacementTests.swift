// Where filled and stroked text sits: lottie-ios places the anchor as a fraction of the text's
// rectangle and then widens the rectangle by the stroke width, so the text moves up and left
// by that fraction of the stroke width; Apple's frames show it (Text_AnimatedProperties). Both
// ways text is drawn: Core Text in an installed font, and the file's glyphs for a missing one.
import Foundation
import LayerModel
import LottieImport
import OpenCoreGraphics
import OpenQuartzCore
import Testing

@Suite("Lottie text placed as lottie-ios places it")
struct LottieTextPlacementTests {
    /// "I" at 20 points from (10, 30): in Liberation Sans (installed), or from a block glyph of
    /// a Futura the machine lacks; `stroke` adds a stroke of width 10 (2 points drawn: Core
    /// Text's width is a percentage of the size) over the fill.
    static func draw(glyphs: Bool, stroke: Bool) throws -> Bitmap {
        let font = glyphs ? "Futura-Medium" : "LiberationSans"
        let strokeStyle = stroke ? #", "sc": [1, 0, 0], "sw": 10, "of": true"# : ""
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 80, "h": 40,
         "fonts": {"list": [{"fName": "Futura-Medium", "fFamily": "Futura", "fStyle": "Medium"}]},
         "chars": [{"ch": "I", "size": 100, "style": "Medium", "w": 100, "fFamily": "Futura", "data": {"shapes": [
           {"ty": "sh", "ks": {"a": 0, "k": {"i": [[0,0],[0,0],[0,0],[0,0]], "o": [[0,0],[0,0],[0,0],[0,0]],
                                             "v": [[0,-70],[50,-70],[50,0],[0,0]], "c": true}}}]}}],
         "layers": [{"ty": 5, "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {"p": {"a": 0, "k": [10, 30]}},
                     "t": {"d": {"k": [{"s": {"t": "I", "f": "\(font)", "s": 20, "fc": [0, 0, 0], "j": 0, "tr": 0\(strokeStyle)}, "t": 0}]}}}]}
        """
        let player = try LottiePlayer(document: try LottieDocument(data: Data(json.utf8)), renderScale: 1)
        player.seek(toProgress: 0)
        return try player.presentation().renderedImage(bounds: player.root.bounds, scale: 1, backend: .cpu).bitmap
    }

    /// The first row with ink in any column.
    static func top(_ bitmap: Bitmap) -> Int? {
        (0..<bitmap.height).first { y in (0..<bitmap.width).contains { bitmap[$0, y].3 > 0 } }
    }

    @Test("filled and stroked text sits the stroke width times its anchor's fraction higher, in either way of drawing",
          arguments: [false, true])
    func strokeWidening(glyphs: Bool) throws {
        let plain = try #require(Self.top(try Self.draw(glyphs: glyphs, stroke: false)))
        let stroked = try #require(Self.top(try Self.draw(glyphs: glyphs, stroke: true)))
        // The anchor is the first baseline, some 0.78 of the way down a 23-point rectangle that
        // widens by 10: the text moves up 7.9 points, its stroke reaching 1 more. Without the
        // widening only the stroke's 1 point shows.
        #expect((7...11).contains(plain - stroked), "plain text's top at \(plain), stroked text's at \(stroked)")
    }
}
