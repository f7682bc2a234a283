import Foundation
import PixelDiff

/// What a finished shard of `quartz animate` leaves beside its frames: `shard-I-of-N.json` in the
/// frames' folder, written last (atomically, after every frame), so a shard killed mid-run has
/// none and `quartz join` can tell "not finished" from "finished with fewer frames". It also says
/// which run the frames belong to (`run`: the document's bytes and every option that changes a
/// frame), so frames of another scene or another size are refused rather than mixed in.
struct ShardManifest: Equatable {
    static let format = "openquartz-shard"
    /// 1-based, as `--shard i/n` counts.
    let shard: Int
    let shards: Int
    /// This shard's frames: `firstFrame ..< firstFrame + frames`, numbered in the whole run.
    let firstFrame: Int
    let frames: Int
    let totalFrames: Int
    let fps: Double
    let width: Int
    let height: Int
    let pngCompression: String
    /// Everything that makes two shards parts of one run; equal in every shard of a run.
    let run: String

    var range: Range<Int> { firstFrame..<(firstFrame + frames) }
    var fileName: String { Self.fileName(shard: shard, of: shards) }
    static func fileName(shard: Int, of shards: Int) -> String { "shard-\(shard)-of-\(shards).json" }

    /// `shard-3-of-8.json` -> (3, 8); nil for any other name.
    static func parseFileName(_ name: String) -> (shard: Int, shards: Int)? {
        guard name.hasPrefix("shard-"), name.hasSuffix(".json") else { return nil }
        let parts = name.dropFirst("shard-".count).dropLast(".json".count).components(separatedBy: "-of-")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), 1 <= i, i <= n else { return nil }
        return (i, n)
    }

    var json: Data {
        let object: [String: Any] = ["format": Self.format, "version": 1, "shard": shard, "shards": shards, "firstFrame": firstFrame,
                                     "frames": frames, "totalFrames": totalFrames, "fps": fps, "width": width, "height": height,
                                     "pngCompression": pngCompression, "run": run]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])) ?? Data()
    }

    /// Reads a manifest, naming the file and the field when it is not one.
    init(contentsOf url: URL) throws {
        let name = url.path
        guard let data = FileManager.default.contents(atPath: url.path) else { throw JoinError("\(name): cannot be read") }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw JoinError("\(name): not a JSON object (a shard manifest is written by quartz animate --shard or --shards)")
        }
        guard object["format"] as? String == Self.format else { throw JoinError("\(name): \"format\" is not \"\(Self.format)\"") }
        func int(_ key: String) throws -> Int {
            guard let value = object[key] as? NSNumber, let int = Int(exactly: value.doubleValue), int >= 0 else {
                throw JoinError("\(name): \"\(key)\" is not a whole number >= 0")
            }
            return int
        }
        func string(_ key: String) throws -> String {
            guard let value = object[key] as? String else { throw JoinError("\(name): \"\(key)\" is not a string") }
            return value
        }
        shard = try int("shard"); shards = try int("shards"); firstFrame = try int("firstFrame"); frames = try int("frames")
        totalFrames = try int("totalFrames"); width = try int("width"); height = try int("height")
        guard let fps = (object["fps"] as? NSNumber)?.doubleValue, fps.isFinite, fps > 0 else { throw JoinError("\(name): \"fps\" is not a number > 0") }
        self.fps = fps
        pngCompression = try string("pngCompression"); run = try string("run")
        guard 1 <= shard, shard <= shards, firstFrame <= totalFrames, frames <= totalFrames - firstFrame else {
            throw JoinError("\(name): shard \(shard) of \(shards) with frames \(firstFrame) ..< \(firstFrame + frames) of \(totalFrames) does not fit")
        }
    }

    init(shard: Int, shards: Int, firstFrame: Int, frames: Int, totalFrames: Int, fps: Double, width: Int, height: Int,
         pngCompression: String, run: String) {
        self.shard = shard; self.shards = shards; self.firstFrame = firstFrame; self.frames = frames; self.totalFrames = totalFrames
        self.fps = fps; self.width = width; self.height = height; self.pngCompression = pngCompression; self.run = run
    }

    /// The i-th (from 1) of n contiguous ranges of `count` frames: count x i / n without overflow
    /// for any i <= n (n may be Int.max), so the n ranges tile 0 ..< count exactly.
    static func range(shard i: Int, of n: Int, frames count: Int) -> Range<Int> {
        func share(_ i: Int) -> Int { n.dividingFullWidth(count.multipliedFullWidth(by: i)).quotient }
        return share(i - 1)..<share(i)
    }

    /// A fingerprint of a document's bytes: enough to tell two documents apart in a manifest.
    static func fingerprint(_ data: Data) -> String { String(format: "%016llx", ShardSlice.fnv1a(data)) }
}

/// A reason `quartz join` refuses its input, naming the file, shard or frames.
struct JoinError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
