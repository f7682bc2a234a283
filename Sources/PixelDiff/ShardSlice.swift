import Foundation

/// A stable 1/n slice of named work, as a CI matrix of n jobs splits a snapshot suite or a folder
/// of images: a name belongs to slice `hash(name) mod n` (1-based), by a hash of its bytes
/// (64-bit FNV-1a) that is the same in every process and on every machine (Swift's own `Hasher`
/// is seeded per process, so it cannot split work between jobs). The n slices of any set of
/// names are disjoint and cover it; adding a name never moves another.
public struct ShardSlice: Equatable, Sendable, CustomStringConvertible {
    /// 1-based, as CI matrices count.
    public let index: Int
    public let count: Int

    /// The variable a CI matrix sets to "i/n" for the snapshot tests and `quartz diff --shard`.
    public static let environmentVariable = "SNAPSHOT_TESTING_SHARD"

    public init(index: Int, count: Int) throws {
        guard count >= 1, (1...count).contains(index) else {
            throw ShardSliceError(description: "a shard is i/n with 1 <= i <= n (got \(index)/\(count))")
        }
        (self.index, self.count) = (index, count)
    }

    /// "2/4" -> the second of four slices.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let count = Int(parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw ShardSliceError(description: "a shard is i/n with 1 <= i <= n (got \"\(text)\")")
        }
        try self.init(index: index, count: count)
    }

    /// The slice `SNAPSHOT_TESTING_SHARD` names; nil when it is unset or empty (everything runs).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ShardSlice? {
        guard let text = environment[environmentVariable], !text.isEmpty else { return nil }
        do { return try ShardSlice(parsing: text) } catch {
            throw ShardSliceError(description: "\(environmentVariable)=\(text): \(error)")
        }
    }

    /// Whether `name` is in this slice.
    public func contains(_ name: String) -> Bool { Self.slice(of: name, count: count) == index }

    /// The slice (1-based) `name` falls in among `count`.
    public static func slice(of name: String, count: Int) -> Int { Int(fnv1a(name.utf8) % UInt64(count)) + 1 }

    /// 64-bit FNV-1a of some bytes: the same everywhere, cheap, and spread well enough for
    /// slicing names and telling documents apart (not a defence against anyone forging either).
    public static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    public var description: String { "\(index)/\(count)" }
}

public struct ShardSliceError: Error, CustomStringConvertible {
    public let description: String
}
