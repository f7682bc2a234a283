import Foundation

/// The HTML report: one self-contained page (inline SVG plots, no script, nothing fetched), so
/// it opens from a CI artifact or a checked-in file as it is.
extension BenchReport {
    public func html() -> String {
        var body = """
        <h1>quartz bench</h1>
        <p class="headline">\(Self.escape(headline))</p>
        <table class="facts">
        <tr><th>date</th><td>\(Self.escape(date))</td></tr>
        <tr><th>backend</th><td>\(Self.escape(backend))</td></tr>
        """
        if let gl {
            body += "<tr><th>GL</th><td>\(Self.escape("\(gl.vendor), \(gl.renderer), \(gl.version); EGL \(gl.platform)"))</td></tr>\n"
        }
        body += """
        <tr><th>CPU</th><td>\(Self.escape("\(machine.cores) cores \(machine.cpu), \(machine.memoryBytes / (1 << 20)) MiB, \(machine.system)"))</td></tr>
        <tr><th>score</th><td id="score">\(score.map { Self.number($0) } ?? "none: \(Self.escape(failed.joined(separator: ", "))) failed")</td></tr>
        <tr><th>not counted</th><td>\(workloads.map(\.fixed.warmupFrames).reduce(0, +)) warm-up frames in the fixed runs (up to \(settings.warmupFrames) each) and 1 per ramp sample; GPU time by \(Self.escape(settings.gpuTime)); \(workloads.map(\.checkedFrames).reduce(0, +)) frames checked against the CPU reference</td></tr>
        </table>
        <h2>Workloads</h2>
        <table class="summary"><tr><th>workload</th><th>score at \(Self.number(fps)) fps</th><th>95% CI</th><th>fixed complexity</th><th>median</th><th>p90</th><th>p99</th><th>status</th></tr>

        """
        for w in workloads {
            body += "<tr class=\"\(w.status)\"><td><a href=\"#\(w.name)\">\(w.name)</a></td><td>\(Self.number(w.ramp.score)) \(w.unit)\(w.ramp.capped ? "+" : "")</td>"
                + "<td>\(Self.number(w.ramp.low)) to \(Self.number(w.ramp.high))</td><td>\(w.fixed.complexity)</td><td>\(Self.ms(w.fixed.median))</td>"
                + "<td>\(Self.ms(w.fixed.p90))</td><td>\(Self.ms(w.fixed.p99))</td><td>\(w.status)</td></tr>\n"
        }
        body += "</table>\n"
        for w in workloads {
            body += "<section id=\"\(w.name)\" class=\"workload\"><h2>\(w.name)</h2><p>\(Self.escape(w.summary))</p>\n"
            for failure in w.failures { body += "<p class=\"failure\">\(Self.escape(failure))</p>\n" }
            body += "<div class=\"plots\"><figure>\(rampPlot(w))<figcaption>Ramp: frame time against \(w.unit); the line fitted over the bracket meets the target at the score.</figcaption></figure>\n"
            body += "<figure>\(framesPlot(w))<figcaption>Fixed complexity (\(w.fixed.complexity) \(w.unit)): each frame's time, \(w.fixed.frameSeconds.count) frames.</figcaption></figure>\n"
            body += "<figure>\(stagesPlot(w))<figcaption>Mean time per frame in each stage, one after another; gpu is the GPU's own time (\(Self.escape(settings.gpuTime))), beside them.</figcaption></figure></div></section>\n"
        }
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>quartz bench: \(Self.escape(gl?.renderer ?? "CPU backend"))</title>
        <style>
        body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
        table { border-collapse: collapse; margin: 8px 0 16px; }
        th, td { padding: 3px 10px; text-align: left; border-bottom: 1px solid #ddd; }
        tr.failed td { color: #b00; font-weight: bold; }
        .failure { color: #b00; }
        .plots { display: flex; flex-wrap: wrap; gap: 16px; }
        figure { margin: 0; } figcaption { font-size: 12px; color: #555; max-width: 360px; }
        svg text { font: 11px system-ui, sans-serif; fill: #333; }
        </style></head>
        <body data-workloads="\(workloads.count)">
        \(body)</body></html>

        """
    }

    private static let plotWidth = 380.0, plotHeight = 220.0, margin = 40.0

    /// Samples as dots, the fitted line, the target as a dashed line, the score and its interval.
    func rampPlot(_ w: Workload) -> String {
        let samples = w.ramp.samples
        let maxX = max(Double(samples.map(\.complexity).max() ?? 1), w.ramp.high, 1) * 1.05
        let target = 1 / fps
        let maxY = max(samples.map(\.frameSeconds).max() ?? target, target) * 1.1
        func x(_ v: Double) -> Double { Self.margin + v / maxX * (Self.plotWidth - Self.margin - 25) }
        func y(_ v: Double) -> Double { Self.plotHeight - 25 - v / maxY * (Self.plotHeight - 35) }
        var svg = Self.axes(xLabel: w.unit, yLabel: "ms", maxX: maxX, maxY: maxY * 1000, x: x, y: { y($0 / 1000) })
        svg += "<rect x=\"\(Self.f(x(w.ramp.low)))\" y=\"10\" width=\"\(Self.f(max(x(w.ramp.high) - x(w.ramp.low), 1)))\" height=\"\(Self.f(Self.plotHeight - 35))\" fill=\"#cde\" opacity=\"0.6\"/>"
        svg += "<line x1=\"\(Self.f(x(0)))\" y1=\"\(Self.f(y(target)))\" x2=\"\(Self.f(x(maxX)))\" y2=\"\(Self.f(y(target)))\" stroke=\"#c33\" stroke-dasharray=\"4 3\"/>"
        if w.ramp.slope > 0 {
            let x0 = Double(w.ramp.bracket.first ?? 0), x1 = Double(w.ramp.bracket.last ?? 1)
            svg += "<line x1=\"\(Self.f(x(x0)))\" y1=\"\(Self.f(y(w.ramp.intercept + w.ramp.slope * x0)))\" x2=\"\(Self.f(x(x1)))\" y2=\"\(Self.f(y(w.ramp.intercept + w.ramp.slope * x1)))\" stroke=\"#36c\"/>"
        }
        for s in samples {
            svg += "<circle class=\"sample\" cx=\"\(Self.f(x(Double(s.complexity))))\" cy=\"\(Self.f(y(s.frameSeconds)))\" r=\"2.5\" fill=\"#333\"/>"
        }
        svg += "<line x1=\"\(Self.f(x(w.ramp.score)))\" y1=\"10\" x2=\"\(Self.f(x(w.ramp.score)))\" y2=\"\(Self.f(Self.plotHeight - 25))\" stroke=\"#36c\" stroke-width=\"2\"/>"
        return Self.svg(svg)
    }

    /// The fixed run's frame times in order, with the median.
    func framesPlot(_ w: Workload) -> String {
        let times = w.fixed.frameSeconds
        let maxY = max(times.max() ?? 0, 1 / fps) * 1.1, maxX = Double(max(times.count, 1))
        func x(_ v: Double) -> Double { Self.margin + v / maxX * (Self.plotWidth - Self.margin - 25) }
        func y(_ v: Double) -> Double { Self.plotHeight - 25 - v / maxY * (Self.plotHeight - 35) }
        var svg = Self.axes(xLabel: "frame", yLabel: "ms", maxX: maxX, maxY: maxY * 1000, x: x, y: { y($0 / 1000) })
        let points = times.enumerated().map { "\(Self.f(x(Double($0.offset) + 0.5))),\(Self.f(y($0.element)))" }.joined(separator: " ")
        svg += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"#333\"/>"
        svg += "<line x1=\"\(Self.f(x(0)))\" y1=\"\(Self.f(y(w.fixed.median)))\" x2=\"\(Self.f(x(maxX)))\" y2=\"\(Self.f(y(w.fixed.median)))\" stroke=\"#36c\"/>"
        svg += "<line x1=\"\(Self.f(x(0)))\" y1=\"\(Self.f(y(1 / fps)))\" x2=\"\(Self.f(x(maxX)))\" y2=\"\(Self.f(y(1 / fps)))\" stroke=\"#c33\" stroke-dasharray=\"4 3\"/>"
        return Self.svg(svg)
    }

    /// One bar per stage.
    func stagesPlot(_ w: Workload) -> String {
        let stages = w.fixed.stages.named
        let maxV = max(stages.map(\.seconds).max() ?? 0, 1e-6)
        var svg = ""
        for (i, stage) in stages.enumerated() {
            let top = 8 + Double(i) * 26, width = stage.seconds / maxV * (Self.plotWidth - 170)
            svg += "<text x=\"4\" y=\"\(Self.f(top + 13))\">\(stage.name)</text>"
            svg += "<rect class=\"stage\" x=\"95\" y=\"\(Self.f(top))\" width=\"\(Self.f(max(width, 0.5)))\" height=\"18\" fill=\"#6a9fd4\"/>"
            svg += "<text x=\"\(Self.f(100 + width))\" y=\"\(Self.f(top + 13))\">\(Self.ms(stage.seconds))</text>"
        }
        return Self.svg(svg)
    }

    private static func axes(xLabel: String, yLabel: String, maxX: Double, maxY: Double,
                             x: (Double) -> Double, y: (Double) -> Double) -> String {
        var svg = "<line x1=\"\(f(x(0)))\" y1=\"\(f(y(0)))\" x2=\"\(f(x(maxX)))\" y2=\"\(f(y(0)))\" stroke=\"#888\"/>"
        svg += "<line x1=\"\(f(x(0)))\" y1=\"\(f(y(0)))\" x2=\"\(f(x(0)))\" y2=\"10\" stroke=\"#888\"/>"
        for k in 0...4 {
            let vx = maxX * Double(k) / 4, vy = maxY * Double(k) / 4
            svg += "<text x=\"\(f(x(vx)))\" y=\"\(f(plotHeight - 8))\" text-anchor=\"middle\">\(number(vx))</text>"
            svg += "<text x=\"2\" y=\"\(f(y(vy) + 4))\">\(number(vy))</text>"
        }
        svg += "<text x=\"\(f(plotWidth - 8))\" y=\"\(f(plotHeight - 30))\" text-anchor=\"end\">\(escape(xLabel))</text><text x=\"\(f(margin + 4))\" y=\"18\">\(yLabel)</text>"
        return svg
    }

    private static func svg(_ content: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(plotWidth))\" height=\"\(Int(plotHeight))\" viewBox=\"0 0 \(Int(plotWidth)) \(Int(plotHeight))\">\(content)</svg>"
    }

    private static func f(_ v: Double) -> String { String(format: "%.1f", v.isFinite ? v : 0) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
