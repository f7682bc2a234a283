// The quartz command as a person runs it: a real process, its output and its exit codes.
import Foundation
import OpenCoreGraphics
import Testing

private struct Run {
    let status: Int32
    let output: String
    let error: String
}

/// Runs the `quartz` built beside the test bundle.
private func quartz(_ arguments: [String]) throws -> Run {
    let directory = Bundle.main.executableURL!.deletingLastPathComponent()
    let binary = directory.appendingPathComponent("quartz")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path),
                 "quartz is not built at \(binary.path): run `swift build` first")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let error = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
               error: String(decoding: error, as: UTF8.self))
}

private func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

private func writeGray(_ value: UInt8, to url: URL) throws {
    try CGImage(bitmap: Bitmap(width: 20, height: 10) { _, _ in (value, value, value, 255) }).writePNG(to: url)
}

@Suite("quartz command")
struct QuartzCLITests {
    @Test("--help documents the subcommands and the exit codes")
    func help() throws {
        let run = try quartz(["--help"])
        #expect(run.status == 0)
        for word in ["info", "demo", "diff", "Exit codes", "OPENQUARTZ_EGL_PLATFORM"] {
            #expect(run.output.contains(word), "help lacks \(word)")
        }
    }

    @Test("info names the EGL platform and the GL renderer")
    func info() throws {
        let run = try quartz(["info"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("EGL platform:") && run.output.contains("GL renderer:"))
        #expect(run.output.contains("max texture:"))
    }

    @Test("diff of identical images succeeds and reports no delta")
    func diffIdentical() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.png")
        try writeGray(100, to: a)
        let run = try quartz(["diff", a.path, a.path])
        #expect(run.status == 0 && run.output.contains("max delta 0"))
    }

    @Test("diff over the tolerance exits 1 and writes the heat map")
    func diffOverTolerance() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.png"), b = folder.appendingPathComponent("b.png")
        let heat = folder.appendingPathComponent("heat.png")
        try writeGray(100, to: a)
        try writeGray(120, to: b)
        let run = try quartz(["diff", a.path, b.path, "--heatmap", heat.path])
        #expect(run.status == 1)
        #expect(run.error.contains("over the tolerance"))
        #expect(try CGImage.load(contentsOf: heat).width == 20)
        #expect(try quartz(["diff", a.path, b.path, "--tolerance", "20"]).status == 0)
    }

    @Test("diff of an unreadable file exits 2 and names it")
    func diffBadInput() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.png"), broken = folder.appendingPathComponent("broken.png")
        try Data("not a png".utf8).write(to: broken)
        let run = try quartz(["diff", missing.path, broken.path])
        #expect(run.status == 2 && run.error.contains(missing.path))
        let second = try quartz(["diff", broken.path, broken.path])
        #expect(second.status == 2 && second.error.contains(broken.path))
    }

    @Test("demo renders the chosen scenes on both backends and writes images, heat maps and a summary")
    func demo() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try quartz(["demo", "--only", "crawl-m24", "--out", folder.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("1 of 1 scenes agree"))
        for file in ["crawl-m24.cpu.png", "crawl-m24.gpu.png", "crawl-m24.heatmap.png", "summary.txt"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "\(file) missing")
        }
    }
}
