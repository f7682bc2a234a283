import Foundation
import OpenCoreGraphics
import PixelDiff

/// What a finished shard of `quartz animate` leaves beside its frames: `shard-I-of-N.json` in the
/// frames' folder, written last (atomically, after every frame), so a shard killed mid-run has
/// none and `quartz join` can tell "not finished" from "finished with fewer frames". It also says
/// which run the frames belong to (`run`: the document's bytes and every option that changes a
/// frame), so frames of another scene or another size are refused rather than mixed in.
///
/// A manifest is outside data (a shared folder anyone in the farm can write): every field is
/// checked against `Limits` before it sizes anything, so a 400-byte file claiming 10^12 frames
/// costs nothing but its refusal, and no arithmetic on its numbers can overflow.
public struct ShardManifest: Equatable, Sendable {
    public static let format = "openquartz-shard"
    /// 1-based, as `--shard i/n` counts.
    public let shard: Int
    public let shards: Int
    /// This shard's frames: `firstFrame ..< firstFrame + frames`, numbered in the whole run.
    public let firstFrame: Int
    public let frames: Int
    public let totalFrames: Int
    public let fps: Double
    public let width: Int
    public let height: Int
    public let pngCompression: String
    /// Everything that makes two shards parts of one run; equal in every shard of a run.
    public let run: String

    /// What a manifest may claim: what `quartz animate` can write and no more.
    public enum Limits {
        /// Frames in a run (`CARenderer.maxFrames`), and so shards of it.
        public static let maxFrames = 1_000_000
        /// A frame's side and pixels (`SceneLimits.standard`: the command line's frame).
        public static let maxSide = 16_384
        public static let maxPixels = 1 << 26
        /// Frames per second (`quartz animate --fps`).
        public static let maxFPS = 1_000.0
        /// The manifest file's bytes and its `run` string's characters.
        public static let maxFileBytes = 64 << 10
        public static let maxRunCharacters = 4_096
        public static let compressions = ["fast", "small"]
    }

    public var range: Range<Int> { firstFrame..<(firstFrame + frames) }
    public var fileName: String { Self.fileName(shard: shard, of: shards) }
    public static func fileName(shard: Int, of shards: Int) -> String { "shard-\(shard)-of-\(shards).json" }

