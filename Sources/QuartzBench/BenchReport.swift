import Foundation
import OpenCoreGraphics

/// Everything one run of `quartz bench` measured, as its JSON report holds it (`--json`,
/// `--compare`, the HTML report). Times in seconds.
public struct BenchReport: Codable, Sendable {
    public var tool = "quartz bench"
    /// Bumped when a field changes meaning; `--compare` refuses reports of another format.
    public var format = BenchReport.currentFormat
    public static let currentFormat = 1
    /// When the run started (ISO 8601, UTC).
    public var date: String
    public var backend: String
    /// The target frame rate the ramp holds workloads to.
    public var fps: Double
    public var machine: Machine
    /// The GL device; nil on the CPU backend.
    public var gl: Device?
    public var settings: Settings
    public var workloads: [Workload]
    /// The geometric mean of the workloads' scores (MotionMark's total); nil when any failed.
    public var score: Double?
    /// The workloads whose frames missed the agreement bar.
    public var failed: [String]
    public var seconds: Double

    public struct Machine: Codable, Sendable {
        public var cpu: String
        public var cores: Int
        public var memoryBytes: UInt64
        public var system: String
    }

    public struct Device: Codable, Sendable {
        public var vendor: String
        public var renderer: String
        public var version: String
        /// The EGL platform and device, as `quartz info` shows them.
        public var platform: String
        public var timerQueries: Bool
    }

    public struct Settings: Codable, Sendable {
        /// Frames drawn after a tree is built and not counted (uploads, first draws of content);
        /// fewer, at least one, where they take more than half of `fixedSeconds`.
        public var warmupFrames: Int
        /// The fixed-complexity run: at most this many frames, or until `fixedSeconds` (at least
        /// five frames, three where they take over twice that).
        public var fixedFrames: Int
        public var fixedSeconds: Double
        /// The ramp's time budget per workload.
        public var rampSeconds: Double
        /// Frames per ramp sample (its median is the sample), after one warm-up frame.
        public var framesPerSample: Int
        /// Every this-many fixed frames, and the first frame of the first ramp samples, are
        /// checked against the CPU reference.
        public var checkEvery: Int
        /// What the `gpu` figure measures: "timer query", "wait for the GPU", or "none (CPU backend)".
        public var gpuTime: String
    }

    public struct Workload: Codable, Sendable {
        public var name: String
        public var summary: String
        public var unit: String
        /// "passed", or "failed" when a checked frame missed the agreement bar.
        public var status: String
        public var failures: [String]
        public var checkedFrames: Int
        public var ramp: RampController.Result
        public var fixed: FixedRun
        public var seconds: Double
    }

    public struct FixedRun: Codable, Sendable {
        public var complexity: Int
        /// Frames drawn before the timed ones and not counted (`settings.warmupFrames`, fewer
        /// where frames take long).
        public var warmupFrames: Int
        /// Every frame's time, in order (warm-up frames excluded).
        public var frameSeconds: [Double]
        public var median: Double
        public var p90: Double
        public var p99: Double
        /// Mean seconds per frame in each stage.
        public var stages: StageTimes
    }

    /// The report as key-sorted JSON: indented for a file, or on one line (`--json`, as every
    /// `quartz` subcommand prints it).
    public func json(pretty: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        return try encoder.encode(self)
    }

    /// What a report read back may hold: far more than `quartz bench` writes (a dozen workloads,
    /// at most 10,000 fixed frames each, names of a few words), so a report from elsewhere is
    /// refused by its size before its contents cost time or output (`--compare` pads its columns
    /// to the widest cell).
    public enum Limits {
        public static let maxFileBytes = 8 << 20
        public static let maxWorkloads = 1_000
        public static let maxFrames = 100_000
        /// Characters of a name, unit, status, CPU or device string.
        public static let maxText = 256
    }

