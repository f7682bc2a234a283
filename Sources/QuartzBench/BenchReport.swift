import Foundation

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

    /// A report read back, with what is wrong with it named.
    public static func load(_ url: URL) throws -> BenchReport {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw BenchError.unreadable(url.path, error.localizedDescription)
        }
        do {
            let report = try JSONDecoder().decode(BenchReport.self, from: data)
            guard report.format == currentFormat else {
                throw BenchError.badReport(url.path, "report format \(report.format); this quartz reads format \(currentFormat)")
            }
            return report
        } catch let error as BenchError {
            throw error
        } catch let DecodingError.keyNotFound(key, context) {
            throw BenchError.badReport(url.path, "no \"\(key.stringValue)\" at \(BenchError.path(context.codingPath))")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw BenchError.badReport(url.path, "\(context.debugDescription) at \(BenchError.path(context.codingPath))")
        } catch let DecodingError.dataCorrupted(context) {
            throw BenchError.badReport(url.path, "not JSON (\(context.underlyingError.map { "\($0)" } ?? context.debugDescription))")
        } catch {
            throw BenchError.badReport(url.path, "\(error)")
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
        keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}
