import Foundation

// The attributes Core Text draws a run of an attributed string with, and the keys that carry
// them (UIKit's and AppKit's names, which Core Text's kCT...AttributeName constants equal).

extension NSAttributedString.Key {
    /// A run's font: a CTFont, or a font name (UIKit's and AppKit's key, "NSFont").
    public static let font = NSAttributedString.Key("NSFont")
    /// A run's colour: a CGColor (UIKit's and AppKit's key, "NSColor").
    public static let foregroundColor = NSAttributedString.Key("NSColor")
    /// Points added after each character (a number).
    public static let kern = NSAttributedString.Key("NSKern")
    /// The paragraph's layout: an NSParagraphStyle, read from the paragraph's first character.
    public static let paragraphStyle = NSAttributedString.Key("NSParagraphStyle")
    /// The outline's width in percent of the point size (a number): positive strokes the glyphs
    /// and does not fill them, negative strokes and fills.
    public static let strokeWidth = NSAttributedString.Key("NSStrokeWidth")
    /// The outline's colour (a CGColor); the foreground colour when absent.
    public static let strokeColor = NSAttributedString.Key("NSStrokeColor")
    /// 0: no ligatures; 1 (the default): the font's standard ligatures.
    public static let ligature = NSAttributedString.Key("NSLigature")
}

/// Core Text's attribute names, which the keys above also answer to.
public let kCTFontAttributeName = "NSFont"
public let kCTForegroundColorAttributeName = "CTForegroundColor"
public let kCTKernAttributeName = "NSKern"
public let kCTParagraphStyleAttributeName = "NSParagraphStyle"
public let kCTStrokeWidthAttributeName = "NSStrokeWidth"
public let kCTStrokeColorAttributeName = "NSStrokeColor"
public let kCTLigatureAttributeName = "NSLigature"

/// What one run of text is drawn with.
public struct CTTextStyle: @unchecked Sendable {
    public var font: CTFont
    public var color: CGColor
    /// Percent of the point size; see `NSAttributedString.Key.strokeWidth`.
    public var strokeWidth: CGFloat = 0
    public var strokeColor: CGColor?
    public var kern: CGFloat = 0
    public var ligatures = true
    public var paragraph: NSParagraphStyle = .default

    /// Core Text's default font when a run names none: Helvetica 12.
    public static func defaultFont() -> CTFont { CTFont(name: "Helvetica", size: 12) }

    public init(font: CTFont, color: CGColor = .black) {
        self.font = font
        self.color = color
    }

    /// The style of a run with these attributes; values of the wrong type are ignored, as Core
    /// Text ignores them.
    public init(attributes: [NSAttributedString.Key: Any], defaultFont: () -> CTFont = CTTextStyle.defaultFont) {
        if let font = attributes[.font] as? CTFont {
            self.font = font
        } else if let name = attributes[.font] as? String {
            self.font = CTFont(name: name, size: 12)
        } else {
            self.font = defaultFont()
        }
        let color = attributes[NSAttributedString.Key(kCTForegroundColorAttributeName)] ?? attributes[.foregroundColor]
        self.color = color.flatMap { $0 as? CGColor } ?? .black
        strokeWidth = Self.number(attributes[.strokeWidth]) ?? 0
        strokeColor = attributes[.strokeColor].flatMap { $0 as? CGColor }
        kern = Self.number(attributes[.kern]) ?? 0
        ligatures = (Self.number(attributes[.ligature]) ?? 1) != 0
        paragraph = attributes[.paragraphStyle] as? NSParagraphStyle ?? .default
    }

    /// A number of any of the types an attribute dictionary holds, if finite.
    static func number(_ value: Any?) -> CGFloat? {
        let number: Double?
        switch value {
        case let v as NSNumber: number = v.doubleValue
        case let v as Double: number = v
        case let v as CGFloat: number = Double(v)
        case let v as Float: number = Double(v)
        case let v as Int: number = Double(v)
        default: number = nil
        }
        return number.flatMap { $0.isFinite ? CGFloat($0) : nil }
    }

    /// Whether the glyphs are filled (not when only stroked) and the stroke's width in points.
    var fills: Bool { strokeWidth <= 0 }
    var strokePoints: CGFloat { abs(strokeWidth) / 100 * font.pointSize }
}
