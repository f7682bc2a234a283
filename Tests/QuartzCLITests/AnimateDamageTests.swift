// `quartz animate` draws each frame over the one before, only where the layers changed, with GPU
// frames in flight two at a time: its frames must be those `--full-redraw` writes, file for file.
import Foundation
import Testing

@Suite("quartz animate with damage tracking")
struct AnimateDamageTests {
    /// A page of still cards (a shadowed one among them), a card that glides until 0.6 s, one that
    /// fades from 0.3 s, and stretches where nothing moves (the first frames, the last ones); its
    /// root without a backdrop, so pixels left over from the frame before would show.
    private static let scene = #"""
    {"format": "openquartz-scene", "version": 1, "size": [120, 80], "duration": 1.2, "fps": 10,
     "root": {"frame": [0, 0, 120, 80], "sublayers": [
       {"frame": [4, 4, 30, 20], "backgroundColor": "#22aa66", "cornerRadius": 5},
       {"frame": [84, 6, 30, 24], "backgroundColor": "#ffffff", "cornerRadius": 4, "shadowOpacity": 0.6, "shadowRadius": 5},
       {"name": "glider", "frame": [10, 40, 24, 16], "backgroundColor": "#3366cc", "borderWidth": 2, "borderColor": "#112244",
        "animations": [{"keyPath": "position.x", "fromValue": 22, "toValue": 90, "beginTime": 0.2, "duration": 0.4,
                        "fillMode": "forwards", "removedOnCompletion": false}]},
       {"frame": [50, 8, 20, 20], "backgroundColor": "#cc3333",
        "animations": [{"keyPath": "opacity", "fromValue": 1, "toValue": 0.3, "beginTime": 0.3, "duration": 0.3,
                        "fillMode": "forwards", "removedOnCompletion": false}]}]}}
    """#

    @Test("frames drawn over the frame before are the frames drawn whole, on both backends", arguments: ["cpu", "gpu"])
    func sameFrames(backend: String) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("scene.json")
        try Data(Self.scene.utf8).write(to: url)
        func frames(_ name: String, _ extra: [String]) throws -> (files: [String: Data], drawn: Double, setup: Double) {
            let out = folder.appendingPathComponent(name)
            let run = try quartz(["animate", url.path, "-o", out.path, "--backend", backend, "--json"] + extra)
            try #require(run.status == 0, "\(run.error)")
            let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
            let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }
            let files = try Dictionary(uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: out.appendingPathComponent($0))) })
            let setup = try #require((report?["stages"] as? [String: Double])?["setup"])
            return (files, try #require(report?["drawnShare"] as? Double), setup)
        }
        let damaged = try frames("damaged", []), whole = try frames("whole", ["--full-redraw"])
        #expect(damaged.files.count == 13 && whole.files.count == 13)
        for (name, data) in whole.files.sorted(by: { $0.key < $1.key }) {
            #expect(damaged.files[name] == data, "\(name) differs from the frame drawn whole")
        }
        // Whole frames draw every pixel; tracked ones a part (the first frame whole, the still
        // stretches nothing).
        #expect(whole.drawn == 1)
        #expect(damaged.drawn < 0.5, "\(damaged.drawn)")
        // Opening the GL device is its own stage (the GPU's frames wait for some of it, the CPU's
        // for none).
        #expect(backend == "gpu" ? damaged.setup > 0 && whole.setup > 0 : damaged.setup == 0 && whole.setup == 0)
    }
}