    /// `shard-3-of-8.json` -> (3, 8); nil for any other name.
    public static func parseFileName(_ name: String) -> (shard: Int, shards: Int)? {
        guard name.hasPrefix("shard-"), name.hasSuffix(".json") else { return nil }
        let parts = name.dropFirst("shard-".count).dropLast(".json".count).components(separatedBy: "-of-")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), 1 <= i, i <= n else { return nil }
        return (i, n)
    }

    public var json: Data {
        let object: [String: Any] = ["format": Self.format, "version": 1, "shard": shard, "shards": shards, "firstFrame": firstFrame,
                                     "frames": frames, "totalFrames": totalFrames, "fps": fps, "width": width, "height": height,
                                     "pngCompression": pngCompression, "run": run]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])) ?? Data()
    }

    /// Reads a manifest, naming the file and the field when it is not one.
    public init(contentsOf url: URL) throws {
        let name = JoinError.quoted(url.path)
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw JoinError("\(name): cannot be read") }
        defer { try? handle.close() }
        // At most one byte past the limit is read: a file of gigabytes is refused, not loaded.
        let data = (try? handle.read(upToCount: Limits.maxFileBytes + 1)) ?? Data()
        guard data.count <= Limits.maxFileBytes else {
            throw JoinError("\(name): over \(Limits.maxFileBytes / 1024) KiB, not a shard manifest (quartz animate writes under 1 KiB)")
        }
        try self.init(data: data, name: name)
    }

    /// Checks a manifest's bytes; `name` says where they came from in errors.
    public init(data: Data, name: String) throws {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw JoinError("\(name): not a JSON object (a shard manifest is written by quartz animate --shard or --shards)")
        }
        guard object["format"] as? String == Self.format else { throw JoinError("\(name): \"format\" is not \"\(Self.format)\"") }
        /// A whole number in `range`, from a JSON number that is exactly one (1e300, 2.5, -1 and
        /// "3" are refused, naming the field and the range).
        func int(_ key: String, _ range: ClosedRange<Int>) throws -> Int {
            guard let double = (object[key] as? NSNumber)?.doubleValue, double.isFinite, double >= Double(range.lowerBound),
                  double <= Double(range.upperBound), let int = Int(exactly: double) else {
                throw JoinError("\(name): \"\(key)\" is not a whole number from \(range.lowerBound) to \(range.upperBound) "
                    + "(got \(JoinError.quoted(object[key].map { "\($0)" } ?? "nothing", limit: 64)))")
            }
            return int
        }
        func string(_ key: String, _ maxCharacters: Int) throws -> String {
            guard let value = object[key] as? String else { throw JoinError("\(name): \"\(key)\" is not a string") }
            guard value.utf8.count <= maxCharacters else { throw JoinError("\(name): \"\(key)\" is longer than \(maxCharacters) bytes") }
            return value
        }
        shard = try int("shard", 1...Limits.maxFrames)
        shards = try int("shards", shard...Limits.maxFrames)
        totalFrames = try int("totalFrames", 0...Limits.maxFrames)
        firstFrame = try int("firstFrame", 0...totalFrames)
        frames = try int("frames", 0...(totalFrames - firstFrame))
        width = try int("width", 1...Limits.maxSide)
        height = try int("height", 1...Limits.maxSide)
        guard width * height <= Limits.maxPixels else {
            throw JoinError("\(name): frames of \(width)x\(height) exceed the limit of \(Limits.maxPixels) pixels")
        }
        guard let fpsValue = object["fps"] as? NSNumber, fpsValue.doubleValue.isFinite,
              fpsValue.doubleValue > 0, fpsValue.doubleValue <= Limits.maxFPS else {
            throw JoinError("\(name): \"fps\" is not a number in (0, \(Int(Limits.maxFPS))] "
                + "(got \(JoinError.quoted(object["fps"].map { "\($0)" } ?? "nothing", limit: 64)))")
        }
        fps = fpsValue.doubleValue
        pngCompression = try string("pngCompression", 16)
        guard Limits.compressions.contains(pngCompression) else {
            throw JoinError("\(name): \"pngCompression\" is not one of \(Limits.compressions.joined(separator: ", "))")
        }
        run = try string("run", Limits.maxRunCharacters)
    }

    public init(shard: Int, shards: Int, firstFrame: Int, frames: Int, totalFrames: Int, fps: Double, width: Int, height: Int,
                pngCompression: String, run: String) {
        self.shard = shard; self.shards = shards; self.firstFrame = firstFrame; self.frames = frames; self.totalFrames = totalFrames
        self.fps = fps; self.width = width; self.height = height; self.pngCompression = pngCompression; self.run = run
    }

    /// The i-th (from 1) of n contiguous ranges of `count` frames: count x i / n without overflow
    /// for any i <= n (n may be Int.max), so the n ranges tile 0 ..< count exactly.
    public static func range(shard i: Int, of n: Int, frames count: Int) -> Range<Int> {
        func share(_ i: Int) -> Int { n.dividingFullWidth(count.multipliedFullWidth(by: i)).quotient }
        return share(i - 1)..<share(i)
    }

    /// A fingerprint of a document's bytes: enough to tell two documents apart in a manifest.
    public static func fingerprint(_ data: Data) -> String { String(format: "%016llx", ShardSlice.fnv1a(data)) }
}

/// A reason `quartz join` refuses its input, naming the file, shard or frames.
public struct JoinError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// Text from outside (a file name, a field's value) as it may be shown (`ShownText`).
    /// Paths are shown whole (up to 1,024 characters); values cut at 64.
    public static func quoted(_ text: String, limit: Int = 1_024) -> String { ShownText.escaped(text, limit: limit) }
}
