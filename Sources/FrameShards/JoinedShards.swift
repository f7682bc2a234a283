import Foundation
import OpenCoreGraphics

/// The shards of one run found in some folders, checked: every shard finished, every frame of the
/// run in exactly one place, nothing from another run.
///
/// Folders are shared and their contents outside data: names are shown escaped (`JoinError.quoted`),
/// manifests are checked before their numbers size anything, and every frame is decoded before it
/// is called part of a complete run (`frame(at:)`), so a frame cut short is refused, not joined.
public struct JoinedShards {
    /// The first shard's manifest (all agree on the run).
    public let manifest: ShardManifest
    /// Frame 0, 1, ... of the run.
    public let frames: [URL]

    public init(folders: [URL]) throws {
        var manifests: [(url: URL, manifest: ShardManifest)] = []
        var found: [Int: [URL]] = [:]
        for folder in folders {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw JoinError("\(JoinError.quoted(folder.path)): not a folder of frames")
            }
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
                throw JoinError("\(JoinError.quoted(folder.path)): cannot be read (\(OutputFile.reason(error)))")
            }
            // Hidden names are writes a killed shard left unfinished (.frame-000012.png.PID.partial).
            for name in names.sorted() where !name.hasPrefix(".") {
                let url = folder.appendingPathComponent(name)
                if let (i, n) = ShardManifest.parseFileName(name) {
                    let manifest = try ShardManifest(contentsOf: url)
                    guard manifest.shard == i, manifest.shards == n else {
                        throw JoinError("\(JoinError.quoted(url.path)): named shard \(i) of \(n) but says shard \(manifest.shard) of \(manifest.shards)")
                    }
                    manifests.append((url, manifest))
                } else if let index = Self.frameIndex(name) {
                    found[index, default: []].append(url)
                }
            }
        }
        guard let first = manifests.first?.manifest else {
            throw JoinError("no shard has finished: none of \(folders.map { JoinError.quoted($0.path) }.joined(separator: ", ")) holds a shard-i-of-n.json "
                + "(each shard of quartz animate --shard i/n or --shards n writes one when its last frame is written)")
        }
        // One run: the same shard count, frames, size, rate and document.
        var byShard: [Int: URL] = [:]
        for (url, manifest) in manifests {
            let (name, firstName) = (JoinError.quoted(url.path), JoinError.quoted(manifests[0].url.path))
            if let field = Self.difference(manifest, first) {
                throw JoinError("\(name) and \(firstName) are shards of different runs: their \(field)")
            }
            if let other = byShard[manifest.shard] {
                throw JoinError("shard \(manifest.shard) of \(manifest.shards) finished twice: \(JoinError.quoted(other.path)) and \(name); keep one folder's")
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
            throw JoinError("frame \(index) is in \(urls.count) places: \(urls.prefix(4).map { JoinError.quoted($0.path) }.joined(separator: ", ")); keep one")
        }
        let strays = found.keys.filter { $0 >= first.totalFrames }.sorted()
        if !strays.isEmpty {
            throw JoinError("\(strays.count) frame(s) beyond the run's \(first.totalFrames): \(Self.runs(strays)), "
                + "e.g. \(JoinError.quoted(found[strays[0]]![0].path)); they belong to another run: remove them")
        }
        manifest = first
        frames = (0..<first.totalFrames).map { found[$0]![0] }
    }

    /// A frame's bytes and its pixels, checked: a PNG of the run's size that decodes whole (a
    /// frame cut short by a lost disk or a killed copy is refused here, before anything is written).
    /// The file is read up to the most a PNG of the run's size can take, never more.
    public func frame(at url: URL) throws -> (data: Data, image: CGImage) {
        let shown = JoinError.quoted(url.path)
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw JoinError("\(shown): cannot be read") }
        defer { try? handle.close() }
        // Stored (uncompressed) deflate blocks cost 5 bytes per 65,535; filter bytes one a row.
        let raw = manifest.width * manifest.height * 8 + manifest.height
        let most = raw + raw / 8_192 + (1 << 20)
        let data: Data
        do { data = try handle.read(upToCount: most + 1) ?? Data() } catch { throw JoinError("\(shown): cannot be read (\(OutputFile.reason(error)))") }
        guard data.count <= most else { throw JoinError("\(shown): over \(most) bytes, more than any PNG of \(manifest.width)x\(manifest.height)") }
        // The header's size, read as quartz diff reads it (ImageDecoder.dimensions), before decoding.
        guard ImageDecoder.format(of: data) == .png, String(decoding: data.dropFirst(12).prefix(4), as: UTF8.self) == "IHDR",
              let (width, height) = ImageDecoder.dimensions(of: data) else {
            throw JoinError("\(shown): not a PNG")
        }
        guard width == manifest.width, height == manifest.height else {
            throw JoinError("\(shown): \(width)x\(height), not \(manifest.width)x\(manifest.height) like the run")
        }
        let image: CGImage
        do { image = try CGImage.decodePNG(data, source: url.path) } catch {
            throw JoinError("\(shown): does not decode as a whole PNG (\(error)); the frame is damaged: run its shard again")
        }
        return (data, image)
    }

    /// frame-000012.png -> 12.
    public static func frameIndex(_ name: String) -> Int? {
        guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return nil }
        let digits = name.dropFirst("frame-".count).dropLast(".png".count)
        guard digits.count >= 6, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits)
    }

    /// The first field in which two manifests differ, as a phrase; nil when they are one run's.
    public static func difference(_ a: ShardManifest, _ b: ShardManifest) -> String? {
        if a.shards != b.shards { return "shard counts differ (\(a.shards) and \(b.shards))" }
        if a.totalFrames != b.totalFrames { return "frame counts differ (\(a.totalFrames) and \(b.totalFrames))" }
        if a.width != b.width || a.height != b.height { return "sizes differ (\(a.width)x\(a.height) and \(b.width)x\(b.height))" }
        if a.fps != b.fps { return "rates differ (\(a.fps) and \(b.fps) fps)" }
        if a.pngCompression != b.pngCompression { return "PNG compressions differ (\(a.pngCompression) and \(b.pngCompression))" }
        if a.run != b.run { return "documents or options differ (\(JoinError.quoted(a.run, limit: 200)) | \(JoinError.quoted(b.run, limit: 200)))" }
        return nil
    }

    public static func describe(_ range: Range<Int>) -> String { range.isEmpty ? "none" : "\(range.lowerBound)-\(range.upperBound - 1)" }

    /// Sorted indices as runs: "3, 7-9, 12" (at most 8 runs, then "...").
    public static func runs(_ indices: [Int]) -> String {
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
