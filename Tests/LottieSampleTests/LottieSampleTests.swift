// lottie-ios's samples (../shared/lottie: the JSON and the frames Apple's Core Animation drew for
// lottie-ios's Core Animation engine) made into layer trees by LottieImport, as that engine makes
// them, paused at each snapshotted progress, drawn on the CPU reference and the GPU, and held to
// Apple's frames with lottie-ios's own bar: 98.5% of pixels (or the sample's looser precision)
// within a CIE delta E of 3, measured as swift-snapshot-testing measures `perceptualPrecision`
// on Apple's platforms (Core Image's Lab ΔE, ΔE94). Samples lottie-ios configures beyond a plain
// render (value, text or image providers) are left out. The pass counts per feature are printed and written to
// $LOTTIE_REPORT when set; the suite fails if fewer frames pass than docs/lottie.md records (so
// a change that loses a frame is caught) or if the GPU and CPU disagree on any frame.
import Compositor
import Foundation
import GLBackend
import LayerModel
import LottieImport
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("lottie-ios's samples against Apple's frames", .serialized)
struct LottieSampleTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/lottie")

    struct Sample: Decodable {
        let name: String
        let sample: String
        let progress: [Int]
        let lottie_ios_custom: AnyCodableMarker?
        let lottie_ios_precision: Double?
    }

    /// Present or not: what the value is does not matter here.
    struct AnyCodableMarker: Decodable {
        init(from decoder: Decoder) throws {}
    }

    /// The features a sample uses, by what its JSON holds.
    static func features(of json: String) -> [String] {
        var found: [String] = []
        let compact = json.replacingOccurrences(of: " ", with: "")
        func has(_ s: String) -> Bool { compact.contains(s) }
        if has("\"ty\":\"tm\"") { found.append("trim") }
        if has("\"ty\":\"gf\"") || has("\"ty\":\"gs\"") { found.append("gradient") }
        if has("\"masksProperties\"") { found.append("mask") }
        if has("\"tt\":") { found.append("matte") }
        if has("\"ty\":2,") || has("data:image") { found.append("image") }
        if has("\"ty\":5,") { found.append("text") }
        if has("\"ty\":\"rp\"") { found.append("repeater") }
        if has("\"ddd\":1") { found.append("3D") }
        return found
    }

    /// Samples lottie-ios's SnapshotConfiguration customizes in ways `index.json` does not record:
    /// TypeFace/G recolours three paths red through value providers set in a closure.
    static let customizedBeyondIndex: Set<String> = ["TypeFace-G"]

    /// The fitted size lottie-ios's snapshots use: the longer side at most 500 points, never enlarged.
    static func fitted(_ width: Double, _ height: Double) -> (Double, Double) {
        let scale = min(1, 500 / max(width, height))
        return (width * scale, height * scale)
    }

    /// The sample shown at its snapshot's size (LottiePlayer fits it, as lottie-ios's view does)
    /// and paused at `frame`.
    static func tree(_ document: LottieDocument, frame: Double) throws -> CALayer {
        let (w, h) = fitted(document.width, document.height)
        let player = try LottiePlayer(document: document, viewport: CGSize(width: w, height: h), renderScale: 2)
        player.seek(toFrame: frame)
        return player.presentation()
    }

    @Test("every plain sample's frames against Apple's, on the CPU and the GPU")
    func samples() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("index.json"))
        let only = ProcessInfo.processInfo.environment["LOTTIE_ONLY"]
        let samples = try JSONDecoder().decode([Sample].self, from: data)
            .filter { $0.lottie_ios_custom == nil && !Self.customizedBeyondIndex.contains($0.name) && (only == nil || $0.name.contains(only!)) }
        #expect(only != nil || samples.count > 50, "../shared/lottie must hold lottie-ios's samples")
        var passed = 0, frames = 0
        var byFeature: [String: (passed: Int, frames: Int)] = [:]
        var failures: [String] = []
        let device = try GLDevice.shared()
        for sample in samples {
            let url = Self.folder.appendingPathComponent(sample.sample)
            let json = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            let features = Self.features(of: json)
            let document: LottieDocument
            // Image files come from samples/Images, where lottie-ios's snapshot tests' image provider looks.
            do { document = try LottieDocument(contentsOf: url, assets: Self.folder.appendingPathComponent("samples/Images")) } catch {
                failures.append("\(sample.name): \(error)")
                frames += sample.progress.count
                continue
            }
            let bar = CIEDE2000Comparator(precision: min(0.985, sample.lottie_ios_precision ?? 0.985), perceptualPrecision: 0.97,
                                          formula: .coreImage)
            for progress in sample.progress {
                frames += 1
                for feature in features + ["all"] { byFeature[feature, default: (0, 0)].frames += 1 }
                let apple = try CGImage.load(contentsOf: Self.folder.appendingPathComponent("apple/\(sample.name)-\(progress).png")).bitmap
                let root = try Self.tree(document, frame: document.frame(atProgress: Double(progress) / 100))
                // Apple's frames were drawn by render(in:): its rules (layers turned in 3D left out, ...).
                var builder = RenderListBuilder(viewport: root.frame, scale: 2)
                builder.rules = .renderInContext
                let list = try builder.build(root: root)
                let cpu = RasterRenderer().render(list), gpu = try device.render(list)
                if only != nil, ProcessInfo.processInfo.environment["LOTTIE_DUMP"] != nil { print(list) }
                let agreement = try ImageComparison.compare(cpu, gpu, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
                #expect(AgreementBar.gpuAgainstCPU.failure(of: agreement) == nil, "\(sample.name) at \(progress)%: GPU against CPU: \(agreement)")
                if AgreementBar.gpuAgainstCPU.failure(of: agreement) != nil, let out = ProcessInfo.processInfo.environment["LOTTIE_FAILURES"] {
                    try? CGImage(bitmap: gpu).pngData().write(to: URL(fileURLWithPath: "\(out)/\(sample.name)-\(progress).gpu.png"))
                    try? CGImage(bitmap: cpu).pngData().write(to: URL(fileURLWithPath: "\(out)/\(sample.name)-\(progress).cpu.png"))
                }
                guard apple.width == cpu.width, apple.height == cpu.height else {
                    failures.append("\(sample.name)-\(progress): size \(cpu.width)x\(cpu.height), Apple's \(apple.width)x\(apple.height)")
                    continue
                }
                let verdict = try bar.compare(apple, cpu)
                if verdict.passed {
                    passed += 1
                    for feature in features + ["all"] { byFeature[feature, default: (0, 0)].passed += 1 }
                } else {
                    failures.append("\(sample.name)-\(progress): \(verdict.summary)")
                    if let out = ProcessInfo.processInfo.environment["LOTTIE_FAILURES"] {
                        try? CGImage(bitmap: verdict.triptych(expected: apple, actual: cpu)).pngData()
                            .write(to: URL(fileURLWithPath: "\(out)/\(sample.name)-\(progress).png"))
                        try? CGImage(bitmap: cpu).pngData().write(to: URL(fileURLWithPath: "\(out)/\(sample.name)-\(progress).ours.png"))
                    }
                }
            }
        }
        var report = "lottie samples: \(passed) of \(frames) frames match Apple's within lottie-ios's bar\n"
        for (feature, counts) in byFeature.sorted(by: { $0.key < $1.key }) {
            report += "  \(feature): \(counts.passed) of \(counts.frames)\n"
        }
        report += failures.map { "  differs: \($0)\n" }.joined()
        print(report)
        if let path = ProcessInfo.processInfo.environment["LOTTIE_REPORT"] { try report.write(toFile: path, atomically: true, encoding: .utf8) }
        #expect(only != nil || passed >= Self.recordedPasses, "\(passed) frames pass; docs/lottie.md records \(Self.recordedPasses)")
    }

    /// The frames that passed when docs/lottie.md was last written: a floor, raised as more pass.
    static let recordedPasses = 451
}
