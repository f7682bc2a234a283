import ArgumentParser
import Foundation
import FrameShards
import OpenQuartzCore

/// `quartz join`: the frames of every shard of a run (`quartz animate --shard i/n` or `--shards
/// n`), from one shared folder or one folder per shard, checked complete and assembled into what
/// one unsharded `animate` would have written.
struct JoinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Check the frames of a sharded animate run and assemble them: a folder, an animated PNG, a GIF or an MP4.",
        discussion: """
        Reads the shard manifests (shard-i-of-n.json, written by each shard when it finishes) and the frames \
        (frame-NNNNNN.png) in the folders given, and refuses, naming them, shards that have not finished, frames \
        missing or in two places, frames that belong to no shard, and shards of different runs (another scene, \
        size, rate or backend). Without --output it only checks. The output is byte for byte what one unsharded \
        quartz animate writes with the same options: a folder gets the frames' files; an animated PNG their \
        compressed data as they are; a GIF or an MP4 (through ffmpeg) their decoded pixels. Exit codes: 0 \
        complete (and written); 2 incomplete, mixed or unreadable shards, or an output that cannot be written.
        """)

    @Argument(help: "The shards' folders (one shared folder, or one per shard).") var folders: [String]
    @Option(name: .shortAndLong, help: "A folder, or a .png/.apng, .gif or .mp4 file; - streams an animated PNG to standard output.")
    var output: String?
    @Flag(help: "Print the result as one line of JSON.") var json = false

    func run() throws {
        let shards: JoinedShards
        do { shards = try JoinedShards(folders: folders.map { URL(fileURLWithPath: $0) }) } catch {
            printError("quartz join: \(error)")
            throw QuartzExit.badInput
        }
        let manifest = shards.manifest
        let start = Date()
        do {
            // Complete means every frame decodes whole, not only that its name is there; checked
            // for all of them before a byte is joined, so a damaged frame leaves no output at all.
            for url in shards.frames { _ = try shards.frame(at: url) }
            if let output { try write(shards, to: output) }
        } catch let exit as ExitCode { throw exit } catch {
            printError("quartz join: \(error)")
            throw QuartzExit.badInput
        }
        let seconds = Date().timeIntervalSince(start)
        let report: (String) -> Void = output.map(OutputDestination.isStandardOutput) == true ? { printError($0) } : { print($0) }
        if json {
            report(jsonLine(["frames": manifest.totalFrames, "shards": manifest.shards, "width": manifest.width, "height": manifest.height,
                             "fps": manifest.fps, "output": output.map { OutputDestination.isStandardOutput($0) ? "-" : $0 } ?? NSNull(),
                             "seconds": seconds]))
        } else {
            report("\(manifest.totalFrames) frames \(manifest.width)x\(manifest.height) from \(manifest.shards) shard(s), complete"
                + (output.map { "; written to \($0) in \(String(format: "%.2f", seconds)) s" } ?? ""))
        }
    }

    private func write(_ shards: JoinedShards, to output: String) throws {
        let manifest = shards.manifest
        let kind = FrameSinks.kind(of: output)
        if kind == .folder {
            try PNGFolderSink.check(output)
            // The shared folder itself: complete (every frame decoding whole) is all there is to say.
            let target = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath()
            if shards.frames.allSatisfy({ $0.deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath() == target }) { return }
        } else {
            _ = try OutputDestination.resolve(output)
        }
        let sink: FrameSink
        switch kind {
        case .folder: sink = try PNGFolderSink(folder: URL(fileURLWithPath: output))
        case .apng: sink = AnimatedPNGSink(path: output, width: manifest.width, height: manifest.height, fps: manifest.fps)
        case .gif: sink = GIFSink(path: output, width: manifest.width, height: manifest.height, fps: manifest.fps)
        case .mp4:
            guard let ffmpeg = FrameSinks.ffmpeg() else {
                throw JoinError("writing MP4 needs ffmpeg on PATH, and there is none; install it (apt-get install ffmpeg) or write a folder, .png (animated) or .gif")
            }
            sink = try FFmpegSink(ffmpeg: ffmpeg, path: output, width: manifest.width, height: manifest.height, fps: manifest.fps)
        }
        do {
            for (index, url) in shards.frames.enumerated() {
                // Read and decoded again as it is joined: a frame changed since the check is refused too.
                let (data, image) = try shards.frame(at: url)
                switch kind {
                // The frames' PNG bytes as the shards wrote them: what animate hands these sinks.
                case .folder, .apng: try sink.write(data, index: index)
                // Decoded: PNG keeps straight colour, and premultiplying it again gives back the
                // rendered pixels exactly (each straight value lies within half a step of the
                // premultiplied one times 255 / alpha).
                case .gif, .mp4: try sink.write(try sink.encode(image), index: index)
                }
            }
            try sink.finish()
        } catch {
            sink.abandon()
            throw error
        }
    }
}
