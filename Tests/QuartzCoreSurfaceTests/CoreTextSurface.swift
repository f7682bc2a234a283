import CoreGraphics
import CoreText
import Foundation
import QuartzCore
import Testing

// Core Text's frames as Apple documents them, used with Apple's names (`import CoreText`): lines
// broken at words to fit the frame (each as long as it can be, nothing lost), aligned, justified,
// spaced and indented by the paragraph style, stacked from the top while they fit; runs in their
// own fonts and colours, kerned, stroked, without ligatures when asked. Widths are measured
// independently through CTLineCreateWithAttributedString.

private let font = CTFontCreateWithName("DejaVu Sans", 14, nil)
private let prose = "Core Animation draws what the layer tree says, frame after frame, on every screen it meets."

private func attributed(_ string: String, _ attributes: [NSAttributedString.Key: Any] = [:]) -> NSAttributedString {
    NSAttributedString(string: string, attributes: [.font: font].merging(attributes) { $1 })
}

private func style(_ configure: (NSMutableParagraphStyle) -> Void) -> NSMutableParagraphStyle {
    let style = NSMutableParagraphStyle()
    configure(style)
    return style
}

private func makeFrame(_ string: NSAttributedString, _ rect: CGRect) -> CTFrame {
    let framesetter = CTFramesetterCreateWithAttributedString(string)
    return CTFramesetterCreateFrame(framesetter, CFRangeMake(0, 0), CGPath(rect: rect, transform: nil), nil)
}

private func lineOrigins(_ frame: CTFrame) -> [CGPoint] {
    var origins = [CGPoint](repeating: .zero, count: CTFrameGetLines(frame).count)
    CTFrameGetLineOrigins(frame, CFRangeMake(0, 0), &origins)
    return origins
}

/// The line's width without the whitespace that ends it.
private func inkWidth(_ line: CTLine) -> Double { CTLineGetTypographicBounds(line, nil, nil, nil) - CTLineGetTrailingWhitespaceWidth(line) }

private func substring(_ string: String, _ range: CFRange) -> String {
    (string as NSString).substring(with: NSRange(location: range.location, length: range.length))
}

/// A context of the size, y up, cleared.
private func canvas(_ width: Int, _ height: Int) -> CGContext {
    CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
              bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
}

/// Pixels (x, y up) where the context has ink matching `where`.
private func ink(_ c: CGContext, _ test: (UInt8, UInt8, UInt8, UInt8) -> Bool = { $3 > 0 }) -> [(Int, Int)] {
    var found: [(Int, Int)] = []
    for y in 0..<c.height {
        for x in 0..<c.width where test(c.bitmap[x, c.height - 1 - y].0, c.bitmap[x, c.height - 1 - y].1,
                                        c.bitmap[x, c.height - 1 - y].2, c.bitmap[x, c.height - 1 - y].3) {
            found.append((x, y))
        }
    }
    return found
}

