import Foundation

// The paragraph attributes Core Text lays text out by (UIKit's and AppKit's NSParagraphStyle,
// which Core Text reads from `.paragraphStyle`). Foundation on Linux has none of them.

/// How a paragraph's lines sit between the frame's sides (UIKit's raw values).
public enum NSTextAlignment: Int, Sendable {
    case left = 0, center = 1, right = 2, justified = 3, natural = 4
}

/// Where a paragraph's lines break, and what happens to a line too long for the frame (UIKit's
/// raw values). Word and character wrapping break lines; the others keep each paragraph on one
/// line, clipped or truncated with an ellipsis at the head, middle or tail.
public enum NSLineBreakMode: Int, Sendable {
    case byWordWrapping = 0, byCharWrapping = 1, byClipping = 2
    case byTruncatingHead = 3, byTruncatingTail = 4, byTruncatingMiddle = 5

    /// Whether lines break within a paragraph.
    public var wraps: Bool { self == .byWordWrapping || self == .byCharWrapping }
}

/// A paragraph's layout: alignment, line breaking, spacing and indents, in points.
open class NSParagraphStyle: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    public internal(set) var alignment: NSTextAlignment = .natural
    public internal(set) var lineBreakMode: NSLineBreakMode = .byWordWrapping
    /// Added between a line's descent and the next line's ascent.
    public internal(set) var lineSpacing: CGFloat = 0
    /// Added after the paragraph's last line.
    public internal(set) var paragraphSpacing: CGFloat = 0
    /// Added before the paragraph's first line (not the frame's first).
    public internal(set) var paragraphSpacingBefore: CGFloat = 0
    /// The natural line height times this (0: unchanged), then bounded by the minimum and maximum.
    public internal(set) var lineHeightMultiple: CGFloat = 0
    public internal(set) var minimumLineHeight: CGFloat = 0
    /// 0: no maximum.
    public internal(set) var maximumLineHeight: CGFloat = 0
    /// The first line's indent from the leading side.
    public internal(set) var firstLineHeadIndent: CGFloat = 0
    /// The other lines' indent from the leading side.
    public internal(set) var headIndent: CGFloat = 0
    /// Positive: from the leading side (the line's end); zero or negative: in from the trailing side.
    public internal(set) var tailIndent: CGFloat = 0

    public static let `default` = NSParagraphStyle()

    public override init() { super.init() }

    public func copy(with zone: NSZone? = nil) -> Any { copyStyle(into: NSParagraphStyle()) }
    public func mutableCopy(with zone: NSZone? = nil) -> Any { copyStyle(into: NSMutableParagraphStyle()) }

    func copyStyle<Style: NSParagraphStyle>(into copy: Style) -> Style {
        copy.alignment = alignment
        copy.lineBreakMode = lineBreakMode
        copy.lineSpacing = lineSpacing
        copy.paragraphSpacing = paragraphSpacing
        copy.paragraphSpacingBefore = paragraphSpacingBefore
        copy.lineHeightMultiple = lineHeightMultiple
        copy.minimumLineHeight = minimumLineHeight
        copy.maximumLineHeight = maximumLineHeight
        copy.firstLineHeadIndent = firstLineHeadIndent
        copy.headIndent = headIndent
        copy.tailIndent = tailIndent
        return copy
    }
}

/// A paragraph style whose attributes can be set.
open class NSMutableParagraphStyle: NSParagraphStyle, @unchecked Sendable {
    public override var alignment: NSTextAlignment { get { super.alignment } set { super.alignment = newValue } }
    public override var lineBreakMode: NSLineBreakMode { get { super.lineBreakMode } set { super.lineBreakMode = newValue } }
    public override var lineSpacing: CGFloat { get { super.lineSpacing } set { super.lineSpacing = newValue } }
    public override var paragraphSpacing: CGFloat { get { super.paragraphSpacing } set { super.paragraphSpacing = newValue } }
    public override var paragraphSpacingBefore: CGFloat {
        get { super.paragraphSpacingBefore } set { super.paragraphSpacingBefore = newValue }
    }
    public override var lineHeightMultiple: CGFloat { get { super.lineHeightMultiple } set { super.lineHeightMultiple = newValue } }
    public override var minimumLineHeight: CGFloat { get { super.minimumLineHeight } set { super.minimumLineHeight = newValue } }
    public override var maximumLineHeight: CGFloat { get { super.maximumLineHeight } set { super.maximumLineHeight = newValue } }
    public override var firstLineHeadIndent: CGFloat {
        get { super.firstLineHeadIndent } set { super.firstLineHeadIndent = newValue }
    }
    public override var headIndent: CGFloat { get { super.headIndent } set { super.headIndent = newValue } }
    public override var tailIndent: CGFloat { get { super.tailIndent } set { super.tailIndent = newValue } }

    /// Takes every attribute of `other`.
    open func setParagraphStyle(_ other: NSParagraphStyle) { _ = other.copyStyle(into: self) }
}
