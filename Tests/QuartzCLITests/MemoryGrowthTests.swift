// A long animation holds nothing per frame: `quartz animate` over 1,001 frames of a scene whose
// animations repeat every 50 frames (a rotating rounded clip casting an animated offscreen
// shadow, text, a translucent group, a stroked ring growing, a mask) reports its resident memory
// once the first tenth is done (every state met twice: caches, programs and the driver warmed;
// after one round llvmpipe still grew by about 1.5 KiB a frame, after two by nothing) and at the
// end. Keeping one frame's 58x39 image, or a texture or a pass a frame, would grow it
// by 9 KiB a frame or more (8 MiB over the run); the bound is 4 KiB a frame.
import Foundation
import Testing

@Suite("Memory over a long animation")
struct MemoryGrowthTests {
    static let scene = #"""
{"format": "openquartz-scene", "version": 1, "size": [96, 64], "duration": 1, "fps": 240,
 "root": {"frame": [0, 0, 96, 64], "backgroundColor": "white", "sublayers": [
  {"name": "card", "frame": [8, 8, 40, 30], "backgroundColor": "#3478f6", "cornerRadius": 8, "masksToBounds": true,
   "shadowOpacity": 0.5, "shadowRadius": 4, "shadowOffset": [0, 2],
   "sublayers": [{"frame": [-4, -4, 30, 20], "backgroundColor": "#ff9500"},
                 {"class": "CATextLayer", "frame": [2, 14, 36, 14], "string": "Hi", "fontSize": 10, "foregroundColor": "black"}],
   "animations": [{"keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 0.5, "duration": 0.05, "repeatCount": 1e9},
                  {"keyPath": "shadowRadius", "fromValue": 2, "toValue": 12, "duration": 0.05, "repeatCount": 1e9}]},
  {"name": "group", "frame": [52, 6, 38, 26], "opacity": 0.7,
   "sublayers": [{"frame": [0, 0, 24, 20], "backgroundColor": "red"}, {"frame": [12, 6, 24, 20], "backgroundColor": "blue"}],
   "animations": [{"keyPath": "position.y", "fromValue": 19, "toValue": 40, "duration": 0.05, "repeatCount": 1e9, "autoreverses": true}]},
  {"class": "CAShapeLayer", "name": "ring", "frame": [10, 40, 20, 20], "path": "M 10 0 A 10 10 0 1 1 9.99 0", "fillColor": "clear",
   "strokeColor": "green", "lineWidth": 3,
   "animations": [{"keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 0.05, "repeatCount": 1e9}]},
  {"name": "masked", "frame": [50, 36, 40, 24], "backgroundColor": "purple",
   "mask": {"frame": [0, 0, 40, 24], "backgroundColor": "black", "cornerRadius": 12},
   "animations": [{"keyPath": "opacity", "fromValue": 1, "toValue": 0.3, "duration": 0.05, "repeatCount": 1e9}]}
 ]}}
"""#

    /// The sanitizers keep freed memory in quarantine and shadow memory of their own: resident
    /// memory is theirs there, not the renderer's.
    static let sanitized = ProcessInfo.processInfo.environment.keys.contains { $0 == "ASAN_OPTIONS" || $0 == "TSAN_OPTIONS" }

    @Test("1,001 frames on each backend: resident memory after the first tenth and at the end within 4 KiB a frame",
          .enabled(if: !sanitized, "resident memory under a sanitizer is the sanitizer's"), arguments: ["cpu", "gpu"])
    func noGrowthPerFrame(backend: String) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("loop.json")
        try Data(Self.scene.utf8).write(to: scene)
        let run = try quartz(["animate", scene.path, "-o", folder.appendingPathComponent("frames").path, "--backend", backend,
                              "--fps", "1000", "--scale", "0.6", "--json"])
        try #require(run.status == 0, "\(run.error)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(report["frames"] as? Int == 1_001)
        let memory = try #require(report["memory"] as? [String: Int], "\(run.output)")
        let early = try #require(memory["residentAfterTenthBytes"]), late = try #require(memory["residentAtEndBytes"])
        let peak = try #require(memory["peakResidentBytes"])
        #expect(early > 0 && late > 0 && peak > 0)
        let perFrame = Double(late - early) / 900
        print("\(backend): resident \(early / 1024) KiB after 100 frames, \(late / 1024) KiB after 1,001, "
              + "\(String(format: "%.0f", perFrame)) bytes a frame; peak \(peak / 1024) KiB")
        #expect(perFrame < 4_096, "resident memory grew \(Int(perFrame)) bytes a frame over 900 frames")
    }
}
