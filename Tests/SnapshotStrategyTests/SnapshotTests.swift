// The image strategies SnapshotTesting gets on Linux, through the library's own assertSnapshot
// and verifySnapshot: a layer against its checked-in reference, the library's record modes and
// messages, its precisions as they read on Apple's platforms (Core Image's ΔE94), the failure
// pictures, OpenQuartz's extras, and bad input (other sizes, corrupt references, layers that
// cannot be drawn).
import Foundation
import OpenQuartzCore
import PixelDiff
import SnapshotTesting
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

/// A flat image of one colour.
private func swatch(_ rgba: (UInt8, UInt8, UInt8, UInt8), width: Int = 20, height: Int = 20) -> CGImage {
    CGImage(bitmap: Bitmap(width: width, height: height) { _, _ in rgba })
}

/// A fresh folder for references, removed by the caller.
private func sandbox() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-strategy-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// The paths a failure message names after "Pictures: ".
private func picturePaths(in message: String) -> [String] {
    guard let range = message.range(of: "Pictures: ") else { return [] }
    return message[range.upperBound...].split(separator: "\n")[0].components(separatedBy: ", ")
}

@Suite("Snapshot strategies")
struct SnapshotTests {
    @Test("a layer matches its checked-in reference in __Snapshots__/SnapshotTests/")
    func checkedInReference() {
        assertSnapshot(of: badge(), as: .image, named: "badge")
        // A strategy for another type through the library's pullback: a title becomes a badge.
        assertSnapshot(of: "OpenQuartz", as: Snapshotting<CALayer, CGImage>.image.pullback { badge(text: $0) }, named: "badge")
        // The same layer drawn on the GPU holds against the CPU-recorded reference under FLIP.
        assertSnapshot(of: badge(), as: .image(backend: .gpu, comparator: FLIPComparator()), named: "badge")
    }

    @Test("the layer is drawn as render(in:) draws it: its bounds, without its own transform and position, at its opacity")
    func drawnAsRenderInContext() throws {
        let layer = CALayer()
        layer.frame = CGRect(x: 50, y: 30, width: 40, height: 20)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.transform = CATransform3DMakeRotation(0.7, 0, 0, 1)
        layer.opacity = 0.5
        let child = CALayer()
        child.frame = CGRect(x: 0, y: 0, width: 10, height: 20)
        child.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        layer.addSublayer(child)
        let image = try layer.renderedContentImage(scale: 2)
        #expect(image.width == 80 && image.height == 40)
        // Unturned: the blue strip fills the left quarter, the red the rest; both at half opacity.
        #expect(image.bitmap[5, 20] == (0, 0, 128, 128))
        #expect(image.bitmap[60, 20] == (128, 0, 0, 128))
        #expect(image.bitmap[79, 0] == (128, 0, 0, 128) && image.bitmap[0, 39] == (0, 0, 128, 128))
        // The extra `size`: more or less than the bounds, from their origin.
        let wider = try layer.renderedContentImage(size: CGSize(width: 50, height: 10))
        #expect(wider.width == 50 && wider.height == 10)
        #expect(wider.bitmap[5, 5] == (0, 0, 128, 128) && wider.bitmap[45, 5] == (0, 0, 0, 0))
        // A sublayer turned about y is not drawn, as render(in:) leaves layers that use 3D
        // transforms out: the red shows where the strip was.
        child.transform = CATransform3DMakeRotation(0.3, 0, 1, 0)
        #expect(try layer.renderedContentImage(scale: 2).bitmap[5, 20] == (128, 0, 0, 128))
    }

