// `quartz diff` of large images holds bands of rows, not the images: its peak memory (GNU time's
// maximum resident size) over a run on tiny images stays under 4 bytes a pixel, where decoding
// both images whole took 9.6 (and a triptych 16 more); and a memory limit the whole images would
// break is met.
import Foundation
import OpenCoreGraphics
import Testing

/// Writes a `width` x `height` PNG row by row (never whole): gradients with hard edges, and from
/// `changedFrom` on a band of rows changed.
private func writeLarge(_ url: URL, width: Int, height: Int, changedRows: Range<Int>) throws {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let writer = try PNGRowWriter(fd: handle.fileDescriptor, width: width, height: height, destination: url.path)
    var row = [UInt8](repeating: 255, count: width * 4)
    for y in 0..<height {
        let changed = changedRows.contains(y)
        for x in 0..<width {
            let i = x * 4
            row[i] = UInt8((x + y) & 0xFF)
            row[i + 1] = (x / 64 + y / 64) % 2 == 0 ? 40 : 210
            row[i + 2] = changed && x % 7 == 0 ? 255 : UInt8(y & 0xFF)
        }
        try row.withUnsafeBufferPointer { try writer.write(row: $0.baseAddress!) }
    }
    try writer.finish()
}

/// quartz diff under GNU time: the run and its peak resident kilobytes.
private func measured(_ arguments: [String]) throws -> (Run, Int) {
    let run = try runProcess(URL(fileURLWithPath: "/usr/bin/time"), ["-f", "peak-kb %M", try quartzBinary().path, "diff"] + arguments)
    let line = run.error.split(separator: "\n").last { $0.hasPrefix("peak-kb ") }
    let kilobytes = try #require(line.flatMap { Int($0.dropFirst("peak-kb ".count)) }, "no peak from GNU time: \(run.error)")
    return (run, kilobytes)
}

/// The sanitizers' builds hold freed memory in quarantine and shadow every byte: a peak measured
/// under them says nothing of the binary people run.
private let plainBuild = !ProcessInfo.processInfo.environment.keys.contains { $0 == "ASAN_OPTIONS" || $0 == "TSAN_OPTIONS" }

@Suite("quartz diff of large images")
struct LargeDiffTests {
    @Test("a 1024 x 1024 pair (bar, with a heat map and a triptych) and a 256 x 4096 pair (FLIP) peak under 4 bytes a pixel over tiny images, within --max-memory-mb 4 and 8",
          .enabled(if: plainBuild, "peak memory under a sanitizer measures the sanitizer"))
    func boundedMemory() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "GNU time is needed (scripts/install-deps.sh --test)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("large-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
        try writeLarge(URL(fileURLWithPath: file("tiny-a.png")), width: 16, height: 16, changedRows: 0..<0)
        try writeLarge(URL(fileURLWithPath: file("tiny-b.png")), width: 16, height: 16, changedRows: 3..<5)
        for (name, width, height) in [("square", 1024, 1024), ("tall", 256, 4096)] {
            try writeLarge(URL(fileURLWithPath: file("\(name)-a.png")), width: width, height: height, changedRows: 0..<0)
            try writeLarge(URL(fileURLWithPath: file("\(name)-b.png")), width: width, height: height, changedRows: 500..<800)
        }
        // Decoded whole, the pairs would need 10 MB (bar, 25 with the triptych) and 100 MB (FLIP).
        for (name, comparator, pictures, limit) in [("square", "bar", true, 4), ("tall", "flip", false, 8)] {
            let options = ["--comparator", comparator, "--max-memory-mb", "\(limit)"]
                + (pictures ? ["--heatmap", file("\(name)-heat.png"), "--triptych", file("\(name)-triptych.png")] : [])
            let (tiny, baseline) = try measured([file("tiny-a.png"), file("tiny-b.png")] + options)
            #expect(tiny.status == 1, "\(tiny.error)")
            let (run, peak) = try measured([file("\(name)-a.png"), file("\(name)-b.png")] + options)
            #expect(run.status == 1, "the pair differs in rows 500 to 800: \(run.output) \(run.error)")
            #expect(run.output.contains(comparator == "bar" ? "pixels over 2" : "flip: mean"), "\(run.output)")
            let pixels = 1024 * 1024
            let allowed = 4 * pixels / 1024
            #expect(peak - baseline < allowed, "\(name) \(comparator): \(peak - baseline) KB over the tiny run's \(baseline), allowed \(allowed)")
            if pictures {
                let heat = try Data(contentsOf: URL(fileURLWithPath: file("\(name)-heat.png")))
                let triptych = try Data(contentsOf: URL(fileURLWithPath: file("\(name)-triptych.png")))
                #expect(ImageDecoder.dimensions(of: heat)! == (1024, 1024))
                #expect(ImageDecoder.dimensions(of: triptych)! == (1024 * 3 + 8, 1024))
            }
        }
    }
}
