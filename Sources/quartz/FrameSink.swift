import Foundation
import FrameShards
import OpenQuartzCore

/// Where `quartz animate` puts its frames, chosen by the output's extension: a folder of PNGs
/// (no extension), an animated PNG (.png, .apng), a GIF (.gif) or an MP4 through ffmpeg (.mp4).
/// Frames are encoded on several threads at once and written in order on one; `finish` writes
/// the file atomically.
protocol FrameSink: AnyObject {
    /// The frame's bytes (or other encoded form); called from several threads at once.
    func encode(_ image: CGImage) throws -> Any
    /// Takes the encoded frames in order, one at a time.
    func write(_ encoded: Any, index: Int) throws
    func finish() throws
    /// After a failure: leaves nothing behind that this run made and did not finish.
    func abandon()
}

enum FrameSinks {
    enum Kind: String { case folder, apng, gif, mp4 }

    static func kind(of path: String) -> Kind {
        if OutputDestination.isStandardOutput(path) { return .apng }
        return switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "png", "apng": .apng
        case "gif": .gif
        case "mp4": .mp4
        default: .folder
        }
    }

    /// The ffmpeg on PATH, if any.
    static func ffmpeg() -> URL? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("ffmpeg")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}

/// frame-000000.png, frame-000001.png, ... numbered by the frame's place in the whole animation,
/// so the folders of several shards merge into the folder of one run.
final class PNGFolderSink: FrameSink {
    let folder: URL
    /// Whether this run made the folder (it is removed again if the run fails before a frame).
    private let created: Bool

    /// Refuses an output folder path where something other than a folder (or a link to one) is.
    static func check(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw OutputPathError(path: path, reason: "it is not a folder (an output without an extension is a folder of frames; nothing was replaced)")
        }
    }

    /// How hard each frame's PNG is compressed (`quartz animate --png-compression`).
    let compression: CGImage.PNGCompression

    /// `frames`: the frames this run writes; temporary files a killed run left for them and for
    /// `files` (the frames are this run's alone: a shard owns its range, and its manifest) are
    /// removed first.
    init(folder: URL, compression: CGImage.PNGCompression = .small, frames: Range<Int>? = nil, also files: [String] = []) throws {
        self.folder = folder
        self.compression = compression
        try PNGFolderSink.check(folder.path)
        created = !FileManager.default.fileExists(atPath: folder.path)
        do { try OutputFile.makeFolder(folder.path) } catch let error as OutputFileError {
            throw OutputWriteError(path: folder.path, reason: error.reason)
        }
        if let frames { Self.removeStaleTemporaries(in: folder, frames: frames, also: files) }
    }

    /// Removes `.frame-NNNNNN.png.*.partial` for the frames in `frames`, left by a run killed
    /// mid-write (a pod lost to OOM or its grace period). Only regular files and links are
    /// removed (`unlink` removes a link, never what it names).
    static func removeStaleTemporaries(in folder: URL, frames: Range<Int>, also files: [String] = []) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".partial") {
            var stale = files.contains { OutputFile.isTemporary(name, for: $0) }
            // `.frame-000012.png.<writer>.partial` -> frame-000012.png.
            if !stale, let end = name.range(of: ".png.") {
                let file = String(name[name.index(after: name.startIndex)..<end.lowerBound]) + ".png"
                if let index = JoinedShards.frameIndex(file) { stale = frames.contains(index) && OutputFile.isTemporary(name, for: file) }
            }
            if stale { unlink(folder.appendingPathComponent(name).path) }
        }
    }

    static func name(_ index: Int) -> String { String(format: "frame-%06d.png", index) }
    func encode(_ image: CGImage) throws -> Any { try image.pngData(compression: compression) }
    func write(_ encoded: Any, index: Int) throws {
        // A file inside the output folder: a link planted at its name is refused, never followed.
        try writeOutput(encoded as! Data, to: folder.appendingPathComponent(PNGFolderSink.name(index)).path, links: .refused)
    }
    func finish() throws {}
    func abandon() {
        // Only a folder this run made, and only while it is empty (rmdir refuses anything else).
        if created { rmdir(folder.path) }
    }
}

