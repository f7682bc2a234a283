import Foundation

extension BenchReport {
    /// What ran where, in a line: backend and device, target rate, CPU.
    public var headline: String {
        let device = gl.map { "GL on \($0.renderer) (\($0.version))" } ?? "CPU reference backend"
        return "\(device), \(Self.number(fps)) fps target; \(machine.cores) cores \(machine.cpu)"
    }

    /// The terminal table: a row per workload, then the total and what was not counted.
    public func table() -> String {
        var rows = [["workload", "score at \(Self.number(fps)) fps (95% CI)", "fixed", "median", "p90", "p99", "slowest stage",
                     gl == nil ? "" : "GPU", ""]]
        for w in workloads {
            let score = "\(Self.number(w.ramp.score)) \(w.unit)\(w.ramp.capped ? "+" : "") (\(Self.number(w.ramp.low))-\(Self.number(w.ramp.high)))"
            let slowest = w.fixed.stages.named.filter { $0.name != "gpu" }.max { $0.seconds < $1.seconds }
                .map { "\($0.name) \(Self.ms($0.seconds))" } ?? ""
            rows.append([w.name, score, "\(w.fixed.complexity)", Self.ms(w.fixed.median), Self.ms(w.fixed.p90), Self.ms(w.fixed.p99),
                         slowest, gl == nil ? "" : Self.ms(w.fixed.stages.gpu), w.status == "passed" ? "" : "FAILED"])
        }
        var lines = Self.columns(rows)
        lines.append("")
        lines.append(score.map { "score (geometric mean of the workloads' scores): \(Self.number($0))" }
            ?? "no score: \(failed.joined(separator: ", ")) rendered frames the CPU reference does not agree with")
        for w in workloads where w.status != "passed" {
            for failure in w.failures { lines.append("  \(w.name): \(failure)") }
        }
        let checked = workloads.map(\.checkedFrames).reduce(0, +)
        lines.append("not counted: \(workloads.map(\.fixed.warmupFrames).reduce(0, +)) warm-up frames in the fixed runs (up to "
            + "\(settings.warmupFrames) each) and 1 per ramp sample; "
            + (gl == nil ? "the CPU backend is the reference, so no frame is checked"
                : "\(checked) frames checked against the CPU reference; GPU time by \(settings.gpuTime)"))
        lines.append("ran \(Self.number(seconds)) s")
        return lines.joined(separator: "\n")
    }

    /// Ratios of `other` to this report, workload by workload: scores (higher is better) and
    /// fixed-complexity medians (lower is better).
    public func comparison(with other: BenchReport, names: (String, String)) -> String {
        var lines = ["A: \(BenchError.shown(names.0, limit: 256)): \(BenchError.shown(headline, limit: 256))",
                     "B: \(BenchError.shown(names.1, limit: 256)): \(BenchError.shown(other.headline, limit: 256))", ""]
        var rows = [["workload", "score A", "score B", "B/A", "median A", "median B", "B/A", ""]]
        var ratios: [Double] = []
        // Names are unique in a report read back (`BenchReport.read`), shown escaped and short.
        let others = Dictionary(other.workloads.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let mine = Set(workloads.map(\.name))
        for w in workloads {
            guard let o = others[w.name] else {
                rows.append([BenchError.shown(w.name), Self.number(w.ramp.score), "-", "-", Self.ms(w.fixed.median), "-", "-", "only in A"])
                continue
            }
            let scoreRatio = w.ramp.score > 0 ? o.ramp.score / w.ramp.score : .nan
            let timeRatio = w.fixed.median > 0 ? o.fixed.median / w.fixed.median : .nan
            if scoreRatio.isFinite, scoreRatio > 0 { ratios.append(scoreRatio) }
            var note = [w.status, o.status].contains("failed") ? "a run FAILED" : ""
            if w.fixed.complexity != o.fixed.complexity { note = "fixed complexity differs" }
            rows.append([BenchError.shown(w.name), Self.number(w.ramp.score), Self.number(o.ramp.score), Self.ratio(scoreRatio),
                         Self.ms(w.fixed.median), Self.ms(o.fixed.median), Self.ratio(timeRatio), note])
        }
        for o in other.workloads where !mine.contains(o.name) {
            rows.append([BenchError.shown(o.name), "-", Self.number(o.ramp.score), "-", "-", Self.ms(o.fixed.median), "-", "only in B"])
        }
        lines += Self.columns(rows)
        lines.append("")
        if let a = score, let b = other.score { lines.append("score A \(Self.number(a)), B \(Self.number(b)): B/A \(Self.ratio(b / a))") }
        if let mean = FrameStatistics.geometricMean(ratios) {
            lines.append("geometric mean of the score ratios over \(ratios.count) workloads: \(Self.ratio(mean))")
        }
        return lines.joined(separator: "\n")
    }

    static func columns(_ rows: [[String]]) -> [String] {
        let widths = (0..<(rows.map(\.count).max() ?? 0)).map { c in rows.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { c, cell in cell.padding(toLength: widths[c], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }

    /// Three significant figures, no exponent.
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "-" }
        let a = abs(v)
        if a >= 100 { return String(format: "%.0f", v) }
        if a >= 10 { return String(format: "%.1f", v) }
        return String(format: "%.2f", v)
    }

    static func ms(_ seconds: Double) -> String { number(seconds * 1000) + " ms" }

    static func ratio(_ v: Double) -> String { v.isFinite ? String(format: "%.2fx", v) : "-" }
}
