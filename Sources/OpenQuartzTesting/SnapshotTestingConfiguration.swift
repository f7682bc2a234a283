import Foundation

/// Settings of snapshot assertions, named as swift-snapshot-testing names them.
public enum SnapshotTestingConfiguration {
    /// When a snapshot is written to disk as the new reference.
    public enum Record: String, Sendable, CaseIterable {
        /// Every snapshot is recorded (the assertion still fails, so the new references get looked at).
        case all
        /// Snapshots without a reference are recorded; the others are compared. The default.
        case missing
        /// Snapshots that fail to match, or have no reference, are recorded.
        case failed
        /// Nothing is recorded: a missing reference fails. Always the mode under CI.
        case never
    }

    /// The record mode `withSnapshotTesting(record:operation:)` set for the current task.
    @TaskLocal public static var scopedRecord: Record?

    /// The mode an assertion runs in: `explicit` if given, else the one `withSnapshotTesting`
    /// set, else `SNAPSHOT_TESTING_RECORD`
    /// (all, missing, failed or never; `OPENQUARTZ_RECORD=1` means all), else `.missing`; and
    /// `.never` whatever was asked when the `CI` environment variable is set, so CI can only
    /// compare and a reference that was not committed fails there.
    public static func mode(explicit: Record? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> Record {
        if isCI(environment) { return .never }
        if let explicit = explicit ?? scopedRecord { return explicit }
        if let value = environment["SNAPSHOT_TESTING_RECORD"], let mode = Record(rawValue: value.lowercased()) { return mode }
        if environment["OPENQUARTZ_RECORD"] == "1" { return .all }
        return .missing
    }

    static func isCI(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"] else { return false }
        return !["", "0", "false", "no"].contains(value.lowercased())
    }

    /// Where failure artifacts go: `SNAPSHOT_ARTIFACTS` (swift-snapshot-testing's variable) or
    /// `openquartz-snapshot-failures` in the temporary folder.
    public static func artifactsFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let folder = environment["SNAPSHOT_ARTIFACTS"], !folder.isEmpty { return URL(fileURLWithPath: folder) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-snapshot-failures")
    }
}

/// Runs `operation` with assertions in it recording as `record` says (unless under CI), as
/// swift-snapshot-testing's function of the same name does.
public func withSnapshotTesting<R>(record: SnapshotTestingConfiguration.Record, operation: () throws -> R) rethrows -> R {
    try SnapshotTestingConfiguration.$scopedRecord.withValue(record, operation: operation)
}
