import QuartzCore
import Testing

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

    /// The manifest named `file` beside this source: AppleInterface.txt (QuartzCore) or
    /// CoreGraphicsInterface.txt (the Core Graphics and Core Text members Core Animation code uses).
    static func manifest(_ file: String = "AppleInterface.txt") throws -> [Entry] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(file)
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard let first = line.first, first != "#" else { return nil }
            let parts = line.components(separatedBy: "  ")
            let mark = parts.dropFirst().first.map { $0.trimmingCharacters(in: .whitespaces) }
            return Entry(member: parts[0].trimmingCharacters(in: .whitespaces), mark: mark)
        }
    }

    /// Fails for every member of `file` neither used nor marked, every use naming no member, and
    /// every marked member that is used; returns (used, marked impossible, owned by issues).
    func check(against file: String) throws -> (used: Int, impossible: Int, owned: Int) {
        let manifest = try SurfaceChecklist.manifest(file)
        let members = manifest.map(\.member)
        #expect(Set(members).count == members.count, "a member is listed twice in \(file)")
        let usedSet = Set(used)
        #expect(usedSet.count == used.count, "a member is used twice")
        for name in usedSet.subtracting(members) { Issue.record("\(name) is used but not in \(file)") }
        for entry in manifest where entry.mark == nil && !usedSet.contains(entry.member) {
            Issue.record("\(entry.member) is in Apple's interface but neither used nor marked")
        }
        for entry in manifest where entry.mark != nil {
            #expect(!usedSet.contains(entry.member), "\(entry.member) is marked missing but is used")
            #expect(entry.mark!.hasPrefix("! ") || entry.mark!.hasPrefix("> issue "), "\(entry.member): unknown mark \(entry.mark!)")
        }
        let impossible = manifest.filter { $0.mark?.hasPrefix("!") == true }.count
        let owned = manifest.filter { $0.mark?.hasPrefix(">") == true }.count
        #expect(usedSet.count + impossible + owned == manifest.count)
        return (usedSet.count, impossible, owned)
    }
}

/// Opaque black (0) or white (1) in whatever colour space the colour is in (gray or RGB).
func isOpaqueGray(_ color: CGColor?, _ level: CGFloat) -> Bool {
    guard let components = color?.components, components.last == 1 else { return false }
    return components.dropLast().allSatisfy { $0 == level }
}
