import Foundation
import PixelDiff
import Testing

/// Runs a stable 1/n slice of a snapshot suite, as each job of a CI matrix of n runs one:
/// `SNAPSHOT_TESTING_SHARD=i/n` in the environment, and at the top of each snapshot test (or each
/// case of a parameterized one, keyed by its argument)
///
///     try requireSnapshotShard(scene.name)
///
/// A test or case outside the slice is cancelled before it renders anything (Swift Testing shows
/// it as skipped, not failed), so the n jobs together run each exactly once, and the same ones on
/// every run and machine (`ShardSlice`: a fixed hash of the file, the test's name and the key).
/// Without the variable everything runs. An unreadable value fails the test, naming the variable.
public func requireSnapshotShard(
    _ key: String? = nil,
    fileID: StaticString = #fileID,
    testName: String = #function,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    guard let slice = try ShardSlice.fromEnvironment(environment) else { return }
    let name = snapshotShardKey(key, fileID: fileID, testName: testName)
    if slice.contains(name) { return }
    #if compiler(>=6.3)
    try Test.cancel("in snapshot shard \(ShardSlice.slice(of: name, count: slice.count))/\(slice.count), not \(slice)",
                    sourceLocation: sourceLocation)
    #else
    // No way to skip a test before Swift 6.3's Test.cancel: every shard runs everything (slower,
    // never wrong).
    _ = SnapshotShardWarning.printed
    #endif
}

/// What a test's place among the shards is decided by: its file, its name, and the key of the
/// case (a parameterized test's argument).
public func snapshotShardKey(_ key: String?, fileID: StaticString = #fileID, testName: String = #function) -> String {
    "\(fileID)/\(testName)" + (key.map { "/\($0)" } ?? "")
}

#if !compiler(>=6.3)
enum SnapshotShardWarning {
    /// Printed once, the first time it is read.
    static let printed: Void = print("SnapshotTesting: SNAPSHOT_TESTING_SHARD needs Swift 6.3 (Test.cancel); every test runs")
}
#endif
