// Runs the `quartz` built beside the test bundle as a person would: a real process, its output,
// its exit status.
import Foundation
import Testing

struct Run {
    let status: Int32
    /// Killed by a signal (a trap: SIGILL, SIGTRAP), not exited.
    let signaled: Bool
    let output: String
    let error: String
    /// Standard output as bytes (an image streamed there).
    let outputData: Data
}

/// The `quartz` built beside the test bundle.
func quartzBinary() throws -> URL {
    let directory = Bundle.main.executableURL!.deletingLastPathComponent()
    let binary = directory.appendingPathComponent("quartz")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path),
                 "quartz is not built at \(binary.path): run `swift build` first")
    return binary
}

/// Runs the `quartz` built beside the test bundle; `environment` adds to (or replaces names of)
/// the test's own.
func quartz(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:]) throws -> Run {
    let process = Process()
    process.executableURL = try quartzBinary()
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let stdin = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    if let input {
        // Written on another thread: the process may fill its output pipes before reading it all.
        DispatchQueue.global().async {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
    }
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let error = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal, output: String(decoding: output, as: UTF8.self),
               error: String(decoding: error, as: UTF8.self), outputData: output)
}

func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

