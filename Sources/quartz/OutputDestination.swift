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

extension OutputDestination {
    /// Refuses an output that is one of the command's own inputs (the same file, by device and
    /// inode, through any link or spelling): `quartz diff a.png b.png --heatmap a.png` would
    /// replace the image it compares, `quartz render s.json -o s.json` the document it renders.
    static func checkNotAnInput(_ outputs: [String?], inputs: [String?]) throws(OutputPathError) {
        func identity(_ path: String) -> (UInt64, UInt64)? {
            var info = stat()
            guard !isStandardOutput(path), stat(path, &info) == 0 else { return nil }
            return (UInt64(info.st_dev), UInt64(info.st_ino))
        }
        let read = inputs.compactMap { $0 }.compactMap { path in identity(path).map { (path, $0) } }
        for case let output? in outputs {
            guard let id = identity(output), let input = read.first(where: { $0.1 == id }) else { continue }
            throw OutputPathError(path: output, reason: "it is the input \(input.0) of this command (nothing was replaced)")
        }
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
    /// renamed over the destination (`OutputFile.write`), so a failed or interrupted run leaves no
    /// partial file and never removes anything that is not a regular file. Errors name `path`, as
    /// the user gave it.
    func write(_ data: Data, named path: String, links: OutputFile.Links = .followed) throws {
        switch self {
        case .standardOutput:
            do { try OutputFile.writeAll(data, to: STDOUT_FILENO, path: path) } catch let error as OutputFileError {
                throw OutputWriteError(path: path, reason: error.reason)
            }
        case .file:
            do { try OutputFile.write(data, to: path, links: links, guarding: InterruptCleanup.guarding(temporary:_:)) }
            catch let error as OutputFileError { throw OutputWriteError(path: path, reason: error.reason) }
        }
    }
}

/// Checks `path` and writes `data` there (see `OutputDestination`). `links: .refused` for a file
/// inside an output folder (a frame, a manifest): a link at its name is refused, not followed.
func writeOutput(_ data: Data, to path: String, links: OutputFile.Links = .followed) throws {
    if links == .refused, let refusal = OutputFile.refusal(at: path, links: .refused) { throw OutputPathError(path: path, reason: refusal) }
    try OutputDestination.resolve(path).write(data, named: path, links: links)
}

/// Checks `path` and writes a `width` x `height` PNG there whose rows `draw` writes one at a time
/// (a picture too large to hold whole): to standard output, or atomically to a file.
func writeRows(to path: String, width: Int, height: Int, draw: (PNGRowWriter) throws -> Void) throws {
    func rows(_ fd: Int32) throws {
        let writer = try PNGRowWriter(fd: fd, width: width, height: height, destination: path)
        try draw(writer)
        try writer.finish()
    }
    switch try OutputDestination.resolve(path) {
    case .standardOutput: try rows(STDOUT_FILENO)
    case .file:
        do { try OutputFile.write(to: path, links: .followed, guarding: InterruptCleanup.guarding(temporary:_:), content: rows) }
        catch let error as OutputFileError { throw OutputWriteError(path: path, reason: error.reason) }
    }
}
