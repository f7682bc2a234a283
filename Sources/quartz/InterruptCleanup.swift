import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM while files are written: the handler waits for a write in progress
/// to finish its rename, removes any temporary file, and exits with 130 (128 + SIGINT). So an
/// interrupted `quartz animate` leaves whole frames only, never a `.partial` file.
enum InterruptCleanup {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var inFlight: Set<String> = []
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Installs the handlers (once; later calls do nothing).
    static func install() {
        lock.lock()
        defer { lock.unlock() }
        guard sources.isEmpty else { return }
        for (number, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                lock.lock()
                for path in inFlight { unlink(path) }
                let note = "quartz: interrupted; the files written so far are complete\n"
                _ = note.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
                _exit(status)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Runs `body`, which writes `temporary` and renames it into place, as one step an
    /// interruption cannot split: the handler runs before it starts or after it ends, and removes
    /// the temporary file if it is still there.
    static func guarding(temporary: URL, _ body: () throws -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        inFlight.insert(temporary.path)
        defer { inFlight.remove(temporary.path) }
        try body()
    }
}
