import Compositor
import Dispatch
import GLBackend
import OpenQuartzCore
import PixelDiff
import RasterBackend

/// Where a frame's time went, in seconds: the stages of the pipeline in order.
public struct StageTimes: Codable, Sendable, Equatable {
    /// The model changes an app makes before the frame (a workload's `update`: new contents).
    public var update = 0.0
    /// Animations advanced and the presentation tree built.
    public var evaluation = 0.0
    /// Layer content drawn on the CPU (text, backing stores).
    public var rasterization = 0.0
    /// The presentation tree flattened into a render list.
    public var flattening = 0.0
    /// GPU: the GL commands issued, uploads included. CPU backend: the frame drawn.
    public var submission = 0.0
    /// GPU: the time the CPU waited, after submitting, for the GPU to finish (glFinish). CPU
    /// backend: 0.
    public var wait = 0.0
    /// GPU: the GPU's own time for the draws, from a timer query where the driver offers one
    /// (it runs beside submission and the wait, so it is not part of the frame's sum), else the
    /// wait again. CPU backend: 0.
    public var gpu = 0.0
    /// GPU: the frame copied to memory. CPU backend: 0.
    public var readback = 0.0

    public init() {}

    /// The stages, named, in pipeline order.
    public var named: [(name: String, seconds: Double)] {
        [("update", update), ("evaluation", evaluation), ("rasterization", rasterization), ("flattening", flattening),
         ("submission", submission), ("wait", wait), ("readback", readback), ("gpu", gpu)]
    }

    /// The stages one after another on the CPU's clock: everything but `gpu`, which overlaps them.
    public var sequential: Double { update + evaluation + rasterization + flattening + submission + wait + readback }

    static func + (a: StageTimes, b: StageTimes) -> StageTimes {
        var s = StageTimes()
        s.update = a.update + b.update
        s.evaluation = a.evaluation + b.evaluation
        s.rasterization = a.rasterization + b.rasterization
        s.flattening = a.flattening + b.flattening
        s.submission = a.submission + b.submission
        s.wait = a.wait + b.wait
        s.gpu = a.gpu + b.gpu
        s.readback = a.readback + b.readback
        return s
    }

    func scaled(by k: Double) -> StageTimes {
        var s = self
        s.update *= k; s.evaluation *= k; s.rasterization *= k; s.flattening *= k
        s.submission *= k; s.wait *= k; s.gpu *= k; s.readback *= k
        return s
    }
}

/// One frame's outcome.
public struct BenchFrame: Sendable {
    /// Wall-clock seconds from the update to the pixels in memory.
    public var seconds: Double
    public var stages: StageTimes
    /// Why the frame missed the agreement bar against the CPU reference, when it was checked and missed.
    public var mismatch: String?
    public var checked: Bool
}

/// Renders a workload's frames at one complexity, one after another as a display link would ask
/// for them (frame i at i / fps), each stage timed; a frame can be checked against the CPU
/// reference (`RasterRenderer`) drawing the same render list.
public final class BenchFrameLoop {
    public let workload: BenchWorkload
    public let complexity: Int
    public let backend: RenderBackend
    public let fps: Double
    /// The next frame's number (its time is frame / fps).
    public private(set) var frame: Int
    private let root: CALayer
    private let presentations = PresentationCache()
    private let outlines = ShapeOutlineCache()
    private let rasterCache = RasterPassCache()
    /// The last frame's pixels (`--frames` writes them).
    public private(set) var lastImage: Bitmap?
    /// For tests: changes a GPU frame's pixels before the check (a driver that renders wrong).
    package var tamper: ((inout Bitmap) -> Void)?

    /// `firstFrame` continues the animation where an earlier loop stopped, so no two frames of a
    /// run show the same time.
    public init(workload: BenchWorkload, complexity: Int, backend: RenderBackend, fps: Double, firstFrame: Int = 0) {
        self.workload = workload
        self.complexity = max(1, complexity)
        self.backend = backend
        self.fps = fps
        frame = firstFrame
        root = workload.build(complexity: self.complexity)
    }

    /// The next frame, drawn; with `check` also drawn on the CPU reference and compared.
    public func next(check: Bool = false) throws -> BenchFrame {
        let t = Double(frame) / fps
        let index = frame
        frame += 1
        var stages = StageTimes()
        let start = DispatchTime.now().uptimeNanoseconds
        var lapStart = start
        func lap(_ stage: inout Double) {
            let now = DispatchTime.now().uptimeNanoseconds
            stage += Double(now - lapStart) / 1e9
            lapStart = now
        }
        let list = try MediaClock.$scoped.withValue(t) { () throws -> RenderList in
            workload.update(root, frame: index)
            lap(&stages.update)
            return try CATransaction.withLock { () throws -> RenderList in
                CATransaction.flush()
                root.displayTreeIfNeeded()
                lap(&stages.rasterization)
                _ = root.advanceAnimations(toMediaTime: t)
                defer { root.markLive() }
                let tree = root.presentationTree(atMediaTime: t, reusing: presentations)
                lap(&stages.evaluation)
                tree.displayTreeIfNeeded()
                lap(&stages.rasterization)
                var builder = RenderListBuilder(viewport: workload.bounds, scale: 1)
                builder.outlineCache = outlines
                let list = try builder.build(root: tree)
                lap(&stages.flattening)
                return list
            }
        }
        var image: Bitmap
        switch backend {
        case .cpu:
            image = RasterRenderer().render(list, cache: rasterCache)
            lap(&stages.submission)
        case .gpu:
            let (drawn, gl) = try GLDevice.shared().renderTimingStages(list)
            image = drawn
            stages.submission = gl.submission
            stages.wait = gl.wait
            stages.gpu = gl.gpu ?? gl.wait
            stages.readback = gl.readback
            lapStart = DispatchTime.now().uptimeNanoseconds
        }
        let seconds = Double(lapStart - start) / 1e9
        lastImage = image
        guard check, backend == .gpu else { return BenchFrame(seconds: seconds, stages: stages, mismatch: nil, checked: false) }
        tamper?(&image)
        let reference = RasterRenderer().render(list)
        let bar = AgreementBar.gpuAgainstCPU
        let report = try ImageComparison.compare(reference, image, tolerance: bar.tolerance)
        let mismatch = bar.failure(of: report).map { "frame \(index) (t = \(String(format: "%.3f", t)) s): \($0)" }
        return BenchFrame(seconds: seconds, stages: stages, mismatch: mismatch, checked: true)
    }
}

extension BenchWorkload {
    /// The rectangle every frame shows.
    public var bounds: CGRect { CGRect(origin: .zero, size: BenchWorkload.size) }
}
