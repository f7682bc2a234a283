import QuartzCore

/// The members of Apple's interface the checklist has used, by the names AppleInterface.txt
/// gives them. `use` runs its body at once: each body is a use of the member that compiles only
/// with Apple's name and type, and checks the documented default or behaviour where there is one.
final class SurfaceChecklist {
    private(set) var used: [String] = []

    func use(_ member: String, _ body: () throws -> Void) rethrows {
        used.append(member)
        try body()
    }

    /// The manifest: every member, and the mark (`!` cannot exist, `>` an open issue) if any.
    struct Entry {
        let member: String
        let mark: String?
    }

    static func manifest() throws -> [Entry] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("AppleInterface.txt")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard let first = line.first, first != "#" else { return nil }
            let parts = line.components(separatedBy: "  ")
            let mark = parts.dropFirst().first.map { $0.trimmingCharacters(in: .whitespaces) }
            return Entry(member: parts[0].trimmingCharacters(in: .whitespaces), mark: mark)
        }
    }
}

/// Opaque black (0) or white (1) in whatever colour space the colour is in (gray or RGB).
func isOpaqueGray(_ color: CGColor?, _ level: CGFloat) -> Bool {
    guard let components = color?.components, components.last == 1 else { return false }
    return components.dropLast().allSatisfy { $0 == level }
}
