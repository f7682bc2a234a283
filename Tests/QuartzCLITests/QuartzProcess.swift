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
    try runProcess(try quartzBinary(), arguments, input: input, environment: environment)
}

/// Runs a shell command line (bash), capturing its output.
func shell(_ command: String) throws -> Run {
    try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", command])
}

/// Runs a program to its end: its output and error read on two threads and its input written on
/// a third, since a process may fill one pipe while another is read.
func runProcess(_ executable: URL, _ arguments: [String], input: Data? = nil, environment: [String: String] = [:]) throws -> Run {
    let process = Process()
    process.executableURL = executable
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
        // A program may exit without reading its input (a refused option): the write then fails
        // with EPIPE, which `try?` takes, instead of SIGPIPE ending the whole test process.
        signal(SIGPIPE, SIG_IGN)
        DispatchQueue.global().async {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
    }
    let group = DispatchGroup()
    nonisolated(unsafe) var error = Data()
    group.enter()
    DispatchQueue.global().async {
        error = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let output = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal, output: String(decoding: output, as: UTF8.self),
               error: String(decoding: error, as: UTF8.self), outputData: output)
}

func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

