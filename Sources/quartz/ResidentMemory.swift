import Foundation

/// The process's resident memory, for the figures `quartz render` and `quartz animate` report
/// (peak memory of a frame, and whether a long animation grows).
enum ResidentMemory {
    /// Bytes resident now (Linux's /proc/self/statm, pages in memory), or nil where unreadable.
    static func current() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .ascii) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The most bytes ever resident in this process (getrusage's maximum resident set size).
    static func peak() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    /// A byte count in MiB, one decimal.
    static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
}
