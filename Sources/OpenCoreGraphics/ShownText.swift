/// Text from outside (a file name, a JSON key, a field of a report) as an error message may show
/// it: control characters (a NUL, a terminal's escape sequence, a line break that would forge a
/// second message line) written as `\u{..}` escapes, and at most `limit` characters, so a message
/// about a hostile input is one readable line.
public enum ShownText {
    public static func escaped(_ text: String, limit: Int = 64) -> String {
        var shown = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else { return shown + "... (\(text.unicodeScalars.count) characters)" }
            if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
                shown += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return shown
    }

    /// Whether `text` holds anything `escaped` would rewrite (a control character).
    public static func needsEscaping(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }
    }
}
