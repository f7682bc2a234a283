import Foundation

// Core Text's frames: an attributed string broken into lines that fill a rectangle, paragraph
// by paragraph, as each paragraph's style says (alignment, line breaking, spacing, indents),
// from the top down (Core Text's space is y up, its origin the frame's bottom-left corner).

/// Core Foundation's range (UTF-16 units, as NSString counts), which Core Text takes and gives.
public struct CFRange: Equatable, Sendable {
    public var location: Int
    public var length: Int
    public init() { (location, length) = (0, 0) }
    public init(location: Int, length: Int) { (self.location, self.length) = (location, length) }
}

public func CFRangeMake(_ location: Int, _ length: Int) -> CFRange { CFRange(location: location, length: length) }

/// Core Foundation's attributed string: on Linux, Foundation's.
public typealias CFAttributedString = NSAttributedString
public typealias CFIndex = Int

/// An attributed string as runs of one style: text, style, and where it starts (UTF-16).
struct CTStyledText {
    struct Run {
        var text: String
        var style: CTTextStyle
        var location: Int
    }

    var runs: [Run] = []

    init(_ string: NSAttributedString, range: NSRange? = nil) {
        let whole = NSRange(location: 0, length: string.length)
        let range = range ?? whole
        guard range.length > 0 else { return }
        let text = string.string as NSString
        string.enumerateAttributes(in: range, options: []) { attributes, part, _ in
            runs.append(Run(text: text.substring(with: part), style: CTTextStyle(attributes: attributes), location: part.location))
        }
    }
}

/// Lays out an attributed string in frames (CTFramesetterCreateWithAttributedString).
public final class CTFramesetter: @unchecked Sendable {
    public let attributedString: NSAttributedString

    public init(attributedString: NSAttributedString) {
        self.attributedString = NSAttributedString(attributedString: attributedString)
    }

    /// The string in `range` (length 0: to the end) laid out in `rect`'s width, lines added from
    /// the top while they fit in its height.
    func layout(range: CFRange, in rect: CGRect) -> CTFrame.Layout {
        let total = attributedString.length
        let start = min(max(range.location, 0), total)
        let length = range.length > 0 ? min(range.length, total - start) : total - start
        let styled = CTStyledText(attributedString, range: NSRange(location: start, length: length))
        return CTTextLayout(runs: styled.runs, width: rect.width, height: rect.height, start: start).layout()
    }
}

/// Lines placed in a frame (CTFramesetterCreateFrame).
public final class CTFrame: @unchecked Sendable {
    struct Layout {
        var lines: [CTLine] = []
        /// Each line's origin from the frame's bottom-left corner, y up.
        var origins: [CGPoint] = []
        /// The lines' widest typographic width (trailing whitespace out, indents in).
        var width: CGFloat = 0
        /// From the frame's top to the last line's bottom.
        var height: CGFloat = 0
        /// The UTF-16 range the lines hold.
        var visible = CFRange()
    }

    public let path: CGPath
    let layout: Layout

    init(path: CGPath, layout: Layout) {
        self.path = path
        self.layout = layout
    }

    public var lines: [CTLine] { layout.lines }
}

public func CTFramesetterCreateWithAttributedString(_ string: NSAttributedString) -> CTFramesetter {
    CTFramesetter(attributedString: string)
}

/// The frame of `string`'s `range` (length 0: to its end) in `path`'s bounding box.
public func CTFramesetterCreateFrame(_ framesetter: CTFramesetter, _ range: CFRange, _ path: CGPath,
                                     _ frameAttributes: [String: Any]?) -> CTFrame {
    CTFrame(path: path, layout: framesetter.layout(range: range, in: path.boundingBoxOfPath.standardized))
}

/// The size the text needs within `constraints` (a side of 0, or larger than any text, leaves that
/// side unbounded), and through `fitRange` the part of the string that fits.
public func CTFramesetterSuggestFrameSizeWithConstraints(_ framesetter: CTFramesetter, _ range: CFRange, _ frameAttributes: [String: Any]?,
                                                         _ constraints: CGSize, _ fitRange: UnsafeMutablePointer<CFRange>?) -> CGSize {
    func bound(_ side: CGFloat) -> CGFloat { side.isFinite && side > 0 ? side : .greatestFiniteMagnitude }
    let layout = framesetter.layout(range: range, in: CGRect(x: 0, y: 0, width: bound(constraints.width), height: bound(constraints.height)))
    fitRange?.pointee = layout.visible
    return CGSize(width: layout.width, height: layout.height)
}

/// The frame's lines, top to bottom.
public func CTFrameGetLines(_ frame: CTFrame) -> [CTLine] { frame.lines }

/// The origins of the lines in `range` (length 0: to the last), from the frame's bottom-left corner.
public func CTFrameGetLineOrigins(_ frame: CTFrame, _ range: CFRange, _ origins: UnsafeMutablePointer<CGPoint>) {
    let all = frame.layout.origins
    let start = min(max(range.location, 0), all.count)
    let end = range.length > 0 ? min(start + range.length, all.count) : all.count
    for (i, origin) in all[start..<end].enumerated() { origins[i] = origin }
}

/// The UTF-16 range of the string that the frame's lines hold.
public func CTFrameGetVisibleStringRange(_ frame: CTFrame) -> CFRange { frame.layout.visible }

public func CTFrameGetPath(_ frame: CTFrame) -> CGPath { frame.path }

/// Draws each line at its origin in the frame (through the context's text matrix, whose
/// translation is set line by line and put back after).
public func CTFrameDraw(_ frame: CTFrame, _ context: CGContext) {
    let box = frame.path.boundingBoxOfPath.standardized
    let saved = context.textMatrix
    for (line, origin) in zip(frame.layout.lines, frame.layout.origins) {
        context.textPosition = CGPoint(x: box.minX + origin.x, y: box.minY + origin.y)
        CTLineDraw(line, context)
    }
    context.textMatrix = saved
}
