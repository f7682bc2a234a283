import Foundation
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
}

enum FrameSinks {
    enum Kind: String { case folder, apng, gif, mp4 }

    static func kind(of path: String) -> Kind {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
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
    init(folder: URL) throws {
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    static func name(_ index: Int) -> String { String(format: "frame-%06d.png", index) }
    func encode(_ image: CGImage) throws -> Any { try image.pngData() }
    func write(_ encoded: Any, index: Int) throws {
        try writeAtomically(encoded as! Data, to: folder.appendingPathComponent(PNGFolderSink.name(index)))
    }
    func finish() throws {}
}

final class AnimatedPNGSink: FrameSink {
    let url: URL
    var encoder: AnimatedPNGEncoder
    init(url: URL, width: Int, height: Int, fps: Double) {
        self.url = url
        encoder = AnimatedPNGEncoder(width: width, height: height, fps: fps)
    }
    func encode(_ image: CGImage) throws -> Any { try image.pngData() }
    func write(_ encoded: Any, index: Int) throws { try encoder.add(png: encoded as! Data) }
    func finish() throws { try writeAtomically(encoder.encoded(), to: url) }
}

final class GIFSink: FrameSink {
    let url: URL
    var encoder: GIFEncoder
    init(url: URL, width: Int, height: Int, fps: Double) {
        self.url = url
        encoder = GIFEncoder(width: width, height: height, fps: fps)
    }
    func encode(_ image: CGImage) throws -> Any { try GIFEncoder.quantize(image.bitmap) }
    func write(_ encoded: Any, index: Int) throws { try encoder.add(encoded as! GIFEncoder.Frame) }
    func finish() throws { try writeAtomically(try encoder.encoded(), to: url) }
}

/// Raw RGBA frames piped into ffmpeg (H.264, yuv420p), which writes a temporary file renamed on
/// success.
final class FFmpegSink: FrameSink {
    let url: URL
    let temporary: URL
    let process = Process()
    let input = Pipe()
    let errors = Pipe()

    init(ffmpeg: URL, url: URL, width: Int, height: Int, fps: Double) throws {
        self.url = url
        temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial.mp4")
        process.executableURL = ffmpeg
        process.arguments = ["-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)",
                             "-r", String(fps), "-i", "-", "-pix_fmt", "yuv420p", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2",
                             temporary.path]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
    }

    // ffmpeg reads straight colour over black: the premultiplied pixels are exactly that.
    func encode(_ image: CGImage) throws -> Any { Data(image.bitmap.pixels) }
    func write(_ encoded: Any, index: Int) throws {
        try input.fileHandleForWriting.write(contentsOf: encoded as! Data)
    }

    func finish() throws {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "ffmpeg failed: \(message)"])
        }
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
        try FileManager.default.moveItem(at: temporary, to: url)
    }
}