    /// A report read back, with what is wrong with it named.
    public static func load(_ url: URL) throws -> BenchReport {
        let data: Data
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw BenchError.unreadable(url.path, FileManager.default.fileExists(atPath: url.path) ? "no permission, or not a file" : "no such file")
        }
        defer { try? handle.close() }
        do { data = try handle.read(upToCount: Limits.maxFileBytes + 1) ?? Data() } catch {
            throw BenchError.unreadable(url.path, "\(error)")
        }
        guard data.count <= Limits.maxFileBytes else {
            throw BenchError.badReport(url.path, "over \(Limits.maxFileBytes >> 20) MiB (quartz bench writes reports of a few hundred KiB)")
        }
        return try read(data, name: url.path)
    }

    /// A report's bytes checked: JSON of this format, within `Limits`; `name` says where they came
    /// from in errors.
    public static func read(_ data: Data, name: String) throws -> BenchReport {
        do {
            let report = try JSONDecoder().decode(BenchReport.self, from: data)
            guard report.format == currentFormat else {
                throw BenchError.badReport(name, "report format \(report.format); this quartz reads format \(currentFormat)")
            }
            if let problem = report.limitProblem { throw BenchError.badReport(name, problem) }
            return report
        } catch let error as BenchError {
            throw error
        } catch let DecodingError.keyNotFound(key, context) {
            throw BenchError.badReport(name, "no \"\(BenchError.shown(key.stringValue))\" at \(BenchError.path(context.codingPath))")
        } catch let DecodingError.typeMismatch(type, context), let DecodingError.valueNotFound(type, context) {
            throw BenchError.badReport(name, "expected \(BenchError.kind(of: type)) at \(BenchError.path(context.codingPath))")
        } catch let DecodingError.dataCorrupted(context) {
            // Foundation's own dump of the parser's state says nothing a person can act on.
            throw BenchError.badReport(name, context.codingPath.isEmpty ? "not JSON"
                : "a value out of range at \(BenchError.path(context.codingPath))")
        } catch {
            throw BenchError.badReport(name, "not JSON")
        }
    }
}

/// What `quartz bench` refuses, naming where and what.
public enum BenchError: Error, CustomStringConvertible, Equatable {
    case unknownWorkload(String, known: [String])
    case unreadable(String, String)
    case badReport(String, String)

    public var description: String {
        switch self {
        case let .unknownWorkload(name, known): "no workload \"\(name)\"; the workloads are \(known.joined(separator: ", "))"
        case let .unreadable(path, why): "\(path): cannot be read (\(why))"
        case let .badReport(path, why): "\(path): not a quartz bench report: \(why)"
        }
    }

    static func path(_ keys: [CodingKey]) -> String {
        keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\(shown($0.stringValue))" }.joined()
    }

    /// A type as a person names it in a JSON report.
    static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Int.Type, is UInt64.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }

    /// Text from a report as it may be shown (`ShownText`).
    public static func shown(_ text: String, limit: Int = 64) -> String { ShownText.escaped(text, limit: limit) }
}

extension BenchReport {
    /// The first way this report exceeds `Limits`, in words; nil within them.
    var limitProblem: String? {
        if workloads.count > Limits.maxWorkloads { return "\(workloads.count) workloads, more than \(Limits.maxWorkloads)" }
        var names = Set<String>()
        for (i, w) in workloads.enumerated() {
            if w.fixed.frameSeconds.count > Limits.maxFrames {
                return "workloads[\(i)] has \(w.fixed.frameSeconds.count) fixed frames, more than \(Limits.maxFrames)"
            }
            if w.ramp.samples.count > Limits.maxFrames || w.ramp.bracket.count > Limits.maxFrames {
                return "workloads[\(i)].ramp has more than \(Limits.maxFrames) samples"
            }
            if w.failures.count > Limits.maxWorkloads { return "workloads[\(i)] lists more than \(Limits.maxWorkloads) failures" }
            for (field, text) in [("name", w.name), ("unit", w.unit), ("status", w.status), ("summary", w.summary)] + w.failures.map({ ("failures", $0) })
            where text.count > Limits.maxText {
                return "workloads[\(i)].\(field) is longer than \(Limits.maxText) characters"
            }
            if !names.insert(w.name).inserted { return "workloads[\(i)]: the workload \"\(BenchError.shown(w.name))\" is listed twice" }
        }
        if failed.count > Limits.maxWorkloads { return "\"failed\" lists more than \(Limits.maxWorkloads) workloads" }
        for (field, text) in [("backend", backend), ("date", date), ("machine.cpu", machine.cpu), ("machine.system", machine.system),
                              ("gl.renderer", gl?.renderer ?? ""), ("gl.vendor", gl?.vendor ?? ""), ("gl.version", gl?.version ?? ""),
                              ("gl.platform", gl?.platform ?? ""), ("settings.gpuTime", settings.gpuTime)] + failed.map({ ("failed", $0) })
        where text.count > Limits.maxText {
            return "\(field) is longer than \(Limits.maxText) characters"
        }
        return nil
    }
}
