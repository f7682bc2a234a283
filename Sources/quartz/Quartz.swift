import ArgumentParser

@main
struct Quartz: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quartz",
        abstract: "Render Core Animation layer trees headless, on the GPU (EGL + GLES 3) and the CPU reference, and compare.",
        discussion: """
        Exit codes: 0 success; 1 images disagree (demo: a scene misses the GPU-vs-CPU bar; check: \
        the GPU and CPU renders of a scene document disagree; diff: the images do not match; bench: a \
        workload's frame missed the bar against the CPU reference); 2 bad \
        input (an unreadable file; a scene document with mistakes, each listed with its JSON path; a \
        bad option; an output that cannot be written, nothing partial left behind); 3 rendering \
        failed (no usable GL, a limit exceeded). With --json every subcommand prints one line of JSON \
        (schema prints its JSON always).

        GL device: OPENQUARTZ_EGL_PLATFORM=gbm|device|surfaceless picks the EGL platform (default: \
        try them in that order); OPENQUARTZ_EGL_DEVICE names a render node (gbm) or device index (device).
        """,
        subcommands: [RenderCommand.self, AnimateCommand.self, CheckCommand.self, SchemaCommand.self, DemoCommand.self,
                      DiffCommand.self, InfoCommand.self, FuzzDifferentialCommand.self, JoinCommand.self, BenchCommand.self]
    )
}

extension Quartz {
    /// ArgumentParser's own main, but a bad option (a value out of range, an unknown flag, a
    /// missing argument) exits 2, bad input, as `--help` documents, not 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            defer { GLWarmUp.wait() }
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                Foundation.exit(QuartzExit.badInput.rawValue)
            }
            exit(withError: error)
        }
    }
}

/// The exit codes `quartz --help` documents.
enum QuartzExit {
    static let disagreement = ExitCode(1)
    static let badInput = ExitCode(2)
    static let renderFailed = ExitCode(3)
}

/// Writes to standard error.
func printError(_ message: String) {
    var stderr = StandardError()
    print(message, to: &stderr)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandleShim.writeToStandardError(string)
    }
}

import Foundation

enum FileHandleShim {
    static func writeToStandardError(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
