import ArgumentParser
import Foundation
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
        if let output {
            do { try write(shards, to: output) } catch let exit as ExitCode { throw exit } catch {
                printError("quartz join: \(error)")
                throw QuartzExit.badInput
            }
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
            // The shared folder itself: complete is all there is to say.
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
                let data = try shards.frameData(at: url)
                switch kind {
                // The frames' PNG bytes as the shards wrote them: what animate hands these sinks.
                case .folder, .apng: try sink.write(data, index: index)
                // Decoded: PNG keeps straight colour, and premultiplying it again gives back the
                // rendered pixels exactly (each straight value lies within half a step of the
                // premultiplied one times 255 / alpha).
                case .gif, .mp4: try sink.write(try sink.encode(try CGImage.decodePNG(data, source: url.path)), index: index)
                }
            }
            try sink.finish()
        } catch {
            sink.abandon()
            throw error
        }
    }
}

/// The shards of one run found in some folders, checked: every shard finished, every frame of the
/// run in exactly one place, nothing from another run.
struct JoinedShards {
    /// The first shard's manifest (all agree on the run).
    let manifest: ShardManifest
    /// Frame 0, 1, ... of the run.
    let frames: [URL]

    init(folders: [URL]) throws {
        var manifests: [(url: URL, manifest: ShardManifest)] = []
        var found: [Int: [URL]] = [:]
        for folder in folders {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw JoinError("\(folder.path): not a folder of frames")
            }
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
                throw JoinError("\(folder.path): cannot be read (\((error as NSError).localizedFailureReason ?? error.localizedDescription))")
            }
            // Hidden names are writes a killed shard left unfinished (.frame-000012.png.PID.partial).
            for name in names.sorted() where !name.hasPrefix(".") {
                let url = folder.appendingPathComponent(name)
                if ShardManifest.parseFileName(name) != nil {
                    manifests.append((url, try ShardManifest(contentsOf: url)))
                } else if let index = Self.frameIndex(name) {
                    found[index, default: []].append(url)
                }
            }
        }
        guard let first = manifests.first?.manifest else {
            throw JoinError("no shard has finished: none of \(folders.map(\.path).joined(separator: ", ")) holds a shard-i-of-n.json "
                + "(each shard of quartz animate --shard i/n or --shards n writes one when its last frame is written)")
        }
        // One run: the same shard count, frames, size, rate and document.
        var byShard: [Int: URL] = [:]
        for (url, manifest) in manifests {
            let (name, firstName) = (url.path, manifests[0].url.path)
            if let field = Self.difference(manifest, first) {
                throw JoinError("\(name) and \(firstName) are shards of different runs: their \(field)")
            }
            if let other = byShard[manifest.shard] {
                throw JoinError("shard \(manifest.shard) of \(manifest.shards) finished twice: \(other.path) and \(name); keep one folder's")
            }
            let expected = ShardManifest.range(shard: manifest.shard, of: manifest.shards, frames: manifest.totalFrames)
            guard manifest.range == expected else {
                throw JoinError("\(name): shard \(manifest.shard) of \(manifest.shards) claims frames \(Self.describe(manifest.range)), "
                    + "but that shard of \(manifest.totalFrames) frames is \(Self.describe(expected))")
            }
            byShard[manifest.shard] = url
        }
        let unfinished = (1...first.shards).filter { byShard[$0] == nil }
        if !unfinished.isEmpty {
            let list = unfinished.prefix(8).map { "shard \($0) of \(first.shards) (frames \(Self.describe(ShardManifest.range(shard: $0, of: first.shards, frames: first.totalFrames))))" }
            throw JoinError("\(unfinished.count) shard(s) have not finished (no shard-i-of-n.json): \(list.joined(separator: ", "))"
                + (unfinished.count > 8 ? ", ..." : "") + "; run them again")
        }
        // Every frame in exactly one place.
        let missing = (0..<first.totalFrames).filter { found[$0] == nil }
        if !missing.isEmpty {
            throw JoinError("\(missing.count) frame(s) missing though their shards finished: \(Self.runs(missing)) "
                + "(frame-NNNNNN.png removed or lost since; run those shards again)")
        }
        if let (index, urls) = found.filter({ $0.value.count > 1 }).min(by: { $0.key < $1.key }) {
            throw JoinError("frame \(index) is in \(urls.count) places: \(urls.map(\.path).joined(separator: ", ")); keep one")
        }
        let strays = found.keys.filter { $0 >= first.totalFrames }.sorted()
        if !strays.isEmpty {
            throw JoinError("\(strays.count) frame(s) beyond the run's \(first.totalFrames): \(Self.runs(strays)), "
                + "e.g. \(found[strays[0]]![0].path); they belong to another run: remove them")
        }
        manifest = first
        frames = (0..<first.totalFrames).map { found[$0]![0] }
    }

    /// A frame's bytes, checked to be a PNG of the run's size (its header, not a decode).
    func frameData(at url: URL) throws -> Data {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw JoinError("\(url.path): cannot be read") }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard data.count >= 24, Array(data.prefix(8)) == signature, String(decoding: data[12..<16], as: UTF8.self) == "IHDR" else {
            throw JoinError("\(url.path): not a PNG")
        }
        let width = data[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = data[20..<24].reduce(0) { $0 << 8 | Int($1) }
        guard width == manifest.width, height == manifest.height else {
            throw JoinError("\(url.path): \(width)x\(height), not \(manifest.width)x\(manifest.height) like the run")
        }
        return data
    }

    /// frame-000012.png -> 12.
    static func frameIndex(_ name: String) -> Int? {
        guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return nil }
        let digits = name.dropFirst("frame-".count).dropLast(".png".count)
        guard digits.count >= 6, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits)
    }

    /// The first field in which two manifests differ, as a phrase; nil when they are one run's.
    static func difference(_ a: ShardManifest, _ b: ShardManifest) -> String? {
        if a.shards != b.shards { return "shard counts differ (\(a.shards) and \(b.shards))" }
        if a.totalFrames != b.totalFrames { return "frame counts differ (\(a.totalFrames) and \(b.totalFrames))" }
        if a.width != b.width || a.height != b.height { return "sizes differ (\(a.width)x\(a.height) and \(b.width)x\(b.height))" }
        if a.fps != b.fps { return "rates differ (\(a.fps) and \(b.fps) fps)" }
        if a.pngCompression != b.pngCompression { return "PNG compressions differ (\(a.pngCompression) and \(b.pngCompression))" }
        if a.run != b.run { return "documents or options differ (\(a.run) | \(b.run))" }
        return nil
    }

    static func describe(_ range: Range<Int>) -> String { range.isEmpty ? "none" : "\(range.lowerBound)-\(range.upperBound - 1)" }

    /// Sorted indices as runs: "3, 7-9, 12" (at most 8 runs, then "...").
    static func runs(_ indices: [Int]) -> String {
        var parts: [String] = []
        var start = indices[0], end = indices[0]
        for index in indices.dropFirst() {
            if index == end + 1 { end = index; continue }
            parts.append(start == end ? "\(start)" : "\(start)-\(end)")
            start = index; end = index
        }
        parts.append(start == end ? "\(start)" : "\(start)-\(end)")
        return parts.prefix(8).joined(separator: ", ") + (parts.count > 8 ? ", ..." : "")
    }
}
