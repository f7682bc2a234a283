import FrameShards
import Foundation

/// `quartz join`'s manifest reader: any bytes are a manifest whose numbers fit what animate can
/// write (so nothing sized from them can overflow or grow), or an error naming the field; the
/// shard ranges made from an accepted one tile its frames without a trap.
func fuzzShardManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    do {
        let manifest = try ShardManifest(data: bytes, name: "fuzz")
        typealias Limits = ShardManifest.Limits
        precondition((1...manifest.shards).contains(manifest.shard) && manifest.shards <= Limits.maxFrames)
        precondition(manifest.totalFrames <= Limits.maxFrames && manifest.range.upperBound <= manifest.totalFrames)
        precondition(manifest.width * manifest.height <= Limits.maxPixels && manifest.fps > 0 && manifest.fps <= Limits.maxFPS)
        let expected = ShardManifest.range(shard: manifest.shard, of: manifest.shards, frames: manifest.totalFrames)
        precondition(expected.lowerBound >= 0 && expected.upperBound <= manifest.totalFrames)
        _ = JoinedShards.describe(manifest.range)
        // Written back and read again: the same manifest.
        let again = try ShardManifest(data: manifest.json, name: "again")
        precondition(again == manifest)
    } catch {
        let text = "\(error)"
        precondition(!text.isEmpty && !text.unicodeScalars.contains { $0.value < 0x20 }, "an unescaped control character: \(text.debugDescription)")
    }
    return 0
}
