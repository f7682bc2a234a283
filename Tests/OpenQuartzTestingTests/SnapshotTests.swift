// The snapshot API: a layer against its checked-in reference (the way a user's package uses it),
// the record modes, CI's never, the failure artifacts, and bad input (other sizes, corrupt
// references, folders that cannot be written).
import Foundation
import OpenQuartzCore
import OpenQuartzTesting
import PixelDiff
import Testing

/// A small badge: rounded, bordered, shadowed, with a label, so a snapshot covers edges, text and
/// a blur.
private func badge(color: CGColor = CGColor(red: 0.2, green: 0.45, blue: 0.9, alpha: 1), text: String = "OpenQuartz") -> CALayer {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 180, height: 80)
    root.backgroundColor = CGColor(red: 0.96, green: 0.96, blue: 0.97, alpha: 1)
    let pill = CALayer()
    pill.frame = CGRect(x: 16, y: 16, width: 148, height: 44)
    pill.cornerRadius = 22
    pill.backgroundColor = color
    pill.borderWidth = 2
    pill.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.8)
    pill.shadowOpacity = 0.4
    pill.shadowRadius = 4
    pill.shadowOffset = CGSize(width: 0, height: 3)
    let label = CATextLayer()
    label.frame = CGRect(x: 0, y: 11, width: 148, height: 24)
    label.string = text
    label.fontSize = 16
    label.alignmentMode = .center
    label.foregroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    pill.addSublayer(label)
    root.addSublayer(pill)
    return root
}

/// A fresh folder for references and one for artifacts, and the environment that points at it.
private func sandbox() throws -> (references: URL, artifacts: URL, environment: [String: String]) {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-snapshot-tests-\(UUID().uuidString)")
    let references = base.appendingPathComponent("refs"), artifacts = base.appendingPathComponent("artifacts")
    try FileManager.default.createDirectory(at: references, withIntermediateDirectories: true)
    return (references, artifacts, ["SNAPSHOT_ARTIFACTS": artifacts.path])
}

@Suite("Snapshot testing")
struct SnapshotTests {
    @Test("a layer matches its checked-in reference in __Snapshots__/SnapshotTests/")
    func checkedInReference() {
        assertSnapshot(of: badge(), as: .image, named: "badge")
        // A strategy for another type through pullback: a title becomes a badge.
        assertSnapshot(of: "OpenQuartz", as: Snapshotting<CALayer>.image.pullback { badge(text: $0) }, named: "badge")
        // The same layer on the GPU holds against the CPU-recorded reference under FLIP.
        assertSnapshot(of: badge(), as: .image(backend: .gpu, comparator: FLIPComparator()), named: "badge")
    }

