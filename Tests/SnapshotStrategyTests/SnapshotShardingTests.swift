// Sharded snapshot suites: ShardSlice splits names into n disjoint slices that cover them, the
// same in every process; and a CI matrix simulated here, the package's own test binary run once
// per shard with SNAPSHOT_TESTING_SHARD=i/3 on the example scenes' golden tests, runs each case in
// exactly one shard and cancels it (skipped, not failed) in the others.
import Foundation
import PixelDiff
import Testing

@Suite("Snapshot shards")
struct SnapshotShardingTests {
    static let names = (0..<240).map { "scene-\($0)" } + ["pie", "page-fold", "star-wars-crawl", "hypnosis-drag", "flip-book"]

    @Test("n slices of any names are disjoint, cover them, and are within a third of even for n up to 8")
    func slicesPartition() throws {
        for n in 1...8 {
            let slices = try (1...n).map { try ShardSlice(index: $0, count: n) }
            var counts = Array(repeating: 0, count: n)
            for name in Self.names {
                let holders = slices.filter { $0.contains(name) }
                #expect(holders.count == 1, "\(name) is in \(holders.count) of \(n) slices")
                counts[ShardSlice.slice(of: name, count: n) - 1] += 1
            }
            let even = Double(Self.names.count) / Double(n)
            #expect(counts.allSatisfy { abs(Double($0) - even) <= even / 3 }, "\(n) slices: \(counts)")
        }
    }

    @Test("i/n is read from the environment, and a bad value is refused naming the variable")
    func parsing() throws {
        #expect(try ShardSlice.fromEnvironment([:]) == nil)
        #expect(try ShardSlice.fromEnvironment(["SNAPSHOT_TESTING_SHARD": ""]) == nil)
        #expect(try ShardSlice.fromEnvironment(["SNAPSHOT_TESTING_SHARD": "2/5"]) == ShardSlice(index: 2, count: 5))
        for bad in ["0/3", "4/3", "1/0", "one/3", "1-3", "1/3/5", "/3"] {
            #expect {
                _ = try ShardSlice.fromEnvironment(["SNAPSHOT_TESTING_SHARD": bad])
            } throws: { "\($0)".contains("SNAPSHOT_TESTING_SHARD=\(bad): a shard is i/n with 1 <= i <= n") }
        }
    }

    /// The sanitizers make the nested test run many times slower; its subject is not memory.
    static let plainRun = !ProcessInfo.processInfo.environment.keys.contains { $0 == "ASAN_OPTIONS" || $0 == "TSAN_OPTIONS" }
        && ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_SHARD"] == nil

    /// Runs this package's test binary on one test with the shard set; the cases that ran and the
    /// ones cancelled, by their argument.
    static func runShard(_ shard: String, filter: String) throws -> (ran: Set<String>, cancelled: Set<String>, passed: Bool) {
        let binary = try #require(Bundle.main.executableURL)
        let events = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-shard-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: events) }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter,
                             "--event-stream-output-path", events.path, "--event-stream-version", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(["SNAPSHOT_TESTING_SHARD": shard]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        var ended = Set<String>(), cancelled = Set<String>()
        let text = try String(contentsOf: events, encoding: .utf8)
        for line in text.split(separator: "\n") {
            guard let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let payload = event["payload"] as? [String: Any], let kind = payload["kind"] as? String,
                  let testCase = payload["_testCase"] as? [String: Any], let name = testCase["displayName"] as? String else { continue }
            if kind == "testCaseEnded" { ended.insert(name) }
            if kind == "testCaseCancelled" { cancelled.insert(name) }
        }
        return (ended.subtracting(cancelled), cancelled, process.terminationStatus == 0)
    }

    @Test("a CI matrix of three jobs runs each example scene's golden test in exactly one job",
          .enabled(if: plainRun, "a nested test run under a sanitizer, or inside a shard, measures nothing of this"))
    func matrixOfThree() throws {
        let filter = "ExampleSceneTests/renders"
        let shards = try (1...3).map { try Self.runShard("\($0)/3", filter: filter) }
        // Every shard sees every case (running its own, cancelling the others'): the first one's
        // cases are the whole test's (an unsharded run to list them doubled this test's time).
        let everything = shards[0].ran.union(shards[0].cancelled)
        #expect(everything.count >= 12, "the first shard saw \(everything.count) cases")
        var seen = Set<String>()
        for (index, shard) in shards.enumerated() {
            #expect(shard.passed, "shard \(index + 1)/3 failed")
            #expect(!shard.ran.isEmpty, "shard \(index + 1)/3 ran nothing")
            #expect(shard.ran.isDisjoint(with: seen), "shard \(index + 1)/3 ran \(shard.ran.intersection(seen)) again")
            #expect(shard.ran.union(shard.cancelled) == everything, "shard \(index + 1)/3 saw other cases")
            seen.formUnion(shard.ran)
        }
        #expect(seen == everything)
        print("shards of \(everything.count) example scenes: \(shards.map(\.ran.count))")
    }
}