/// A file written whole at the end (an animated PNG, a GIF), atomically, where `OutputDestination`
/// allows; nothing to undo on failure.
final class AnimatedPNGSink: FrameSink {
    let path: String
    var encoder: AnimatedPNGEncoder
    let compression: CGImage.PNGCompression
    init(path: String, width: Int, height: Int, fps: Double, compression: CGImage.PNGCompression = .small) {
        self.path = path
        self.compression = compression
        encoder = AnimatedPNGEncoder(width: width, height: height, fps: fps)
    }
    func encode(_ image: CGImage) throws -> Any { try image.pngData(compression: compression) }
    func write(_ encoded: Any, index: Int) throws { try encoder.add(png: encoded as! Data) }
    func finish() throws { try writeOutput(encoder.encoded(), to: path) }
    func abandon() {}
}

final class GIFSink: FrameSink {
    let path: String
    var encoder: GIFEncoder
    init(path: String, width: Int, height: Int, fps: Double) {
        self.path = path
        encoder = GIFEncoder(width: width, height: height, fps: fps)
    }
    func encode(_ image: CGImage) throws -> Any { try GIFEncoder.quantize(image.bitmap) }
    func write(_ encoded: Any, index: Int) throws { try encoder.add(encoded as! GIFEncoder.Frame) }
    func finish() throws { try writeOutput(try encoder.encoded(), to: path) }
    func abandon() {}
}

/// Raw RGBA frames piped into ffmpeg (H.264, yuv420p), which writes a temporary file; on success
/// its bytes are written to the output as any other file is (`OutputDestination`).
final class FFmpegSink: FrameSink {
    let path: String
    let temporary: URL
    let process = Process()
    let input = Pipe()
    let errors = Pipe()

    init(ffmpeg: URL, path: String, width: Int, height: Int, fps: Double) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        temporary = url.deletingLastPathComponent().appendingPathComponent(OutputFile.temporaryName(for: url.lastPathComponent) + ".mp4")
        process.executableURL = ffmpeg
        process.arguments = ["-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)",
                             "-r", String(fps), "-i", "-", "-pix_fmt", "yuv420p", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2",
                             temporary.path]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        // A write to an ffmpeg that has exited (a bad option, a full disk) must come back as an
        // error this run reports with ffmpeg's own words; by default it is SIGPIPE, which ends
        // quartz silently with the output half made.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
    }

    // ffmpeg reads straight colour over black: the premultiplied pixels are exactly that.
    func encode(_ image: CGImage) throws -> Any { Data(image.bitmap.pixels) }
    func write(_ encoded: Any, index: Int) throws {
        do {
            try input.fileHandleForWriting.write(contentsOf: encoded as! Data)
        } catch {
            // ffmpeg stopped reading: what it said is the reason, not the broken pipe.
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            unlink(temporary.path)
            throw failure(status: process.terminationStatus, at: index)
        }
    }

    /// ffmpeg's exit status and what it wrote to its standard error, as the error this run reports.
    private func failure(status: Int32, at index: Int? = nil) -> OutputWriteError {
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let when = index.map { " before taking frame \($0)" } ?? ""
        return OutputWriteError(path: path, reason: "ffmpeg failed\(when) (exit status \(status))" + (said.isEmpty ? "" : ": \(said)"))
    }

    func finish() throws {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        defer { unlink(temporary.path) }
        guard process.terminationStatus == 0 else { throw failure(status: process.terminationStatus) }
        guard let video = FileManager.default.contents(atPath: temporary.path) else {
            throw OutputWriteError(path: path, reason: "ffmpeg wrote no file")
        }
        try writeOutput(video, to: path)
    }

    func abandon() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        unlink(temporary.path)
    }
}
