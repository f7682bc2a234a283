import Foundation
import OpenQuartzCore
import PixelDiff
import Testing

/// Asserts that `value`'s snapshot matches the reference image beside the test file, in
/// `__Snapshots__/<TestFile>/<test>.<name or counter>.png`; records it when the record mode says
/// so (see `SnapshotTestingConfiguration.mode`). A failure is recorded as a Swift Testing issue at
/// the call, naming the reference and the artifacts written for it: the new snapshot, expected |
/// difference | actual, the comparator's picture and the red-over-gray mask.
public func assertSnapshot<Value>(
    of value: @autoclosure () throws -> Value,
    as snapshotting: Snapshotting<Value>,
    named name: String? = nil,
    record: SnapshotTestingConfiguration.Record? = nil,
    snapshotDirectory: String? = nil,
    referenceName: String? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line,
    column: UInt = #column
) {
    let failure = verifySnapshot(of: try value(), as: snapshotting, named: name, record: record,
                                 snapshotDirectory: snapshotDirectory, referenceName: referenceName,
                                 fileID: fileID, file: filePath, testName: testName, line: line, column: column)
    guard let failure else { return }
    Issue.record(Comment(rawValue: failure),
                 sourceLocation: SourceLocation(fileID: String(describing: fileID), filePath: String(describing: filePath),
                                                line: Int(line), column: Int(column)))
}

/// `assertSnapshot` without the assertion: the failure message, or nil when the snapshot matched.
/// `snapshotDirectory` replaces `__Snapshots__/<TestFile>`; `referenceName` replaces
/// `<test>.<name or counter>` as the reference's file name (without `.png`); `environment` is
/// where the record mode, CI and the artifacts folder are read from (tests of this module pass
/// their own).
public func verifySnapshot<Value>(
    of value: @autoclosure () throws -> Value,
    as snapshotting: Snapshotting<Value>,
    named name: String? = nil,
    record: SnapshotTestingConfiguration.Record? = nil,
    snapshotDirectory: String? = nil,
    referenceName: String? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line,
    column: UInt = #column,
    environment: [String: String] = ProcessInfo.processInfo.environment
) -> String? {
    let testFile = URL(fileURLWithPath: String(describing: filePath))
    let fileStem = testFile.deletingPathExtension().lastPathComponent
    let folder = snapshotDirectory.map { URL(fileURLWithPath: $0) }
        ?? testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__").appendingPathComponent(fileStem)
    let stem = referenceName ?? "\(SnapshotNaming.sanitize(testName)).\(name.map(SnapshotNaming.sanitize) ?? String(SnapshotNaming.counter(file: testFile.path, test: testName)))"
    let reference = folder.appendingPathComponent("\(stem).png")
    let mode = SnapshotTestingConfiguration.mode(explicit: record, environment: environment)
    let artifactsFolder = SnapshotTestingConfiguration.artifactsFolder(environment: environment).appendingPathComponent(fileStem)

    let image: CGImage
    do {
        image = try snapshotting.snapshot(value())
    } catch {
        return "could not take the snapshot \(stem): \(error)"
    }

    func recordReference(_ why: String) -> String {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try image.writePNG(to: reference)
            return "\(why): recorded the snapshot as \(reference.path); look at it, commit it, and run the test again"
        } catch {
            return "\(why), and the snapshot could not be recorded at \(reference.path): \(error)"
        }
    }

    guard FileManager.default.fileExists(atPath: reference.path) else {
        if mode == .never {
            return "no reference snapshot at \(reference.path) (record mode never\(SnapshotTestingConfiguration.isCI(environment) ? ", as always under CI" : "")): record it locally with SNAPSHOT_TESTING_RECORD=missing and commit it"
        }
        return recordReference("no reference snapshot was found")
    }
    if mode == .all { return recordReference("record mode is all") }

    let expected: CGImage
    do {
        expected = try CGImage.load(contentsOf: reference)
    } catch {
        if mode == .failed { return recordReference("the reference could not be read (\(error))") }
        let artifacts = SnapshotArtifacts.write(to: artifactsFolder, stem: stem, actual: image, verdict: nil, expected: nil)
        return "the reference snapshot \(reference.path) cannot be read: \(error). \(artifacts)"
    }
    let verdict: ComparatorVerdict
    do {
        verdict = try snapshotting.comparator.compare(expected.bitmap, image.bitmap)
    } catch {
        if mode == .failed { return recordReference("the snapshot does not match (\(error))") }
        let artifacts = SnapshotArtifacts.write(to: artifactsFolder, stem: stem, actual: image, verdict: nil, expected: expected)
        return "the snapshot cannot be compared with \(reference.path): \(error). \(artifacts)"
    }
    if verdict.passed { return nil }
    if mode == .failed { return recordReference("the snapshot does not match (\(verdict.summary))") }
    let artifacts = SnapshotArtifacts.write(to: artifactsFolder, stem: stem, actual: image, verdict: verdict, expected: expected)
    return "the snapshot does not match \(reference.path): \(verdict.summary). \(artifacts)"
}

/// File names of snapshots: the test's name made safe for a path, and a counter per test for
/// unnamed snapshots (1, 2, ...), as swift-snapshot-testing numbers them.
enum SnapshotNaming {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var counters: [String: Int] = [:]

    static func counter(file: String, test: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let key = file + "\u{0}" + test
        counters[key, default: 0] += 1
        return counters[key]!
    }

    /// "renders(scene:)" -> "renders-scene": letters, digits, '-', '_' and '.' kept, runs of
    /// anything else one '-'.
    static func sanitize(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else if !out.hasSuffix("-") {
                out += "-"
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "snapshot" : out
    }
}