    @Test("record mode missing records a new reference and fails with the library's message; the next run matches")
    func recordMissing() throws {
        let folder = try sandbox()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = verifySnapshot(of: badge(), as: .image, named: "fresh", record: .missing, snapshotDirectory: folder.path)
        let reference = folder.appendingPathComponent("recordMissing.fresh.png")
        #expect(first?.contains("No reference was found on disk. Automatically recorded snapshot") == true, "\(first ?? "nil")")
        #expect(first?.contains(reference.path) == true)
        let recorded = try CGImage.load(contentsOf: reference)
        #expect(recorded.width == 180 && recorded.height == 80)
        #expect(verifySnapshot(of: badge(), as: .image, named: "fresh", record: .missing, snapshotDirectory: folder.path) == nil)
        // Unnamed snapshots are numbered per test, as the library numbers them.
        _ = verifySnapshot(of: badge(), as: .image, record: .missing, snapshotDirectory: folder.path)
        _ = verifySnapshot(of: badge(), as: .image, record: .missing, snapshotDirectory: folder.path)
        for n in [1, 2] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("recordMissing.\(n).png").path))
        }
    }

    @Test("a failing comparison gives the library's message and our pictures, and leaves the reference alone unless recording failed ones")
    func failurePictures() throws {
        let folder = try sandbox()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = verifySnapshot(of: badge(), as: .image, named: "badge", record: .all, snapshotDirectory: folder.path)
        let reference = folder.appendingPathComponent("failurePictures.badge.png")
        let before = try Data(contentsOf: reference)
        let changed = badge(text: "OpenQuartz!")
        let message = try #require(verifySnapshot(of: changed, as: .image, named: "badge", record: .missing, snapshotDirectory: folder.path))
        #expect(message.hasPrefix("Snapshot \"badge\" does not match reference."), "\(message)")
        #expect(message.contains("Newly-taken snapshot does not match reference."), "\(message)")
        let paths = picturePaths(in: message)
        #expect(paths.map { URL(fileURLWithPath: $0).lastPathComponent.split(separator: ".").suffix(2).joined(separator: ".") }
                == ["reference.png", "failure.png", "difference.png", "triptych.png", "mask.png"], "\(paths)")
        for path in paths { #expect(FileManager.default.fileExists(atPath: path), "\(path) missing") }
        if let triptych = paths.first(where: { $0.hasSuffix(".triptych.png") }) {
            let picture = try CGImage.load(contentsOf: URL(fileURLWithPath: triptych))
            #expect(picture.width == 180 * 3 + 8 && picture.height == 80)
        }
        if let failure = paths.first(where: { $0.hasSuffix(".failure.png") }) {
            #expect(try CGImage.load(contentsOf: URL(fileURLWithPath: failure)).bitmap == (try changed.renderedContentImage()).bitmap)
        }
        #expect(try Data(contentsOf: reference) == before, "a failed comparison must not overwrite the reference")
        // Under record mode failed the failing snapshot becomes the reference, and the test still fails.
        let recorded = verifySnapshot(of: changed, as: .image, named: "badge", record: .failed, snapshotDirectory: folder.path)
        #expect(recorded?.contains("A new snapshot was automatically recorded.") == true, "\(recorded ?? "nil")")
        #expect(try Data(contentsOf: reference) != before)
        #expect(verifySnapshot(of: changed, as: .image, named: "badge", record: .never, snapshotDirectory: folder.path) == nil)
    }

    @Test("record mode never writes nothing, and withSnapshotTesting sets the mode for what it wraps")
    func neverAndScopedModes() throws {
        let folder = try sandbox()
        defer { try? FileManager.default.removeItem(at: folder) }
        let message = verifySnapshot(of: badge(), as: .image, named: "absent", record: .never, snapshotDirectory: folder.path)
        #expect(message?.contains("New snapshot was not recorded because recording is disabled") == true, "\(message ?? "nil")")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        withSnapshotTesting(record: .all) {
            let all = verifySnapshot(of: badge(), as: .image, named: "scoped", snapshotDirectory: folder.path)
            #expect(all?.contains("Record mode is on.") == true, "\(all ?? "nil")")
        }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("neverAndScopedModes.scoped.png").path))
    }

    @Test("perceptualPrecision is Core Image's Lab ΔE (ΔE94) against (1 - p) x 100, precision the share of pixels")
    func perceptualPrecision() throws {
        let folder = try sandbox()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = verifySnapshot(of: swatch((40, 90, 200, 255)), as: .image, named: "swatch", record: .all, snapshotDirectory: folder.path)
        func check(_ blue: UInt8, _ snapshotting: Snapshotting<CGImage, CGImage>) -> String? {
            verifySnapshot(of: swatch((40, 90, blue, 255)), as: snapshotting, named: "swatch", record: .never,
                           snapshotDirectory: folder.path, testName: "perceptualPrecision()")
        }
        // Blue 200 -> 210 is ΔE94 1.85 (ΔE00 about 2.4, which would fail); 200 -> 215 is ΔE94 2.76.
        #expect(check(210, .image(perceptualPrecision: 0.98)) == nil)
        let over = try #require(check(215, .image(perceptualPrecision: 0.98)))
        #expect(over.contains("The percentage of pixels that match 0.0 is less than required 1.0"), "\(over)")
        #expect(over.contains("The lowest perceptual color precision 0.9723"), "\(over)")
        #expect(check(215, .image(perceptualPrecision: 0.97)) == nil)
        #expect(check(202, .image) != nil, "both precisions 1 mean bytes")
        // A share of pixels: 3 of 400 over the bar pass at 0.99 and fail at 0.995.
        let spotted = CGImage(bitmap: Bitmap(width: 20, height: 20) { x, y in y == 0 && x < 3 ? (40, 90, 230, 255) : (40, 90, 200, 255) })
        func checkSpotted(_ snapshotting: Snapshotting<CGImage, CGImage>) -> String? {
            verifySnapshot(of: spotted, as: snapshotting, named: "swatch", record: .never, snapshotDirectory: folder.path,
                           testName: "perceptualPrecision()")
        }
        #expect(checkSpotted(.image(precision: 0.99, perceptualPrecision: 0.98)) == nil)
        #expect(checkSpotted(.image(precision: 0.995, perceptualPrecision: 0.98))?.contains("match 0.9925 is less than required 0.995") == true)
    }

    @Test("precision alone counts differing bytes of the premultiplied RGBA, as the library does")
    func bytePrecision() throws {
        let folder = try sandbox()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = verifySnapshot(of: swatch((10, 20, 30, 255)), as: .image, named: "bytes", record: .all, snapshotDirectory: folder.path)
        // 4 pixels with one byte off: 4 of 1,600 bytes, a precision of 0.9975.
        let pixels = Bitmap(width: 20, height: 20) { x, y in y == 5 && x < 4 ? (10, 20, 31, 255) : (10, 20, 30, 255) }
        func check(_ precision: Float) -> String? {
            verifySnapshot(of: CGImage(bitmap: pixels), as: .image(precision: precision), named: "bytes", record: .never,
                           snapshotDirectory: folder.path, testName: "bytePrecision()")
        }
        #expect(check(0.997) == nil)
        #expect(check(0.998)?.contains("Actual image precision 0.9975 is less than required 0.998") == true, "\(check(0.998) ?? "nil")")
    }

    @Test("OpenQuartz's comparators replace the precisions when given")
    func comparators() throws {
        let folder = try sandbox()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = verifySnapshot(of: badge(), as: .image, named: "badge", record: .all, snapshotDirectory: folder.path)
        let gpu = verifySnapshot(of: badge(), as: .image(backend: .gpu, comparator: AgreementBarComparator()), named: "badge",
                                 record: .never, snapshotDirectory: folder.path, testName: "comparators()")
        #expect(gpu == nil, "\(gpu ?? "nil")")
        let exact = verifySnapshot(of: badge(text: "Open"), as: .image(comparator: ExactComparator()), named: "badge",
                                   record: .never, snapshotDirectory: folder.path, testName: "comparators()")
        #expect(exact?.contains("exact:") == true, "\(exact ?? "nil")")
        // Animation times are the extra `time`: a fade from 10 s to 11 s half done at 10.5 s.
        let fading = CALayer()
        fading.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        fading.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let fade = CABasicAnimation(keyPath: "opacity")
        (fade.fromValue, fade.toValue, fade.duration, fade.beginTime) = (1.0, 0.0, 1, 10)
        fading.add(fade, forKey: "fade")
        let half = verifySnapshot(of: fading, as: .image(time: 10.5), named: "fade", record: .all, snapshotDirectory: folder.path)
        #expect(half?.contains("Record mode is on.") == true)
        #expect(try CGImage.load(contentsOf: folder.appendingPathComponent("comparators.fade.png")).bitmap[5, 5] == (0, 0, 0, 128))
        // Without a time the model is drawn, animations left out, as render(in:) draws it.
        #expect(try fading.renderedContentImage().bitmap[5, 5] == (0, 0, 0, 255))
        let unset = CALayer()
        unset.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        unset.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let fadeNow = CABasicAnimation(keyPath: "opacity")
        (fadeNow.fromValue, fadeNow.toValue, fadeNow.duration) = (0.0, 0.0, 100)
        unset.add(fadeNow, forKey: "fade")
        #expect(try unset.renderedContentImage().bitmap[5, 5] == (0, 0, 0, 255), "an animation added now is not drawn without a time")
    }

    @Test("bad input: another size, a corrupt reference, a folder that cannot be written, a layer that cannot be drawn; all named")
    func badInput() throws {
        let folder = try sandbox()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = verifySnapshot(of: swatch((1, 2, 3, 255), width: 10, height: 10), as: .image, named: "sized", record: .all,
                           snapshotDirectory: folder.path)
        let sized = verifySnapshot(of: swatch((1, 2, 3, 255), width: 12, height: 10), as: .image, named: "sized", record: .missing,
                                   snapshotDirectory: folder.path)
        #expect(sized?.contains("Newly-taken snapshot@(12.0, 10.0) does not match reference@(10.0, 10.0).") == true, "\(sized ?? "nil")")

        let corrupt = folder.appendingPathComponent("badInput.corrupt.png")
        try Data("not a png".utf8).write(to: corrupt)
        let unreadable = verifySnapshot(of: swatch((1, 2, 3, 255)), as: .image, named: "corrupt", record: .missing,
                                        snapshotDirectory: folder.path)
        #expect(unreadable?.contains("Reference image could not be loaded.") == true, "\(unreadable ?? "nil")")
        #expect(try Data(contentsOf: corrupt) == Data("not a png".utf8))

        let blocked = folder.appendingPathComponent("a-file")
        try Data().write(to: blocked)
        let unwritable = verifySnapshot(of: swatch((1, 2, 3, 255)), as: .image, named: "x", record: .missing,
                                        snapshotDirectory: blocked.appendingPathComponent("sub").path)
        #expect(unwritable != nil && unwritable?.contains("No reference was found") == false, "\(unwritable ?? "nil")")

        // A layer that cannot be drawn (a time that is not a number): the library's empty-snapshot
        // message, and the reason recorded beside it as an issue of its own.
        _ = verifySnapshot(of: badge(), as: .image, named: "undrawable", record: .all, snapshotDirectory: folder.path)
        withKnownIssue {
            let empty = verifySnapshot(of: badge(), as: .image(time: .nan), named: "undrawable", record: .never,
                                       snapshotDirectory: folder.path)
            #expect(empty?.contains("Newly-taken snapshot is empty.") == true, "\(empty ?? "nil")")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("the layer could not be drawn") }
        }
    }
}