    @Test("record mode missing records a new reference and fails; the next run matches")
    func recordMissing() throws {
        let box = try sandbox()
        defer { try? FileManager.default.removeItem(at: box.references.deletingLastPathComponent()) }
        let first = verifySnapshot(of: badge(), as: .image, named: "fresh", record: .missing,
                                   snapshotDirectory: box.references.path, environment: box.environment)
        let reference = box.references.appendingPathComponent("recordMissing.fresh.png")
        #expect(first?.contains("recorded the snapshot as \(reference.path)") == true, "\(first ?? "nil")")
        #expect(FileManager.default.fileExists(atPath: reference.path))
        #expect(verifySnapshot(of: badge(), as: .image, named: "fresh", record: .missing,
                               snapshotDirectory: box.references.path, environment: box.environment) == nil)
        // Unnamed snapshots are numbered per test.
        _ = verifySnapshot(of: badge(), as: .image, record: .missing, snapshotDirectory: box.references.path, environment: box.environment)
        _ = verifySnapshot(of: badge(), as: .image, record: .missing, snapshotDirectory: box.references.path, environment: box.environment)
        for n in [1, 2] {
            #expect(FileManager.default.fileExists(atPath: box.references.appendingPathComponent("recordMissing.\(n).png").path))
        }
    }

    @Test("a failing comparison writes the triptych, picture, mask and snapshot, names them, and leaves the reference alone")
    func failureArtifacts() throws {
        let box = try sandbox()
        defer { try? FileManager.default.removeItem(at: box.references.deletingLastPathComponent()) }
        _ = verifySnapshot(of: badge(), as: .image, named: "badge", record: .all, snapshotDirectory: box.references.path,
                           environment: box.environment)
        let reference = box.references.appendingPathComponent("failureArtifacts.badge.png")
        let before = try Data(contentsOf: reference)
        let changed = badge(text: "OpenQuartz!")
        let message = try #require(verifySnapshot(of: changed, as: .image, named: "badge", record: .missing,
                                                  snapshotDirectory: box.references.path, environment: box.environment))
        #expect(message.contains("does not match \(reference.path)") && message.contains("ciede2000"), "\(message)")
        let folder = box.artifacts.appendingPathComponent("SnapshotTests")
        for kind in ["actual", "triptych", "diff", "mask"] {
            let url = folder.appendingPathComponent("failureArtifacts.badge.\(kind).png")
            #expect(FileManager.default.fileExists(atPath: url.path), "\(kind) missing")
            #expect(message.contains(url.path))
        }
        let triptych = try CGImage.load(contentsOf: folder.appendingPathComponent("failureArtifacts.badge.triptych.png"))
        #expect(triptych.width == 180 * 3 + 8 && triptych.height == 80)
        #expect(try Data(contentsOf: reference) == before, "a failed comparison must not overwrite the reference")
        // Under record mode failed the failing snapshot becomes the reference.
        let recorded = verifySnapshot(of: changed, as: .image, named: "badge", record: .failed,
                                      snapshotDirectory: box.references.path, environment: box.environment)
        #expect(recorded?.contains("recorded") == true)
        #expect(try Data(contentsOf: reference) != before)
        #expect(verifySnapshot(of: changed, as: .image, named: "badge", record: .never,
                               snapshotDirectory: box.references.path, environment: box.environment) == nil)
    }

    @Test("never records nothing, and under CI every mode is never: a missing reference fails there")
    func neverAndCI() throws {
        let box = try sandbox()
        defer { try? FileManager.default.removeItem(at: box.references.deletingLastPathComponent()) }
        var ci = box.environment
        ci["CI"] = "true"
        for (mode, environment) in [(SnapshotTestingConfiguration.Record.never, box.environment), (.all, ci), (.missing, ci)] {
            let message = verifySnapshot(of: badge(), as: .image, named: "absent", record: mode,
                                         snapshotDirectory: box.references.path, environment: environment)
            #expect(message?.contains("no reference snapshot at") == true, "\(message ?? "nil")")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.references.path).isEmpty)
        #expect(SnapshotTestingConfiguration.mode(environment: ["SNAPSHOT_TESTING_RECORD": "failed"]) == .failed)
        #expect(SnapshotTestingConfiguration.mode(environment: ["OPENQUARTZ_RECORD": "1"]) == .all)
        #expect(SnapshotTestingConfiguration.mode(environment: [:]) == .missing)
        #expect(SnapshotTestingConfiguration.mode(explicit: .all, environment: ["CI": "1"]) == .never)
        #expect(SnapshotTestingConfiguration.mode(explicit: .all, environment: ["CI": "false"]) == .all)
        withSnapshotTesting(record: .failed) {
            #expect(SnapshotTestingConfiguration.mode(environment: [:]) == .failed)
            #expect(SnapshotTestingConfiguration.mode(environment: ["CI": "1"]) == .never)
        }
    }

    @Test("CGImage snapshots with swift-snapshot-testing's precisions: ΔE under the bar passes, over it fails")
    func imagePrecisions() throws {
        let box = try sandbox()
        defer { try? FileManager.default.removeItem(at: box.references.deletingLastPathComponent()) }
        func swatch(_ blue: UInt8) -> CGImage {
            CGImage(bitmap: Bitmap(width: 20, height: 20) { _, _ in (40, 90, blue, 255) })
        }
        _ = verifySnapshot(of: swatch(200), as: .image, named: "swatch", record: .all,
                           snapshotDirectory: box.references.path, environment: box.environment)
        func check(_ blue: UInt8, _ snapshotting: Snapshotting<CGImage>) -> String? {
            verifySnapshot(of: swatch(blue), as: snapshotting, named: "swatch", record: .never,
                           snapshotDirectory: box.references.path, testName: "imagePrecisions()", environment: box.environment)
        }
        // Blue 200 -> 202 is ΔE00 about 0.5; 200 -> 215 about 3.6.
        #expect(check(202, .image(precision: 1, perceptualPrecision: 0.98)) == nil)
        #expect(check(215, .image(precision: 1, perceptualPrecision: 0.98)) != nil)
        #expect(check(202, .image(precision: 1)) != nil, "perceptualPrecision 1 means bytes")
        #expect(check(215, .image(precision: 1, perceptualPrecision: 0.95)) == nil)
    }

    @Test("bad input: another size, a corrupt reference, a folder that cannot be written; all named")
    func badInput() throws {
        let box = try sandbox()
        defer { try? FileManager.default.removeItem(at: box.references.deletingLastPathComponent()) }
        let small = CGImage(bitmap: Bitmap(width: 10, height: 10) { _, _ in (1, 2, 3, 255) })
        let large = CGImage(bitmap: Bitmap(width: 12, height: 10) { _, _ in (1, 2, 3, 255) })
        _ = verifySnapshot(of: small, as: .image, named: "sized", record: .all, snapshotDirectory: box.references.path,
                           environment: box.environment)
        let sized = verifySnapshot(of: large, as: .image, named: "sized", record: .missing,
                                   snapshotDirectory: box.references.path, environment: box.environment)
        #expect(sized?.contains("10x10 against 12x10") == true, "\(sized ?? "nil")")
        #expect(sized?.contains("sized.actual.png") == true)

        let corrupt = box.references.appendingPathComponent("badInput.corrupt.png")
        try Data("not a png".utf8).write(to: corrupt)
        let unreadable = verifySnapshot(of: small, as: .image, named: "corrupt", record: .missing,
                                        snapshotDirectory: box.references.path, environment: box.environment)
        #expect(unreadable?.contains("cannot be read") == true, "\(unreadable ?? "nil")")
        #expect(try Data(contentsOf: corrupt) == Data("not a png".utf8))

        let blocked = box.references.appendingPathComponent("a-file")
        try Data().write(to: blocked)
        let unwritable = verifySnapshot(of: small, as: .image, named: "x", record: .missing,
                                        snapshotDirectory: blocked.appendingPathComponent("sub").path, environment: box.environment)
        #expect(unwritable?.contains("could not be recorded at") == true, "\(unwritable ?? "nil")")

        struct Broken: Error, CustomStringConvertible { var description: String { "no layer today" } }
        let failing = Snapshotting<CALayer>(comparator: ExactComparator()) { _ in throw Broken() }
        let taken = verifySnapshot(of: CALayer(), as: failing, named: "broken", snapshotDirectory: box.references.path,
                                   environment: box.environment)
        #expect(taken == "could not take the snapshot badInput.broken: no layer today")
    }
}
