import Foundation
import GLBackend
import OpenQuartzCore

/// How a run of the suite is set up (`quartz bench`'s options).
public struct BenchSettings: Sendable {
    public var backend: RenderBackend = .gpu
    public var fps = 60.0
    public var workloads: [BenchWorkload] = BenchWorkload.all
    public var rampSeconds = 12.0
    public var fixedFrames = 30
    public var fixedSeconds = 5.0
    public var warmupFrames = 3
    public var framesPerSample = 3
    public var checkEvery = 10
    /// Ramp samples whose first frame is checked (the first ones, at the complexities the ramp
    /// passes through).
    public var rampChecks = 3

    public init() {}
}

/// Where a run is, for a progress bar.
public struct BenchProgress: Sendable {
    public var workload: String
    public var index: Int
    public var count: Int
    /// "ramp" (with the complexity being measured) or "fixed".
    public var phase: String
    public var complexity: Int
    /// The share of the whole run done, 0...1 (by workloads and time budgets).
    public var fraction: Double
}

/// Runs every workload of the settings: the ramp to the target frame rate, then the fixed-
/// complexity frames, checking frames against the CPU reference on the way.
public struct BenchSuite {
    public let settings: BenchSettings
    /// For tests: changes GPU frames before they are checked.
    package var tamper: ((inout Bitmap) -> Void)?

    public init(settings: BenchSettings) {
        self.settings = settings
    }

    public func run(progress: (BenchProgress) -> Void = { _ in }) throws -> BenchReport {
        let clock = ContinuousClock(), started = clock.now
        let date = ISO8601DateFormatter().string(from: Date())
        var device: BenchReport.Device?
        if settings.backend == .gpu {
            let caps = try GLBackend.GLDevice.shared().caps
            device = .init(vendor: caps.vendor, renderer: caps.renderer, version: caps.version,
                           platform: "\(caps.platform.rawValue) (\(caps.platformDetail))", timerQueries: caps.offersTimerQueries)
        }
        var results: [BenchReport.Workload] = []
        for (index, workload) in settings.workloads.enumerated() {
            results.append(try run(workload, index: index, progress: progress))
        }
        let failed = results.filter { $0.status != "passed" }.map(\.name)
        let score = failed.isEmpty ? FrameStatistics.geometricMean(results.map { max($0.ramp.score, 1e-3) }) : nil
        let gpuTime = settings.backend == .cpu ? "none (CPU backend)" : device?.timerQueries == true ? "timer query" : "wait for the GPU"
        let d = started.duration(to: clock.now)
        return BenchReport(
            date: date, backend: settings.backend.rawValue, fps: settings.fps, machine: .current, gl: device,
            settings: .init(warmupFrames: settings.warmupFrames, fixedFrames: settings.fixedFrames, fixedSeconds: settings.fixedSeconds,
                            rampSeconds: settings.rampSeconds, framesPerSample: settings.framesPerSample,
                            checkEvery: settings.checkEvery, gpuTime: gpuTime),
            workloads: results, score: score, failed: failed,
            seconds: Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
    }

    private func run(_ workload: BenchWorkload, index: Int, progress: (BenchProgress) -> Void) throws -> BenchReport.Workload {
        let clock = ContinuousClock(), started = clock.now
        func elapsed() -> Double {
            let d = started.duration(to: clock.now)
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        let count = settings.workloads.count
        let perWorkload = settings.rampSeconds + settings.fixedSeconds
        func report(_ phase: String, _ complexity: Int) {
            let within = min(elapsed() / perWorkload, 0.99)
            progress(BenchProgress(workload: workload.name, index: index, count: count, phase: phase, complexity: complexity,
                                   fraction: (Double(index) + within) / Double(count)))
        }
        var failures: [String] = []
        var checked = 0, rampChecks = 0, nextFrame = 0
        func loop(_ complexity: Int) -> BenchFrameLoop {
            let loop = BenchFrameLoop(workload: workload, complexity: complexity, backend: settings.backend, fps: settings.fps,
                                      firstFrame: nextFrame)
            loop.tamper = tamper
            return loop
        }
        func note(_ frame: BenchFrame) {
            if frame.checked { checked += 1 }
            if let mismatch = frame.mismatch, failures.count < 10 { failures.append(mismatch) }
        }
        let controller = RampController(targetSeconds: 1 / settings.fps, budgetSeconds: settings.rampSeconds,
                                        startComplexity: workload.startComplexity)
        let ramp = try controller.run { complexity in
            report("ramp", complexity)
            let frames = loop(complexity)
            defer { nextFrame = frames.frame }
            _ = try frames.next()  // warm-up: uploads and first draws
            var times: [Double] = []
            for k in 0..<max(settings.framesPerSample, 1) {
                let check = settings.backend == .gpu && k == 0 && rampChecks < settings.rampChecks
                let frame = try frames.next(check: check)
                if check { rampChecks += 1 }
                note(frame)
                times.append(frame.seconds)
            }
            return FrameStatistics.median(times) ?? 0
        }
        report("fixed", workload.fixedComplexity)
        let frames = loop(workload.fixedComplexity)
        let fixedStart = clock.now
        func spent() -> Double {
            let d = fixedStart.duration(to: clock.now)
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        // Warm-up frames, fewer where a frame takes long (at least one): a driver that takes
        // seconds a frame would spend minutes warming up.
        var warmups = 0
        while warmups < max(settings.warmupFrames, 1), warmups == 0 || spent() < settings.fixedSeconds / 2 {
            _ = try frames.next()
            warmups += 1
        }
        var times: [Double] = []
        var stages = StageTimes()
        while times.count < max(settings.fixedFrames, 1) {
            // At least five frames, or three where they take long.
            if times.count >= 5 || (times.count >= 3 && spent() >= 2 * settings.fixedSeconds), spent() >= settings.fixedSeconds { break }
            let check = settings.backend == .gpu && times.count % max(settings.checkEvery, 1) == 0
            let frame = try frames.next(check: check)
            note(frame)
            times.append(frame.seconds)
            stages = stages + frame.stages
        }
        let fixed = BenchReport.FixedRun(
            complexity: workload.fixedComplexity, warmupFrames: warmups, frameSeconds: times,
            median: FrameStatistics.median(times) ?? 0, p90: FrameStatistics.percentile(times, 90) ?? 0,
            p99: FrameStatistics.percentile(times, 99) ?? 0, stages: stages.scaled(by: 1 / Double(times.count)))
        return BenchReport.Workload(name: workload.name, summary: workload.summary, unit: workload.unit,
                                    status: failures.isEmpty ? "passed" : "failed", failures: failures, checkedFrames: checked,
                                    ramp: ramp, fixed: fixed, seconds: elapsed())
    }
}

extension BenchReport.Machine {
    /// This machine: the CPU's model name, cores, memory and system, as Linux reports them.
    static var current: BenchReport.Machine {
        func field(_ file: String, _ key: String) -> String? {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix(key) {
                let value = line.drop(while: { $0 != ":" && $0 != "=" }).dropFirst()
                return value.trimmingCharacters(in: CharacterSet(charactersIn: " \t\""))
            }
            return nil
        }
        var names = utsname()
        uname(&names)
        let kernel = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let system = (field("/etc/os-release", "PRETTY_NAME") ?? "Linux") + ", kernel " + kernel
        return BenchReport.Machine(cpu: field("/proc/cpuinfo", "model name") ?? "unknown",
                                   cores: ProcessInfo.processInfo.activeProcessorCount,
                                   memoryBytes: ProcessInfo.processInfo.physicalMemory, system: system)
    }
}
