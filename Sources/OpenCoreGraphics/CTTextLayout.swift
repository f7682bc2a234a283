import Foundation

// The line breaking and placement behind Core Text's frames: paragraphs split at line
// separators; each broken at word (or character) boundaries to fit its width, or kept on one line
// clipped or truncated with an ellipsis, as its style's lineBreakMode says; lines aligned,
// justified and indented; then stacked from the top with the style's line heights and spacing
// while they fit.

struct CTTextLayout {
    /// The text's characters, each with its run's style and its UTF-16 offset in the string.
    private var characters: [Character] = []
    private var styleOf: [Int] = []
    private var offsets: [Int] = []
    private var styles: [CTTextStyle] = []
    private let width: CGFloat, height: CGFloat
    private let end: Int

    /// Characters one line may hold when a word is broken inside: bounds the cost of a word
    /// longer than any frame (a hostile string of a million letters).
    static let maxCharactersPerBrokenLine = 4096

    init(runs: [CTStyledText.Run], width: CGFloat, height: CGFloat, start: Int) {
        self.width = width
        self.height = height
        var end = start
        for run in runs {
            styles.append(run.style)
            var offset = run.location
            for character in run.text {
                characters.append(character)
                styleOf.append(styles.count - 1)
                offsets.append(offset)
                offset += character.utf16.count
            }
            end = max(end, offset)
        }
        self.end = end
    }

    private static func isSeparator(_ c: Character) -> Bool {
        c == "\n" || c == "\r" || c == "\r\n" || c == "\u{2029}" || c == "\u{2028}"
    }

    /// Where a line may break (a no-break space is not one).
    private static func isSpace(_ c: Character) -> Bool { c == " " || c == "\t" }

    /// The runs drawing `range` of the characters (one per stretch of one style), with
    /// `ellipsis` in the style of the character beside it at the start or end.
    private func runs(_ range: Range<Int>, spaceExtra: CGFloat = 0, ellipsisFirst: Bool = false,
                      ellipsisAfter: Bool = false, ellipsisStyle: Int? = nil) -> [CTRun] {
        var made: [CTRun] = []
        let ellipsis = "\u{2026}"
        if ellipsisFirst, let style = ellipsisStyle { made.append(CTRun(string: ellipsis, style: styles[style])) }
        var i = range.lowerBound
        while i < range.upperBound {
            var j = i
            var text = ""
            while j < range.upperBound, styleOf[j] == styleOf[i] {
                text.append(characters[j])
                j += 1
            }
            made.append(CTRun(string: text, style: styles[styleOf[i]], spaceExtra: spaceExtra))
            i = j
        }
        if ellipsisAfter, let style = ellipsisStyle { made.append(CTRun(string: ellipsis, style: styles[style])) }
        return made
    }

    private func measure(_ range: Range<Int>) -> CGFloat { runs(range).reduce(0) { $0 + $1.width } }

