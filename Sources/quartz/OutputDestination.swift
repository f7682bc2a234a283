import Foundation
import OpenQuartzCore

/// Where a command writes a file, checked before anything is rendered. A command never removes
/// or replaces what is not a file of its own kind: an existing folder, a device node, a FIFO or
/// a socket at the output path is refused (exit 2, naming the path), never deleted. A link to a
/// regular file is written through (the link stays, its target is replaced). `-` and
/// `/dev/stdout` stream to standard output.
enum OutputDestination: Equatable {
    case standardOutput
    /// A regular file, to be replaced atomically; the path with any link resolved.
    case file(URL)

    /// Names for standard output.
    static func isStandardOutput(_ path: String) -> Bool { path == "-" || path == "/dev/stdout" }

    /// Checks `path` as an output file: what is there now (nothing, or a regular file, or a link
    /// to one) and that its folder exists.
    static func resolve(_ path: String) throws(OutputPathError) -> OutputDestination {
        if isStandardOutput(path) { return .standardOutput }
        guard !path.isEmpty else { throw OutputPathError(path: path, reason: "the path is empty") }
        if let refusal = OutputFile.refusal(at: path) { throw OutputPathError(path: path, reason: refusal) }
        // Nothing there, a regular file, or a link to one: the file itself is what gets replaced.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        if FileManager.default.fileExists(atPath: target.path) { return .file(target) }
        let folder = target.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw OutputPathError(path: path, reason: "its folder \(folder.path) does not exist")
        }
        return .file(target)
    }
}

/// An output path that cannot be written; its description names the path as the user gave it.
struct OutputPathError: LocalizedError, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "cannot write \(path): \(reason)" }
    var errorDescription: String? { description }
}

/// A failed write, named by the output path the user gave (never the hidden temporary file).
struct OutputWriteError: LocalizedError, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "cannot write \(path): \(reason)" }
    var errorDescription: String? { description }
}

extension OutputDestination {
    /// Writes `data` here: to standard output, or through a temporary file in the same folder
    /// renamed over the destination, so a failed or interrupted run leaves no partial file and
    /// never removes anything that is not a regular file. Errors name `path`, as the user gave it.
    func write(_ data: Data, named path: String) throws {
        switch self {
        case .standardOutput: try writeAll(data, to: STDOUT_FILENO, path: path)
        case .file(let url): try writeAtomically(data, to: url, named: path)
        }
    }
}

/// Checks `path` and writes `data` there (see `OutputDestination`).
func writeOutput(_ data: Data, to path: String) throws {
    try OutputDestination.resolve(path).write(data, named: path)
}

/// Writes `data` to the regular file at `url` (a path `OutputDestination.resolve` accepted, links
/// resolved) atomically; errors name `name` (the path as the user gave it), not the temporary file.
private func writeAtomically(_ data: Data, to url: URL, named name: String) throws {
    let temporary = url.deletingLastPathComponent()
        .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).partial")
    try InterruptCleanup.guarding(temporary: temporary) {
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw OutputWriteError(path: name, reason: String(cString: strerror(errno))) }
        do {
            try writeAll(data, to: fd, path: name)
        } catch {
            close(fd)
            unlink(temporary.path)
            throw error
        }
        // A file replaced keeps its permissions.
        var existing = stat()
        if stat(url.path, &existing) == 0 { fchmod(fd, existing.st_mode & 0o7777) }
        // close reports what a write could not (a network file system's quota); fd is gone either way.
        guard close(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw OutputWriteError(path: name, reason: reason)
        }
        // Just before the rename, again: nothing but a regular file is ever replaced (rename(2)
        // would replace a device node or a FIFO too).
        if let refusal = OutputFile.refusal(at: url.path) {
            unlink(temporary.path)
            throw OutputPathError(path: name, reason: refusal)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw OutputWriteError(path: name, reason: reason)
        }
    }
}

/// Writes every byte of `data` to `fd`, retrying short writes and interruptions.
private func writeAll(_ data: Data, to fd: Int32, path: String) throws {
    try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
        var offset = 0
        while offset < buffer.count {
            let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw OutputWriteError(path: path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
    }
}
