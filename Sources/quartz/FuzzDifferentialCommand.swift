import ArgumentParser
import Foundation
import OpenQuartzCore
import PixelDiff
import SceneCatalog
import SceneFormat

/// Differential fuzzing: random layer trees (every layer kind and compositing property) rendered
/// on the GPU and on the CPU reference must agree within the bar. A tree that does not is
/// shrunk — layers and masks taken away while the disagreement stays — and saved as a scene
/// document with both renders, ready to become a regression test.
struct FuzzDifferentialCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz-differential",
        abstract: "Render random layer trees on both backends and save, shrunk, every tree they disagree on.",
        discussion: "Exit codes: 0 every tree agreed; 1 some disagreed (saved under --out); 3 rendering failed.")

    @Option(help: "How many trees.") var count = 200
    @Option(help: "The first tree's seed; tree i uses seed + i, so a run can be repeated or continued.") var seed: UInt64 = 1
    @Option(help: "Most layers in a tree.") var maxLayers = 60
    @Option(help: "The viewport's side in points (default: each tree its own, 64 to 256, from its seed).") var size: Double?
    @Option(help: "Where disagreements are saved (scene documents, images and both renders).") var out = "out/fuzz-differential"

    func validate() throws {
        guard (1...1_000_000).contains(count) else { throw ValidationError("--count must be 1 to 1000000 (got \(count))") }
        guard (1...10_000).contains(maxLayers) else { throw ValidationError("--max-layers must be 1 to 10000 (got \(maxLayers))") }
        if let size, !(size >= 1 && size <= 4_096) { throw ValidationError("--size must be 1 to 4096 points (got \(size))") }
    }

    func run() throws {
        let bar = AgreementBar.gpuAgainstCPU
        var disagreements = 0
        var worst = (seed: seed, psnr: Double.infinity)
        for i in 0..<UInt64(count) {
            let treeSeed = seed &+ i
            let side = size ?? FuzzDifferentialCommand.side(of: treeSeed)
            var bytes = FuzzedBytes(seed: treeSeed, count: 1024)
            let root = RandomLayerTree.make(from: &bytes, size: CGFloat(side), maxLayers: maxLayers)
            let viewport = CGRect(x: 0, y: 0, width: side, height: side)
            guard let failure = try disagreement(root, in: viewport, bar: bar) else { continue }
            disagreements += 1
            if failure.psnr < worst.psnr { worst = (treeSeed, failure.psnr) }
            let kept = try shrink(root, in: viewport, bar: bar)
            let saved = try save(root, in: viewport, seed: treeSeed)
            print("seed \(treeSeed) (\(Int(side)) points): GPU and CPU disagree (\(failure.reason)); shrunk to \(kept) layers: \(saved)")
        }
        print("\(count) trees from seed \(seed): \(count - disagreements) agree, \(disagreements) disagree"
              + (disagreements > 0 ? " (worst: seed \(worst.seed), PSNR \(String(format: "%.1f", worst.psnr)) dB)" : ""))
        if disagreements > 0 { throw QuartzExit.disagreement }
    }

    private struct Failure { let reason: String; let psnr: Double }

    /// A tree's side in points where --size is not given: 64 to 256 from its seed (a multiplicative
    /// hash), so small and large trees alike come up and a seed always gives the same one.
    static func side(of seed: UInt64) -> Double {
        Double(64 + ((seed &* 0x9E37_79B9_7F4A_7C15) >> 32) % 193)
    }

    /// Why the two renders of `root` differ beyond the bar, or nil when they agree.
    private func disagreement(_ root: CALayer, in viewport: CGRect, bar: AgreementBar) throws -> Failure? {
        let cpu: CGImage, gpu: CGImage
        do {
            cpu = try root.renderedImage(bounds: viewport, backend: .cpu)
            gpu = try root.renderedImage(bounds: viewport, backend: .gpu)
        } catch {
            printError("quartz fuzz-differential: \(error)")
            throw QuartzExit.renderFailed
        }
        let report = try ImageComparison.compare(cpu.bitmap, gpu.bitmap, tolerance: bar.tolerance)
        return bar.failure(of: report).map { Failure(reason: $0, psnr: report.psnr) }
    }

    /// Takes away every layer and mask whose absence keeps the disagreement, then sets back to its
    /// default every compositing property that the disagreement does not need (each pass from the
    /// leaves up, repeated until nothing more goes); returns how many layers are left. What is left
    /// names the cause: a shadow under a perspective transform, say, and nothing else.
    private func shrink(_ root: CALayer, in viewport: CGRect, bar: AgreementBar) throws -> Int {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        var removedAny = true
        while removedAny {
            removedAny = false
            for layer in descendants(of: root).reversed() {
                if let mask = layer.mask {
                    layer.mask = nil
                    if try disagreement(root, in: viewport, bar: bar) != nil { removedAny = true } else { layer.mask = mask }
                }
                guard let parent = layer.superlayer, let index = parent.sublayers?.firstIndex(where: { $0 === layer }) else { continue }
                layer.removeFromSuperlayer()
                if try disagreement(root, in: viewport, bar: bar) != nil {
                    removedAny = true
                } else {
                    parent.insertSublayer(layer, at: UInt32(index))
                }
            }
        }
        for layer in descendants(of: root).reversed() {
            for simplification in Self.simplifications where simplification.applies(layer) {
                let undo = simplification.apply(layer)
                if try disagreement(root, in: viewport, bar: bar) == nil { undo() }
            }
        }
        return descendants(of: root).count + 1
    }

    /// One compositing property set back to its default: `apply` returns what puts it back.
    private struct Simplification {
        let applies: (CALayer) -> Bool
        let apply: (CALayer) -> () -> Void

        init<Value>(_ keyPath: ReferenceWritableKeyPath<CALayer, Value>, to plain: Value,
                    when applies: @escaping (CALayer) -> Bool) {
            self.applies = applies
            apply = { layer in
                let old = layer[keyPath: keyPath]
                layer[keyPath: keyPath] = plain
                return { layer[keyPath: keyPath] = old }
            }
        }
    }

    private static var simplifications: [Simplification] { [
        Simplification(\.shadowOpacity, to: 0, when: { $0.shadowOpacity != 0 }),
        Simplification(\.shadowPath, to: nil, when: { $0.shadowPath != nil }),
        Simplification(\.shadowOffset, to: .zero, when: { $0.shadowOffset != .zero }),
        Simplification(\.transform, to: CATransform3DIdentity, when: { !CATransform3DIsIdentity($0.transform) }),
        Simplification(\.sublayerTransform, to: CATransform3DIdentity, when: { !CATransform3DIsIdentity($0.sublayerTransform) }),
        Simplification(\.zPosition, to: 0, when: { $0.zPosition != 0 }),
        Simplification(\.anchorPoint, to: CGPoint(x: 0.5, y: 0.5), when: { $0.anchorPoint != CGPoint(x: 0.5, y: 0.5) }),
        Simplification(\.opacity, to: 1, when: { $0.opacity != 1 }),
        Simplification(\.cornerRadius, to: 0, when: { $0.cornerRadius != 0 }),
        Simplification(\.borderWidth, to: 0, when: { $0.borderWidth != 0 }),
        Simplification(\.masksToBounds, to: false, when: { $0.masksToBounds }),
        Simplification(\.shouldRasterize, to: false, when: { $0.shouldRasterize }),
        Simplification(\.isDoubleSided, to: true, when: { !$0.isDoubleSided }),
        Simplification(\.allowsGroupOpacity, to: true, when: { !$0.allowsGroupOpacity }),
        Simplification(\.contents, to: nil, when: { $0.contents != nil }),
        Simplification(\.backgroundColor, to: nil, when: { $0.backgroundColor != nil }),
    ] }

    private func descendants(of layer: CALayer) -> [CALayer] {
        (layer.sublayers ?? []).flatMap { [$0] + descendants(of: $0) }
    }

    /// Writes seed-N.json (its images beside it as seed-N-image-K.png), seed-N.cpu.png and
    /// seed-N.gpu.png; returns the document's path.
    private func save(_ root: CALayer, in viewport: CGRect, seed: UInt64) throws -> String {
        let folder = URL(fileURLWithPath: out)
        try OutputFile.makeFolder(folder.path)
        var imageCount = 0
        let encoder = SceneEncoder { image in
            imageCount += 1
            let name = "seed-\(seed)-image-\(imageCount).png"
            try writeOutput(try image.pngData(), to: folder.appendingPathComponent(name).path, links: .refused)
            return name
        }
        let document = folder.appendingPathComponent("seed-\(seed).json")
        try writeOutput(Data(try encoder.text(root: root, size: viewport.size).utf8), to: document.path, links: .refused)
        for backend in RenderBackend.allCases {
            let image = try root.renderedImage(bounds: viewport, backend: backend)
            try writeOutput(try image.pngData(), to: folder.appendingPathComponent("seed-\(seed).\(backend.rawValue).png").path, links: .refused)
        }
        return document.path
    }
}
