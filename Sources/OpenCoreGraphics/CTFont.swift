import CFontStack
import Foundation

/// A font at a size, found by fontconfig, drawn from FreeType outlines and shaped by HarfBuzz,
/// with Core Text's metrics. Names that are not installed resolve to the closest installed family
/// (fontconfig's metric-compatible aliases: Helvetica and Arial to Liberation Sans, Times to
/// Liberation Serif, Courier to Liberation Mono) or, as Core Text resolves a name it has no
/// font for, to Helvetica's (Liberation Sans, regular), and `isSubstitute` says so.
public final class CTFont: @unchecked Sendable, CustomStringConvertible {
    /// The name asked for.
    public let requestedName: String
    /// The family that was found.
    public let familyName: String
    /// The PostScript name of the face that was found.
    public let fontName: String
    /// Points per em.
    public let pointSize: CGFloat
    /// True when the face found is not of the family asked for.
    public let isSubstitute: Bool
    /// Above the baseline, in points.
    public let ascent: CGFloat
    /// Below the baseline, in points (positive).
    public let descent: CGFloat
    /// Extra space between lines, in points.
    public let leading: CGFloat
    public let capHeight: CGFloat
    public let xHeight: CGFloat

    let face: FontFace

    public init(name: String, size: CGFloat) {
        requestedName = name
        // Bounded (see maxPointSize): 1e30 would not even convert to FreeType's 26.6 size.
        pointSize = size.isFinite && size > 0 ? min(size, CTFont.maxPointSize) : 12
        let match = FontLibrary.shared.face(named: name)
        face = match.face
        familyName = match.family
        fontName = match.postscriptName
        isSubstitute = match.isSubstitute
        let scale = pointSize / CGFloat(face.unitsPerEm)
        ascent = CGFloat(face.ascender) * scale
        descent = CGFloat(-face.descender) * scale
        leading = max(0, CGFloat(face.lineHeight - face.ascender + face.descender) * scale)
        capHeight = CGFloat(face.capHeight) * scale
        xHeight = CGFloat(face.xHeight) * scale
    }

    /// The largest size drawn; larger sizes draw at it (near 32,768 pixels per em, FreeType and
    /// HarfBuzz advances overflow). Default: 16,384.
    public static let maxPointSize: CGFloat = 16_384

    /// The same face at another size.
    public func withSize(_ size: CGFloat) -> CTFont { CTFont(name: requestedName, size: size) }

    /// Distance between baselines.
    public var lineHeight: CGFloat { ascent + descent + leading }

    /// The outline of `glyph` in points, y up, origin at the glyph's origin on the baseline.
    public func path(forGlyph glyph: UInt32) -> CGPath { face.outline(glyph: glyph, size: pointSize) }

    public var description: String { "CTFont(\(fontName) \(pointSize)pt\(isSubstitute ? ", for \(requestedName)" : ""))" }
}

/// Core Text's constructor, with a Swift String for the name.
public func CTFontCreateWithName(_ name: String, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?) -> CTFont {
    CTFont(name: name, size: size)
}

public func CTFontGetAscent(_ font: CTFont) -> CGFloat { font.ascent }
public func CTFontGetDescent(_ font: CTFont) -> CGFloat { font.descent }
public func CTFontGetLeading(_ font: CTFont) -> CGFloat { font.leading }
public func CTFontGetSize(_ font: CTFont) -> CGFloat { font.pointSize }
public func CTFontGetCapHeight(_ font: CTFont) -> CGFloat { font.capHeight }
public func CTFontGetXHeight(_ font: CTFont) -> CGFloat { font.xHeight }

/// One FreeType face, shared by every CTFont of it; FreeType and HarfBuzz objects are not
/// thread-safe, so every use takes the face's lock.
final class FontFace: @unchecked Sendable {
    let face: FT_Face
    let hbFont: OpaquePointer
    let lock = NSLock()
    let unitsPerEm: Int
    let ascender: Int, descender: Int, lineHeight: Int, capHeight: Int, xHeight: Int

    init?(library: FT_Library, path: String, index: Int) {
        var loaded: FT_Face?
        guard FT_New_Face(library, path, index, &loaded) == 0, let face = loaded else { return nil }
        self.face = face
        unitsPerEm = max(Int(face.pointee.units_per_EM), 1)
        ascender = Int(face.pointee.ascender)
        descender = Int(face.pointee.descender)
        lineHeight = Int(face.pointee.height)
        // Cap and x heights from the outlines of "H" and "x" (the OS/2 table is not always set).
        FT_Set_Char_Size(face, 0, FT_F26Dot6(unitsPerEm * 64), 72, 72)
        func height(of character: UInt) -> Int {
            let index = FT_Get_Char_Index(face, character)
            guard index != 0, FT_Load_Glyph(face, index, Int32(FT_LOAD_NO_SCALE)) == 0 else { return 0 }
            return Int(face.pointee.glyph.pointee.metrics.horiBearingY)
        }
        capHeight = height(of: 0x48)
        xHeight = height(of: 0x78)
        hbFont = hb_ft_font_create_referenced(face)
        hb_ft_font_set_load_flags(hbFont, Int32(FT_LOAD_NO_HINTING))
    }

    /// Sets the face's size for outlines and shaping, in 26.6 points at 72 dpi.
    func setSize(_ size: CGFloat) {
        FT_Set_Char_Size(face, 0, FT_F26Dot6(Int(clampingPixels: size * 64, to: 1...Int(CTFont.maxPointSize * 64))), 72, 72)
        hb_ft_font_changed(hbFont)
    }

