// Fonts (fontconfig), shaping (HarfBuzz) and glyph outlines (FreeType). These depend on the fonts
// the install script puts on every machine: fonts-dejavu-core and fonts-liberation2.
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Text")
struct TextTests {
    @Test("Helvetica, Times and Courier resolve to their metric-compatible Liberation stand-ins")
    func substitutes() {
        let expected = ["Helvetica": "Liberation Sans", "Times": "Liberation Serif", "Courier": "Liberation Mono"]
        for (name, family) in expected {
            let font = CTFont(name: name, size: 12)
            #expect(font.familyName == family, "\(name) -> \(font.familyName)")
            #expect(font.isSubstitute)
        }
        let dejavu = CTFont(name: "DejaVu Sans", size: 12)
        #expect(dejavu.familyName == "DejaVu Sans" && !dejavu.isSubstitute)
        let unknown = CTFont(name: "No Such Font Family 12345", size: 12)
        #expect(unknown.isSubstitute && !unknown.familyName.isEmpty)
        // A name with no font is Helvetica, regular whatever the name's style, as Core Text
        // answers it (Apple's frames of lottie-ios's Oswald-Bold text show Helvetica).
        for name in ["Oswald-Bold", "AvenirNext-Medium", "No Such Font Family 12345"] {
            let font = CTFont(name: name, size: 12)
            #expect(font.familyName == "Liberation Sans" && font.fontName == "LiberationSans" && font.isSubstitute, "\(name) -> \(font.fontName)")
        }
        // A generic family keeps fontconfig's default.
        #expect(CTFont(name: "sans-serif", size: 12).familyName == "DejaVu Sans")
    }

    @Test("metrics scale with the size and are in points")
    func metrics() {
        let small = CTFont(name: "DejaVu Sans", size: 10), large = CTFont(name: "DejaVu Sans", size: 20)
        #expect(small.ascent > 5 && small.ascent < 12 && small.descent > 1)
        #expect(abs(large.ascent - 2 * small.ascent) < 1e-9 && abs(large.capHeight - 2 * small.capHeight) < 1e-9)
        #expect(small.capHeight > small.xHeight && small.xHeight > 0)
        #expect(CTFontGetSize(large) == 20 && large.lineHeight >= large.ascent + large.descent)
    }

    @Test("shaping kerns A and V closer than their separate advances")
    func kerning() {
        let font = CTFont(name: "DejaVu Serif", size: 40)
        let pair = CTLine(string: "AV", font: font).width
        let apart = CTLine(string: "A", font: font).width + CTLine(string: "V", font: font).width
        #expect(pair < apart)
    }

    @Test("shaping makes ligatures: 'ffi' in DejaVu Serif is fewer glyphs than letters")
    func ligatures() {
        let line = CTLine(string: "office", font: CTFont(name: "DejaVu Serif", size: 20))
        #expect(line.glyphs.count < 6)
    }

    @Test("right-to-left text comes out in visual order")
    func rightToLeft() {
        let line = CTLine(string: "שלום", font: CTFont(name: "DejaVu Sans", size: 20))
        #expect(line.glyphs.count == 4)
        #expect(line.glyphs.map(\.cluster) == line.glyphs.map(\.cluster).sorted(by: >)) // last letter leftmost
    }

    @Test("a glyph outline fills where the letter is")
    func outlines() throws {
        let font = CTFont(name: "DejaVu Sans", size: 40)
        let line = CTLine(string: "I", font: font)
        let box = line.path.boundingBox
        #expect(box.height > 25 && box.height < 35 && box.minY >= -0.01) // a capital sits on the baseline
        let ctx = try #require(CGContext(width: 40, height: 50))
        ctx.textPosition = CGPoint(x: 5, y: 10)
        CTLineDraw(line, ctx)
        let inked = ctx.bitmap.pixels.enumerated().filter { $0.offset % 4 == 3 && $0.element > 128 }.count
        #expect(inked > 50)
        var ascent: CGFloat = 0
        #expect(CTLineGetTypographicBounds(line, &ascent, nil, nil) == Double(line.width) && ascent == font.ascent)
    }
}
