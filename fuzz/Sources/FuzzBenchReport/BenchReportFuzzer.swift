import Foundation
import QuartzBench

/// `quartz bench --compare`'s reader: any bytes are a report within `BenchReport.Limits`, or an
/// error naming what is wrong; an accepted report's comparison, table and page cost time and
/// output in proportion to those limits (no row padded to an unbounded cell) and show no raw
/// control character.
func fuzzBenchReport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    do {
        let report = try BenchReport.read(bytes, name: "fuzz")
        precondition(report.workloads.count <= BenchReport.Limits.maxWorkloads)
        let comparison = report.comparison(with: report, names: ("a.json", "b.json"))
        precondition(comparison.utf8.count <= 64 + report.workloads.count * 4 * (BenchReport.Limits.maxText + 200))
        precondition(!comparison.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(comparison.debugDescription)")
        _ = report.html()
    } catch {
        let text = "\(error)"
        precondition(!text.isEmpty && !text.unicodeScalars.contains { $0.value < 0x20 }, "an unescaped control character: \(text.debugDescription)")
    }
    return 0
}