    func outline(glyph: UInt32, size: CGFloat) -> CGPath {
        lock.lock()
        defer { lock.unlock() }
        setSize(size)
        let path = CGMutablePath()
        guard FT_Load_Glyph(face, glyph, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
              face.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return path }
        var callbacks = FT_Outline_Funcs(
            move_to: { to, user in
                let path = Unmanaged<CGMutablePath>.fromOpaque(user!).takeUnretainedValue()
                path.closeSubpath()
                path.move(to: FontFace.point(to!.pointee))
                return 0
            },
            line_to: { to, user in
                Unmanaged<CGMutablePath>.fromOpaque(user!).takeUnretainedValue().addLine(to: FontFace.point(to!.pointee))
                return 0
            },
            conic_to: { control, to, user in
                Unmanaged<CGMutablePath>.fromOpaque(user!).takeUnretainedValue()
                    .addQuadCurve(to: FontFace.point(to!.pointee), control: FontFace.point(control!.pointee))
                return 0
            },
            cubic_to: { c1, c2, to, user in
                Unmanaged<CGMutablePath>.fromOpaque(user!).takeUnretainedValue()
                    .addCurve(to: FontFace.point(to!.pointee), control1: FontFace.point(c1!.pointee),
                              control2: FontFace.point(c2!.pointee))
                return 0
            },
            shift: 0, delta: 0)
        let user = Unmanaged.passUnretained(path).toOpaque()
        FT_Outline_Decompose(&face.pointee.glyph.pointee.outline, &callbacks, user)
        path.closeSubpath()
        return path
    }

    static func point(_ v: FT_Vector) -> CGPoint { CGPoint(x: CGFloat(v.x) / 64, y: CGFloat(v.y) / 64) }
}

/// fontconfig lookup and the open faces, once per process.
final class FontLibrary: @unchecked Sendable {
    static let shared = FontLibrary()

    struct Match {
        let face: FontFace
        let family: String
        let postscriptName: String
        let isSubstitute: Bool
    }

    private var library: FT_Library?
    private var faces: [String: FontFace] = [:]
    private var matches: [String: Match] = [:]
    private let lock = NSLock()

    private init() {
        FT_Init_FreeType(&library)
        FcInit()
    }

    func face(named name: String) -> Match {
        lock.lock()
        defer { lock.unlock() }
        if let match = matches[name] { return match }
        var match = resolve(name) ?? resolve("DejaVu Sans") ?? resolve("sans-serif")!
        // Core Text answers a name it has no font for with Helvetica, in its regular face
        // (kCTFontNameAttribute "defaults to Helvetica"; Apple's frames of lottie-ios's text in
        // fonts the machine lacked show Helvetica). fontconfig answers with its default family
        // in the style the name spelt (DejaVu Sans Bold for "Oswald-Bold"), so a name fontconfig
        // could only default is Helvetica's stand-in here, Liberation Sans; a generic family
        // ("sans-serif") keeps fontconfig's answer.
        let generic: Set<String> = ["sans-serif", "sans", "serif", "monospace", "mono", "system-ui"]
        if match.isSubstitute, !generic.contains(name.lowercased()), let fallback = resolve("sans-serif"), match.family == fallback.family,
           let helvetica = resolve("Helvetica") {
            match = Match(face: helvetica.face, family: helvetica.family, postscriptName: helvetica.postscriptName, isSubstitute: true)
        }
        matches[name] = match
        if match.isSubstitute {
            // Said once per name: the lookup is cached from here on.
            FileHandle.standardError.write(Data("OpenQuartz: font '\(name)' is not installed; using '\(match.family)' (\(match.postscriptName))\n".utf8))
        }
        return match
    }

    /// PostScript-style names ("Helvetica-Bold", "Times-BoldItalic", as UIFont(name:) takes) in
    /// fontconfig's pattern syntax, where "-" would start a size: "Helvetica:weight=bold".
    static func fontconfigPattern(for name: String) -> String {
        guard let dash = name.lastIndex(of: "-"), dash != name.startIndex else { return name }
        let style = name[name.index(after: dash)...].lowercased()
        guard !style.isEmpty, style.allSatisfy(\.isLetter) else { return name }
        var pattern = String(name[..<dash])
        if style.contains("bold") { pattern += ":weight=bold" }
        if style.contains("italic") || style.contains("oblique") { pattern += ":slant=italic" }
        if style.contains("light") { pattern += ":weight=light" }
        if style.contains("medium") { pattern += ":weight=medium" }
        return pattern
    }

    private func resolve(_ name: String) -> Match? {
        guard let library, let pattern = FcNameParse(FontLibrary.fontconfigPattern(for: name)) else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let found = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(found) }
        func string(_ key: String) -> String? {
            var value: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(found, key, 0, &value) == FcResultMatch, let value else { return nil }
            return String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
        }
        var index: Int32 = 0
        FcPatternGetInteger(found, FC_INDEX, 0, &index)
        guard let file = string(FC_FILE) else { return nil }
        let key = "\(file)#\(index)"
        let face = faces[key] ?? FontFace(library: library, path: file, index: Int(index))
        guard let face else { return nil }
        faces[key] = face
        let family = string(FC_FAMILY) ?? name
        let postscript = FT_Get_Postscript_Name(face.face).map { String(cString: $0) } ?? family
        let requested = String(FontLibrary.fontconfigPattern(for: name).prefix { $0 != ":" }).lowercased()
        let isSubstitute = !family.lowercased().contains(requested) && !postscript.lowercased().contains(requested.replacingOccurrences(of: " ", with: ""))
        return Match(face: face, family: family, postscriptName: postscript, isSubstitute: isSubstitute)
    }
}