extension SurfaceChecklist {
    func coreText() throws {
        let lineHeight = CTFontGetAscent(font) + CTFontGetDescent(font) + CTFontGetLeading(font)
        use("NSAttributedString.Key.font") { #expect(NSAttributedString.Key.font.rawValue == "NSFont") }
        use("CTLineCreateWithAttributedString(_:)") {
            let line = CTLineCreateWithAttributedString(attributed("Hello"))
            #expect(abs(CTLineGetTypographicBounds(line, nil, nil, nil) - Double(CTLine(string: "Hello", font: font).width)) < 1e-9)
        }
        use("CTLineGetTrailingWhitespaceWidth(_:)") {
            let spaced = CTLineCreateWithAttributedString(attributed("Hi   "))
            let bare = CTLineCreateWithAttributedString(attributed("Hi"))
            #expect(abs(inkWidth(spaced) - CTLineGetTypographicBounds(bare, nil, nil, nil)) < 1e-9)
        }
        use("CTLineGetGlyphCount(_:)") { #expect(CTLineGetGlyphCount(CTLineCreateWithAttributedString(attributed("Hello"))) == 5) }
        use("CTLineGetStringRange(_:)") {
            #expect(CTLineGetStringRange(CTLineCreateWithAttributedString(attributed("Hello"))) == CFRangeMake(0, 5))
        }
        use("CTFramesetterCreateWithAttributedString(_:)") { _ = CTFramesetterCreateWithAttributedString(attributed("x")) }
        use("CTFramesetterCreateFrame(_:_:_:_:)") { #expect(CTFrameGetLines(makeFrame(attributed("x"), CGRect(x: 0, y: 0, width: 50, height: 50))).count == 1) }
        use("CTFrameGetLines(_:)") {
            // Broken at words: every line fits, each is as long as it can be (the next line's first
            // word would not fit on it), and the lines hold the string in order, nothing lost.
            let frame = makeFrame(attributed(prose), CGRect(x: 0, y: 0, width: 160, height: 400))
            let lines = CTFrameGetLines(frame)
            #expect(lines.count >= 4)
            var next = 0
            for (i, line) in lines.enumerated() {
                let range = CTLineGetStringRange(line)
                #expect(range.location == next)
                next += range.length
                #expect(inkWidth(line) <= 160 + 1e-9, "line \(i): \(inkWidth(line))")
                if i + 1 < lines.count {
                    let word = substring(prose, CTLineGetStringRange(lines[i + 1])).split(separator: " ").first.map(String.init) ?? ""
                    let longer = CTLineCreateWithAttributedString(attributed(substring(prose, range) + word))
                    #expect(inkWidth(longer) > 160, "line \(i) could have taken \(word)")
                }
            }
            #expect(next == (prose as NSString).length)
        }
        use("CTFrameGetLineOrigins(_:_:_:)") {
            // From the frame's bottom-left corner, y up: the first baseline an ascent below the top,
            // then one line height apart.
            let frame = makeFrame(attributed(prose), CGRect(x: 30, y: 20, width: 160, height: 400))
            let origins = lineOrigins(frame)
            #expect(abs(origins[0].y - (400 - CTFontGetAscent(font))) < 1e-9 && origins[0].x == 0)
            for i in 1..<origins.count { #expect(abs(origins[i - 1].y - origins[i].y - lineHeight) < 1e-9) }
        }
        use("CTFrameGetVisibleStringRange(_:)") {
            let frame = makeFrame(attributed(prose), CGRect(x: 0, y: 0, width: 160, height: lineHeight * 2.5))
            #expect(CTFrameGetLines(frame).count == 2, "a line shows only whole")
            #expect(CTFrameGetVisibleStringRange(frame).length == CTLineGetStringRange(CTFrameGetLines(frame)[1]).location
                        + CTLineGetStringRange(CTFrameGetLines(frame)[1]).length)
        }
        use("CTFramesetterSuggestFrameSizeWithConstraints(_:_:_:_:_:)") {
            let framesetter = CTFramesetterCreateWithAttributedString(attributed(prose))
            var fit = CFRange()
            let size = CTFramesetterSuggestFrameSizeWithConstraints(framesetter, CFRangeMake(0, 0), nil,
                                                                    CGSize(width: 160, height: CGFloat.greatestFiniteMagnitude), &fit)
            #expect(fit.length == (prose as NSString).length && size.width <= 160)
            let all = makeFrame(attributed(prose), CGRect(x: 0, y: 0, width: 160, height: 400))
            #expect(abs(size.height - Double(CTFrameGetLines(all).count) * lineHeight) < 1e-6)
            let exact = makeFrame(attributed(prose), CGRect(x: 0, y: 0, width: 160, height: size.height.rounded(.up)))
            #expect(CTFrameGetVisibleStringRange(exact).length == (prose as NSString).length, "the suggested size holds it all")
            let one = CTFramesetterSuggestFrameSizeWithConstraints(framesetter, CFRangeMake(0, 0), nil, .zero, nil)
            #expect(abs(one.width - CTLineGetTypographicBounds(CTLineCreateWithAttributedString(attributed(prose)), nil, nil, nil)) < 1e-6,
                    "unconstrained: one line")
        }
        try paragraphStyles(lineHeight: lineHeight)
        try runAttributes()
    }

    func paragraphStyles(lineHeight: CGFloat) throws {
        use("NSMutableParagraphStyle") {
            let spaced = style { $0.lineSpacing = 4; $0.paragraphSpacing = 10; $0.firstLineHeadIndent = 12 }
            let frame = makeFrame(attributed(prose + "\n" + prose, [.paragraphStyle: spaced]), CGRect(x: 0, y: 0, width: 160, height: 800))
            let lines = CTFrameGetLines(frame), origins = lineOrigins(frame)
            let second = lines.firstIndex { CTLineGetStringRange($0).location == (prose as NSString).length + 1 } ?? -1
            #expect(second > 1, "the newline starts a paragraph")
            for i in 1..<lines.count {
                let gap = origins[i - 1].y - origins[i].y
                #expect(abs(gap - (lineHeight + 4 + (i == second ? 10 : 0))) < 1e-9, "line \(i): \(gap)")
                #expect(origins[i].x == (i == second ? 12 : 0))
            }
            #expect(origins[0].x == 12)
        }
        use("NSTextAlignment") {
            for alignment in [NSTextAlignment.left, .center, .right, .justified, .natural] {
                let frame = makeFrame(attributed(prose, [.paragraphStyle: style { $0.alignment = alignment }]),
                                      CGRect(x: 0, y: 0, width: 160, height: 400))
                let lines = CTFrameGetLines(frame), origins = lineOrigins(frame)
                for (i, (line, origin)) in zip(lines, origins).enumerated() {
                    let width = inkWidth(line), last = i == lines.count - 1
                    switch alignment {
                    case .center: #expect(abs(origin.x + width / 2 - 80) < 1e-6)
                    case .right: #expect(abs(origin.x + width - 160) < 1e-6)
                    case .justified: #expect(origin.x == 0 && (last || abs(width - 160) < 1e-6), "line \(i): \(width)")
                    default: #expect(origin.x == 0)
                    }
                }
            }
        }
        use("NSLineBreakMode") {
            let box = CGRect(x: 0, y: 0, width: 100, height: 400)
            for mode in [NSLineBreakMode.byTruncatingTail, .byTruncatingHead, .byTruncatingMiddle, .byClipping] {
                let frame = makeFrame(attributed(prose, [.paragraphStyle: style { $0.lineBreakMode = mode }]), box)
                let lines = CTFrameGetLines(frame)
                #expect(lines.count == 1, "\(mode): one line a paragraph")
                let width = CTLineGetTypographicBounds(lines[0], nil, nil, nil)
                #expect(mode == .byClipping ? width > 100 : width <= 100 && width > 80, "\(mode): \(width)")
            }
            let byCharacter = makeFrame(attributed("abcdefghijklmnopqrstuvwxyz", [.paragraphStyle: style { $0.lineBreakMode = .byCharWrapping }]),
                                        CGRect(x: 0, y: 0, width: 60, height: 400))
            #expect(CTFrameGetLines(byCharacter).count >= 3 && CTFrameGetLines(byCharacter).allSatisfy { inkWidth($0) <= 60 })
            // A word wider than the frame is broken inside when wrapping by words too.
            let long = makeFrame(attributed("supercalifragilistic"), CGRect(x: 0, y: 0, width: 50, height: 400))
            #expect(CTFrameGetLines(long).count >= 3 && CTFrameGetLines(long).allSatisfy { inkWidth($0) <= 50 })
        }
    }

    func runAttributes() throws {
        use("NSAttributedString.Key.kern") {
            let plain = CTLineCreateWithAttributedString(attributed("Hello"))
            let kerned = CTLineCreateWithAttributedString(attributed("Hello", [.kern: 2.0]))
            #expect(abs(CTLineGetTypographicBounds(kerned, nil, nil, nil) - CTLineGetTypographicBounds(plain, nil, nil, nil) - 10) < 1e-9)
        }
        use("NSAttributedString.Key.ligature") {
            let without = CTLineCreateWithAttributedString(attributed("office fifth", [.ligature: 0]))
            #expect(CTLineGetGlyphCount(without) == 12, "one glyph per character without ligatures")
        }
        let big = CTFontCreateWithName("DejaVu Sans", 40, nil)
        func drawn(_ attributes: [NSAttributedString.Key: Any]) -> CGContext {
            let c = canvas(60, 60)
            let frame = makeFrame(NSAttributedString(string: "O", attributes: [.font: big].merging(attributes) { $1 }),
                                  CGRect(x: 10, y: 0, width: 50, height: 55))
            CTFrameDraw(frame, c)
            return c
        }
        let filled = ink(drawn([:])).count
        use("NSAttributedString.Key.strokeWidth") {
            let stroked = ink(drawn([.strokeWidth: 3.0])).count, both = ink(drawn([.strokeWidth: -3.0])).count
            #expect(stroked > 0 && stroked < filled && both > filled, "stroke \(stroked), fill \(filled), both \(both)")
        }
        use("NSAttributedString.Key.strokeColor") {
            let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            #expect(!ink(drawn([.strokeWidth: 3.0, .strokeColor: red]), { r, g, b, _ in r > 200 && g < 40 && b < 40 }).isEmpty)
        }
        use("NSAttributedString.Key.foregroundColor") {
            // Runs in their own colours: red on the left, blue on the right.
            let text = NSMutableAttributedString(string: "Red Blue", attributes: [.font: font])
            text.addAttribute(.foregroundColor, value: CGColor(red: 1, green: 0, blue: 0, alpha: 1), range: NSRange(location: 0, length: 4))
            text.addAttribute(.foregroundColor, value: CGColor(red: 0, green: 0, blue: 1, alpha: 1), range: NSRange(location: 4, length: 4))
            let c = canvas(100, 30)
            CTFrameDraw(makeFrame(text, CGRect(x: 0, y: 0, width: 100, height: 30)), c)
            let reds = ink(c) { r, _, b, _ in r > 100 && b < 30 }, blues = ink(c) { r, _, b, _ in b > 100 && r < 30 }
            #expect(!reds.isEmpty && !blues.isEmpty && reds.map(\.0).max()! < blues.map(\.0).min()!)
        }
        use("NSAttributedString.Key.paragraphStyle") {
            #expect(NSAttributedString.Key.paragraphStyle.rawValue == "NSParagraphStyle")
        }
        use("CTFrameDraw(_:_:)") {
            // The lines drawn where their origins say: ink from the first line's top down to the
            // last line's descent, right-aligned ink ending at the frame's right side.
            let c = canvas(200, 120)
            let right = style { $0.alignment = .right }
            let frame = makeFrame(attributed(prose, [.paragraphStyle: right]), CGRect(x: 20, y: 10, width: 160, height: 100))
            CTFrameDraw(frame, c)
            let marks = ink(c)
            let lines = CTFrameGetLines(frame), origins = lineOrigins(frame)
            let lowest = 10 + origins[origins.count - 1].y - CTFontGetDescent(font)
            #expect(marks.allSatisfy { Double($0.1) >= lowest - 1 && $0.1 < 110 && $0.0 >= 20 && $0.0 <= 181 })
            #expect(marks.contains { $0.0 >= 175 } && lines.count >= 4)
            #expect(c.textMatrix == .identity, "the text matrix is put back")
        }
    }
}