    /// `range` without the whitespace that ends it.
    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound, Self.isSpace(characters[end - 1]) { end -= 1 }
        return range.lowerBound..<end
    }

    /// A paragraph's lines (ranges of characters) in `available` points.
    private func breakLines(_ paragraph: Range<Int>, mode: NSLineBreakMode, available: CGFloat) -> [Range<Int>] {
        guard mode.wraps, !paragraph.isEmpty else { return [paragraph] }
        // Tokens: a word and the spaces after it, or one character when wrapping by characters.
        var tokens: [Range<Int>] = []
        var i = paragraph.lowerBound
        while i < paragraph.upperBound {
            var j = i + 1
            if mode == .byWordWrapping {
                while j < paragraph.upperBound, !Self.isSpace(characters[j]), !Self.isSpace(characters[j - 1]) { j += 1 }
                while j < paragraph.upperBound, Self.isSpace(characters[j]) { j += 1 }
            }
            tokens.append(i..<j)
            i = j
        }
        var lines: [Range<Int>] = []
        var lineStart = paragraph.lowerBound, lineWidth: CGFloat = 0
        var pending = tokens[...]
        while var token = pending.popFirst() {
            // Shaped once: its width, and without its trailing spaces the width it needs on a line.
            let shaped = CTLine(runs: runs(token))
            let visible = shaped.width - shaped.trailingWhitespaceWidth
            if token.lowerBound > lineStart, lineWidth + visible > available {
                lines.append(lineStart..<token.lowerBound)
                lineStart = token.lowerBound
                lineWidth = 0
            }
            if token.lowerBound == lineStart, visible > available, token.count > 1 {
                // A word wider than the line alone: as many of its characters as fit (one at least).
                var low = 1, high = min(token.count, Self.maxCharactersPerBrokenLine + 1)
                while high - low > 1 {
                    let middle = (low + high) / 2
                    if measure(token.lowerBound..<token.lowerBound + middle) <= available { low = middle } else { high = middle }
                }
                let cut = token.lowerBound + low
                if cut < token.upperBound {
                    lines.append(lineStart..<cut)
                    lineStart = cut
                    lineWidth = 0
                    token = cut..<token.upperBound
                    pending.insert(token, at: pending.startIndex)
                    continue
                }
            }
            lineWidth += shaped.width
        }
        lines.append(lineStart..<paragraph.upperBound)
        return lines
    }

    /// One unwrapped line truncated with an ellipsis where it is wider than `available`.
    private func truncatedRuns(_ line: Range<Int>, mode: NSLineBreakMode, available: CGFloat) -> [CTRun] {
        guard [.byTruncatingHead, .byTruncatingTail, .byTruncatingMiddle].contains(mode), line.count > 1,
              measure(line) > available else { return runs(line) }
        func candidate(_ keep: Int) -> [CTRun] {
            switch mode {
            case .byTruncatingHead:
                let from = line.upperBound - keep
                return runs(from..<line.upperBound, ellipsisFirst: true, ellipsisStyle: styleOf[min(from, line.upperBound - 1)])
            case .byTruncatingMiddle:
                let head = (keep + 1) / 2, tail = keep - head
                return runs(line.lowerBound..<line.lowerBound + head, ellipsisAfter: true, ellipsisStyle: styleOf[line.lowerBound])
                    + runs(line.upperBound - tail..<line.upperBound)
            default:
                return runs(line.lowerBound..<line.lowerBound + keep, ellipsisAfter: true,
                            ellipsisStyle: styleOf[max(line.lowerBound + keep - 1, line.lowerBound)])
            }
        }
        var low = 0, high = min(line.count, Self.maxCharactersPerBrokenLine)
        while high - low > 1 {
            let middle = (low + high) / 2
            if candidate(middle).reduce(0, { $0 + $1.width }) <= available { low = middle } else { high = middle }
        }
        return candidate(low)
    }

    func layout() -> CTFrame.Layout {
        var result = CTFrame.Layout()
        result.visible = CFRange(location: offsets.first ?? end, length: 0)
        var cursor: CGFloat = 0 // down from the frame's top
        var paragraphStart = 0
        var first = true
        while paragraphStart < characters.count {
            var paragraphEnd = paragraphStart
            while paragraphEnd < characters.count, !Self.isSeparator(characters[paragraphEnd]) { paragraphEnd += 1 }
            let afterSeparator = min(paragraphEnd + 1, characters.count)
            let styleIndex = styleOf[paragraphStart]
            let paragraph = styles[styleIndex].paragraph
            let mode = paragraph.lineBreakMode
            let lines = breakLines(paragraphStart..<paragraphEnd, mode: mode, available: available(paragraph, firstLine: true))
            for (index, range) in lines.enumerated() {
                let firstInParagraph = index == 0, last = index == lines.count - 1
                let head = firstInParagraph ? paragraph.firstLineHeadIndent : paragraph.headIndent
                let room = available(paragraph, firstLine: firstInParagraph)
                var lineRuns = mode.wraps ? runs(range) : truncatedRuns(range, mode: mode, available: room)
                if lineRuns.isEmpty { lineRuns = [CTRun(string: "", style: styles[styleIndex])] }
                var line = CTLine(runs: lineRuns)
                var used = line.width - line.trailingWhitespaceWidth
                var x = head
                switch paragraph.alignment {
                case .right where room < .greatestFiniteMagnitude: x = head + room - used
                case .center where room < .greatestFiniteMagnitude: x = head + (room - used) / 2
                case .justified where !last && mode.wraps && room < .greatestFiniteMagnitude:
                    let inner = trimmed(range).filter { Self.isSpace(characters[$0]) }.count
                    if inner > 0, room > used {
                        line = CTLine(runs: runs(trimmed(range), spaceExtra: (room - used) / CGFloat(inner)))
                        used = room
                    }
                default: break
                }
                // Vertical: the line's height from its fonts and the paragraph's style.
                if firstInParagraph, !first { cursor += paragraph.paragraphSpacingBefore }
                var lineHeight = line.ascent + line.descent + line.leading
                if paragraph.lineHeightMultiple > 0 { lineHeight *= paragraph.lineHeightMultiple }
                if paragraph.minimumLineHeight > 0 { lineHeight = max(lineHeight, paragraph.minimumLineHeight) }
                if paragraph.maximumLineHeight > 0 { lineHeight = min(lineHeight, paragraph.maximumLineHeight) }
                let baseline = cursor + lineHeight - line.descent - line.leading
                // A line shows only whole: one whose descent passes the frame's bottom ends it.
                guard baseline + line.descent <= height + 1e-6 else { return result }
                result.origins.append(CGPoint(x: x, y: height - baseline))
                result.width = max(result.width, head + used)
                result.height = cursor + lineHeight
                let through = last ? afterSeparator : range.upperBound
                let endOffset = through < characters.count ? offsets[through] : end
                let startOffset = range.lowerBound < characters.count ? offsets[range.lowerBound] : end
                line.stringRange = CFRange(location: startOffset, length: endOffset - startOffset)
                result.visible.length = endOffset - result.visible.location
                result.lines.append(line)
                cursor += lineHeight + paragraph.lineSpacing
                if last { cursor += paragraph.paragraphSpacing }
                first = false
            }
            paragraphStart = afterSeparator
        }
        return result
    }

    /// The width a paragraph's lines have: the frame's, less the indents.
    private func available(_ paragraph: NSParagraphStyle, firstLine: Bool) -> CGFloat {
        let head = firstLine ? paragraph.firstLineHeadIndent : paragraph.headIndent
        // An unbounded frame (a size suggested without a width) stays unbounded.
        guard width < .greatestFiniteMagnitude else { return .greatestFiniteMagnitude }
        let tail = paragraph.tailIndent > 0 ? paragraph.tailIndent : width + paragraph.tailIndent
        return max(tail - head, 0)
    }
}
