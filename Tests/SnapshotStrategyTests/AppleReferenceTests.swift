// References recorded on Apple's platforms, read as they are: swift-snapshot-testing's own layer
// tests (testCALayer, testCALayerWithGradient) keep the images an iPhone simulator drew for them
// (300 x 300, scale 3) in the library's repository, which SwiftPM checks out beside the build.
// The same layers, built as those tests build them and drawn here at scale 3, are compared with
// them through the library's own verifySnapshot (record mode never: nothing is written there).
import Foundation
import OpenQuartzCore
import PixelDiff
import SnapshotTesting
import Testing

@Suite("Apple's references")
struct AppleReferenceTests {
    /// The library's `__Snapshots__/SnapshotTestingTests` in the checkout of this build (or of the
    /// sanitizers' builds, which keep their own).
    static func appleSnapshots() throws -> URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let tail = "swift-snapshot-testing/Tests/SnapshotTestingTests/__Snapshots__/SnapshotTestingTests"
        let build = root.appendingPathComponent(".build")
        let scratch = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
        let candidates = [build] + scratch.map { build.appendingPathComponent($0) }
        for base in candidates {
            let folder = base.appendingPathComponent("checkouts").appendingPathComponent(tail)
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("testCALayer.1.png").path) { return folder }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: build.appendingPathComponent("checkouts").appendingPathComponent(tail).path])
    }

    @Test("testCALayer: a red layer with a 4-point black border matches Apple's reference byte for byte at scale 3")
    func redLayerWithBorder() throws {
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)   // UIColor.red
        layer.borderWidth = 4
        layer.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)        // UIColor.black
        let failure = verifySnapshot(of: layer, as: .image(scale: 3), record: .never,
                                     snapshotDirectory: try Self.appleSnapshots().path, testName: "testCALayer")
        #expect(failure == nil, "\(failure ?? "")")
    }

    @Test("testCALayerWithGradient: a red-to-yellow gradient layer matches Apple's reference, every pixel within ΔE94 1")
    func gradientLayer() throws {
        let base = CALayer()
        base.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let gradient = CAGradientLayer()
        gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 1, green: 1, blue: 0, alpha: 1)]
        gradient.frame = base.frame
        base.addSublayer(gradient)
        let apple = try CGImage.load(contentsOf: try Self.appleSnapshots().appendingPathComponent("testCALayerWithGradient.1.png"))
        let ours = try base.renderedContentImage(scale: 3)
        let bar = CIEDE2000Comparator(precision: 0, perceptualPrecision: 0.99, formula: .coreImage)
        let verdict = try bar.compare(apple.bitmap, ours.bitmap)
        print("testCALayerWithGradient against Apple's reference: \(verdict.summary)")
        // Apple's render(in:) draws this ramp from (255, 38, 0) to (255, 251, 0), bowed, not from
        // red to yellow: a CAGradientLayer's components are Generic RGB (GenericRGB); taken as
        // sRGB, 21.7% of the pixels were within ΔE94 2.
        #expect(verdict.score == 1, "\(verdict.summary)")
    }
}
